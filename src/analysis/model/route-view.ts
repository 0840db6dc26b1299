/** Shared reading of HTTPRoute / GRPCRoute objects for the route and retry rules. */
import { egressNetworksIn } from './egress';
import { perIndex, perKeyOfIndex } from './memo';
import { GATEWAY_GROUP, IndexedObject, MeshIndex, POLICY_GROUP } from './mesh-index';
import { backendTargets, isEgressNetworkParentOf, isServerParentOf, isServiceParentOf, parentTargets } from './refs';

export interface ParentRef {
  readonly group?: string;
  readonly kind?: string;
  readonly name: string;
  readonly namespace?: string;
  readonly port?: number;
  readonly sectionName?: string;
}

/** The route lists of one index. About thirty rules walk them, so each list is built once per index. */
interface RouteLists {
  readonly all: readonly IndexedObject[];
  readonly layer4: readonly IndexedObject[];
  readonly every: readonly IndexedObject[];
  readonly everyWithInventory: readonly IndexedObject[];
}

const ROUTE_KINDS: Array<[string, string]> = [
  [GATEWAY_GROUP, 'HTTPRoute'], [GATEWAY_GROUP, 'GRPCRoute'], [POLICY_GROUP, 'HTTPRoute'], [GATEWAY_GROUP, 'TLSRoute'], [GATEWAY_GROUP, 'TCPRoute'],
];

const routeLists = perIndex((index: MeshIndex): RouteLists => {
  const all = [...index.own(GATEWAY_GROUP, 'HTTPRoute'), ...index.own(GATEWAY_GROUP, 'GRPCRoute'), ...index.own(POLICY_GROUP, 'HTTPRoute')];
  const layer4 = [...index.own(GATEWAY_GROUP, 'TLSRoute'), ...index.own(GATEWAY_GROUP, 'TCPRoute')];
  return {
    all,
    layer4,
    every: [...all, ...layer4],
    everyWithInventory: ROUTE_KINDS.flatMap(([group, kind]) => index.list(group, kind)),
  };
});

