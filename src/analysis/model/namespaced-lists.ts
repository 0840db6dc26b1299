/**
 * Lists by namespace, then name. Lookups happen once per object in hot loops; a joined string key would be built
 * (and hashed) on every lookup, while the existing namespace and name strings keep their hashes cached.
 */
export class NamespacedLists<T> {
  private readonly byNamespace = new Map<string, Map<string, T[]>>();

  public add(namespace: string, name: string, value: T): void {
    this.listFor(namespace, name).push(value);
  }

  /** The list for a namespace and name, created empty when missing. */
  public listFor(namespace: string, name: string): T[] {
    let byName = this.byNamespace.get(namespace);
    if (!byName) this.byNamespace.set(namespace, byName = new Map());
    let list = byName.get(name);
    if (!list) byName.set(name, list = []);
    return list;
  }

  public get(namespace: string, name: string): T[] | undefined {
    return this.byNamespace.get(namespace)?.get(name);
  }
}
