import { ANNOTATION_PARSERS, retryAnnotated } from './retry-config';
import {
  RETRY_GRPC_ANNOTATION, RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION, TIMEOUT_ANNOTATIONS,
} from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { annotationOf } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { allRoutes, isGrpcRoute, isHttpRoute } from '../../model/routes/lists';
import { isOutboundRoute } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';
import { reportRefusal } from '../refusal';

const ALL_KEYS = Object.keys(ANNOTATION_PARSERS);
/** What a route of each kind reads: its kind's retry keys (see retryKeysOf), then the timeouts. */
const GRPC_ROUTE_KEYS = [RETRY_GRPC_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION, ...TIMEOUT_ANNOTATIONS];
const HTTP_ROUTE_KEYS = [RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION, ...TIMEOUT_ANNOTATIONS];
const OTHER_ROUTE_KEYS = [...TIMEOUT_ANNOTATIONS];

function routeKeys(route: IndexedObject): readonly string[] {
  if (isGrpcRoute(route)) return GRPC_ROUTE_KEYS;
  return isHttpRoute(route) ? HTTP_ROUTE_KEYS : OTHER_ROUTE_KEYS;
}

/** Services and EgressNetworks: the outbound index reads their annotations, the webhook does not check them. */
function readAtIndexTime(obj: IndexedObject): boolean {
  return obj.id.kind === 'Service' || obj.id.kind === 'EgressNetwork';
}

/**
 * The settings an unreadable value of `key` costs a Service or EgressNetwork: the outbound index parses its HTTP retry
 * (http, limit, timeout keys), its gRPC retry (grpc, limit, timeout) and its timeouts separately, and drops each block
 * that fails (index.rs: parse_http_retry, parse_grpc_retry, parse_timeouts, each `unwrap_or_default`).
 */
function droppedSettings(key: string): string {
  if (key === RETRY_HTTP_ANNOTATION) return 'HTTP retry settings (its gRPC retries and timeouts still apply)';
  if (key === RETRY_GRPC_ANNOTATION) return 'gRPC retry settings (its HTTP retries and timeouts still apply)';
  if (key.startsWith('retry.')) return 'HTTP and gRPC retry settings (its timeouts still apply)';
  return 'timeout settings';
}

/** What Linkerd does with a Service's or EgressNetwork's unreadable value: it drops the block that reads it. */
function blockDropped(obj: IndexedObject, key: string): string {
  const unchecked = obj.id.kind === 'Service' ? 'the webhook never sees Services' : 'the webhook does not check an EgressNetwork\'s annotations';
  return `${unchecked}, so Linkerd only logs an error and ignores this ${obj.id.kind}'s ${droppedSettings(key)}.`;
}

function checkKeys(ctx: RuleContext, obj: IndexedObject, keys: readonly string[]): void {
  for (const key of keys) {
    const value = annotationOf(obj.object, key);
    if (value === undefined) continue;
    const parsed = ANNOTATION_PARSERS[key](value);
    if (parsed.ok) continue;
    const problem = `annotation ${key}: ${parsed.reason}`;
    // A route is refused or skipped whole; a Service or EgressNetwork only loses its retry or timeout settings.
    if (readAtIndexTime(obj)) {
      ctx.report(obj, `${problem}; ${blockDropped(obj, key)}`);
      continue;
    }
    reportRefusal(ctx, obj, {
      problem,
      rejected: 'Linkerd\'s webhook rejects the route (and if the webhook is bypassed, the controller skips the whole route).',
      noun: 'the route',
      ignored: 'and the policy controller cannot convert it and skips the whole route ("Failed to convert route").',
    });
  }
}

/** Retry and timeout annotations are strings in a small language; a typo either blocks apply or vanishes. */
export const annotationGrammar: Rule = {
  id: 'LKD-RETRY-002',
  area: RuleArea.RETRY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Ignored: policy-controller/k8s/index/src/outbound/index/http.rs parse_http_retry and index.rs parse_timeouts'
      + ' drop values they cannot parse; Rejected where the webhook parses them.',
    title: 'retry.linkerd.io/* and timeout.linkerd.io/* annotations parse',
    why: '`retry.linkerd.io/http` is a comma list of 5xx, gateway-error, a code 100-599 or a range a-b (no spaces); '
      + '`retry.linkerd.io/grpc` a comma list of cancelled, deadline-exceeded, internal, resource-exhausted, unavailable; '
      + '`retry.linkerd.io/limit` a 0-65535 integer; timeouts one integer plus ms|s|m|h|d. On an HTTPRoute or GRPCRoute with a '
      + 'Service or EgressNetwork parent the webhook rejects a bad value (and where it does not run, a namespace its selectors leave out, the route is applied and the index skips it whole); on a Service, which the webhook never sees, or an EgressNetwork, whose annotations it does not check, Linkerd logs it and drops that object\'s whole retry or timeout block.',
    fix: 'Write the value in Linkerd\'s grammar, e.g. `retry.linkerd.io/http: "5xx,429"`, `retry.linkerd.io/limit: "3"`, '
      + '`timeout.linkerd.io/request: "90s"`.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs parse_http_retry, to_code; '
      + 'policy-controller/k8s/index/src/outbound/index/grpc.rs parse_grpc_retry; '
      + 'policy-controller/k8s/index/src/outbound/index.rs parse_timeouts, parse_duration, Index::apply for '
      + 'Service and for EgressNetwork; policy-controller/runtime/src/admission.rs Validate<gateway::HTTPRouteSpec>::validate, '
      + 'Validate<EgressNetworkSpec>::validate (annotations unread)',
    badExample: 'metadata:\n  annotations:\n    retry.linkerd.io/http: "5xx, 429"\n    timeout.linkerd.io/request: 1m30s',
    goodExample: 'metadata:\n  annotations:\n    retry.linkerd.io/http: "5xx,429"\n    timeout.linkerd.io/request: 90s',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      if (isOutboundRoute(route, ctx.index)) checkKeys(ctx, route, routeKeys(route));
    }
    const annotated = retryAnnotated(ctx.index);
    for (const service of annotated.services) checkKeys(ctx, service, ALL_KEYS);
    for (const egress of annotated.egressNetworks) checkKeys(ctx, egress, ALL_KEYS);
  },
};
