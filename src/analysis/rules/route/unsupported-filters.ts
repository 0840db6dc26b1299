import { lookupTable } from '../../../core/own-keys';
import { POLICY_GROUP } from '../../../core/vocabulary';
import { isRecord } from '../../../util/json';
import { FindingEffect, Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { isUnsupportedFilter } from '../../model/routes/conversion';
import { allRoutes, backendRefs, filtersOf, rules } from '../../model/routes/lists';
import { isEgressNetworkParent, isOutboundRoute, isServerParent, isServiceParent, parentRefs } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

/**
 * The filter types Linkerd's own HTTPRoute CRD allows, in every served version (charts/linkerd-crds/templates/policy/
 * httproute.yaml): ResponseHeaderModifier only on backendRefs. The API server refuses any other type.
 */
const POLICY_RULE_FILTERS = ['RequestHeaderModifier', 'RequestRedirect'];
const POLICY_BACKEND_FILTERS = ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestRedirect'];

/** On a policy.linkerd.io HTTPRoute, a filter type its CRD does not list: the apply itself fails. */
function refusedByPolicyCrd(ctx: RuleContext, route: IndexedObject, type: unknown, path: string, allowed: readonly string[]): boolean {
  if (route.group !== POLICY_GROUP || typeof type !== 'string' || allowed.includes(type)) return false;
  const elsewhere = type === 'ResponseHeaderModifier' ? ' (it is allowed on a backendRef\'s filters, or use a gateway.networking.k8s.io HTTPRoute)' : '';
  ctx.report(route, `${path} is a ${type} filter, which the policy.linkerd.io HTTPRoute CRD does not allow there (${allowed.join(', ')})${elsewhere}: `
    + `the API server refuses the route. Remove ${path}.`, { effect: FindingEffect.REJECTED });
  return true;
}

/** The field each unsupported filter type needs, and what that field requires (Gateway API v1.2.1 CRD validations). */
const FILTER_CONFIG = lookupTable<{ field: string; required: readonly string[] }>({
  RequestMirror: { field: 'requestMirror', required: ['backendRef'] },
  URLRewrite: { field: 'urlRewrite', required: [] },
  ExtensionRef: { field: 'extensionRef', required: ['group', 'kind', 'name'] },
});

/** What the Gateway API CRD refuses in an unsupported filter before Linkerd ever sees it, or undefined. */
function crdProblem(filter: Record<string, any>): string | undefined {
  const config = FILTER_CONFIG[filter.type];
  if (!config) return undefined;
  const value = filter[config.field];
  if (!isRecord(value)) return `a ${filter.type} filter needs ${config.field}`;
  const missing = config.required.filter((k) => value[k] === undefined);
  return missing.length > 0 ? `${config.field} needs ${missing.join(', ')}` : undefined;
}

function checkRuleFilters(ctx: RuleContext, route: IndexedObject, rule: unknown, r: number): void {
  const filters = filtersOf(rule);
  for (let f = 0; f < filters.length; f++) {
    const filter = filters[f];
    if (refusedByPolicyCrd(ctx, route, filter?.type, `rules[${r}].filters[${f}]`, POLICY_RULE_FILTERS) || !isUnsupportedFilter(route, filter?.type)) continue;
    const refused = crdProblem(filter);
    if (refused) {
      ctx.report(route, `rules[${r}].filters[${f}] is a ${filter.type} filter, which Linkerd does not support, and ${refused}: the API server `
        + `refuses the route. Remove rules[${r}].filters[${f}].`, { effect: FindingEffect.REJECTED });
      continue;
    }
    ctx.report(route, `rules[${r}].filters[${f}] is a ${filter.type} filter, which Linkerd does not support: the whole route fails `
      + 'conversion and is skipped for every client (only a controller log line says so), although the API server accepted it. '
      + `Remove rules[${r}].filters[${f}].`, { effect: FindingEffect.IGNORED });
  }
}

/**
 * The CRD refuses some backend filters on any route; the indexer converts backend filters only where backends are used
 * (`outbound`): a Server's routes keep none (inbound/index/http.rs).
 */
function checkBackendFilters(ctx: RuleContext, route: IndexedObject, rule: unknown, r: number, outbound: boolean): void {
  const backends = backendRefs(rule);
  for (let b = 0; b < backends.length; b++) {
    const filters = filtersOf(backends[b]);
    for (let f = 0; f < filters.length; f++) {
      const filter = filters[f];
      const path = `rules[${r}].backendRefs[${b}].filters[${f}]`;
      if (refusedByPolicyCrd(ctx, route, filter?.type, path, POLICY_BACKEND_FILTERS)) continue;
      if (!outbound || !isUnsupportedFilter(route, filter?.type)) continue;
      ctx.report(route, `${path} is a ${filter.type} filter, which Linkerd does not support: `
        + `that backend becomes invalid and its share of requests fails with HTTP 500. Remove ${path}.`);
    }
  }
}

/** Whether some parentRef is one Linkerd's indexes read: a Service, a Server or an EgressNetwork. */
function servedByLinkerd(route: IndexedObject): boolean {
  return parentRefs(route).some((ref) => isServiceParent(ref, route) || isServerParent(ref, route) || isEgressNetworkParent(ref, route));
}

/** Filters the webhook admits and the outbound indexer then refuses. */
export const unsupportedFilters: Rule = {
  id: 'LKD-ROUTE-011',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED, FindingEffect.REJECTED],
  doc: {
    certainty: 'Ignored: policy-controller/k8s/index/src/outbound/index/http.rs convert_gateway_filter cannot convert the '
      + 'filter and the route is dropped; Rejected where the CRD\'s filter enum refuses it.',
    title: 'Routes use only filters Linkerd supports (header modifiers; RequestRedirect on HTTPRoute)',
    why: 'Linkerd\'s webhook admits RequestMirror, URLRewrite and ExtensionRef, then its indexer cannot convert them. On a rule '
      + 'the whole route is dropped (for inbound and outbound use) with only a log warning; on a backendRef that backend '
      + 'becomes invalid and its share fails with HTTP 500. A GRPCRoute can only use the two header modifiers. Linkerd\'s own '
      + 'policy.linkerd.io HTTPRoute CRD lists only RequestHeaderModifier and RequestRedirect on a rule (ResponseHeaderModifier '
      + 'too on a backendRef), so the API server refuses a route with any other filter there.',
    fix: 'Remove the filter. Do path rewriting in the application, and traffic shadowing with a separate tool.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index/http.rs try_gateway_filter; '
      + 'charts/linkerd-crds/templates/policy/httproute.yaml (filters[].type enum); '
      + 'policy-controller/k8s/index/src/outbound/index/http.rs convert_gateway_filter, '
      + 'convert_gateway_backend_filter; policy-controller/k8s/index/src/outbound/index/grpc.rs convert_filter',
    badExample: 'rules:\n- filters:\n  - type: RequestMirror\n    requestMirror:\n      backendRef: {name: orders-shadow, port: 8080}\n  backendRefs: [{name: orders-v1, port: 8080}]',
    goodExample: 'rules:\n- filters:\n  - type: RequestHeaderModifier\n    requestHeaderModifier:\n      set: [{name: x-route, value: orders}]\n  backendRefs: [{name: orders-v1, port: 8080}]',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      // A route whose parents are all another implementation's (a Gateway) is not Linkerd's to convert or skip.
      if (!servedByLinkerd(route)) continue;
      const outbound = isOutboundRoute(route, ctx.index);
      const list = rules(route);
      for (let r = 0; r < list.length; r++) {
        checkRuleFilters(ctx, route, list[r], r);
        checkBackendFilters(ctx, route, list[r], r, outbound);
      }
    }
  },
};
