/**
 * The outbound policy of a Service port as Linkerd computes it: the protocol the client proxy uses, which of the
 * attached routes it serves for that protocol, and whether the default route still exists.
 *
 * Mirrors linkerd2 at version-2.20:
 * - `policy-controller/k8s/index/src/outbound/index.rs` (Service `apply`): a port's `appProtocol` decides
 *   (`policy-controller/core/src/outbound.rs` `AppProtocol::from_str`: `http` → HTTP/1, `kubernetes.io/h2c` → HTTP/2,
 *   `linkerd.io/tcp` / `linkerd.io/opaque` → opaque, anything else → unknown, served like opaque); without one, a port
 *   in the Service's `config.linkerd.io/opaque-ports` as the injector left it (else the cluster's default opaque
 *   ports) is opaque (`controllerOpaqueOnService`); else the proxy detects the protocol.
 * - `policy-controller/grpc/src/outbound.rs` `to_proto`: HTTP/1 serves HTTPRoutes only; HTTP/2 GRPCRoutes, else
 *   HTTPRoutes; opaque and unknown TCPRoutes only; detected GRPCRoutes, else HTTPRoutes, else TLSRoutes, else TCPRoutes.
 * - `policy-controller/grpc/src/outbound/http.rs` `base_http_routes`: the default route (every request to the Service
 *   itself) exists only while no route is served; once one is, requests outside every match get 404.
 * - `outbound/index.rs` `apply_http_route` and friends: a route in another namespace than its Service is a consumer
 *   route, seen only by clients in the route's namespace; a route is filed under a parent only where its status accepts
 *   it (`route_accepted_by_resource_port`), and the status controller conflicts a route whose parentRef is identical to
 *   one of a higher-ranked kind (`status/src/index.rs` `parent_has_conflicting_routes`); a route whose rule filter the
 *   index cannot convert is never filed (`unconvertibleRoute`), though its status still conflicts others.
 * - EgressNetworks are parents like Services, on the ports their parentRefs name (`Index::apply` for EgressNetwork): a
 *   port in the EgressNetwork's `config.linkerd.io/opaque-ports` (else the cluster's default opaque ports) is opaque, any
 *   other is detected.
 */
import { OPAQUE_PORTS_ANNOTATION } from '../../core/vocabulary';
import { AnalysisContext } from '../options';
import { resolveContainerPort, serverCoverage } from './inbound/servers';
import { serverProxyProtocol } from './inbound-routes';
import { controllerOpaqueOnService, endpointProfileOpaqueOnPod, writtenServiceOpaquePorts } from './injector/opaque-ports';
import { annotationOf } from './manifest';
import { perIndex } from './memo';
import { IndexedObject, MeshIndex, PodTemplate } from './mesh-index';
import { unconvertibleRoute } from './routes/conversion';
import { everyRouteWithInventory, familyRank, RouteFamily, routeFamily } from './routes/lists';
import { egressNetworkParents, serviceParents } from './routes/parents';
import { isHeadless, isValidPort, noClusterIpReason, servicePorts } from './service-ports';
import { portListHas } from '../../core/port-lists';
import { isRecord, listOf, pushTo } from '../../util/json';

export enum OutboundProtocol {
  HTTP1 = 'HTTP/1',
  HTTP2 = 'HTTP/2',
  OPAQUE = 'opaque',
  /** An `appProtocol` Linkerd does not know (e.g. `grpc`): served like opaque. */
  UNKNOWN = 'unknown',
  DETECT = 'detect',
}

export interface ServicePortProtocol {
  readonly protocol: OutboundProtocol;
  /** Where it comes from, in words. */
  readonly origin: string;
}

/** The protocol of one Service port (its number), from the Service's own spec and annotations. */
export function servicePortProtocol(index: MeshIndex, service: IndexedObject, port: number, context: AnalysisContext): ServicePortProtocol {
  if (isHeadless(service)) return headlessPortProtocol(index, context, service, port);
  const appProtocol = appProtocolOf(service, port);
  if (appProtocol !== undefined) {
    const value = appProtocol.toLowerCase();
    const protocol = value === 'http' ? OutboundProtocol.HTTP1 : value === 'kubernetes.io/h2c' ? OutboundProtocol.HTTP2
      : value === 'linkerd.io/tcp' || value === 'linkerd.io/opaque' ? OutboundProtocol.OPAQUE : OutboundProtocol.UNKNOWN;
    return { protocol, origin: `appProtocol ${JSON.stringify(appProtocol)}` };
  }
  if (controllerOpaqueOnService(index, context, service, port)) {
    const own = annotationOf(service.object, OPAQUE_PORTS_ANNOTATION);
    const origin = own !== undefined ? `the Service's ${OPAQUE_PORTS_ANNOTATION}` : `${OPAQUE_PORTS_ANNOTATION} as the injector sets it (the namespace's, else the defaults, proxy.opaquePorts)`;
    return { protocol: OutboundProtocol.OPAQUE, origin };
  }
  return DETECTED;
}

