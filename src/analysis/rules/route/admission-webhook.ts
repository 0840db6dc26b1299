import { GATEWAY_GROUP, POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { admissionRejections } from '../../model/admission';
import { Rule, RuleArea } from '../../rule';
import { reportRefusal } from '../refusal';

/** The route kinds whose matches and filters the webhook converts. */
const KINDS: ReadonlyArray<readonly [string, string]> = [[GATEWAY_GROUP, 'HTTPRoute'], [GATEWAY_GROUP, 'GRPCRoute'], [POLICY_GROUP, 'HTTPRoute']];


/** What Linkerd's policy admission webhook refuses in route matches and filters, which neither CRD expresses. */
export const admissionWebhook: Rule = {
  id: 'LKD-ROUTE-024',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Rejected: policy-controller/runtime/src/admission.rs Validate<gateway::HTTPRouteSpec> refuses the matches or'
      + ' filters; where the webhook does not run the indexer drops the route (Ignored).',
    title: 'The policy controller\'s admission webhook accepts the route\'s matches and filters',
    why: 'Linkerd\'s policy validator (policy-controller/runtime/src/admission.rs, Validate<HttpRouteSpec>, '
      + 'Validate<gateway::HTTPRouteSpec>, Validate<gateway::GRPCRouteSpec>) intercepts every HTTPRoute and GRPCRoute in '
      + 'namespaces its selectors let through (by the chart\'s, those not labelled config.linkerd.io/admission-webhooks: '
      + 'disabled; a ValidatingWebhookConfiguration in the input or the install\'s policyValidator values say otherwise), '
      + 'whatever their parents, and converts each '
      + 'match and rule filter as the index would (policy-controller/k8s/index/src/routes/http.rs try_match, path_match, '
      + 'header_match, query_param_match, request_header_modifier, response_header_modifier, req_redirect; routes/grpc.rs '
      + 'try_match, header_match). It refuses the whole object, so kubectl apply or the GitOps sync fails, when: a '
      + 'RegularExpression path, header value or query-parameter value does not compile with Rust\'s regex crate (no '
      + 'look-around, back-references, atomic groups or \\k; `{` is always a repetition) — JavaScript accepts several of '
      + 'these, and Rust accepts some JavaScript refuses (a**, (?i)), so only what Rust certainly refuses is reported '
      + '(src/core/rust-regex.ts); an Exact or PathPrefix path does not start with "/" (the Gateway API CRD refuses that '
      + 'too, but the policy.linkerd.io HTTPRoute CRD does not); a header name is not an HTTP token or a header value '
      + 'has control characters (in matches and in add/set/remove of header modifiers; the CRDs do not check remove '
      + 'names or values); a RequestRedirect path sets neither replaceFullPath nor replacePrefixMatch or does not start '
      + 'with "/"; a redirect status is not 100-999; a GRPCRoute method match has type RegularExpression. Query-parameter '
      + 'names, Exact query values and backendRefs filters are not checked at admission. Other rejections of the same '
      + 'webhook belong to LKD-ROUTE-015 (EgressNetwork parent ports, layer-4 rule count), LKD-RETRY-002 (retry and '
      + 'timeout annotations) and LKD-ROUTE-014 (timeouts). Where the webhook does not run, the same route is applied, '
      + 'and the policy controller\'s indexes, which convert it with the same functions, drop it whole with a log line.',
    fix: 'Write regular expressions in Rust regex syntax, absolute paths, HTTP-token header names and printable header '
      + 'values; match gRPC methods exactly.',
    linkerdSource: 'policy-controller/runtime/src/admission.rs Validate<HttpRouteSpec>, Validate<gateway::HTTPRouteSpec>, '
      + 'Validate<gateway::GRPCRouteSpec>; policy-controller/k8s/index/src/routes/http.rs try_match, path_match, '
      + 'header_match, req_redirect; policy-controller/k8s/index/src/routes/grpc.rs try_match; '
      + 'policy-controller/k8s/index/src/outbound/index.rs ("Failed to convert route"); '
      + 'policy-controller/k8s/index/src/inbound/index.rs ("Ignoring HTTPRoute"); '
      + 'charts/linkerd-control-plane/templates/destination-rbac.yaml (policyValidator.namespaceSelector)',
    badExample: 'matches:\n- path: {type: RegularExpression, value: "/orders/(?!internal).*"}\n- path: {type: PathPrefix, value: orders}',
    goodExample: 'matches:\n- path: {type: RegularExpression, value: "/orders/[^i].*"}\n- path: {type: PathPrefix, value: /orders}',
  },
  check(ctx) {
    for (const [group, kind] of KINDS) {
      for (const route of ctx.index.own(group, kind)) {
        const rejections = admissionRejections(route.object);
        if (rejections.length === 0) continue;
        for (const r of rejections) {
          reportRefusal(ctx, route, {
            problem: `${r.path} ${r.reason}`,
            rejected: `Linkerd's admission webhook rejects the ${kind} (${r.source}), so it cannot be applied. ${r.fix}`,
            noun: `the ${kind}`,
            ignored: `but the policy controller cannot convert it either (${r.source}) and ignores the whole route with only a log line `
              + `("Failed to convert route", "Ignoring ${kind === 'GRPCRoute' ? 'GrpcRoute' : kind}"). ${r.fix}`,
          });
        }
      }
    }
  },
};
