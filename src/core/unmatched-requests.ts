/**
 * The one vocabulary for what happens to requests no rule of a route matches: the constructs' `unmatched` choice, and
 * the annotation through which that choice reaches the engine (LKD-ROUTE-025) in the synthesized manifest.
 */

/** What happens to requests that no rule of a route matches. */
export enum UnmatchedRequests {
  /**
   * They go on as if no route were attached: a match-all companion route without this route's retries, timeouts or
   * route-level authorizations is written beside it (to the parent Service outbound, to the Server inbound; for a
   * split, to the split's backends with the same shares).
   */
  ROUTE_TO_SERVICE = 'RouteToService',
  /**
   * They get 404 outbound (gRPC calls fail with UNIMPLEMENTED) or are refused inbound, as Linkerd does once any route
   * attaches. Choose this when
   * another route (e.g. one that exists only in the cluster) matches the rest, or when the 404 is intended.
   */
  NOT_FOUND = 'NotFound',
}

/**
 * On an HTTPRoute or GRPCRoute: the author's choice for unmatched requests, an UnmatchedRequests value. Route
 * constructs write `NotFound` when given `unmatched: UnmatchedRequests.NOT_FOUND`; in plain YAML it says the same
 * (LKD-ROUTE-025 then stays silent for that route).
 */
export const UNMATCHED_ANNOTATION = 'analysis.cdk8s-linkerd.io/unmatched';