/** The usual answer, shared: it is asked for every Service port a route names, and nothing modifies it. */
const DETECTED: ServicePortProtocol = Object.freeze({ protocol: OutboundProtocol.DETECT, origin: 'no appProtocol: the proxy detects HTTP' });

/** The `appProtocol` of a Service's first port with this number (a loop: this runs cold, once per port, where a closure costs). */
function appProtocolOf(service: IndexedObject, port: number): string | undefined {
  const ports = service.object.spec?.ports;
  if (!Array.isArray(ports)) return undefined;
  for (const p of ports) {
    if (p && p.port === port) return typeof p.appProtocol === 'string' ? p.appProtocol : undefined;
  }
  return undefined;
}

/**
 * A headless Service has no cluster IP, so the outbound index never files it (outbound/index.rs Index::apply for Service
 * skips "None") and clients dial each pod's own IP: the policy lookup finds nothing and the proxy follows the endpoint
 * profile (linkerd2-proxy linkerd/app/outbound/src/discover.rs synthesized policy, sidecar.rs `Param<Protocol>`: an
 * opaque profile wins, else detection). The Service's appProtocol and opaque-ports play no part; each pod's own opaque
 * ports do, and a Server with proxyProtocol opaque on the port (watcher/endpoints_watcher.go SetToServerProtocol).
 */
function headlessPortProtocol(index: MeshIndex, context: AnalysisContext, service: IndexedObject, port: number): ServicePortProtocol {
  const { opaque, detected } = headlessPorts(index, context, service, port);
  if (opaque.length > 0 && detected.length === 0) {
    return { protocol: OutboundProtocol.OPAQUE, origin: 'headless Service: clients dial the pods, whose own opaque ports list it' };
  }
  const origin = opaque.length > 0
    ? `headless Service: only ${opaque.length} of the ${opaque.length + detected.length} workloads list it in their own opaque ports; clients detect on the others`
    : 'headless Service: clients dial the pods, whose own opaque ports do not list it; the Service\'s appProtocol and opaque-ports are not read';
  return { protocol: OutboundProtocol.DETECT, origin };
}

/** The workloads behind a headless Service's port, split by whether their endpoint profile makes it opaque. */
export function headlessPorts(
  index: MeshIndex, context: AnalysisContext, service: IndexedObject, port: number,
): { readonly opaque: PodTemplate[]; readonly detected: PodTemplate[] } {
  const spec = listOf(service.object.spec?.ports).find((p: any) => isRecord(p) && p.port === port) as any;
  const target = spec?.targetPort ?? port;
  const coverage = serverCoverage(index);
  const opaque: PodTemplate[] = [];
  const detected: PodTemplate[] = [];
  for (const pod of index.podTemplatesForService(service)) {
    const number = typeof target === 'number' ? target : resolveContainerPort(pod, String(target));
    const isOpaque = number !== undefined && (endpointProfileOpaqueOnPod(index, context, pod, number)
      || coverage.claims(pod, number).some((server) => serverProxyProtocol(server) === 'opaque'));
    (isOpaque ? opaque : detected).push(pod);
  }
  return { opaque, detected };
}

export interface OpaqueOverride {
  readonly protocol: ServicePortProtocol;
  /** Where the overridden opaque-ports list comes from, in words. */
  readonly opaqueOrigin: string;
}

/**
 * Where a Service port's appProtocol silently wins over an opaque-ports list someone wrote for it: the outbound index
 * keeps the appProtocol of a listed port and logs the conflict at debug level only (outbound/index.rs Index::apply for
 * Service). Only an appProtocol read as HTTP matters: any other is served like opaque anyway. Undefined when the two agree.
 */
