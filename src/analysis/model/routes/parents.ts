/**
 * A route's parentRefs as Linkerd's indexes attach them (linkerd2 policy-controller/k8s/index/src/routes.rs
 * `ParentRef`, outbound/index.rs apply_http_route for Service and EgressNetwork parents, inbound/routes.rs for Server
 * parents), each resolved once per index.
 */
import { everyRouteWithInventory } from './lists';
import { GATEWAY_GROUP } from '../../../core/vocabulary';
import { pushTo } from '../../../util/json';
import { egressNetworksIn } from '../egress';
import { perIndex, perKeyOfIndex } from '../memo';
import { IndexedObject, MeshIndex } from '../mesh-index';
import { isEgressNetworkParentOf, isServerParentOf, isServiceParentOf, ObjectRef, parentTargets } from '../refs';

/**
 * A parentRef that names a Server, read after CRD defaulting: on Linkerd's own HTTPRoute an omitted group defaults to
 * policy.linkerd.io, so it counts there.
 */
export function isServerParent(ref: ObjectRef | undefined, route: IndexedObject): boolean {
  return ref !== undefined && isServerParentOf(route.group, ref);
}

export interface ParentRef {
  readonly group?: string;
  readonly kind?: string;
  readonly name: string;
  readonly namespace?: string;
  readonly port?: number;
  readonly sectionName?: string;
}

const NO_REFS: readonly ParentRef[] = Object.freeze([]);

/** The object-shaped entries of `spec.parentRefs`; the list itself (no copy) when every entry is one, as is usual. */
export function parentRefs(route: IndexedObject): readonly ParentRef[] {
  const refs = route.object.spec?.parentRefs;
  if (!Array.isArray(refs)) return NO_REFS;
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i];
    if (!ref || typeof ref !== 'object') return refs.filter((r) => r && typeof r === 'object');
  }
  return refs;
}

/**
 * A parentRef Linkerd attaches to a Service: kind Service (any case) in the core group, read after the API server's
 * defaulting, so an omitted group is the route CRD's default and never core (see model/refs.ts).
 */
export function isServiceParent(ref: ParentRef, route: IndexedObject): boolean {
  return isServiceParentOf(route.group, ref);
}

/**
 * Whether every parent is a Server: such a route reaches only the inbound index, which keeps its matches and filters and
 * drops its backends (k8s/index/src/inbound/index/http.rs), so the local pod serves what it matches whatever the
 * backendRefs say.
 */
export function onlyServerParents(route: IndexedObject): boolean {
  const refs = parentRefs(route);
  return refs.length > 0 && refs.every((ref) => isServerParent(ref, route));
}

export function isEgressNetworkParent(ref: ParentRef, route: IndexedObject): boolean {
  return isEgressNetworkParentOf(route.group, ref);
}

/** A Gateway parent as the API server stores it: kind and group default to Gateway and the Gateway group. */
export function isGatewayParent(ref: ParentRef, route: IndexedObject): boolean {
  return parentTargets(route.group, ref, GATEWAY_GROUP, 'Gateway');
}

/** Where a parentRef points: its own namespace field, or the route's namespace. */
export function parentNamespace(ref: ParentRef, route: IndexedObject): string {
  return typeof ref.namespace === 'string' ? ref.namespace : (route.id.namespace ?? '');
}

export function refName(ref: ParentRef): string | undefined {
  return typeof ref.name === 'string' && ref.name.length > 0 ? ref.name : undefined;
}

/** One Service parentRef of a route, with the Service it resolves to (if the output or inventory has it). */
export interface ServiceParent {
  readonly ref: ParentRef;
  /** Position in `spec.parentRefs`, for messages. */
  readonly position: number;
  readonly namespace: string;
  readonly name: string;
  /** `namespace/name`, built once here because several rules group parents by it. */
  readonly key: string;
  readonly service?: IndexedObject;
}

/** Many route rules ask for the same route's Service parents; an index's routes resolve once (per index). */
export const serviceParents: (route: IndexedObject, index: MeshIndex) => ServiceParent[] = perKeyOfIndex(resolveServiceParents);

/** A named parentRef of one kind, with its position and the namespace it points into. */
interface NamedParentRef {
  readonly ref: ParentRef;
  readonly position: number;
  readonly namespace: string;
  readonly name: string;
}

/** The parentRefs `targets` accepts that have a name, in `spec.parentRefs` order. */
function namedParentRefs(route: IndexedObject, targets: (ref: ParentRef, route: IndexedObject) => boolean): NamedParentRef[] {
  const result: NamedParentRef[] = [];
  const refs = parentRefs(route);
  for (let position = 0; position < refs.length; position++) {
    const ref = refs[position];
    const name = refName(ref);
    if (name && targets(ref, route)) result.push({ ref, position, namespace: parentNamespace(ref, route), name });
  }
  return result;
}

