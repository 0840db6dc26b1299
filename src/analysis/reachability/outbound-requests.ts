/**
 * Outbound, per Service port (read with the retry and timeout readers the LKD-RETRY rules use): what a meshed client's proxy does with each request class — the route (and rule) that
 * takes it, that rule's backends and shares, its retry conditions and limit, its request timeout — or the 404 /
 * UNIMPLEMENTED that requests no rule matches get once a route is served.
 *
 * Mirrors linkerd2 at version-2.20:
 * - `policy-controller/grpc/src/outbound.rs` `to_proto`: the routes served for the port's protocol, sorted by
 *   `timestamp_then_name` (the outbound model's `served` list, model/outbound.ts);
 * - `policy-controller/grpc/src/outbound/http.rs` `protocol` / `base_http_routes`: without a served route the default
 *   route sends every request to the Service with the Service's retry and timeouts; once one is served, the default
 *   route is gone (`default_outbound_service_route` only when the list is empty) and unmatched requests get 404;
 *   `convert_outbound_route`: a route's retry and timeouts replace the Service's, `convert_retry` the conditions and limit;
 * - linkerd2-proxy `http-route` `find`: the most specific match over every rule of every route wins (Gateway API
 *   precedence), ties keep route order — the same selection as the inbound side (model/inbound-routes.ts `routeFor`).
 */
import { RETRY_GRPC_ANNOTATION, RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION, TIMEOUT_REQUEST_ANNOTATION } from '../../core/vocabulary';
import { InboundRoute, RequestMatch, routeFor, ruleRequestMatches } from '../model/inbound-routes';
import { annotationOf } from '../model/manifest';
import { perIndex } from '../model/memo';
import { MeshIndex } from '../model/mesh-index';
import { IndexedObject } from '../model/object-store';
import { specOf } from '../model/objects';
import { OutboundParentKind, ServicePortPolicy, servedTo } from '../model/outbound';
import { RouteFamily } from '../model/routes/lists';
import { BackendShare, RequestSample, RuleShares, routeShares } from '../policy';
import { annotationsRead, effectiveRetry, requestTimeoutFor, retryBlockKeys, retrySettingsOf } from '../rules/retry/retry-config';

/** What the client proxy does with one request class. Equal texts mean equal treatment (a diff compares them). */
export interface OutboundOutcome {
  /** `HTTPRoute books-reads rule 0`, `the default route`, or `none` (the request gets `status`). */
  readonly route: string;
  /** `booksapp/books:7002 90%, booksapp/books-canary:7002 10%`; empty when no route takes the request. */
  readonly backends: string;
  /** `5xx, limit 2` (plus the per-try timeout) and where it is set; empty when the request is not retried. */
  readonly retry: string;
  /** `request 10s (rules[0].timeouts.request)`; empty when none applies. */
  readonly timeout: string;
  /** `HTTP 404` / `gRPC UNIMPLEMENTED` when no route takes the request. */
  readonly status?: string;
}

interface RuleEntry extends InboundRoute {
  readonly ruleIndex: number;
}

/** The routes one group of clients' proxies match a Service port's requests with. */
export interface OutboundScope {
  readonly grpc: boolean;
  /** Every match of every served rule (for the request classes). */
  readonly matches: readonly RequestMatch[];
  outcome(sample: RequestSample): OutboundOutcome;
}

/**
 * One Service port's routes as the client proxy matches them: for every client (the producer routes), and for the
 * clients of each namespace with consumer routes of its own (outbound/index.rs watches per client namespace).
 */
export interface OutboundRequests extends OutboundScope {
  /** Client namespace → its scope, for the namespaces with consumer routes on this port. */
  readonly consumers: ReadonlyMap<string, OutboundScope>;
}

const HTTP_KEYS = [RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION];
const GRPC_KEYS = [RETRY_GRPC_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION];

const sharesByRule = perIndex((index: MeshIndex) => {
  const out = new Map<string, RuleShares>();
  for (const rule of routeShares(index)) out.set(`${rule.route.kind}|${rule.route.namespace}|${rule.route.name}#${rule.ruleIndex}`, rule);
  return out;
});

function shareText(b: BackendShare): string {
  return `${b.namespace}/${b.name}${b.port === undefined ? '' : `:${b.port}`} ${b.percent}%`;
}

function label(route: IndexedObject): string {
  return `${route.id.kind} ${route.id.name}`;
}

/** Conditions, limit and per-try timeout of a retry block, as `convert_retry` sends them. */
function retryText(source: IndexedObject, keys: readonly string[], grpc: boolean, own: boolean): string {
  const settings = retrySettingsOf(source, keys);
  const conditions = annotationOf(source.object, grpc ? RETRY_GRPC_ANNOTATION : RETRY_HTTP_ANNOTATION);
  const parts = [conditions !== undefined ? String(conditions) : 'no conditions', `limit ${settings.limit}`];
  if (settings.timeoutMs !== undefined) parts.push(`per try ${settings.timeoutMs}ms`);
  return `${parts.join(', ')} (${own ? 'on the route' : `from ${label(source)}`})`;
}

