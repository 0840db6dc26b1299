/**
 * Which authorizations apply to a Server, a route or a namespace: linkerd2
 * policy-controller/k8s/index/src/inbound/authorization_policy.rs (an AuthorizationPolicy's targetRef) and
 * inbound/server_authorization.rs (the legacy ServerAuthorization's server name or selector).
 */
import { GATEWAY_GROUP, POLICY_GROUP } from '../../../core/vocabulary';
import { labelsOf } from '../manifest';
import { perIndex } from '../memo';
import { IndexedObject, MeshIndex } from '../mesh-index';
import { NamespacedLists } from '../namespaced-lists';
import { namespaceOf, specOf } from '../objects';
import { asRef, groupIs, isCoreRef, isPolicyRef, kindIs } from '../refs';
import { selectorMatches } from '../selectors';

/** The tables this module builds for an index, each on first use. */
interface Memo {
  authz?: AuthorizationTargets;
  legacy?: Map<string, IndexedObject[]>;
}

const memo = perIndex((_index: MeshIndex): Memo => ({}));

export type AuthorizationTargetKind = 'Server' | 'HTTPRoute' | 'GRPCRoute' | 'Namespace';

export interface AuthorizationTarget {
  readonly kind: AuthorizationTargetKind;
  /** API group of the target, normalised ('' for core). */
  readonly group: string;
  readonly name: string;
}

/** The supported target of an AuthorizationPolicy, or undefined for a kind/group the webhook rejects. */
export function authorizationTarget(policy: IndexedObject): AuthorizationTarget | undefined {
  const ref = asRef(specOf(policy).targetRef);
  if (!ref || typeof ref.name !== 'string') return undefined;
  if (isPolicyRef(ref, 'Server')) return { kind: 'Server', group: POLICY_GROUP, name: ref.name };
  if (isPolicyRef(ref, 'HTTPRoute')) return { kind: 'HTTPRoute', group: POLICY_GROUP, name: ref.name };
  if (kindIs(ref, 'HTTPRoute') && groupIs(ref, GATEWAY_GROUP)) return { kind: 'HTTPRoute', group: GATEWAY_GROUP, name: ref.name };
  if (kindIs(ref, 'GRPCRoute') && groupIs(ref, GATEWAY_GROUP)) return { kind: 'GRPCRoute', group: GATEWAY_GROUP, name: ref.name };
  if (isCoreRef(ref, 'Namespace')) return { kind: 'Namespace', group: '', name: ref.name };
  return undefined;
}

/** The object a supported target names, looked up in the policy's namespace. */
export function targetObject(index: MeshIndex, policy: IndexedObject, target: AuthorizationTarget): IndexedObject | undefined {
  if (target.kind === 'Namespace') return index.namespace(target.name);
  return index.get(target.group, target.kind, policy.id.namespace, target.name);
}

export interface AuthorizationTargets {
  forServer(server: IndexedObject): IndexedObject[];
  forRoute(route: IndexedObject): IndexedObject[];
  forNamespace(namespace: string): IndexedObject[];
}

function buildAuthorizationTargets(index: MeshIndex): AuthorizationTargets {
  // Per target group and kind (a handful), then namespace and name: lookups run once per Server and route.
  const byKind = new Map<string, Map<string, NamespacedLists<IndexedObject>>>();
  const byNamespace = new Map<string, IndexedObject[]>();
  const tableFor = (group: string, kind: string): NamespacedLists<IndexedObject> => {
    let kinds = byKind.get(group);
    if (!kinds) byKind.set(group, kinds = new Map());
    let table = kinds.get(kind);
    if (!table) kinds.set(kind, table = new NamespacedLists());
    return table;
  };
  for (const policy of index.list(POLICY_GROUP, 'AuthorizationPolicy')) {
    const target = authorizationTarget(policy);
    if (!target) continue;
    const ns = namespaceOf(policy);
    // A Namespace target only counts for the policy's own namespace (the webhook rejects any other).
    if (target.kind === 'Namespace') {
      if (target.name !== ns) continue;
      const list = byNamespace.get(ns);
      if (list) list.push(policy); else byNamespace.set(ns, [policy]);
    } else {
      tableFor(target.group, target.kind).add(ns, target.name, policy);
    }
  }
  const lookup = (group: string, kind: string, entry: IndexedObject) => byKind.get(group)?.get(kind)?.get(namespaceOf(entry), entry.id.name) ?? [];
  return {
    forServer: (server) => lookup(POLICY_GROUP, 'Server', server),
    forRoute: (route) => lookup(route.group, route.id.kind, route),
    forNamespace: (namespace) => byNamespace.get(namespace) ?? [],
  };
}

export function authorizationTargets(index: MeshIndex): AuthorizationTargets {
  const m = memo(index);
  return m.authz ??= buildAuthorizationTargets(index);
}

function legacyByNamespace(index: MeshIndex): Map<string, IndexedObject[]> {
  const m = memo(index);
  if (!m.legacy) {
    m.legacy = new Map();
    for (const authz of index.list(POLICY_GROUP, 'ServerAuthorization')) {
      const ns = namespaceOf(authz);
      const list = m.legacy.get(ns);
      if (list) list.push(authz); else m.legacy.set(ns, [authz]);
    }
  }
  return m.legacy;
}

/** Legacy ServerAuthorizations that name a Server directly or select it by label. */
export function serverAuthorizationsFor(index: MeshIndex, server: IndexedObject): IndexedObject[] {
  const candidates = legacyByNamespace(index).get(namespaceOf(server));
  // The legacy kind is rare: most Servers have none in their namespace.
  if (!candidates) return [];
  const labels = labelsOf(server.object);
  return candidates.filter((authz) => {
    const ref = specOf(authz).server;
    if (!ref || typeof ref !== 'object') return false;
    if (ref.name !== undefined) return ref.name === server.id.name;
    // A full label selector, matchExpressions included (server_authorization.rs ServerSelector::selects); the CRD
    // requires name or selector, so the default (every Server) is never reached from valid input.
    const selector = ref.selector;
    return !!selector && typeof selector === 'object' && selectorMatches(selector, labels);
  });
}
