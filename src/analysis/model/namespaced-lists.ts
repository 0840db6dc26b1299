import { pushTo } from '../../util/json';

/**
 * Lists by namespace, then name. Lookups happen once per object in hot loops; a joined string key would be built
 * (and hashed) on every lookup, while the existing namespace and name strings keep their hashes cached.
 */
export class NamespacedLists<T> {
  private readonly byNamespace = new Map<string, Map<string, T[]>>();

  public add(namespace: string, name: string, value: T): void {
    // pushTo starts a list as a one-element literal (pushing onto [] reserves room for 17; most names have one object).
    pushTo(this.namesIn(namespace), name, value);
  }

  /**
   * `add`, unless the value is already the last of its list: for a caller that adds one value's entries together, this
   * skips the value naming the same namespace and name twice.
   */
  public addOnce(namespace: string, name: string, value: T): void {
    const byName = this.namesIn(namespace);
    const list = byName.get(name);
    if (!list) byName.set(name, [value]);
    else if (list[list.length - 1] !== value) list.push(value);
  }

  /** The list for a namespace and name, created empty when missing. */
  public listFor(namespace: string, name: string): T[] {
    const byName = this.namesIn(namespace);
    let list = byName.get(name);
    if (!list) byName.set(name, list = []);
    return list;
  }

  public get(namespace: string, name: string): T[] | undefined {
    return this.byNamespace.get(namespace)?.get(name);
  }

  private namesIn(namespace: string): Map<string, T[]> {
    let byName = this.byNamespace.get(namespace);
    if (!byName) this.byNamespace.set(namespace, byName = new Map());
    return byName;
  }
}