export function appProtocolOverridesOpaque(
  index: MeshIndex, service: IndexedObject, port: number, context: AnalysisContext,
): OpaqueOverride | undefined {
  const protocol = servicePortProtocol(index, service, port, context);
  if (protocol.protocol !== OutboundProtocol.HTTP1 && protocol.protocol !== OutboundProtocol.HTTP2) return undefined;
  const written = writtenServiceOpaquePorts(index, context, service);
  return written && portListHas(written.ports, port) ? { protocol, opaqueOrigin: written.origin } : undefined;
}

/** The route families a protocol serves, best first; the first family with attached routes is the one used. */
export function servedFamilies(protocol: OutboundProtocol): readonly RouteFamily[] {
  switch (protocol) {
    case OutboundProtocol.HTTP1: return SERVED_HTTP1;
    case OutboundProtocol.HTTP2: return SERVED_HTTP2;
    case OutboundProtocol.OPAQUE:
    case OutboundProtocol.UNKNOWN: return SERVED_OPAQUE;
    default: return SERVED_DETECT;
  }
}

// Shared and frozen: every port view and several rules ask, and none may change them.
const SERVED_HTTP1: readonly RouteFamily[] = Object.freeze([RouteFamily.HTTP]);
const SERVED_HTTP2: readonly RouteFamily[] = Object.freeze([RouteFamily.GRPC, RouteFamily.HTTP]);
const SERVED_OPAQUE: readonly RouteFamily[] = Object.freeze([RouteFamily.TCP]);
const SERVED_DETECT: readonly RouteFamily[] = Object.freeze([RouteFamily.GRPC, RouteFamily.HTTP, RouteFamily.TLS, RouteFamily.TCP]);

/** The parents Linkerd's outbound index files routes under. */
export enum OutboundParentKind {
  SERVICE = 'Service',
  EGRESS_NETWORK = 'EgressNetwork',
}

/** One parentRef naming a Service or an EgressNetwork, as the status controller compares parentRefs. */
export interface OutboundRef {
  readonly route: IndexedObject;
  readonly family: RouteFamily;
  readonly kind: OutboundParentKind;
  /** Position in the route's `spec.parentRefs`, for messages. */
  readonly position: number;
  readonly namespace: string;
  readonly name: string;
  /** The parentRef's port when it is a valid one; undefined when it names the whole parent. */
  readonly port?: number;
  /** The Service or EgressNetwork, when the output or the inventory has it. */
  readonly parent?: IndexedObject;
  /**
   * Routes of a higher-ranked kind with an identical parentRef (same parent, same port or both none): the status
   * controller marks this parent Accepted=False, RouteReasonConflicted (status/src/index.rs
   * parent_has_conflicting_routes; GRPCRoute > HTTPRoute > TLSRoute > TCPRoute). Empty when not conflicted.
   */
  readonly conflictedBy: readonly IndexedObject[];
}

function refKey(kind: OutboundParentKind, namespace: string, name: string, port: number | undefined): string {
  return `${kind}|${namespace}|${name}|${port ?? ''}`;
}

const NOT_CONFLICTED: readonly IndexedObject[] = Object.freeze([]);

/** Every Service and EgressNetwork parentRef of every route (the inventory's included), with its status conflicts. */
const outboundRefs = perIndex((index: MeshIndex): readonly OutboundRef[] => {
  const refs: Array<{ -readonly [K in keyof OutboundRef]: OutboundRef[K] }> = [];
  for (const route of everyRouteWithInventory(index)) {
    const family = routeFamily(route);
    if (!family) continue;
    for (const p of serviceParents(route, index)) {
      refs.push({
        route,
        family,
        kind: OutboundParentKind.SERVICE,
        position: p.position,
        namespace: p.namespace,
        name: p.name,
        port: isValidPort(p.ref.port) ? p.ref.port : undefined,
        parent: p.service,
        conflictedBy: NOT_CONFLICTED,
      });
    }
    for (const p of egressNetworkParents(route, index)) {
      refs.push({
        route,
        family,
        kind: OutboundParentKind.EGRESS_NETWORK,
        position: p.position,
        namespace: p.namespace,
        name: p.name,
        port: isValidPort(p.ref.port) ? p.ref.port : undefined,
        parent: p.network,
        conflictedBy: NOT_CONFLICTED,
      });
    }
  }
  // Only identical parentRefs of different kinds conflict: with routes of one kind (the usual mesh), none does, and no
  // key is built. Else group by parentRef, and look closer only where kinds mix.
  if (refs.every((ref) => ref.family === refs[0].family)) return refs;
  const byKey = new Map<string, typeof refs>();
  for (const ref of refs) pushTo(byKey, refKey(ref.kind, ref.namespace, ref.name, ref.port), ref);
  for (const same of byKey.values()) {
    if (same.length < 2 || same.every((o) => o.family === same[0].family)) continue;
    for (const ref of same) {
      const rank = familyRank(ref.family);
      const above = [...new Set(same.filter((o) => familyRank(o.family) < rank).map((o) => o.route))];
      if (above.length > 0) ref.conflictedBy = above;
    }
  }
  return refs;
});