function serviceRetry(service: IndexedObject, grpc: boolean): string {
  const keys = retryBlockKeys(service, grpc ? GRPC_KEYS : HTTP_KEYS);
  if (keys.length === 0 || !annotationsRead(service, keys)) return '';
  return retryText(service, keys, grpc, false);
}

function serviceTimeout(service: IndexedObject): string {
  const value = annotationOf(service.object, TIMEOUT_REQUEST_ANNOTATION);
  return value === undefined ? '' : `request ${String(value)} (${TIMEOUT_REQUEST_ANNOTATION} on ${label(service)})`;
}

function ruleOutcome(index: MeshIndex, entry: RuleEntry, grpc: boolean): OutboundOutcome {
  const route = entry.route!;
  const shares = sharesByRule(index).get(`${route.id.kind}|${route.id.namespace}|${route.id.name}#${entry.ruleIndex}`);
  const retry = effectiveRetry(route, index);
  const timeout = requestTimeoutFor(route, entry.ruleIndex, index);
  return {
    route: `${label(route)} rule ${entry.ruleIndex}`,
    backends: (shares?.backends ?? []).map(shareText).join(', '),
    retry: retry ? retryText(retry.source, retry.keys, grpc, retry.source === route) : '',
    timeout: timeout && timeout.ms > 0 ? `request ${timeout.ms}ms (${timeout.source})` : '',
  };
}

function ruleEntries(routes: readonly IndexedObject[], grpc: boolean): RuleEntry[] {
  return routes.flatMap((route) => {
    const rules = Array.isArray(specOf(route).rules) ? specOf(route).rules as unknown[] : [];
    return (rules.length === 0 ? [undefined] : rules).map((rule, ruleIndex) => ({ route, ruleIndex, matches: ruleRequestMatches(rule, grpc) }));
  });
}

/**
 * What requests no served rule matches get: the Service's default route while no route is served, else 404 /
 * UNIMPLEMENTED; an EgressNetwork keeps its fallback route whatever is served (`default_outbound_egress_route`), which
 * forwards to the original destination under `trafficPolicy: Allow` and answers 403 under `Deny`.
 */
function fallbackOf(
  parent: IndexedObject, kind: OutboundParentKind | undefined, port: number, served: readonly IndexedObject[], grpc: boolean,
): OutboundOutcome {
  const settings = { retry: serviceRetry(parent, grpc), timeout: serviceTimeout(parent) };
  if (kind === OutboundParentKind.EGRESS_NETWORK) {
    return parent.object.spec?.trafficPolicy === 'Allow'
      ? { route: 'the egress fallback route (trafficPolicy Allow)', backends: `the original destination, port ${port} 100%`, ...settings }
      : { route: 'the egress fallback route (trafficPolicy Deny)', backends: '', ...settings, status: 'HTTP 403 (traffic not allowed)' };
  }
  if (served.length === 0) return { route: 'the default route', backends: `${parent.id.namespace}/${parent.id.name}:${port} 100%`, ...settings };
  return { route: 'none', backends: '', retry: '', timeout: '', status: grpc ? 'gRPC UNIMPLEMENTED' : 'HTTP 404' };
}

function scopeOf(
  index: MeshIndex, service: IndexedObject, kind: OutboundParentKind | undefined, port: number, served: readonly IndexedObject[], grpc: boolean,
): OutboundScope {
  const entries = ruleEntries(served, grpc);
  const fallback = fallbackOf(service, kind, port, served, grpc);
  const outcomes = new Map<RuleEntry, OutboundOutcome>();
  return {
    grpc,
    matches: entries.flatMap((e) => e.matches),
    outcome(sample) {
      const entry = routeFor(entries, sample) as RuleEntry | undefined;
      if (!entry) return fallback;
      let outcome = outcomes.get(entry);
      if (!outcome) outcomes.set(entry, outcome = ruleOutcome(index, entry, grpc));
      return outcome;
    },
  };
}

/** The request-level outbound view of one Service or EgressNetwork port (`view` undefined: no route names the port). */
export function outboundRequests(index: MeshIndex, service: IndexedObject, port: number, view: ServicePortPolicy | undefined): OutboundRequests {
  const every = scopeOf(index, service, view?.parentKind, port, view?.served.map((r) => r.route) ?? [], view?.servedFamily === RouteFamily.GRPC);
  const consumers = new Map<string, OutboundScope>();
  for (const namespace of new Set((view?.attached ?? []).filter((r) => !r.producer).map((r) => r.clients))) {
    const served = servedTo(view!, namespace);
    consumers.set(namespace, scopeOf(index, service, view!.parentKind, port, served.routes.map((r) => r.route), served.family === RouteFamily.GRPC));
  }
  return { ...every, outcome: every.outcome, consumers };
}
