/**
 * Backend weights, LKD-ROUTE-009's question: the Gateway API v1.2.1 CRD accepts a backendRef weight only as an integer
 * from 0 to 1,000,000, and Linkerd's proxy balances a rule's backends by weight (linkerd2
 * policy-controller/grpc/src/outbound/http.rs convert_outbound_route), so a rule whose backends all weigh 0 forwards
 * nothing. One pure check, used by the route constructs at synth, by the engine on YAML and by the traffic shares.
 */

/** The largest weight the CRD accepts (backendRefs[].weight maximum). */
export const MAX_WEIGHT = 1_000_000;

/** Whether the API server accepts a weight: an integer from 0 to MAX_WEIGHT. */
export function isValidWeight(weight: unknown): weight is number {
  return typeof weight === 'number' && Number.isInteger(weight) && weight >= 0 && weight <= MAX_WEIGHT;
}

/** A backend's weight; 1 when it sets none (the CRD's default). */
export function weightOrDefault(weight: unknown): unknown {
  return weight === undefined ? 1 : weight;
}

/** Whether a rule with these backend weights (undefined: unset) forwards nothing: it has backends and all weigh 0. */
export function forwardsNothing(weights: readonly unknown[]): boolean {
  return weights.length > 0 && weights.every((w) => weightOrDefault(w) === 0);
}
