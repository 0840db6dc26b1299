import { presentKeys, retryAnnotated } from './retry-config';
import { RETRY_ANNOTATIONS, RETRY_GRPC_ANNOTATION, RETRY_HTTP_ANNOTATION, TIMEOUT_ANNOTATIONS, GATEWAY_GROUP, POLICY_GROUP } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { hasAnnotation } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { PortRetryUse, RetryFamily, serviceRetryUse } from '../../model/outbound-retry';
import { allRoutes, isGrpcRoute } from '../../model/routes/lists';
import { isOutboundRoute, isServerParent, parentRefs } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

const ROUTE_KEYS = [...RETRY_ANNOTATIONS, ...TIMEOUT_ANNOTATIONS];
const READ_BY_LINKERD = new Set(['|Service', `${GATEWAY_GROUP}|HTTPRoute`, `${GATEWAY_GROUP}|GRPCRoute`, `${POLICY_GROUP}|HTTPRoute`,
  `${POLICY_GROUP}|EgressNetwork`]);

function checkFamily(ctx: RuleContext, route: IndexedObject): void {
  const wrong = isGrpcRoute(route) ? RETRY_HTTP_ANNOTATION : RETRY_GRPC_ANNOTATION;
  if (!hasAnnotation(route.object, wrong)) return;
  const right = isGrpcRoute(route) ? RETRY_GRPC_ANNOTATION : RETRY_HTTP_ANNOTATION;
  ctx.report(route, `annotation ${wrong} is never read on ${route.id.kind}s; Linkerd only reads ${right} there, so these retry `
    + `conditions are ignored. Use ${right}.`);
}

function checkInbound(ctx: RuleContext, route: IndexedObject): void {
  const keys = presentKeys(route, ROUTE_KEYS);
  if (keys.length === 0 || isOutboundRoute(route, ctx.index) || !parentRefs(route).some((ref) => isServerParent(ref, route))) return;
  ctx.report(route, `annotations ${keys.join(', ')} are on a route whose parent is a Server (an inbound, policy route); retries and `
    + 'timeouts are client-side and only read on routes whose parent is a Service, so they do nothing here. Move them to a '
    + 'route with a Service parent, or to the Service.');
}

/** The known keys among an object's retry.linkerd.io/* and timeout.linkerd.io/* keys, in ROUTE_KEYS order. */
function knownKeys(prefixed: readonly string[]): string[] {
  return ROUTE_KEYS.filter((k) => prefixed.includes(k));
}

/** Pod templates and workloads are a frequent wrong home: Linkerd reads these keys on Services and routes only. */
function checkOtherObjects(ctx: RuleContext): void {
  const annotated = retryAnnotated(ctx.index);
  for (const [entry, prefixed] of annotated.objects) {
    if (READ_BY_LINKERD.has(`${entry.group}|${entry.id.kind}`)) continue;
    const keys = knownKeys(prefixed);
    if (keys.length > 0) {
      ctx.report(entry, `annotations ${keys.join(', ')} are on a ${entry.id.kind}, where Linkerd never reads them; put them on the `
        + 'Service or on an HTTPRoute/GRPCRoute whose parent is the Service.');
    }
  }
  for (const [pod, prefixed] of annotated.pods) {
    const keys = knownKeys(prefixed);
    if (keys.length === 0) continue;
    ctx.report(pod.owner, `the pod template carries ${keys.join(', ')}, where Linkerd never reads them (they are not proxy `
      + 'configuration); put them on the Service or on a route whose parent is the Service.');
  }
}

function describeUse(uses: PortRetryUse[]): string {
  return uses.map((u) => `port ${u.port} (${u.protocol.protocol}: ${u.protocol.origin}) uses ${u.families.size === 0 ? 'none'
    : [...u.families].map((f) => `retry.linkerd.io/${f}`).join(' and ')}`).join('; ');
}

/**
 * A Service's retry and timeout annotations reach a port only in the family its clients are served there
 * (`serviceRetryUse`): the gRPC retry where GRPCRoutes are served, the HTTP retry elsewhere, none on an opaque port.
 */