/** The Service and EgressNetwork parentRefs of one route. */
const refsOfRoute = perIndex((index: MeshIndex) => {
  const map = new Map<IndexedObject, OutboundRef[]>();
  for (const ref of outboundRefs(index)) pushTo(map, ref.route, ref);
  return map;
});

/** The Service and EgressNetwork parentRefs of every route, the inventory's included. */
export function allOutboundRefs(index: MeshIndex): readonly OutboundRef[] {
  return outboundRefs(index);
}

/**
 * Whether the status controller accepts a parentRef that no higher-ranked route conflicts: one in another namespace than
 * the parent it stands in for must name a Service with a cluster IP that is no ExternalName, or an EgressNetwork
 * (status/src/index.rs parent_condition_service, `noClusterIpReason`). A parent the analysis does not have may exist:
 * it is given the benefit of the doubt.
 */
function statusAccepts(ref: OutboundRef): boolean {
  if (ref.conflictedBy.length > 0) return false;
  return ref.parent === undefined || ref.kind !== OutboundParentKind.SERVICE || noClusterIpReason(ref.parent) === undefined;
}

/**
 * Whether the outbound index files `ref`'s route under its parent: it takes a route only where the route's status
 * accepts it (k8s/index/src/outbound/index/http.rs route_accepted_by_resource_port, route_accepted_by_service): some
 * parentRef of the route of the same kind and name, without a port or with this one (for a parentRef without a port,
 * any), is accepted. The status match compares no namespace, so an accepted parentRef to a namesake in another
 * namespace is enough.
 */
export function acceptedAt(index: MeshIndex, ref: OutboundRef): boolean {
  if (ref.conflictedBy.length === 0) return true;
  return (refsOfRoute(index).get(ref.route) ?? []).some((o) => o.kind === ref.kind && o.name === ref.name
    && (ref.port === undefined || o.port === undefined || o.port === ref.port)
    && (o.namespace === ref.namespace ? o.conflictedBy.length === 0 : statusAccepts(o)));
}

/** One route attached to a Service or EgressNetwork port. */
export interface PortRoute {
  readonly route: IndexedObject;
  readonly family: RouteFamily;
  /** The namespace whose clients see it: the parent's (producer route, every client) or the route's own (consumer). */
  readonly clients: string;
  readonly producer: boolean;
  /** A parentRef names this port; otherwise the route reached it by naming the whole Service. */
  readonly namedPort: boolean;
  /**
   * The outbound index takes it here (see `acceptedAt`) and can convert it: a route its status conflicts, or one it
   * cannot convert, is never used on this port.
   */
  readonly accepted: boolean;
  /** When not accepted: the higher-ranked routes whose identical parentRefs conflict it. */
  readonly conflictedBy: readonly IndexedObject[];
  /** Why the index cannot convert the route (`unconvertibleRoute`), which leaves it unused everywhere. */
  readonly unconvertible?: string;
}

/** The routes one group of clients is served on a port, and the family they are of. */
export interface ServedRoutes {
  readonly family?: RouteFamily;
  readonly routes: readonly PortRoute[];
}

/** A Service or EgressNetwork port's outbound view. */
export interface ServicePortPolicy {
  readonly parentKind: OutboundParentKind;
  /** The Service or EgressNetwork. */
  readonly service: IndexedObject;
  readonly port: number;
  readonly protocol: ServicePortProtocol;
  /** Every route that names this port (all families), producer and consumer, accepted or not. */
  readonly attached: readonly PortRoute[];
  /** For producer routes (every client): the family the proxy uses, and its routes; undefined when none is served. */
  readonly servedFamily?: RouteFamily;
  readonly served: readonly PortRoute[];
  /**
   * Accepted routes the protocol never serves (e.g. a GRPCRoute on an HTTP/1 port) where that leaves them unused: the
   * parentRef names this port, or the route names the whole Service and no port of it serves the route's kind. A
   * portless HTTPRoute on a Service with an http and a grpc port is used on the first: it is not listed for the second.
   */
  readonly unserved: readonly PortRoute[];
  /** The default route (every request to the parent) exists: no route is served to every client, or it is an EgressNetwork. */
  readonly hasDefaultRoute: boolean;
}

