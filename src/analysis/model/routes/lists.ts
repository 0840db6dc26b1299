/**
 * The routes of an index and their parts (rules, matches, filters, backendRefs), read tolerantly of malformed input,
 * and the route kinds Linkerd ranks on one port (linkerd2 policy-controller/k8s/index/src/outbound/index.rs: GRPCRoute
 * over HTTPRoute over TLSRoute over TCPRoute).
 */
import { GATEWAY_GROUP, POLICY_GROUP } from '../../../core/vocabulary';
import { isRecord, listOf, NO_ITEMS } from '../../../util/json';
import { objectLabel } from '../../../util/labels';
import { perIndex } from '../memo';
import { IndexedObject, MeshIndex } from '../mesh-index';

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

export function rules(route: IndexedObject): readonly any[] {
  const r = route.object.spec?.rules;
  return Array.isArray(r) ? r : NO_ITEMS;
}

export function backendRefs(rule: any): readonly any[] {
  return Array.isArray(rule?.backendRefs) ? rule.backendRefs : NO_ITEMS;
}

export function routeLabel(route: IndexedObject): string {
  return objectLabel(route);
}

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

export function filtersOf(holder: unknown): readonly any[] {
  return isRecord(holder) ? listOf(holder.filters) : NO_ITEMS;
}

export function matchesOf(rule: unknown): readonly any[] {
  return isRecord(rule) ? listOf(rule.matches) : NO_ITEMS;
}
