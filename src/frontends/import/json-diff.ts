/** Equality modulo key order, and the JSON patch that turns what cdk8s renders into what the input says. */
import { isRecord as isPlainObject } from '../../util/json';

export interface PatchOp {
  readonly op: 'add' | 'replace' | 'remove';
  readonly path: string;
  readonly value?: unknown;
}


export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
}

/** RFC 6901: `~` and `/` in a key are escaped. */
const pointer = (base: string, key: string) => `${base}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The smallest object-level patch from `actual` to `expected` (arrays that differ are replaced whole). */
export function diffPatch(actual: unknown, expected: unknown, at: string = ''): PatchOp[] {
  if (deepEqual(actual, expected)) return [];
  if (!isPlainObject(actual) || !isPlainObject(expected)) return [{ op: 'replace', path: at, value: expected }];
  const ops: PatchOp[] = [];
  for (const key of Object.keys(actual)) {
    if (!Object.prototype.hasOwnProperty.call(expected, key)) ops.push({ op: 'remove', path: pointer(at, key) });
  }
  for (const [key, value] of Object.entries(expected)) {
    if (!Object.prototype.hasOwnProperty.call(actual, key)) ops.push({ op: 'add', path: pointer(at, key), value });
    else ops.push(...diffPatch(actual[key], value, pointer(at, key)));
  }
  return ops;
}
