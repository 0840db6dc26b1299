import { FindingEffect, Severity } from '../../finding';
import { everyRoute, layer4Routes, rules } from '../../model/routes/lists';
import { isEgressNetworkParent, parentRefs } from '../../model/routes/parents';
import { isValidPort } from '../../model/service-ports';
import { Rule, RuleArea } from '../../rule';
import { reportRefusal } from '../refusal';

/** The two admission rules Linkerd applies to every route kind but the CRDs do not express. */
export const layer4AndEgress: Rule = {
  id: 'LKD-ROUTE-015',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Rejected: policy-controller/runtime/src/admission.rs Validate<gateway::TLSRouteSpec> and the EgressNetwork '
      + 'port check refuse the route.',
    title: 'TLSRoute/TCPRoute have exactly one rule; an EgressNetwork parentRef sets a port',
    why: 'Linkerd\'s webhook rejects a TLSRoute or TCPRoute with zero or several rules (it cannot split by rule at layer 4), '
      + 'and any route whose EgressNetwork parent has no port (an EgressNetwork covers many destinations, so the port is '
      + 'what selects traffic). The CRDs accept both, so the failure appears only at apply time. Where the webhook does not '
      + 'run (a namespace its selectors leave out), the route is applied and the policy controller\'s outbound index drops a '
      + 'layer-4 route without exactly one rule, and files a parent without a port under Services only.',
    fix: 'Give a TLSRoute/TCPRoute exactly one rule (weights inside it for splits); set `port` on EgressNetwork parentRefs.',
    linkerdSource: 'policy-controller/runtime/src/admission.rs Validate<gateway::TLSRouteSpec>::validate, '
      + 'Validate<gateway::TCPRouteSpec>::validate (single rule), is_parent_egress_network checks in every route '
      + 'Validate ("cannot target an EgressNetwork without specifying a port"); '
      + 'policy-controller/k8s/index/src/outbound/index/tls.rs and '
      + 'policy-controller/k8s/index/src/outbound/index/tcp.rs convert_route ("needs to have one rule"); '
      + 'policy-controller/k8s/index/src/outbound/index.rs (routes without a parent port are kept per Service name only)',
    badExample: 'kind: TCPRoute\nspec:\n  parentRefs: [{group: policy.linkerd.io, kind: EgressNetwork, name: internet}]\n  rules: []',
    goodExample: 'kind: TCPRoute\nspec:\n  parentRefs: [{group: policy.linkerd.io, kind: EgressNetwork, name: internet, port: 443}]\n'
      + '  rules:\n  - backendRefs: [{group: policy.linkerd.io, kind: EgressNetwork, name: internet}]',
  },
  check(ctx) {
    for (const route of layer4Routes(ctx.index)) {
      const count = rules(route).length;
      if (count === 1) continue;
      reportRefusal(ctx, route, {
        problem: `spec.rules has ${count} rules`,
        rejected: `Linkerd's webhook only admits a ${route.id.kind} with exactly one rule.`,
        noun: `the ${route.id.kind}`,
        ignored: 'but the policy controller converts only a route with exactly one rule and drops this one with a log line ("Failed to convert route").',
      });
    }
    for (const route of everyRoute(ctx.index)) {
      const refs = parentRefs(route);
      for (let i = 0; i < refs.length; i++) {
        const ref = refs[i];
        if (!isEgressNetworkParent(ref, route) || isValidPort(ref.port)) continue;
        const fix = `Set parentRefs[${i}].port to the destination port.`;
        reportRefusal(ctx, route, {
          problem: `parentRefs[${i}] (EgressNetwork ${String(ref.name)}) has no valid port`,
          rejected: `Linkerd's webhook rejects EgressNetwork parents without one. ${fix}`,
          noun: `the ${route.id.kind}`,
          ignored: `but the policy controller files a parent without a port under Services only, and no EgressNetwork traffic ever uses it. ${fix}`,
        });
      }
    }
  },
};
