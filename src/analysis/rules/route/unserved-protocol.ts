import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { routesForServer } from '../../model/inbound/servers';
import { InboundProtocolFamily, conflictedServerRoutes, routeFamilyOf, servedServerRoutes, serverProxyProtocol } from '../../model/inbound-routes';
import { IndexedObject } from '../../model/mesh-index';
import { OutboundParentKind, OutboundProtocol, servedFamilies, outboundPolicy } from '../../model/outbound';
import { Rule, RuleArea, RuleContext } from '../../rule';

function advice(protocol: OutboundProtocol, kind: string, parentKind: OutboundParentKind): string {
  if (parentKind === OutboundParentKind.EGRESS_NETWORK) {
    return `Set the EgressNetwork's config.linkerd.io/opaque-ports to the ports that are opaque (without it the cluster's default opaque ports apply), or attach a TCPRoute instead if this port's traffic is not ${kind === 'GRPCRoute' ? 'gRPC' : 'HTTP'}.`;
  }
  if (protocol === OutboundProtocol.HTTP1) return 'Set the port\'s appProtocol to kubernetes.io/h2c (gRPC is HTTP/2), or remove it so the proxy detects the protocol.';
  if (protocol === OutboundProtocol.UNKNOWN) return 'Use an appProtocol Linkerd knows (http, kubernetes.io/h2c) or none at all; for gRPC, kubernetes.io/h2c.';
  return `Remove the port from config.linkerd.io/opaque-ports (and appProtocol linkerd.io/opaque) if its traffic is ${kind === 'GRPCRoute' ? 'gRPC' : 'HTTP'}.`;
}

const SERVED_BY_FAMILY: Record<InboundProtocolFamily, string> = {
  http: 'HTTPRoutes only', grpc: 'GRPCRoutes only', none: 'no route at all',
};

/**
 * The server side of the same rule: a Server's proxyProtocol decides which attached routes the inbound proxy gets
 * (grpc/src/inbound.rs to_server: gRPC serves GRPCRoutes, HTTP/1, HTTP/2 and detection HTTPRoutes, opaque and TLS
 * none); a route of another kind, and the AuthorizationPolicies that target it, silently do nothing.
 */
function checkServerRoutes(ctx: RuleContext, server: IndexedObject): void {
  const attached = routesForServer(ctx.index, server);
  if (attached.length === 0) return;
  const protocol = serverProxyProtocol(server);
  const served = new Set(servedServerRoutes(ctx.index, server, protocol));
  // A route the status conflicts is LKD-ROUTE-012's: the protocol is not why it is dropped.
  const conflicted = conflictedServerRoutes(ctx.index, server);
  const family = routeFamilyOf(protocol);
  for (const route of attached) {
    if (served.has(route) || conflicted.has(route)) continue;
    const fix = route.id.kind === 'GRPCRoute' ? 'set the Server\'s proxyProtocol to gRPC' : 'set the Server\'s proxyProtocol to HTTP/1, HTTP/2 or leave it unset';
    ctx.report(route, `${route.id.kind} ${route.id.name} attaches to Server ${server.id.namespace ?? ''}/${server.id.name}, whose proxyProtocol `
      + `${protocol} serves ${SERVED_BY_FAMILY[family]}: the inbound proxy never gets this route, so it and the AuthorizationPolicies `
      + `that target it do nothing${family === 'none' ? '' : ' (requests take the Server\'s other routes, or its default one)'}. To use it, ${fix}.`,
    { effect: FindingEffect.IGNORED });
  }
}

/** A Service port's protocol decides which route kinds the client proxy uses; the others are silently ignored. */
export const unservedProtocol: Rule = {
  id: 'LKD-ROUTE-026',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Ignored: policy-controller/grpc/src/outbound.rs to_proto serves only the route kinds of the port\'s protocol.',
    title: 'A route\'s kind is one its parent\'s protocol serves (a Service or EgressNetwork port, or a Server)',
    why: 'The client proxy gets routes for a Service port by its protocol (linkerd2 policy-controller/grpc/src/outbound.rs '
      + 'to_proto): appProtocol http serves HTTPRoutes only; kubernetes.io/h2c GRPCRoutes, else HTTPRoutes; linkerd.io/opaque, '
      + 'linkerd.io/tcp, any appProtocol Linkerd does not know (grpc, https, tcp …: core/src/outbound.rs AppProtocol::from_str) '
      + 'and ports in config.linkerd.io/opaque-ports or the cluster\'s default opaque ports (k8s/index/src/outbound/index.rs) '
      + 'serve TCPRoutes only. A route of another kind is accepted by the status controller and then never used: its '
      + 'splits, retries and timeouts silently do nothing. A parentRef without a port attaches to every port of the Service, '
      + 'so such a route is reported only when no port of the Service serves its kind (the GAMMA conformance mesh has '
      + 'portless HTTPRoutes on Services with a grpc port). On the server side a Server\'s proxyProtocol decides the same way '
      + '(grpc/src/inbound.rs to_server): gRPC serves GRPCRoutes only, HTTP/1, HTTP/2 and detection HTTPRoutes only, opaque and '
      + 'TLS none, and the AuthorizationPolicies on a route it does not serve do nothing. An EgressNetwork port is opaque when '
      + 'it is in the EgressNetwork\'s config.linkerd.io/opaque-ports (without the annotation: the cluster\'s default opaque '
      + 'ports), and serves TCPRoutes only then.',
    fix: 'Give the Service port the appProtocol that matches the route kind (or none), or take it out of the opaque ports.',
    linkerdSource: 'policy-controller/grpc/src/outbound.rs to_proto; policy-controller/grpc/src/inbound.rs to_server; '
      + 'policy-controller/core/src/outbound.rs '
      + 'AppProtocol::from_str; policy-controller/k8s/index/src/outbound/index.rs Index::apply for Service and for '
      + 'EgressNetwork (opaque ports)',
    badExample: 'ports:\n- {name: grpc, port: 8080, appProtocol: grpc}   # a GRPCRoute on it is ignored',
    goodExample: 'ports:\n- {name: grpc, port: 8080, appProtocol: kubernetes.io/h2c}',
  },
  check(ctx) {
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) checkServerRoutes(ctx, server);
    for (const ports of outboundPolicy(ctx.index, ctx.context).values()) {
      for (const view of ports.values()) {
        for (const route of view.unserved) {
          const { protocol, origin } = view.protocol;
          const served = servedFamilies(protocol).join(', ');
          ctx.report(route.route, `${route.route.id.kind} ${route.route.id.name} attaches to ${view.parentKind} ${view.service.id.namespace}/${view.service.id.name} `
            + `port ${view.port}, which Linkerd treats as ${protocol} (${origin}); its client proxies use only ${served} there, so this `
            + `route is ignored. ${advice(protocol, route.route.id.kind, view.parentKind)}`, { effect: FindingEffect.IGNORED });
        }
      }
    }
  },
};
