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
 *   route, seen only by clients in the route's namespace.
 */
import { OPAQUE_PORTS_ANNOTATION } from '../../core/vocabulary';
import { AnalysisContext } from '../options';
import { annotationsOf } from './manifest';
import { perIndex } from './memo';
import { IndexedObject, MeshIndex } from './mesh-index';
import { controllerOpaqueOnService } from './policy-view';
import { RouteFamily, attachedPorts, everyRouteWithInventory, isValidPort, routeFamily, serviceParents } from './route-view';

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
  const ports = Array.isArray(service.object.spec?.ports) ? service.object.spec.ports : [];
  const spec = ports.find((p: any) => p && p.port === port);
  const appProtocol = typeof spec?.appProtocol === 'string' ? spec.appProtocol : undefined;
  if (appProtocol !== undefined) {
    const value = appProtocol.toLowerCase();
    const protocol = value === 'http' ? OutboundProtocol.HTTP1 : value === 'kubernetes.io/h2c' ? OutboundProtocol.HTTP2
      : value === 'linkerd.io/tcp' || value === 'linkerd.io/opaque' ? OutboundProtocol.OPAQUE : OutboundProtocol.UNKNOWN;
    return { protocol, origin: `appProtocol ${JSON.stringify(appProtocol)}` };
  }
  if (controllerOpaqueOnService(index, context, service, port)) {
    const own = annotationsOf(service.object)[OPAQUE_PORTS_ANNOTATION];
    const origin = own !== undefined ? `the Service's ${OPAQUE_PORTS_ANNOTATION}` : `${OPAQUE_PORTS_ANNOTATION} as the injector sets it (the namespace's, else the defaults, proxy.opaquePorts)`;
    return { protocol: OutboundProtocol.OPAQUE, origin };
  }
  return { protocol: OutboundProtocol.DETECT, origin: 'no appProtocol: the proxy detects HTTP' };
}

/** The route families a protocol serves, best first; the first family with attached routes is the one used. */
export function servedFamilies(protocol: OutboundProtocol): readonly RouteFamily[] {
  switch (protocol) {
    case OutboundProtocol.HTTP1: return [RouteFamily.HTTP];
    case OutboundProtocol.HTTP2: return [RouteFamily.GRPC, RouteFamily.HTTP];
    case OutboundProtocol.OPAQUE:
    case OutboundProtocol.UNKNOWN: return [RouteFamily.TCP];
    default: return [RouteFamily.GRPC, RouteFamily.HTTP, RouteFamily.TLS, RouteFamily.TCP];
  }
}

/** One route attached to a Service port. */
export interface PortRoute {
  readonly route: IndexedObject;
  readonly family: RouteFamily;
  /** The namespace whose clients see it: the Service's (producer route, every client) or the route's own (consumer). */
  readonly clients: string;
  readonly producer: boolean;
  /** A parentRef names this port; otherwise the route reached it by naming the whole Service. */
  readonly namedPort: boolean;
}

/** A Service port's outbound view. */
export interface ServicePortPolicy {
  readonly service: IndexedObject;
  readonly port: number;
  readonly protocol: ServicePortProtocol;
  /** Every route that names this port (all families), producer and consumer. */
  readonly attached: readonly PortRoute[];
  /** For producer routes (every client): the family the proxy uses, and its routes; undefined when none is served. */
  readonly servedFamily?: RouteFamily;
  readonly served: readonly PortRoute[];
  /**
   * Attached routes the protocol never serves (e.g. a GRPCRoute on an HTTP/1 port) where that leaves them unused: the
   * parentRef names this port, or the route names the whole Service and no port of it serves the route's kind. A
   * portless HTTPRoute on a Service with an http and a grpc port is used on the first: it is not listed for the second.
   */
  readonly unserved: readonly PortRoute[];
  /** The default route (every request to the Service) exists: no route is served to every client. */
  readonly hasDefaultRoute: boolean;
}

function buildOutbound(index: MeshIndex, context: AnalysisContext): Map<IndexedObject, Map<number, ServicePortPolicy>> {
  const attached = new Map<IndexedObject, Map<number, PortRoute[]>>();
  for (const route of everyRouteWithInventory(index)) {
    const family = routeFamily(route);
    if (!family) continue;
    for (const parent of serviceParents(route, index)) {
      if (!parent.service) continue;
      const ports = attachedPorts(parent.ref, parent.service) ?? [];
      const namespace = route.id.namespace ?? '';
      const producer = namespace === parent.namespace;
      const namedPort = isValidPort(parent.ref.port);
      let byPort = attached.get(parent.service);
      if (!byPort) attached.set(parent.service, byPort = new Map());
      for (const port of ports) {
        const list = byPort.get(port) ?? [];
        const at = list.findIndex((r) => r.route === route);
        if (at < 0) list.push({ route, family, clients: namespace, producer, namedPort });
        else if (namedPort && !list[at].namedPort) list[at] = { ...list[at], namedPort };
        byPort.set(port, list);
      }
    }
  }
  const out = new Map<IndexedObject, Map<number, ServicePortPolicy>>();
  for (const [service, byPort] of attached) {
    const views = new Map<number, ServicePortPolicy>();
    const portProtocols = new Map<number, { protocol: ServicePortProtocol; served: readonly RouteFamily[] }>();
    const servedSomewhere = new Set<IndexedObject>();
    for (const [port, routes] of byPort) {
      const protocol = servicePortProtocol(index, service, port, context);
      const served = servedFamilies(protocol.protocol);
      portProtocols.set(port, { protocol, served });
      for (const r of routes) if (served.includes(r.family)) servedSomewhere.add(r.route);
    }
    for (const [port, routes] of byPort) {
      const { protocol, served } = portProtocols.get(port)!;
      const producers = routes.filter((r) => r.producer);
      const servedFamily = served.find((f) => producers.some((r) => r.family === f));
      views.set(port, {
        service,
        port,
        protocol,
        attached: routes,
        servedFamily,
        served: servedFamily ? producers.filter((r) => r.family === servedFamily) : [],
        unserved: routes.filter((r) => !served.includes(r.family) && (r.namedPort || !servedSomewhere.has(r.route))),
        hasDefaultRoute: servedFamily === undefined,
      });
    }
    out.set(service, views);
  }
  return out;
}

const outboundOf = perIndex(() => new WeakMap<AnalysisContext, Map<IndexedObject, Map<number, ServicePortPolicy>>>());

/** The outbound view of every Service port that some route names, built once per analysis. */
export function outboundPolicy(index: MeshIndex, context: AnalysisContext): ReadonlyMap<IndexedObject, ReadonlyMap<number, ServicePortPolicy>> {
  const byContext = outboundOf(index);
  let views = byContext.get(context);
  if (!views) byContext.set(context, views = buildOutbound(index, context));
  return views;
}