function checkServiceFamilies(ctx: RuleContext, service: IndexedObject): void {
  const keys = presentKeys(service, ROUTE_KEYS);
  if (keys.length === 0) return;
  const uses = serviceRetryUse(ctx.index, ctx.context, service);
  if (uses.length === 0) return;
  const used = (family: RetryFamily) => uses.some((u) => u.families.has(family));
  const unused = keys.filter((k) => (k === RETRY_HTTP_ANNOTATION ? !used(RetryFamily.HTTP)
    : k === RETRY_GRPC_ANNOTATION ? !used(RetryFamily.GRPC) : !uses.some((u) => u.families.size > 0)));
  if (unused.length === 0) return;
  ctx.report(service, `annotations ${unused.join(', ')} are never applied: ${describeUse(uses)}. The client proxy passes a Service's `
    + 'gRPC retry only where GRPCRoutes are served and its HTTP retry elsewhere, and an opaque port (or an appProtocol Linkerd does '
    + 'not know) gets neither retries nor timeouts.', {
    // A detected protocol depends on what clients send, so which family a port uses is not certain here.
    severity: Severity.WARNING,
    fix: 'Use retry.linkerd.io/grpc for ports that serve GRPCRoutes and retry.linkerd.io/http for the others; on an opaque port '
      + 'retry in the application, or give the port an appProtocol Linkerd reads (http, kubernetes.io/h2c).',
  });
}

/** Annotations that are well-formed but sit where no part of Linkerd looks. */
export const misplacedAnnotations: Rule = {
  id: 'LKD-RETRY-004',
  area: RuleArea.RETRY,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Ignored: the outbound index reads retry and timeout annotations only from Services, EgressNetworks and their'
      + ' routes, in the family of the route (policy-controller/k8s/index/src/outbound/index/http.rs parse_http_retry, '
      + 'grpc.rs parse_grpc_retry). A '
      + 'Service family unused on a port whose protocol is detected is a warning: detection depends on what clients '
      + 'send.',
    title: 'Retry/timeout annotations sit where Linkerd reads them, in the right family',
    why: 'An HTTPRoute reads only retry.linkerd.io/http, a GRPCRoute only retry.linkerd.io/grpc; the other is ignored. '
      + 'Retries and timeouts are outbound (client-side) behaviour, read from Services, EgressNetworks and HTTPRoutes or '
      + 'GRPCRoutes with a Service or EgressNetwork parent (TLSRoutes and TCPRoutes read none); on a Server-parented (inbound) route, a workload or a pod template they do nothing, without any warning. '
      + 'On a Service, each port uses one family: retry.linkerd.io/grpc only where GRPCRoutes are served, retry.linkerd.io/http '
      + 'elsewhere, and an opaque port (or an unknown appProtocol) neither, nor any timeout.',
    fix: 'Use retry.linkerd.io/http on HTTPRoutes and retry.linkerd.io/grpc on GRPCRoutes, and put the annotations on the '
      + 'Service or on a route whose parentRef is the Service.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs parse_http_retry; '
      + 'policy-controller/k8s/index/src/outbound/index/grpc.rs parse_grpc_retry; '
      + 'policy-controller/k8s/index/src/outbound/index.rs Index::apply for Service (outbound only; the inbound '
      + 'index reads no retry annotations); policy-controller/grpc/src/outbound.rs to_proto (which retry each port\'s protocol gets)',
    badExample: 'kind: GRPCRoute\nmetadata:\n  annotations: {retry.linkerd.io/http: 5xx}',
    goodExample: 'kind: GRPCRoute\nmetadata:\n  annotations: {retry.linkerd.io/grpc: unavailable}',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      checkFamily(ctx, route);
      checkInbound(ctx, route);
    }
    checkOtherObjects(ctx);
    for (const service of retryAnnotated(ctx.index).services) checkServiceFamilies(ctx, service);
  },
};
