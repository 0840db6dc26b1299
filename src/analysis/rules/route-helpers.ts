/** Shared reading of HTTPRoute / GRPCRoute objects for the route and retry rules. */
import { isCoreGroup } from '../model/manifest';
import { GATEWAY_GROUP, IndexedObject, MeshIndex, POLICY_GROUP } from '../model/mesh-index';

export interface ParentRef {
  readonly group?: string;
  readonly kind?: string;
  readonly name: string;
  readonly namespace?: string;
  readonly port?: number;
  readonly sectionName?: string;
}

/** Every route kind the mesh reads from (both HTTPRoute groups and GRPCRoute). */
export function allRoutes(index: MeshIndex): IndexedObject[] {
  return [
    ...index.own(GATEWAY_GROUP, 'HTTPRoute'),
    ...index.own(GATEWAY_GROUP, 'GRPCRoute'),
    ...index.own(POLICY_GROUP, 'HTTPRoute'),
  ];
}

export function parentRefs(route: IndexedObject): ParentRef[] {
  const refs = route.object.spec?.parentRefs;
  return Array.isArray(refs) ? refs.filter((r) => r && typeof r === 'object') : [];
}

/** A parentRef Linkerd attaches to a Service: kind Service with an explicit core group ("" or "core"). */
export function isServiceParent(ref: ParentRef): boolean {
  return ref.kind === 'Service' && ref.group !== undefined && isCoreGroup(ref.group);
}

export function rules(route: IndexedObject): any[] {
  const r = route.object.spec?.rules;
  return Array.isArray(r) ? r : [];
}

export function backendRefs(rule: any): any[] {
  return Array.isArray(rule?.backendRefs) ? rule.backendRefs : [];
}

export function routeLabel(route: IndexedObject): string {
  return `${route.id.kind} ${route.id.namespace ?? ''}/${route.id.name}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading parents, backends, ports and filters. Every accessor tolerates malformed input (wrong types, nulls),
// because rules must never throw on what a user or a YAML file hands them.

export const SERVICE_PROFILE_GROUP = 'linkerd.io';

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

export function listOf(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** TLSRoute and TCPRoute (experimental channel only); Linkerd uses them only for the kind-precedence contest. */
export function layer4Routes(index: MeshIndex): IndexedObject[] {
  return [...index.own(GATEWAY_GROUP, 'TLSRoute'), ...index.own(GATEWAY_GROUP, 'TCPRoute')];
}

/** Every route object of the output, HTTP, gRPC and layer 4. */
export function everyRoute(index: MeshIndex): IndexedObject[] {
  return [...allRoutes(index), ...layer4Routes(index)];
}

const ROUTE_KINDS: Array<[string, string]> = [
  [GATEWAY_GROUP, 'HTTPRoute'], [GATEWAY_GROUP, 'GRPCRoute'], [POLICY_GROUP, 'HTTPRoute'], [GATEWAY_GROUP, 'TLSRoute'], [GATEWAY_GROUP, 'TCPRoute'],
];

/** Every route, the inventory's included: what competes with this output's routes in the cluster. */
export function everyRouteWithInventory(index: MeshIndex): IndexedObject[] {
  return ROUTE_KINDS.flatMap(([group, kind]) => index.list(group, kind));
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

function isGroup(group: unknown, expected: string): boolean {
  return typeof group === 'string' && group.toLowerCase() === expected;
}

export function isServerParent(ref: ParentRef): boolean {
  return ref.kind === 'Server' && isGroup(ref.group, POLICY_GROUP);
}

export function isEgressNetworkParent(ref: ParentRef): boolean {
  return ref.kind === 'EgressNetwork' && isGroup(ref.group, POLICY_GROUP);
}

/** A Gateway parent as the API server stores it: kind and group default to Gateway and the Gateway group. */
export function isGatewayParent(ref: ParentRef, route: IndexedObject): boolean {
  if (route.group !== GATEWAY_GROUP) return false;
  return (ref.kind ?? 'Gateway') === 'Gateway' && (ref.group === undefined || isGroup(ref.group, GATEWAY_GROUP));
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
  readonly service?: IndexedObject;
}

/** Many route rules ask for the same route's Service parents; an index's routes resolve once (per index). */
const parentsByIndex = new WeakMap<MeshIndex, Map<IndexedObject, ServiceParent[]>>();

export function serviceParents(route: IndexedObject, index: MeshIndex): ServiceParent[] {
  let byRoute = parentsByIndex.get(index);
  if (!byRoute) {
    byRoute = new Map();
    parentsByIndex.set(index, byRoute);
  }
  let parents = byRoute.get(route);
  if (!parents) {
    parents = resolveServiceParents(route, index);
    byRoute.set(route, parents);
  }
  return parents;
}

function resolveServiceParents(route: IndexedObject, index: MeshIndex): ServiceParent[] {
  const result: ServiceParent[] = [];
  parentRefs(route).forEach((ref, position) => {
    const name = refName(ref);
    if (!isServiceParent(ref) || !name) return;
    const namespace = parentNamespace(ref, route);
    result.push({ ref, position, namespace, name, service: index.service(namespace, name) });
  });
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
  if (!isRecord(backend)) return false;
  return (backend.kind === undefined || backend.kind === 'Service') && isCoreGroup(backend.group);
}

export function isEgressNetworkBackend(backend: unknown): boolean {
  return isRecord(backend) && backend.kind === 'EgressNetwork' && isGroup(backend.group, POLICY_GROUP);
}

export function backendNamespace(backend: Record<string, any>, route: IndexedObject): string {
  return typeof backend.namespace === 'string' ? backend.namespace : (route.id.namespace ?? '');
}

export function filtersOf(holder: unknown): any[] {
  return isRecord(holder) ? listOf(holder.filters) : [];
}

export function matchesOf(rule: unknown): any[] {
  return isRecord(rule) ? listOf(rule.matches) : [];
}

/** Annotations as a plain string map, whatever shape `metadata.annotations` has. */
export function annotationMap(obj: Record<string, any> | undefined): Record<string, unknown> {
  const annotations = obj?.metadata?.annotations;
  return isRecord(annotations) ? annotations : {};
}

export function hasAnnotation(obj: Record<string, any> | undefined, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(annotationMap(obj), key);
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