/** Every route kind the mesh reads from (both HTTPRoute groups and GRPCRoute). Shared: do not modify. */
export function allRoutes(index: MeshIndex): readonly IndexedObject[] {
  return routeLists(index).all;
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
 * The list accessors below return the manifest's own list, or one shared empty list when the field is missing or
 * not a list (the common case for filters and matches, asked for every rule and backend). Read-only either way.
 */
const NO_ITEMS: readonly any[] = Object.freeze([]);

export function rules(route: IndexedObject): readonly any[] {
  const r = route.object.spec?.rules;
  return Array.isArray(r) ? r : NO_ITEMS;
}

export function backendRefs(rule: any): readonly any[] {
  return Array.isArray(rule?.backendRefs) ? rule.backendRefs : NO_ITEMS;
}

export function routeLabel(route: IndexedObject): string {
  return `${route.id.kind} ${route.id.namespace ?? ''}/${route.id.name}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading parents, backends, ports and filters. Every accessor tolerates malformed input (wrong types, nulls),
// because rules must never throw on what a user or a YAML file hands them.

export { SERVICE_PROFILE_GROUP } from '../../core/vocabulary';

/** The route protocols Linkerd ranks when several kinds attach to one Service port: GRPC > HTTP > TLS > TCP. */
export enum RouteFamily {
  GRPC = 'GRPCRoute',
  HTTP = 'HTTPRoute',
  TLS = 'TLSRoute',
  TCP = 'TCPRoute',
}

const FAMILY_RANK: Record<RouteFamily, number> = {
  [RouteFamily.GRPC]: 0, [RouteFamily.HTTP]: 1, [RouteFamily.TLS]: 2, [RouteFamily.TCP]: 3,
};

export function familyRank(family: RouteFamily): number {
  return FAMILY_RANK[family];
}

export function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function listOf(value: unknown): readonly any[] {
  return Array.isArray(value) ? value : NO_ITEMS;
}

/** TLSRoute and TCPRoute (experimental channel only); Linkerd uses them only for the kind-precedence contest. */
export function layer4Routes(index: MeshIndex): readonly IndexedObject[] {
  return routeLists(index).layer4;
}

/** Every route object of the output, HTTP, gRPC and layer 4. */
export function everyRoute(index: MeshIndex): readonly IndexedObject[] {
  return routeLists(index).every;
}

/** Every route, the inventory's included: what competes with this output's routes in the cluster. */
export function everyRouteWithInventory(index: MeshIndex): readonly IndexedObject[] {
  return routeLists(index).everyWithInventory;
}

export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value); else map.set(key, [value]);
}

export function routeFamily(route: IndexedObject): RouteFamily | undefined {
  switch (route.id.kind) {
    case 'GRPCRoute': return RouteFamily.GRPC;
    case 'HTTPRoute': return RouteFamily.HTTP;
    case 'TLSRoute': return RouteFamily.TLS;
    case 'TCPRoute': return RouteFamily.TCP;
    default: return undefined;
  }
}

export function isGatewayHttpRoute(route: IndexedObject): boolean {
  return route.group === GATEWAY_GROUP && route.id.kind === 'HTTPRoute';
}

export function isGrpcRoute(route: IndexedObject): boolean {
  return route.id.kind === 'GRPCRoute';
}

/** HTTPRoute of either group: the routes whose retries use `retry.linkerd.io/http`. */
export function isHttpRoute(route: IndexedObject): boolean {
  return route.id.kind === 'HTTPRoute';
}

/** A Server parent: on Linkerd's own HTTPRoute an omitted group defaults to policy.linkerd.io, so it counts there. */
export function isServerParent(ref: ParentRef, route: IndexedObject): boolean {
  return isServerParentOf(route.group, ref);
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

function resolveServiceParents(route: IndexedObject, index: MeshIndex): ServiceParent[] {
  return namedParentRefs(route, isServiceParent)
    .map((p) => ({ ...p, key: `${p.namespace}/${p.name}`, service: index.service(p.namespace, p.name) }));
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

/** A backendRef Linkerd reads as a Service (see `isServiceBackend`) that has a string name, with the Service it names. */
export interface ServiceBackend {
  readonly backend: Record<string, any>;
  /** Position of the rule in `spec.rules`, and of the backend in that rule's `backendRefs`, for messages. */
  readonly rule: number;
  readonly position: number;
  readonly namespace: string;
  readonly name: string;
  readonly service?: IndexedObject;
  /** It names no namespace and resolves in its parent's, which is not the route's (a consumer route). */
  readonly defaultedToParent: boolean;
}

/** Like the parents: several rules resolve the same backends, so an index's routes resolve them once. */
export const serviceBackends: (route: IndexedObject, index: MeshIndex) => readonly ServiceBackend[] = perKeyOfIndex(resolveServiceBackends);

function resolveServiceBackends(route: IndexedObject, index: MeshIndex): ServiceBackend[] {
  const result: ServiceBackend[] = [];
  const list = rules(route);
  for (let r = 0; r < list.length; r++) {
    const backends = backendRefs(list[r]);
    for (let b = 0; b < backends.length; b++) {
      const backend = backends[b];
      if (!isServiceBackend(backend) || typeof backend.name !== 'string') continue;
      for (const namespace of backendNamespaces(backend, route, index)) {
        result.push({
          backend,
          rule: r,
          position: b,
          namespace,
          name: backend.name,
          service: index.service(namespace, backend.name),
          defaultedToParent: typeof backend.namespace !== 'string' && namespace !== (route.id.namespace ?? ''),
        });
      }
    }
  }
  return result;
}

export interface ServicePortSpec {
  readonly name?: string;
  readonly port: number;
}

export function servicePorts(service: IndexedObject | undefined): ServicePortSpec[] {
  const ports: ServicePortSpec[] = [];
  for (const p of listOf(service?.object.spec?.ports)) {
    if (isRecord(p) && Number.isInteger(p.port)) ports.push({ name: typeof p.name === 'string' ? p.name : undefined, port: p.port });
  }
  return ports;
}

/** Whether `servicePorts(service)` has this port number; answered without building that list, which only messages need. */
export function hasServicePort(service: IndexedObject, port: number): boolean {
  for (const p of listOf(service.object.spec?.ports)) {
    if (isRecord(p) && Number.isInteger(p.port) && p.port === port) return true;
  }
  return false;
}

export function describePorts(ports: ServicePortSpec[]): string {
  if (ports.length === 0) return 'none';
  return ports.map((p) => (p.name ? `${p.port} (${p.name})` : String(p.port))).join(', ');
}

export function isValidPort(port: unknown): port is number {
  return Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535;
}

/**
 * The Service ports a parentRef attaches to, as Linkerd's outbound index reads it: a non-zero `port` selects that
 * port; otherwise (including `sectionName` only) the route applies to every port. `undefined` = every port of a
 * Service whose ports are unknown.
 */
export function attachedPorts(ref: ParentRef, service: IndexedObject | undefined): number[] | undefined {
  if (isValidPort(ref.port)) return [ref.port];
  const ports = servicePorts(service);
  return ports.length > 0 ? ports.map((p) => p.port) : undefined;
}

/** A backendRef Linkerd reads as a Service: kind omitted or `Service`, group omitted, "" or "core". */
export function isServiceBackend(backend: unknown): boolean {
  return isRecord(backend) && backendTargets(backend, '', 'Service');
}

export function isEgressNetworkBackend(backend: unknown): boolean {
  return isRecord(backend) && backendTargets(backend, POLICY_GROUP, 'EgressNetwork');
}

/**
 * The namespaces a backendRef resolves in. Linkerd's outbound index converts a route in each namespace holding one of
 * its Service or EgressNetwork parents, and resolves a backendRef without a namespace there: in the parent's namespace,
 * not the route's (k8s/index/src/outbound/index.rs apply_http → Namespace::apply_http_route → index/http.rs
 * convert_backend). So a consumer route's `{name: orders-v2}` is the parent's orders-v2. A route with no such parent
 * (Gateways only) resolves in its own namespace, as Gateway API says.
 */
export function backendNamespaces(backend: Record<string, any>, route: IndexedObject, index: MeshIndex): readonly string[] {
  if (typeof backend.namespace === 'string') return [backend.namespace];
  const parents = outboundParentNamespaces(route, index);
  return parents.length > 0 ? parents : [route.id.namespace ?? ''];
}

/** The namespaces of a route's Service and EgressNetwork parents, in parentRefs order. */
export const outboundParentNamespaces: (route: IndexedObject, index: MeshIndex) => readonly string[] = perKeyOfIndex(
  (route: IndexedObject, index: MeshIndex) => [...new Set([...serviceParents(route, index), ...egressNetworkParents(route, index)]
    .sort((a, b) => a.position - b.position).map((p) => p.namespace))],
);

export function filtersOf(holder: unknown): readonly any[] {
  return isRecord(holder) ? listOf(holder.filters) : NO_ITEMS;
}

/**
 * Gateway API filter types Linkerd 2.20 cannot convert (outbound/index/http.rs convert_gateway_filter, grpc.rs
 * convert_filter, inbound/index/http.rs try_gateway_filter), and RequestRedirect on a GRPCRoute. CORS and other
 * post-1.2.1 types are LKD-ROUTE-020's.
 */
const NEVER_SUPPORTED = new Set(['RequestMirror', 'URLRewrite', 'ExtensionRef']);

export function isUnsupportedFilter(route: IndexedObject, type: unknown): type is string {
  if (typeof type !== 'string') return false;
  return NEVER_SUPPORTED.has(type) || (isGrpcRoute(route) && type === 'RequestRedirect');
}

/**
 * Why Linkerd's indexes never use this route at all, or undefined: a rule filter it cannot convert fails the whole
 * route's conversion (outbound/index.rs apply_http_route, apply_grpc_route: "Failed to convert route", and the route
 * is not filed). Its status is still written, so it still conflicts identical parentRefs of lower-ranked kinds.
 */
export function unconvertibleRoute(route: IndexedObject): string | undefined {
  const list = rules(route);
  for (let r = 0; r < list.length; r++) {
    const filters = filtersOf(list[r]);
    for (let f = 0; f < filters.length; f++) {
      if (isUnsupportedFilter(route, filters[f]?.type)) return `rules[${r}].filters[${f}] is a ${filters[f].type} filter, which Linkerd cannot convert`;
    }
  }
  return undefined;
}

/**
 * Why a Service cannot be a mesh parent, or undefined when it can: the status controller accepts only a Service with a
 * cluster IP that is no ExternalName (status/src/service.rs valid_parent_service).
 */
export function noClusterIpReason(service: IndexedObject): string | undefined {
  const spec = service.object.spec;
  if (spec?.type === 'ExternalName') return 'is an ExternalName Service';
  if (spec?.clusterIP === 'None') return 'is headless (clusterIP: None)';
  return undefined;
}

/** What is wrong with a Server parentRef for the inbound index (routes.rs ParentRef::from_http_parent_ref), or nothing. */
export function serverParentProblems(route: IndexedObject, ref: ParentRef): string[] {
  const problems: string[] = [];
  // Rust reads a null field as absent.
  if (ref.port !== undefined && ref.port !== null) problems.push(`sets port ${JSON.stringify(ref.port)}`);
  if (ref.sectionName !== undefined && ref.sectionName !== null) problems.push(`sets sectionName ${JSON.stringify(ref.sectionName)}`);
  if (typeof ref.namespace === 'string' && ref.namespace !== route.id.namespace) {
    problems.push(`points to namespace "${ref.namespace}" instead of the route's "${route.id.namespace ?? ''}"`);
  }
  return problems;
}

