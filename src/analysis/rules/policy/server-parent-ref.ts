import { FindingEffect, Severity } from '../../finding';
import { specOf } from '../../model/objects';
import { kindIs, refList } from '../../model/refs';
import { allRoutes } from '../../model/routes/lists';
import { isServerParent } from '../../model/routes/parents';
import { Rule, RuleArea } from '../../rule';

/** The Server analogue of the omitted-group trap: `kind: Server` without the policy group never attaches. */
export const serverParentGroupRule: Rule = {
  id: 'LKD-POL-020',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Never applies: policy-controller/k8s/index/src/inbound/routes.rs ParentRef::from_http_parent_ref ignores a '
      + 'Server parentRef outside group policy.linkerd.io.',
    title: 'A Server parentRef carries group policy.linkerd.io',
    why: 'Gateway API route parentRefs default an omitted group to gateway.networking.k8s.io, so on a gateway.networking.k8s.io '
      + 'HTTPRoute or GRPCRoute `kind: Server` without a group (or with another group) names a kind that does not exist. The '
      + 'inbound index (linkerd2 policy-controller/k8s/index/src/inbound/routes.rs, ParentRef::from_http_parent_ref, which asks '
      + 'k8s/api/src/policy.rs targets_kind) never attaches the route to the Server, so the route and any AuthorizationPolicy '
      + 'on it are silently ignored. Linkerd\'s own policy.linkerd.io HTTPRoute defaults the group to policy.linkerd.io, so '
      + 'there an omitted group is fine. (Port, sectionName and namespace on Server parents: LKD-ROUTE-022.)',
    fix: 'Write parentRefs: [{group: policy.linkerd.io, kind: Server, name: <server>}].',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/routes.rs ParentRef::from_http_parent_ref, '
      + 'ParentRef::from_grpc_parent_ref; policy-controller/k8s/api/src/policy/httproute.rs '
      + 'parent_ref_targets_kind; policy-controller/k8s/api/src/policy.rs targets_kind',
    badExample: 'parentRefs:\n- kind: Server\n  name: orders-http',
    goodExample: 'parentRefs:\n- group: policy.linkerd.io\n  kind: Server\n  name: orders-http',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      refList(specOf(route).parentRefs).forEach((ref, i) => {
        if (!kindIs(ref, 'Server') || isServerParent(ref, route)) return;
        const group = ref.group === undefined ? 'no group (defaulted to gateway.networking.k8s.io)' : `group ${JSON.stringify(ref.group)}`;
        ctx.report(route, `spec.parentRefs[${i}] names Server "${String(ref.name)}" with ${group}; only group policy.linkerd.io reaches `
          + 'a Linkerd Server, so the route never attaches. Set group: policy.linkerd.io.', { effect: FindingEffect.IGNORED });
      });
    }
  },
};
