/**
 * Derived data that several rules share (route parents, retry settings, trust material, …). Computed on first use,
 * once per index, and dropped with the index: rules stay independent of each other and of their order.
 */
/**
 * `build(index)`, computed once per index. Generic in the index so that this module imports none: the stages of the
 * index (the object store, then the MeshIndex built on it) memoise through it alike.
 */
export function perIndex<I extends object, T>(build: (index: I) => T): (index: I) => T {
  const cache = new WeakMap<I, { readonly value: T }>();
  return (index) => {
    let cached = cache.get(index);
    if (!cached) {
      cached = { value: build(index) };
      cache.set(index, cached);
    }
    return cached.value;
  };
}

/** `build(key, index)`, computed once per key (an object, pod template, …) of an index. */
export function perKeyOfIndex<K, T, I extends object = object>(build: (key: K, index: I) => T): (key: K, index: I) => T {
  const maps = perIndex((_index: I) => new Map<K, T>());
  return (key, index) => {
    const byKey = maps(index);
    let value = byKey.get(key);
    if (value === undefined && !byKey.has(key)) {
      value = build(key, index);
      byKey.set(key, value);
    }
    return value as T;
  };
}
