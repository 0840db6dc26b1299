import { TIMEOUT_REQUEST_ANNOTATION } from '../../../core/linkerd-grammar';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { allRoutes, hasAnnotation, hasLinkerdParent, isGrpcRoute, isRecord, rules } from '../../model/route-view';
import { Rule, RuleArea, RuleContext } from '../../rule';

function checkRule(ctx: RuleContext, route: IndexedObject, timeouts: Record<string, any>, r: number): void {
  const base = `rules[${r}].timeouts`;
  if (isGrpcRoute(route)) {
    ctx.report(route, `${base} is set, but GRPCRoute has no timeouts field; the API server drops or rejects it. Use the `
      + `${TIMEOUT_REQUEST_ANNOTATION} annotation on the route instead.`);
    return;
  }
  // What Linkerd does not apply matters only on a route Linkerd reads; a Gateway's implementation may honour both.
  if (!hasLinkerdParent(route, ctx.index)) return;
  if (timeouts.backendRequest !== undefined) {
    ctx.report(route, `${base}.backendRequest is set, but Linkerd 2.20 never reads it (only admission checks it) and never sends it to proxies, so no `
      + `per-backend timeout applies. Remove it, or use ${base}.request / the retry.linkerd.io/timeout annotation for per-attempt limits.`);
  }
  if (timeouts.request !== undefined && hasAnnotation(route.object, TIMEOUT_REQUEST_ANNOTATION)) {
    ctx.report(route, `${base}.request is set, but the route's ${TIMEOUT_REQUEST_ANNOTATION} annotation takes precedence, so `
      + `${base}.request is ignored. Keep one of the two.`);
  }
}

/** Timeout fields that pass every validation and still do nothing. */
export const ignoredTimeouts: Rule = {
  id: 'LKD-ROUTE-018',
  area: RuleArea.ROUTE,
  severity: Severity.WARNING,
  doc: {
    title: 'Route timeout fields that Linkerd 2.20 does not apply',
    why: 'Linkerd 2.20 reads only `timeouts.request` of a rule: `timeouts.backendRequest` is checked at admission (by the '
      + 'Gateway API CRD, and by Linkerd\'s webhook on policy.linkerd.io HTTPRoutes) but never sent to proxies (the docs say otherwise). '
      + 'GRPCRoute has no `timeouts` field at all. A `timeout.linkerd.io/request` annotation on the route overrides every '
      + '`rules[].timeouts.request`. In each case the author believes a timeout is in force that is not.',
    fix: 'Use `rules[].timeouts.request` or the `timeout.linkerd.io/request` annotation (one of them) for HTTPRoute, and the '
      + 'annotation for GRPCRoute; use `retry.linkerd.io/timeout` for a per-attempt limit.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs convert_gateway_rule (reads only '
      + 'rules[].timeouts.request, after the timeout.linkerd.io/request annotation); '
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
