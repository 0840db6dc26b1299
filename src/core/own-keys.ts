/**
 * Objects keyed by text from the input. A key such as `__proto__`, `constructor` or `toString` read from a manifest,
 * a Helm parameter or an annotation must never reach `Object.prototype`: written into a plain object, `__proto__`
 * replaces the object's prototype (or, one level deeper, pollutes every object of the process), and read from one, it
 * returns a built-in function instead of nothing. Everything here uses objects without a prototype and own-property
 * reads, so such a key is an ordinary key.
 */
import { isRecord } from '../util/json';

/** A dictionary without a prototype: `__proto__` and `constructor` are ordinary keys in it. */
export function nullRecord<T = any>(entries?: Record<string, T> | Iterable<readonly [string, T]>): Record<string, T> {
  const out: Record<string, T> = Object.create(null);
  if (entries === undefined) return out;
  const pairs = Symbol.iterator in Object(entries) ? (entries as Iterable<readonly [string, T]>) : Object.entries(entries);
  for (const [key, value] of pairs) out[key] = value;
  return out;
}

/** A fixed lookup table whose lookups with input text find only its own keys (never `constructor` or `toString`). */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(nullRecord(entries));
}

/** Whether `key` is the object's own property (not one inherited from Object.prototype). */
export function hasOwn(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key);
}

/** The object's own property `key`, or undefined: never an inherited one. */
export function ownValue(value: unknown, key: string): any {
  return hasOwn(value, key) ? (value as any)[key] : undefined;
}

/**
 * Sets `value` at the path `parts` (Helm's `a.b.c=v`) under `root`, creating prototype-free objects on the way and
 * replacing anything that is not an object. Each key is written as an own property, whatever its name.
 */
export function setOwnPath(root: Record<string, any>, parts: readonly string[], value: unknown): void {
  let node = root;
  for (const part of parts.slice(0, -1)) {
    const next = ownValue(node, part);
    const child = isRecord(next) ? next : nullRecord();
    defineOwn(node, part, child);
    node = child;
  }
  defineOwn(node, parts[parts.length - 1], value);
}

/** Writes an own, enumerable property, even `__proto__` on an object that has a prototype. */
export function defineOwn(target: Record<string, any>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
