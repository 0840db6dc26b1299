/** Field readers shared by every model module: an object's spec and namespace, tolerant of malformed input. */
import { IndexedObject } from './mesh-index';

export function specOf(entry: IndexedObject): Record<string, any> {
  const spec = entry.object.spec;
  return spec !== null && typeof spec === 'object' && !Array.isArray(spec) ? spec : {};
}

export function namespaceOf(entry: IndexedObject): string {
  return entry.id.namespace ?? '';
}
