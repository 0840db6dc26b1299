/**
 * Requests outside every match. Linkerd gives a Service port a default route (everything to the Service, with the
 * Service's own retry and timeout annotations) only while no route attaches to it: policy-controller
 * grpc/src/outbound/http.rs (`protocol`, and grpc.rs alike) pushes `default_outbound_service_route` only when the
 * list of routes is empty, and k8s/index/src/outbound/index.rs keeps the routes per Service port. Inbound, a Server's
 * default routes exist likewise only while no route attaches to it (k8s/index/src/inbound/index.rs, `http_routes` and
 * `grpc_routes` of a Server). So once a route whose rules all have matches attaches, every request no rule matches
 * gets 404 (or is refused inbound) — unless some route has a match-all rule.
 */
import { IConstruct } from 'constructs';
import { fail } from '../core/errors';
import { rulesCoverAll as coreRulesCoverAll } from '../core/route-coverage';
import { UnmatchedRequests } from '../core/unmatched-requests';

export { UnmatchedRequests };

/** The two kinds of route families Linkerd keeps apart: HTTPRoutes and GRPCRoutes never complete one another. */
export type RouteFamily = 'http' | 'grpc';

/** A route of this app, as the coverage check sees it. */
interface CoverageEntry {
  /** `service:<ns>/<name>:<port>` or `server:<ns>/<name>`, and the family. */
  readonly key: string;
  /** The clients the route serves: '' for everyone (a producer route), else the one consumer namespace. */
  readonly clients: string;
  readonly coversAll: () => boolean;
}

const REGISTRY = Symbol.for('cdk8s-linkerd.RouteCoverage');

/**
 * Records a route so that another route on the same parent can see it has a match-all rule. `clients` is '' for a
 * route that serves every client and the namespace of a consumer route: Linkerd 2.20 applies a route in the Service's
 * namespace to clients in every namespace, and a route in another namespace only to clients there, beside the
 * producer's (k8s/index/src/outbound/index.rs, the producer/consumer partition and `watch_for_ns_or_default`).
 */
export function registerCoverage(scope: IConstruct, key: string, clients: string, coversAll: () => boolean): void {
  const root = scope.node.root as any;
  const list: CoverageEntry[] = (root[REGISTRY] ??= []);
  list.push({ key, clients, coversAll });
}

/** Whether a route of the app on this parent (and family) matches every request of the clients a route serves. */
export function parentCovered(scope: IConstruct, key: string, clients: string): boolean {
  const list: CoverageEntry[] = (scope.node.root as any)[REGISTRY] ?? [];
  return list.some((e) => e.key === key && (e.clients === '' || e.clients === clients) && e.coversAll());
}

/** Whether one of the rendered rules matches every request (a rule without matches does). */
export function rulesCoverAll(rules: Record<string, any>[], family: RouteFamily): boolean {
  return coreRulesCoverAll(rules, family === 'grpc');
}

/** What a route says about its unmatched requests, checked at synth. */
export interface UnmatchedCheck {
  readonly unmatched: UnmatchedRequests | undefined;
  /** e.g. `HTTPRoute orders-reads`. */
  readonly what: string;
  /** e.g. `Service orders port 8080`. */
  readonly parent: string;
  readonly key: string;
  /** '' for a route serving every client, else its consumer namespace (see registerCoverage). */
  readonly clients: string;
  readonly ownCoversAll: () => boolean;
  /** Where the unmatched requests end up once the route attaches: "get 404" / "are refused". */
  readonly outcome: string;
}

/** The construct validation: refuse a route that leaves requests unmatched without saying so. */
export function validateUnmatched(scope: IConstruct, c: UnmatchedCheck): string[] {
  if (c.unmatched === UnmatchedRequests.NOT_FOUND) return [];
  if (c.unmatched === UnmatchedRequests.ROUTE_TO_SERVICE) {
    return c.ownCoversAll()
      ? [`LKD-ROUTE-025: ${c.what} has a rule that matches every request, so no request is unmatched and the match-all companion route `
        + 'would compete with that rule. Fix: remove unmatched: UnmatchedRequests.ROUTE_TO_SERVICE, or give every rule matches.']
      : [];
  }
  if (c.ownCoversAll() || parentCovered(scope, c.key, c.clients)) return [];
  return [`LKD-ROUTE-025: every rule of ${c.what} has matches and no route of this app on ${c.parent} matches the rest; Linkerd drops `
    + `the default route once any route attaches, so every other request ${c.outcome}. Fix: pass unmatched: `
    + 'UnmatchedRequests.ROUTE_TO_SERVICE (a match-all route without this route\'s retries and timeouts is added beside it), add a rule '
    + 'without matches, or pass unmatched: UnmatchedRequests.NOT_FOUND if that is intended (e.g. the rest is routed by a route in the cluster).'];
}

/** A key per parent and family: routes of the other family never cover for each other. */
export function coverageKey(family: RouteFamily, parent: string): string {
  return `${family}|${parent}`;
}

/** Other languages can pass any string where the enum is expected. */
export function checkUnmatchedValue(scope: IConstruct, value: UnmatchedRequests | undefined): void {
  if (!(value === undefined || Object.values(UnmatchedRequests).includes(value))) {
    fail(scope, 'LKD-INPUT-006',
      `unmatched ${JSON.stringify(value)} is not an UnmatchedRequests value.`,
      'Use UnmatchedRequests.ROUTE_TO_SERVICE or UnmatchedRequests.NOT_FOUND.');
  }
}
