import { GATEWAY_GROUP, POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { isCoreGroup } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { everyRoute } from '../../model/routes/lists';
import { ParentRef, parentRefs } from '../../model/routes/parents';
import { Rule, RuleArea } from '../../rule';

/**
 * An EgressNetwork parentRef whose group, as the API server leaves it, is not policy.linkerd.io (outbound/index.rs
 * is_egress_network). Server parents are LKD-POL-020's.
 */
function policyParentProblem(route: IndexedObject, ref: ParentRef): string | undefined {
  if (typeof ref.kind !== 'string' || ref.kind.toLowerCase() !== 'egressnetwork') return undefined;
  const group = typeof ref.group === 'string' ? ref.group : route.group === POLICY_GROUP ? POLICY_GROUP : GATEWAY_GROUP;
  if (group.toLowerCase() === POLICY_GROUP) return undefined;
  return ref.group === undefined
    ? `names ${ref.kind} "${String(ref.name)}" without a group; the API server defaults it to ${group}`
    : `names ${ref.kind} "${String(ref.name)}" in group ${JSON.stringify(ref.group)}`;
}

/** The omitted-group trap: `kind: Service` without `group` defaults to the Gateway group and never attaches. */
export const omittedParentGroup: Rule = {
  id: 'LKD-ROUTE-001',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Never applies: with the group defaulted by the CRD, policy-controller/k8s/index/src/outbound/index.rs '
      + 'is_parent_service does not see a Service parent, so the route is never attached.',
    title: 'A Service parentRef sets group "core" (or "") explicitly; an EgressNetwork one is in policy.linkerd.io',
    why: 'The Gateway API CRD defaults an omitted parentRef group to gateway.networking.k8s.io (the policy.linkerd.io '
      + 'HTTPRoute CRD to policy.linkerd.io), so `kind: Service` without a group names a kind that does not exist. Linkerd '
      + 'never attaches the route and reports nothing. Likewise an EgressNetwork parent counts only in group '
      + 'policy.linkerd.io, which a Gateway API route must spell out (Server parents: LKD-POL-020).',
    fix: 'Set `group: core` (Linkerd\'s spelling) or `group: ""` on every parentRef with `kind: Service`, and '
      + '`group: policy.linkerd.io` on one with `kind: EgressNetwork`.',
    linkerdSource: 'Gateway API v1.2.1 CRD default (parentRefs[].group: gateway.networking.k8s.io; charts/linkerd-crds/templates/policy/httproute.yaml: policy.linkerd.io); '
      + 'policy-controller/k8s/index/src/outbound/index.rs is_parent_service, is_parent_egress_network',
    badExample: 'parentRefs:\n- kind: Service\n  name: orders\n  port: 8080',
    goodExample: 'parentRefs:\n- group: core\n  kind: Service\n  name: orders\n  port: 8080',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      const refs = parentRefs(route);
      for (let i = 0; i < refs.length; i++) {
        const ref = refs[i];
        const policyProblem = policyParentProblem(route, ref);
        if (policyProblem) {
          ctx.report(route, `parentRefs[${i}] ${policyProblem}; Linkerd takes ${ref.kind} parents only in group policy.linkerd.io, so it `
            + `silently ignores this parent. Set parentRefs[${i}].group to policy.linkerd.io.`, { effect: FindingEffect.IGNORED });
          continue;
        }
        if (ref.kind !== 'Service') continue;
        if (ref.group === undefined || ref.group === 'gateway.networking.k8s.io') {
          const defaulted = ref.group ?? (route.group === POLICY_GROUP ? POLICY_GROUP : GATEWAY_GROUP);
          ctx.report(route, `parentRefs[${i}] names Service "${ref.name}" without group "core"; `
            + `the API server defaults the group to ${defaulted} and Linkerd silently ignores the route.`, { effect: FindingEffect.IGNORED });
        } else if (!isCoreGroup(ref.group)) {
          // Any other group names a Service kind that does not exist either (e.g. policy.linkerd.io, copied from a Server parent).
          ctx.report(route, `parentRefs[${i}] names Service "${ref.name}" in group ${JSON.stringify(ref.group)}; only the core group `
            + 'has Services, so Linkerd silently ignores the route.', { effect: FindingEffect.IGNORED });
        }
      }
    }
  },
};
