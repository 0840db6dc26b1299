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

/**
 * `build(key, index)`, computed once per key (an object, pod template, …) of an index. The keys are objects of one index
 * (routes, pod templates), so the answer is kept by the key itself, with the index it was built for: one lookup per call,
 * where a table per index would take two. A key asked about under another index (rare) uses that index's own table.
 */
export function perKeyOfIndex<K extends object, T, I extends object = object>(build: (key: K, index: I) => T): (key: K, index: I) => T {
  const byKey = new WeakMap<K, { readonly index: I; readonly value: T }>();
  const others = perIndex((_index: I) => new Map<K, T>());
  return (key, index) => {
    const cached = byKey.get(key);
    if (cached === undefined) {
      const value = build(key, index);
      byKey.set(key, { index, value });
      return value;
    }
    if (cached.index === index) return cached.value;
    const table = others(index);
    let value = table.get(key);
    if (value === undefined && !table.has(key)) {
      value = build(key, index);
      table.set(key, value);
    }
    return value as T;
  };
}
