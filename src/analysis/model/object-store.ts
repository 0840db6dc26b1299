/**
 * The first stage of the index: every object of an analysis run, by kind and by name, with the inventory and the
 * app's claims on objects it does not write. It knows nothing about Linkerd; what Linkerd derives from the objects
 * (installs and webhooks, then pod templates and injection) is built on it in that order (see mesh-index.ts).
 */
import { ExistingObjectClaim, KubeObject, Manifest, ResourceId, SourceLocation, groupOf, resourceIdOf } from './manifest';
import { NamespacedLists } from './namespaced-lists';

/** An object as the index holds it. */
export interface IndexedObject {
  readonly object: KubeObject;
  readonly id: ResourceId;
  readonly group: string;
  readonly source: SourceLocation;
  /** True for objects that exist in the cluster but are not part of this output (never reported on). */
  readonly inventory: boolean;
}

export class ObjectStore {
  /** Every object, in input order (inventory objects last). */
  public readonly objects: IndexedObject[] = [];
  /** group → kind → namespace and name → definitions in input order (own objects before the inventory). */
  private readonly byName = new Map<string, Map<string, NamespacedLists<IndexedObject>>>();
  private readonly byKind = new Map<string, IndexedObject[]>();
  private readonly ownByKind = new Map<string, IndexedObject[]>();
  /** `group|kind|namespace` of every inventory object: the kinds the inventory lists in full for a namespace. */
  private readonly inventoryNamespaces = new Set<string>();
  /** `group|kind|namespace|name` → what the app says exists in the cluster without writing it (the first claim). */
  private readonly claims = new Map<string, ExistingObjectClaim>();

  /**
   * @param inventory objects that exist in the cluster but are not part of this output
   * @param defaultNamespace where objects without metadata.namespace are (kubectl's `default`, or `--namespace`)
   */
  constructor(manifests: Manifest[], inventory: KubeObject[] = [], protected readonly defaultNamespace = 'default') {
    for (const m of manifests) this.add(m.object, m.source ?? {}, false);
    for (const obj of inventory) this.add(obj, {}, true);
  }

  /** Objects of one kind in one API group, in input order. */
  public list(group: string, kind: string): IndexedObject[] {
    return this.byKind.get(`${group}|${kind}`) ?? [];
  }

  /** Objects of one kind that belong to this output (not the inventory). Shared: callers must not modify the list. */
  public own(group: string, kind: string): IndexedObject[] {
    // Rules ask for the same kinds over and over; filtering tens of thousands of entries each time adds up.
    const kindKey = `${group}|${kind}`;
    let own = this.ownByKind.get(kindKey);
    if (!own) {
      own = this.list(group, kind).filter((o) => !o.inventory);
      this.ownByKind.set(kindKey, own);
    }
    return own;
  }

  public get(group: string, kind: string, namespace: string | undefined, name: string): IndexedObject | undefined {
    // The first definition wins; an own object shadows an inventory object of the same name.
    return this.byName.get(group)?.get(kind)?.get(namespace ?? '', name)?.[0];
  }

  /**
   * Whether this analysis sees a namespace's objects of one kind in full, so that a missing reference proves a mistake:
   * the Namespace itself is in the output or the inventory (whoever writes a namespace writes what runs in it), or the
   * inventory, a record of what the cluster holds, has objects of that kind there. Objects of the kind in the output
   * alone do not say so: a repository often adds a route, a Server or one more Service beside an app that a Helm chart
   * or another repository installs. Otherwise the object may well exist in the cluster, and a finding can only say so.
   */
  public sees(group: string, kind: string, namespace: string): boolean {
    return this.namespace(namespace) !== undefined || this.inventoryNamespaces.has(`${group}|${kind}|${namespace}`);
  }

  /**
   * The claim that an object this analysis does not have exists in the cluster anyway (a `fromName` reference of the
   * app), if the app makes one.
   */
  public claimOf(group: string, kind: string, namespace: string, name: string): ExistingObjectClaim | undefined {
    return this.claims.size === 0 ? undefined : this.claims.get(`${group}|${kind}|${namespace}|${name}`);
  }

  public namespace(name: string): IndexedObject | undefined {
    return this.get('', 'Namespace', undefined, name);
  }

  public service(namespace: string, name: string): IndexedObject | undefined {
    return this.get('', 'Service', namespace, name);
  }

  public serviceAccount(namespace: string, name: string): IndexedObject | undefined {
    return this.get('', 'ServiceAccount', namespace, name);
  }

  private add(object: KubeObject, source: SourceLocation, inventory: boolean): void {
    if (!object || typeof object !== 'object' || typeof object.kind !== 'string') return;
    const id = resourceIdOf(object, this.defaultNamespace);
    const entry: IndexedObject = { object, id, group: groupOf(id.apiVersion), source, inventory };
    this.objects.push(entry);
    const kindKey = `${entry.group}|${id.kind}`;
    const sameKind = this.byKind.get(kindKey);
    if (sameKind) sameKind.push(entry); else this.byKind.set(kindKey, [entry]);
    this.namesOf(entry.group, id.kind).add(id.namespace ?? '', id.name, entry);
    if (inventory) this.inventoryNamespaces.add(`${entry.group}|${id.kind}|${id.namespace ?? ''}`);
    else if (source.claims) this.addClaims(source.claims, id.namespace ?? '');
  }

  private addClaims(claims: readonly ExistingObjectClaim[], namespaceOfCarrier: string): void {
    for (const claim of claims) {
      const namespace = claim.namespace ?? namespaceOfCarrier;
      const key = `${claim.group}|${claim.kind}|${namespace}|${claim.name}`;
      if (!this.claims.has(key)) this.claims.set(key, { ...claim, namespace });
    }
  }

  private namesOf(group: string, kind: string): NamespacedLists<IndexedObject> {
    let kinds = this.byName.get(group);
    if (!kinds) this.byName.set(group, kinds = new Map());
    let names = kinds.get(kind);
    if (!names) kinds.set(kind, names = new NamespacedLists());
    return names;
  }
}
