import { FindingEffect, Severity } from '../../finding';
import { isCoreGroup } from '../../model/manifest';
import { GATEWAY_GROUP, POLICY_GROUP } from '../../model/mesh-index';
import { allRoutes, parentRefs } from '../../model/route-view';
import { Rule, RuleArea } from '../../rule';

/** The omitted-group trap: `kind: Service` without `group` defaults to the Gateway group and never attaches. */
export const omittedParentGroup: Rule = {
  id: 'LKD-ROUTE-001',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    title: 'A Service parentRef must set group "core" (or "") explicitly',
    why: 'The Gateway API CRD defaults an omitted parentRef group to gateway.networking.k8s.io (the policy.linkerd.io '
      + 'HTTPRoute CRD to policy.linkerd.io), so `kind: Service` without a group names a kind that does not exist. Linkerd '
      + 'never attaches the route and reports nothing.',
    fix: 'Set `group: core` (Linkerd\'s spelling) or `group: ""` on every parentRef with `kind: Service`.',
    linkerdSource: 'Gateway API v1.2.1 CRD default (parentRefs[].group: gateway.networking.k8s.io; charts/linkerd-crds/templates/policy/httproute.yaml: policy.linkerd.io); '
      + 'policy-controller/k8s/index/src/outbound/index.rs is_parent_service',
    badExample: 'parentRefs:\n- kind: Service\n  name: orders\n  port: 8080',
    goodExample: 'parentRefs:\n- group: core\n  kind: Service\n  name: orders\n  port: 8080',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      const refs = parentRefs(route);
      for (let i = 0; i < refs.length; i++) {
        const ref = refs[i];
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