/**
 * What the clients of one scope are served on a port (grpc/src/outbound.rs to_proto): every client gets the producer
 * routes; the clients in a namespace with consumer routes get those with the producer routes (outbound/index.rs
 * watches per client namespace). The first family the protocol serves that has an accepted route wins.
 */
export function servedTo(view: ServicePortPolicy, consumerNamespace?: string): ServedRoutes {
  return servedOf(view.attached, view.protocol.protocol, consumerNamespace);
}

/**
 * Loops, no temporary lists: asked once per port and client scope, cold, where each closure and filtered copy costs.
 * The family is the first the protocol serves among the visible accepted routes; the routes are those of it, in order.
 */
function servedOf(attached: readonly PortRoute[], protocol: OutboundProtocol, consumerNamespace: string | undefined): ServedRoutes {
  const families = servedFamilies(protocol);
  let best = families.length;
  for (const r of attached) {
    if (!isContender(r, consumerNamespace)) continue;
    const rank = families.indexOf(r.family);
    if (rank >= 0 && rank < best) best = rank;
  }
  if (best === families.length) return NONE_SERVED;
  const family = families[best];
  const routes: PortRoute[] = [];
  for (const r of attached) if (r.family === family && isContender(r, consumerNamespace)) routes.push(r);
  return { family, routes };
}

function isContender(r: PortRoute, consumerNamespace: string | undefined): boolean {
  return r.accepted && (r.producer || r.clients === consumerNamespace);
}

const NONE_SERVED: ServedRoutes = Object.freeze({ family: undefined, routes: Object.freeze([]) });

/** The protocol of an EgressNetwork port: opaque when in its opaque ports (else the cluster's defaults), else detected. */
function egressPortProtocol(index: MeshIndex, network: IndexedObject, port: number, context: AnalysisContext): ServicePortProtocol {
  if (!controllerOpaqueOnService(index, context, network, port)) return { protocol: OutboundProtocol.DETECT, origin: 'the proxy detects HTTP' };
  const own = annotationOf(network.object, OPAQUE_PORTS_ANNOTATION) !== undefined;
  return { protocol: OutboundProtocol.OPAQUE, origin: own ? `the EgressNetwork's ${OPAQUE_PORTS_ANNOTATION}` : 'the cluster\'s default opaque ports, the EgressNetwork having no ' + OPAQUE_PORTS_ANNOTATION };
}

function portProtocol(
  index: MeshIndex, kind: OutboundParentKind, parent: IndexedObject, port: number, context: AnalysisContext,
): ServicePortProtocol {
  return kind === OutboundParentKind.SERVICE ? servicePortProtocol(index, parent, port, context) : egressPortProtocol(index, parent, port, context);
}

/**
 * The ports a ref attaches to: its port; without one, every port of the Service (outbound/index.rs keeps portless
 * routes per Service name; an EgressNetwork parent without a port is never used, LKD-ROUTE-015).
 */
function portsOfRef(ref: OutboundRef): readonly number[] {
  if (ref.port !== undefined) return [ref.port];
  return ref.kind === OutboundParentKind.SERVICE ? servicePorts(ref.parent).map((p) => p.port) : [];
}

/** One route reaching a port through two parentRefs (one with the port, one without) is one attachment. */
function mergeAttachments(a: PortRoute, b: PortRoute): PortRoute {
  const accepted = a.accepted || b.accepted;
  const conflictedBy = a.conflictedBy.length === 0 || b.conflictedBy.length === 0 ? NOT_CONFLICTED : a.conflictedBy;
  return { ...a, namedPort: a.namedPort || b.namedPort, accepted, conflictedBy };
}

function attachRef(index: MeshIndex, ref: OutboundRef, byPort: Map<number, PortRoute[]>): void {
  const clients = ref.route.id.namespace ?? '';
  const statusAccepted = acceptedAt(index, ref);
  const unconvertible = unconvertibleRoute(ref.route);
  const entry: PortRoute = {
    route: ref.route,
    family: ref.family,
    clients,
    producer: clients === ref.namespace,
    namedPort: ref.port !== undefined,
    accepted: statusAccepted && unconvertible === undefined,
    conflictedBy: statusAccepted ? NOT_CONFLICTED : ref.conflictedBy,
  };
  // Set only when there is one (a spread of an empty object per route costs, cold).
  if (unconvertible !== undefined) (entry as { unconvertible?: string }).unconvertible = unconvertible;
  if (ref.port !== undefined) attachAt(byPort, ref.port, entry);
  else for (const port of portsOfRef(ref)) attachAt(byPort, port, entry);
}

