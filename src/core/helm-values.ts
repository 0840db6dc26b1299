/**
 * Value layering with Helm's own semantics, so what users read about `helm install -f a.yaml -f b.yaml` holds here:
 * maps merge key by key, lists and scalars are replaced whole, and `null` removes a key.
 */

import { defineOwn, ownValue } from './own-keys';
import { compareStrings } from '../util/compare';
import { isRecord as isPlainObject } from '../util/json';

/** A deep copy of JSON-like data. */
export function cloneValues<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

/** Merges `override` into a copy of `base`; neither input is changed. */
export function deepMerge(base: Record<string, any>, override: Record<string, any> | undefined): Record<string, any> {
  const out = cloneValues(base) ?? {};
  if (!override) return out;
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    // Keys are the input's (a values file may say `__proto__`): written and read as own properties only.
    const current = ownValue(out, key);
    if (value === null) delete out[key];
    else defineOwn(out, key, isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : cloneValues(value));
  }
  return out;
}

/** Merges several layers in order: later layers win. */
export function mergeLayers(...layers: Array<Record<string, any> | undefined>): Record<string, any> {
  return layers.reduce<Record<string, any>>((acc, layer) => deepMerge(acc, layer), {});
}

/** A copy with every object's keys in sorted order, so values serialize identically on every synth. */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v)) as unknown as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, any> = {};
  for (const key of Object.keys(value).sort(compareStrings)) defineOwn(out, key, sortKeys(value[key]));
  return out as T;
}

/** The value at a dotted path (`proxy.image.version`), or undefined. */
export function valueAt(values: unknown, path: string): any {
  let current: any = values;
  for (const part of path.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = ownValue(current, part);
  }
  return current;
}

/** Every leaf of a values tree as [dotted path, value]; lists count as leaves. */
export function leaves(values: Record<string, any>, prefix = ''): Array<[string, any]> {
  const out: Array<[string, any]> = [];
  for (const [key, value] of Object.entries(values)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) out.push(...leaves(value, path));
    else out.push([path, value]);
  }
  return out;
}

/**
 * Whether a chart's `{{ if .Values.x }}` takes the branch: Go templates treat false, 0, "", nil and empty maps and lists
 * as false, everything else (the string "false" included) as true.
 */
export function templateTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return !isPlainObject(value) || Object.keys(value).length > 0;
}
