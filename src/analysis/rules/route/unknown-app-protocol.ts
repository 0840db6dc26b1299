import { isRecord, listOf } from '../../../util/json';
import { Severity } from '../../finding';
import { Injection } from '../../model/mesh-index';
import { OutboundProtocol, servicePortProtocol } from '../../model/outbound';
import { routesAttachedTo } from '../../model/routes/parents';
import { servicePorts } from '../../model/service-ports';
import { Rule, RuleArea } from '../../rule';

/**
 * An appProtocol Linkerd does not know (`grpc`, `http2`, `h2c` are common) makes the client proxy treat the port as
 * opaque TCP. With a route attached, LKD-ROUTE-026 already says the route is unused; this rule speaks for the Services
 * without routes, where nothing else shows it.
 */
export const unknownAppProtocol: Rule = {
  id: 'LKD-ROUTE-027',
  area: RuleArea.ROUTE,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: what the port carries; an unknown appProtocol is served as opaque (policy-'
      + 'controller/core/src/outbound.rs AppProtocol::from_str), which costs per-request balancing only for '
      + 'multiplexed traffic.',
    title: 'A Service port\'s appProtocol is one Linkerd reads',
    why: 'The client proxy reads a Service port\'s appProtocol: http is HTTP/1, kubernetes.io/h2c HTTP/2, linkerd.io/tcp and '
      + 'linkerd.io/opaque opaque TCP. Any other value (grpc, http2, h2c, https …) is served like opaque TCP, with only a debug '
      + 'log line: no per-request load balancing (one gRPC connection then carries every call to a single pod), no retries, '
      + 'timeouts or HTTP metrics, and no routes.',
    fix: 'Use kubernetes.io/h2c for gRPC and other HTTP/2, http for HTTP/1, linkerd.io/opaque for traffic that is not HTTP; or '
      + 'omit appProtocol and let the proxy detect the protocol.',
    linkerdSource: 'policy-controller/core/src/outbound.rs AppProtocol::from_str; policy-controller/grpc/src/outbound.rs '
      + 'to_proto (AppProtocol::Unknown served as opaque, "Unknown appProtocol" at debug level)',
    badExample: 'kind: Service\nspec:\n  ports:\n  - {name: grpc, port: 9090, appProtocol: grpc}',
    goodExample: 'kind: Service\nspec:\n  ports:\n  - {name: grpc, port: 9090, appProtocol: kubernetes.io/h2c}',
  },
  check(ctx) {
    for (const service of ctx.index.own('', 'Service')) {
      // Most Services set no appProtocol: that is ruled out before anything is resolved.
      if (!listOf(service.object.spec?.ports).some((p) => isRecord(p) && typeof p.appProtocol === 'string')) continue;
      // Only a port the routes do not already explain, on a Service in front of meshed pods (its clients are the mesh's).
      if (routesAttachedTo(ctx.index, service).length > 0) continue;
      if (!ctx.index.podTemplatesForService(service).some((pod) => pod.injection === Injection.ENABLED)) continue;
      for (const { port } of servicePorts(service)) {
        const protocol = servicePortProtocol(ctx.index, service, port, ctx.context);
        if (protocol.protocol !== OutboundProtocol.UNKNOWN) continue;
        ctx.report(service, `port ${port} has ${protocol.origin}, which Linkerd does not know: meshed clients treat the port as opaque TCP `
          + '(no per-request load balancing, retries, timeouts or routes).');
      }
    }
  },
};