/** Files `entry` under `port`, merged with an earlier attachment of the same route there. */
function attachAt(byPort: Map<number, PortRoute[]>, port: number, entry: PortRoute): void {
  const list = byPort.get(port);
  if (list === undefined) {
    byPort.set(port, [entry]);
    return;
  }
  for (let i = 0; i < list.length; i++) {
    if (list[i].route === entry.route) {
      list[i] = mergeAttachments(list[i], entry);
      return;
    }
  }
  list.push(entry);
}

function portViews(
  index: MeshIndex, context: AnalysisContext, kind: OutboundParentKind, parent: IndexedObject, byPort: Map<number, PortRoute[]>,
): Map<number, ServicePortPolicy> {
  const views = new Map<number, ServicePortPolicy>();
  const protocols = new Map<number, ServicePortProtocol>();
  for (const port of byPort.keys()) protocols.set(port, portProtocol(index, kind, parent, port, context));
  // The routes served on some port of the parent, built only when a port has an accepted route it does not serve (rare).
  let servedSomewhere: ReadonlySet<IndexedObject> | undefined;
  for (const [port, routes] of byPort) {
    const protocol = protocols.get(port)!;
    const served = servedFamilies(protocol.protocol);
    // What every client is served, read from the routes directly: the view is then built once, not copied to add it.
    const everyClient = servedOf(routes, protocol.protocol, undefined);
    let unserved: PortRoute[] | undefined;
    for (const r of routes) {
      if (!r.accepted || served.includes(r.family)) continue;
      if (!r.namedPort && (servedSomewhere ??= routesServedOnSomePort(byPort, protocols)).has(r.route)) continue;
      (unserved ??= []).push(r);
    }
    views.set(port, {
      parentKind: kind,
      service: parent,
      port,
      protocol,
      attached: routes,
      served: everyClient.routes,
      // An EgressNetwork keeps its fallback route whatever is served (grpc/src/outbound/http.rs base_http_routes).
      hasDefaultRoute: kind === OutboundParentKind.EGRESS_NETWORK || everyClient.family === undefined,
      unserved: unserved ?? NO_ROUTES,
      servedFamily: everyClient.family,
    });
  }
  return views;
}

const NO_ROUTES: readonly PortRoute[] = Object.freeze([]);

/** The accepted routes some port of one parent serves by kind. */
function routesServedOnSomePort(byPort: Map<number, PortRoute[]>, protocols: Map<number, ServicePortProtocol>): ReadonlySet<IndexedObject> {
  const routes = new Set<IndexedObject>();
  for (const [port, list] of byPort) {
    const served = servedFamilies(protocols.get(port)!.protocol);
    for (const r of list) if (r.accepted && served.includes(r.family)) routes.add(r.route);
  }
  return routes;
}

function buildOutbound(index: MeshIndex, context: AnalysisContext): Map<IndexedObject, Map<number, ServicePortPolicy>> {
  const attached = new Map<IndexedObject, { kind: OutboundParentKind; byPort: Map<number, PortRoute[]> }>();
  for (const ref of outboundRefs(index)) {
    if (!ref.parent) continue;
    let entry = attached.get(ref.parent);
    if (!entry) attached.set(ref.parent, entry = { kind: ref.kind, byPort: new Map() });
    attachRef(index, ref, entry.byPort);
  }
  const out = new Map<IndexedObject, Map<number, ServicePortPolicy>>();
  for (const [parent, { kind, byPort }] of attached) out.set(parent, portViews(index, context, kind, parent, byPort));
  return out;
}

const outboundOf = perIndex(() => new WeakMap<AnalysisContext, Map<IndexedObject, Map<number, ServicePortPolicy>>>());

/** The outbound view of every Service and EgressNetwork port that some route names, built once per analysis. */
export function outboundPolicy(index: MeshIndex, context: AnalysisContext): ReadonlyMap<IndexedObject, ReadonlyMap<number, ServicePortPolicy>> {
  const byContext = outboundOf(index);
  let views = byContext.get(context);
  if (!views) byContext.set(context, views = buildOutbound(index, context));
  return views;
}
