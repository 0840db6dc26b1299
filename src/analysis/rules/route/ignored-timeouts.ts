import { parseLinkerdDuration } from '../../../core/linkerd-grammar';
import { TIMEOUT_ANNOTATIONS, TIMEOUT_REQUEST_ANNOTATION } from '../../../core/vocabulary';
import { isRecord } from '../../../util/json';
import { Severity } from '../../finding';
import { annotationOf, hasAnnotation } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { allRoutes, isGrpcRoute, rules } from '../../model/routes/lists';
import { isOutboundRoute } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';
import { describeKeys, presentKeys, retryParents, ruleRequestIsZero } from '../retry/retry-config';

function checkRule(ctx: RuleContext, route: IndexedObject, timeouts: Record<string, any>, r: number): void {
  const base = `rules[${r}].timeouts`;
  if (isGrpcRoute(route)) {
    ctx.report(route, `${base} is set, but GRPCRoute has no timeouts field; the API server drops or rejects it. Use the `
      + `${TIMEOUT_REQUEST_ANNOTATION} annotation on the route instead.`);
    return;
  }
  // What Linkerd does not apply matters only on a route whose timeouts Linkerd reads: a Gateway's implementation may honour
  // both, and a Server's route keeps no timeouts at all (LKD-ROUTE-028).
  if (!isOutboundRoute(route, ctx.index)) return;
  const backend = parseLinkerdDuration(timeouts.backendRequest);
  // One Linkerd cannot read is LKD-ROUTE-014's. One not below a (non-zero) request timeout would never fire before it, so
  // ignoring it changes nothing (advice only).
  if (timeouts.backendRequest !== undefined && backend.ok) {
    const request = parseLinkerdDuration(timeouts.request);
    const moot = request.ok && request.value > 0 && backend.value >= request.value;
    ctx.report(route, `${base}.backendRequest is set, but Linkerd 2.20 never reads it (only admission checks it) and never sends it to proxies, so no `
      + `per-backend timeout applies${moot ? ' (it is not below the request timeout, so nothing changes)' : ''}. Remove it, or use `
      + `${base}.request / the retry.linkerd.io/timeout annotation for per-attempt limits.`, moot ? { severity: Severity.INFO } : undefined);
  }
  if (timeouts.request !== undefined && hasAnnotation(route.object, TIMEOUT_REQUEST_ANNOTATION)) {
    // The same duration in both changes nothing: advice only.
    const rule = parseLinkerdDuration(timeouts.request);
    const annotation = parseLinkerdDuration(annotationOf(route.object, TIMEOUT_REQUEST_ANNOTATION));
    const same = rule.ok && annotation.ok && rule.value === annotation.value;
    ctx.report(route, `${base}.request is set, but the route's ${TIMEOUT_REQUEST_ANNOTATION} annotation takes precedence, so `
      + `${base}.request is ignored${same ? ' (both say the same, so nothing changes)' : ''}. Keep one of the two.`,
    same ? { severity: Severity.INFO } : undefined);
    return;
  }
  checkZeroRequest(ctx, route, r);
}

/**
 * A zero request timeout means "no timeout" to Gateway API (GEP-1742). Linkerd reads it as unset: with no timeout of
 * its own the rule then takes every timeout of its parent (grpc/src/outbound/http.rs convert_outbound_route).
 */
function checkZeroRequest(ctx: RuleContext, route: IndexedObject, r: number): void {
  if (!ruleRequestIsZero(route, r) || presentKeys(route, TIMEOUT_ANNOTATIONS).length > 0) return;
  for (const parent of retryParents(route, ctx.index)) {
    const keys = parent.object ? presentKeys(parent.object, TIMEOUT_ANNOTATIONS) : [];
    if (keys.length === 0) continue;
    ctx.report(route, `rules[${r}].timeouts.request is zero, which Gateway API reads as "no timeout", but Linkerd reads it as unset, so the `
      + `rule takes the timeouts of ${parent.label}: ${describeKeys(parent.object!, keys)}. A route sheds them only by having a timeout `
      + `of its own (any timeout.linkerd.io annotation on it hides all of the parent's), or move them from ${parent.label} to the routes that need them.`);
  }
}

/** Timeout fields that pass every validation and still do nothing. */
export const ignoredTimeouts: Rule = {
  id: 'LKD-ROUTE-018',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Ignored: policy-controller/k8s/index/src/outbound/index/http.rs convert_gateway_rule reads only '
      + 'timeouts.request, after the annotation; GRPCRoute has no timeouts field.',
    title: 'Route timeout fields that Linkerd 2.20 does not apply',
    why: 'Linkerd 2.20 reads only `timeouts.request` of a rule: `timeouts.backendRequest` is checked at admission (by the '
      + 'Gateway API CRD, and by Linkerd\'s webhook on policy.linkerd.io HTTPRoutes) but never sent to proxies (the docs say otherwise). '
      + 'GRPCRoute has no `timeouts` field at all. A `timeout.linkerd.io/request` annotation on the route overrides every '
      + '`rules[].timeouts.request`. In each case the author believes a timeout is in force that is not. Conversely, a zero '
      + '`timeouts.request` ("no timeout" in Gateway API) is read as unset, so the rule keeps every timeout of its parent '
      + 'Service or EgressNetwork.',
    fix: 'Use `rules[].timeouts.request` or the `timeout.linkerd.io/request` annotation (one of them) for HTTPRoute, and the '
      + 'annotation for GRPCRoute; use `retry.linkerd.io/timeout` for a per-attempt limit.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs convert_gateway_rule (reads only '
      + 'rules[].timeouts.request, after the timeout.linkerd.io/request annotation; zero is unset); '
      + 'policy-controller/grpc/src/outbound/http.rs convert_outbound_route (a rule without timeouts takes the parent\'s); '
      + 'policy-controller/runtime/src/admission.rs Validate<HttpRouteSpec> validate_timeouts',
    badExample: 'rules:\n- timeouts: {request: 10s, backendRequest: 2s}',
    goodExample: 'metadata:\n  annotations:\n    retry.linkerd.io/timeout: 2s\nspec:\n  rules:\n  - timeouts: {request: 10s}',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      const list = rules(route);
      for (let r = 0; r < list.length; r++) {
        if (isRecord(list[r]?.timeouts)) checkRule(ctx, route, list[r].timeouts, r);
      }
    }
  },
};
