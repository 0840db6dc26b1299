import { RetrySettings, annotationsRead, describeKeys, effectiveRetry, presentKeys, retryAnnotated } from './retry-config';
import { RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION } from '../../../core/vocabulary';
import { isRecord } from '../../../util/json';
import { objectLabel } from '../../../util/labels';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { RetryFamily, serviceRetryUse } from '../../model/outbound-retry';
import { allRoutes, isGrpcRoute, matchesOf, rules } from '../../model/routes/lists';
import { routesAttachedTo, routesAttachedToEgressNetwork } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

const NON_IDEMPOTENT = new Set(['POST', 'PATCH']);

/** Why an HTTP rule can see non-idempotent requests, or undefined when every match pins a safe method. */
function httpExposure(rule: unknown, r: number): string | undefined {
  const matches = matchesOf(rule);
  if (matches.length === 0) return `rules[${r}] has no matches, so it takes every method, POST and PATCH included`;
  for (const [j, m] of matches.entries()) {
    const method = isRecord(m) ? m.method : undefined;
    if (method === undefined) return `rules[${r}].matches[${j}] has no method, so it takes POST and PATCH too`;
    if (NON_IDEMPOTENT.has(method)) return `rules[${r}].matches[${j}] matches method ${method}`;
  }
  return undefined;
}

/**
 * Every gRPC call is an HTTP POST, so the method verb says nothing. We treat a match that names one exact gRPC method
 * as the author's statement that this method is safe to repeat, and warn when retries cover a whole service, a
 * regular expression, or everything.
 */
function grpcExposure(rule: unknown, r: number): string | undefined {
  const matches = matchesOf(rule);
  if (matches.length === 0) return `rules[${r}] has no matches, so it covers every gRPC method`;
  for (const [j, m] of matches.entries()) {
    const method = isRecord(m) && isRecord(m.method) ? m.method : undefined;
    if (!method || typeof method.method !== 'string') return `rules[${r}].matches[${j}] does not name one gRPC method`;
    if (method.type === 'RegularExpression') return `rules[${r}].matches[${j}] selects methods by regular expression`;
  }
  return undefined;
}

function origin(settings: RetrySettings, route: IndexedObject): string {
  const keys = describeKeys(settings.source, settings.keys);
  return settings.source === route ? keys : `${keys}, inherited from ${objectLabel(settings.source)}`;
}

function checkRoute(ctx: RuleContext, route: IndexedObject): void {
  const settings = effectiveRetry(route, ctx.index);
  if (!settings) return;
  const exposure = isGrpcRoute(route) ? grpcExposure : httpExposure;
  const list = rules(route);
  (list.length === 0 ? [undefined] : list).forEach((rule, r) => {
    const why = exposure(rule, r);
    if (!why) return;
    ctx.report(route, `retries (${origin(settings, route)}) apply to ${why}. A request that failed after the server already acted `
      + '(e.g. a 503 or a timeout after the write) is sent again, so a non-idempotent call can take effect twice.');
  });
}

const SERVICE_RETRY_KEYS = [RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION];

function checkService(ctx: RuleContext, service: IndexedObject): void {
  const keys = presentKeys(service, SERVICE_RETRY_KEYS);
  // An unreadable value drops the HTTP retry block (LKD-RETRY-002): then nothing retries.
  if (keys.length === 0 || !annotationsRead(service, SERVICE_RETRY_KEYS) || routesAttachedTo(ctx.index, service).length > 0) return;
  // On an opaque port the HTTP retry is never applied (LKD-RETRY-004 says so): nothing is sent twice.
  if (!serviceRetryUse(ctx.index, ctx.context, service).some((u) => u.families.has(RetryFamily.HTTP))) return;
  ctx.report(service, `retries (${describeKeys(service, keys)}) apply to every request to this Service, whatever its method, `
    + 'POST and PATCH included; a request that failed after the server acted is sent again and can take effect twice.');
}

/**
 * An EgressNetwork's default route always stays (routes are added beside it, grpc/src/outbound/http.rs `protocol`) and
 * carries its retry settings; with `trafficPolicy: Allow` it forwards what no route matches. Reported only when no
 * route attaches, where that default route is certain to take every request (a route can shadow it).
 */
function checkEgressNetwork(ctx: RuleContext, network: IndexedObject): void {
  const keys = presentKeys(network, SERVICE_RETRY_KEYS);
  if (keys.length === 0 || !annotationsRead(network, SERVICE_RETRY_KEYS) || network.object.spec?.trafficPolicy !== 'Allow' || routesAttachedToEgressNetwork(ctx.index, network).length > 0) return;
  ctx.report(network, `retries (${describeKeys(network, keys)}) apply to every request this EgressNetwork lets out (trafficPolicy Allow, `
    + 'no route attached), whatever its method, POST and PATCH included; a request that failed after the server acted is sent '
    + 'again and can take effect twice.');
}

/** Linkerd retries whatever it is told to; it cannot know which calls are safe to repeat. */
export const nonIdempotentRetries: Rule = {
  id: 'LKD-RETRY-001',
  area: RuleArea.RETRY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: whether the application\'s non-idempotent methods are safe to repeat, which the manifests do not '
      + 'say (http.rs parse_http_retry retries any method).',
    title: 'Retries are limited to requests that are safe to repeat',
    why: 'Linkerd retries any request up to 64 KiB of body, whatever its method. A POST or PATCH whose response was a 5xx '
      + 'or timed out may already have been applied, so a retry can create a second order or charge twice. A rule with no '
      + 'method match (or a Service-wide retry, or an EgressNetwork\'s on its default route) covers POST and PATCH. gRPC calls are all POSTs: only a match that names '
      + 'one exact gRPC method is taken as a deliberate choice of an idempotent method.',
    fix: 'Put retry annotations on a route whose rules match only idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS) or '
      + 'exact gRPC methods, and leave writes on a route without retries; or make the handler idempotent and suppress with a reason.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs parse_http_retry; '
      + 'policy-controller/k8s/index/src/outbound/index.rs (EgressNetwork apply: its annotations read as a Service\'s); '
      + 'policy-controller/grpc/src/outbound/http.rs default_outbound_egress_route (the EgressNetwork\'s retry on its default route); '
      + 'policy-controller/k8s/index/src/outbound/index/grpc.rs parse_grpc_retry (no method filter: the proxy '
      + 'retries whatever matches); policy-controller/grpc/src/outbound/http.rs convert_retry (max_request_bytes 64 KiB)',
    badExample: 'metadata:\n  annotations: {retry.linkerd.io/http: 5xx}\nspec:\n  rules:\n  - backendRefs: [{name: orders, port: 8080}]',
    goodExample: 'metadata:\n  annotations: {retry.linkerd.io/http: 5xx}\nspec:\n  rules:\n  - matches: [{method: GET}]\n'
      + '    backendRefs: [{name: orders, port: 8080}]',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) checkRoute(ctx, route);
    const annotated = retryAnnotated(ctx.index);
    for (const service of annotated.services) checkService(ctx, service);
    for (const network of annotated.egressNetworks) checkEgressNetwork(ctx, network);
  },
};
