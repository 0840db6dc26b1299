/**
 * Why Linkerd's indexes refuse a whole route: a filter it cannot convert (linkerd2
 * policy-controller/k8s/index/src/outbound/index/http.rs convert_gateway_filter, grpc.rs convert_filter,
 * inbound/index/http.rs try_gateway_filter) or an invalid Server parentRef (inbound/routes.rs
 * ParentRef::from_http_parent_ref).
 */
import { filtersOf, isGrpcRoute, rules } from './lists';
import { isServerParent, ParentRef, parentRefs } from './parents';
import { IndexedObject } from '../mesh-index';

/**
 * Gateway API filter types Linkerd 2.20 cannot convert (outbound/index/http.rs convert_gateway_filter, grpc.rs
 * convert_filter, inbound/index/http.rs try_gateway_filter), and RequestRedirect on a GRPCRoute. CORS and other
 * post-1.2.1 types are LKD-ROUTE-020's.
 */
const NEVER_SUPPORTED = new Set(['RequestMirror', 'URLRewrite', 'ExtensionRef']);

export function isUnsupportedFilter(route: IndexedObject, type: unknown): type is string {
  if (typeof type !== 'string') return false;
  return NEVER_SUPPORTED.has(type) || (isGrpcRoute(route) && type === 'RequestRedirect');
}

/**
 * Why Linkerd's indexes never use this route at all, or undefined: a rule filter it cannot convert fails the whole
 * route's conversion (outbound/index.rs apply_http_route, apply_grpc_route: "Failed to convert route", and the route
 * is not filed). Its status is still written, so it still conflicts identical parentRefs of lower-ranked kinds.
 */
export function unconvertibleRoute(route: IndexedObject): string | undefined {
  const list = rules(route);
  for (let r = 0; r < list.length; r++) {
    const filters = filtersOf(list[r]);
    for (let f = 0; f < filters.length; f++) {
      if (isUnsupportedFilter(route, filters[f]?.type)) return `rules[${r}].filters[${f}] is a ${filters[f].type} filter, which Linkerd cannot convert`;
    }
  }
  return undefined;
}

/** What is wrong with a Server parentRef for the inbound index (routes.rs ParentRef::from_http_parent_ref), or nothing. */
export function serverParentProblems(route: IndexedObject, ref: ParentRef): string[] {
  const problems: string[] = [];
  // Rust reads a null field as absent.
  if (ref.port !== undefined && ref.port !== null) problems.push(`sets port ${JSON.stringify(ref.port)}`);
  if (ref.sectionName !== undefined && ref.sectionName !== null) problems.push(`sets sectionName ${JSON.stringify(ref.sectionName)}`);
  if (typeof ref.namespace === 'string' && ref.namespace !== route.id.namespace) {
    problems.push(`points to namespace "${ref.namespace}" instead of the route's "${route.id.namespace ?? ''}"`);
  }
  return problems;
}

/**
 * Why Linkerd's inbound index never indexes this route, for any Server, or undefined: one invalid Server parentRef (a
 * port, a sectionName, another namespace) or one rule filter it cannot convert fails the whole binding, and the route
 * is ignored with a log line (inbound/index.rs apply_http_route, apply_grpc_route; index/http.rs, index/grpc.rs).
 */
export function inboundBindingProblem(route: IndexedObject): string | undefined {
  const refs = parentRefs(route);
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i];
    // A parentRef without a name is skipped, not refused.
    if (!isServerParent(ref, route) || typeof ref.name !== 'string' || ref.name === '') continue;
    const problems = serverParentProblems(route, ref);
    if (problems.length > 0) return `parentRefs[${i}] (Server ${ref.name}) ${problems.join(' and ')}`;
  }
  return unconvertibleRoute(route);
}
