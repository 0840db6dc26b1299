/**
 * The first stage of the index: every object of an analysis run, by kind and by name, with the inventory and the
 * app's claims on objects it does not write. It knows nothing about Linkerd; what Linkerd derives from the objects
 * (installs and webhooks, then pod templates and injection) is built on it in that order (see mesh-index.ts).
 */
import { ExistingObjectClaim, KubeObject, Manifest, ResourceId, SourceLocation, groupOf, resourceIdIn } from './manifest';
import { metadataDecodes } from './metadata-types';
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

/** The objects of one kind (in one API group). */
interface KindTable {
  /** In input order (own objects before the inventory). */
  readonly all: IndexedObject[];
  /** Namespace and name → definitions in input order. */
  readonly names: NamespacedLists<IndexedObject>;
  /** The output's own objects, filtered on first use. */
  own?: IndexedObject[];
}

/** What `list` and `own` return for a kind the analysis has none of; frozen, as every caller only reads. */
const NO_OBJECTS: IndexedObject[] = Object.freeze([]) as unknown as IndexedObject[];

export class ObjectStore {
  /** Every object, in input order (inventory objects last). */
  public readonly objects: IndexedObject[] = [];
  /**
   * The output's objects whose metadata kubectl, Helm and the API server cannot decode (metadata-types.ts): tested as
   * each object is added, which is far cheaper than another pass over every object (LKD-SCHEMA-002 reads this).
   */
  public readonly undecodableMetadata: IndexedObject[] = [];
  /**
   * group → kind → that kind's objects. Nested rather than keyed by a joined `group|kind` text: every object and every
   * rule's `list`/`own`/`get` looks a kind up, and joining builds (and hashes) a new string each time.
   */
  private readonly byKind = new Map<string, Map<string, KindTable>>();
  /** apiVersion → API group: one shared group string per spelling instead of a slice per object. */
  private readonly groups = new Map<string, string>();
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

  /** Objects of one kind in one API group, in input order. Shared: callers must not modify the list. */
  public list(group: string, kind: string): IndexedObject[] {
    return this.byKind.get(group)?.get(kind)?.all ?? NO_OBJECTS;
  }

  /** Objects of one kind that belong to this output (not the inventory). Shared: callers must not modify the list. */
  public own(group: string, kind: string): IndexedObject[] {
    // Rules ask for the same kinds over and over; filtering tens of thousands of entries each time adds up.
    const table = this.byKind.get(group)?.get(kind);
    if (!table) return NO_OBJECTS;
    return table.own ??= table.all.filter((o) => !o.inventory);
  }

  public get(group: string, kind: string, namespace: string | undefined, name: string): IndexedObject | undefined {
    // The first definition wins; an own object shadows an inventory object of the same name.
    return this.byKind.get(group)?.get(kind)?.names.get(namespace ?? '', name)?.[0];
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
    const group = this.groupOf(String(object.apiVersion ?? ''));
    const id = resourceIdIn(object, group, this.defaultNamespace);
    const entry: IndexedObject = { object, id, group, source, inventory };
    this.objects.push(entry);
    if (!inventory && !metadataDecodes(object, group)) this.undecodableMetadata.push(entry);
    const table = this.tableOf(group, id.kind);
    table.all.push(entry);
    table.names.add(id.namespace ?? '', id.name, entry);
    if (inventory) this.inventoryNamespaces.add(`${group}|${id.kind}|${id.namespace ?? ''}`);
    else if (source.claims) this.addClaims(source.claims, id.namespace ?? '');
  }

  private groupOf(apiVersion: string): string {
    let group = this.groups.get(apiVersion);
    if (group === undefined) this.groups.set(apiVersion, group = groupOf(apiVersion));
    return group;
  }

  private addClaims(claims: readonly ExistingObjectClaim[], namespaceOfCarrier: string): void {
    for (const claim of claims) {
      const namespace = claim.namespace ?? namespaceOfCarrier;
      const key = `${claim.group}|${claim.kind}|${namespace}|${claim.name}`;
      if (!this.claims.has(key)) this.claims.set(key, { ...claim, namespace });
    }
  }

  private tableOf(group: string, kind: string): KindTable {
    let kinds = this.byKind.get(group);
    if (!kinds) this.byKind.set(group, kinds = new Map());
    let table = kinds.get(kind);
    if (!table) kinds.set(kind, table = { all: [], names: new NamespacedLists() });
    return table;
  }
}