/**
 * Why Linkerd's inbound index never indexes this route, for any Server, or undefined: one invalid Server parentRef (a
 * port, a sectionName, another namespace) or one rule filter it cannot convert fails the whole binding, and the route
 * is ignored with a log line (inbound/index.rs apply_http_route, apply_grpc_route; index/http.rs, index/grpc.rs).
 */
export function inboundBindingProblem(route: IndexedObject): string | undefined {
  const refs = parentRefs(route);
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i];
    // A parentRef without a name is skipped, not refused.
    if (!isServerParent(ref, route) || typeof ref.name !== 'string' || ref.name === '') continue;
    const problems = serverParentProblems(route, ref);
    if (problems.length > 0) return `parentRefs[${i}] (Server ${ref.name}) ${problems.join(' and ')}`;
  }
  return unconvertibleRoute(route);
}

export function matchesOf(rule: unknown): readonly any[] {
  return isRecord(rule) ? listOf(rule.matches) : NO_ITEMS;
}

const NO_ANNOTATIONS: Readonly<Record<string, unknown>> = Object.freeze({});

/** Annotations as a plain string map, whatever shape `metadata.annotations` has. Read-only (shared when there are none). */
export function annotationMap(obj: Record<string, any> | undefined): Readonly<Record<string, unknown>> {
  const annotations = obj?.metadata?.annotations;
  return isRecord(annotations) ? annotations : NO_ANNOTATIONS;
}

export function hasAnnotation(obj: Record<string, any> | undefined, key: string): boolean {
  return hasOwn(annotationMap(obj), key);
}

export function objectLabel(entry: IndexedObject): string {
  return `${entry.id.kind} ${entry.id.namespace ? `${entry.id.namespace}/` : ''}${entry.id.name}`;
}

/** Routes (output and inventory) that name this Service as a parent Linkerd recognises (explicit core group). */
export function routesAttachedTo(index: MeshIndex, service: IndexedObject): IndexedObject[] {
  const namespace = service.id.namespace ?? '';
  return index.routesForService(namespace, service.id.name)
    .filter((route) => serviceParents(route, index).some((p) => p.namespace === namespace && p.name === service.id.name));
}

// ---------------------------------------------------------------------------------------------------------------
// Own keys without Object.keys

/** `Object.prototype.hasOwnProperty`; with for-in it lists what `Object.keys` would, without allocating that array. */
export function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** Whether `Object.keys(value)` is non-empty, without building it. */
export function hasOwnKeys(value: object): boolean {
  for (const key in value) {
    if (hasOwn(value, key)) return true;
  }
  return false;
}
