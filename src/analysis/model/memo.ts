/**
 * Derived data that several rules share (route parents, retry settings, trust material, …). Computed on first use,
 * once per index, and dropped with the index: rules stay independent of each other and of their order.
 */
import { MeshIndex } from './mesh-index';

/** `build(index)`, computed once per index. */
export function perIndex<T>(build: (index: MeshIndex) => T): (index: MeshIndex) => T {
  const cache = new WeakMap<MeshIndex, { readonly value: T }>();
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
export function perKeyOfIndex<K, T>(build: (key: K, index: MeshIndex) => T): (key: K, index: MeshIndex) => T {
  const maps = perIndex(() => new Map<K, T>());
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
