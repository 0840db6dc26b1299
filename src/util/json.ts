/**
 * Guards and readers for parsed JSON and YAML (manifests, values), with no Linkerd knowledge. Every reader tolerates
 * malformed input (wrong types, nulls): rules must never throw on what a user or a YAML file hands them.
 */


/**
 * The list accessors below return the manifest's own list, or one shared empty list when the field is missing or
 * not a list (the common case for filters and matches, asked for every rule and backend). Read-only either way.
 */
export const NO_ITEMS: readonly any[] = Object.freeze([]);

export function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function listOf(value: unknown): readonly any[] {
  return Array.isArray(value) ? value : NO_ITEMS;
}

export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value); else map.set(key, [value]);
}

/** `Object.prototype.hasOwnProperty`; with for-in it lists what `Object.keys` would, without allocating that array. */
export function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** Whether `Object.keys(value)` is non-empty, without building it. */
export function hasOwnKeys(value: object): boolean {
  for (const key in value) {
    if (hasOwn(value, key)) return true;
  }
  return false;
}