/** Built in one pass, without the intermediate list and spread copy: every route resolves once, cold. */
function resolveServiceParents(route: IndexedObject, index: MeshIndex): ServiceParent[] {
  const result: ServiceParent[] = [];
  const refs = parentRefs(route);
  for (let position = 0; position < refs.length; position++) {
    const ref = refs[position];
    const name = refName(ref);
    if (!name || !isServiceParent(ref, route)) continue;
    const namespace = parentNamespace(ref, route);
    result.push({ ref, position, namespace, name, key: `${namespace}/${name}`, service: index.service(namespace, name) });
  }
  return result;
}

/** One EgressNetwork parentRef of a route, with the EgressNetwork it names (if the output or inventory has it). */
export interface EgressNetworkParent {
  readonly ref: ParentRef;
  /** Position in `spec.parentRefs`, for messages and for ordering against the Service parents. */
  readonly position: number;
  readonly namespace: string;
  readonly name: string;
  readonly network?: IndexedObject;
}

/** Resolved once per route and index, like the Service parents. */
export const egressNetworkParents: (route: IndexedObject, index: MeshIndex) => EgressNetworkParent[] = perKeyOfIndex(resolveEgressNetworkParents);

function resolveEgressNetworkParents(route: IndexedObject, index: MeshIndex): EgressNetworkParent[] {
  return namedParentRefs(route, isEgressNetworkParent)
    .map((p) => ({ ...p, network: egressNetworksIn(index, p.namespace).find((n) => n.id.name === p.name) }));
}

/** Routes of every kind (the inventory's included) with a parentRef naming each EgressNetwork, keyed `namespace/name`. */
const routesByEgressNetwork = perIndex((index: MeshIndex) => {
  const map = new Map<string, IndexedObject[]>();
  for (const route of everyRouteWithInventory(index)) {
    const refs = parentRefs(route);
    if (!refs.some((ref) => isEgressNetworkParent(ref, route))) continue;
    for (const parent of new Set(egressNetworkParents(route, index).map((p) => `${p.namespace}/${p.name}`))) pushTo(map, parent, route);
  }
  return map;
});

/**
 * Routes Linkerd's outbound index takes (a Service or EgressNetwork parent): the ones whose backends, annotations and
 * timeouts the client proxy uses. A route whose parents are only Gateways belongs to a gateway implementation, and a
 * Server's routes reach the inbound index without their backends (k8s/index/src/outbound/index.rs applies routes by
 * parent; k8s/index/src/inbound/index/http.rs keeps no backends).
 */
export function isOutboundRoute(route: IndexedObject, index: MeshIndex): boolean {
  return serviceParents(route, index).length > 0 || parentRefs(route).some((ref) => isEgressNetworkParent(ref, route));
}

/** Routes one of Linkerd's indexes reads: outbound ones, and a Server's (inbound policy routes). */
export function hasLinkerdParent(route: IndexedObject, index: MeshIndex): boolean {
  return isOutboundRoute(route, index) || parentRefs(route).some((ref) => isServerParent(ref, route));
}

/** The routes attached to an EgressNetwork (which, unlike a Service's, never replace its default route). */
export function routesAttachedToEgressNetwork(index: MeshIndex, network: IndexedObject): readonly IndexedObject[] {
  return routesByEgressNetwork(index).get(`${network.id.namespace ?? ''}/${network.id.name}`) ?? [];
}

/** The namespaces of a route's Service and EgressNetwork parents, in parentRefs order. */
export const outboundParentNamespaces: (route: IndexedObject, index: MeshIndex) => readonly string[] = perKeyOfIndex(
  (route: IndexedObject, index: MeshIndex) => {
    const services = serviceParents(route, index);
    const networks = egressNetworkParents(route, index);
    // The usual route: one Service parent (or none), no EgressNetwork: no merged, sorted copy to build.
    if (networks.length === 0 && services.length <= 1) return services.length === 0 ? NO_NAMESPACES : [services[0].namespace];
    return [...new Set([...services, ...networks].sort((a, b) => a.position - b.position).map((p) => p.namespace))];
  },
);

const NO_NAMESPACES: readonly string[] = Object.freeze([]);

/** Routes (output and inventory) that name this Service as a parent Linkerd recognises (explicit core group). */
export function routesAttachedTo(index: MeshIndex, service: IndexedObject): IndexedObject[] {
  const namespace = service.id.namespace ?? '';
  return index.routesForService(namespace, service.id.name)
    .filter((route) => serviceParents(route, index).some((p) => p.namespace === namespace && p.name === service.id.name));
}
