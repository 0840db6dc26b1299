import { POLICY_GROUP } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { authorizationTarget, targetObject } from '../../model/inbound/authorizations';
import { specOf } from '../../model/objects';
import { refList } from '../../model/refs';
import { isServerParent } from '../../model/routes/parents';
import { Rule, RuleArea } from '../../rule';

/** Inbound authorization reads routes attached to Servers; a policy on a Service-parented route authorizes nothing. */
export const routeAuthorizationWithoutServerRule: Rule = {
  id: 'LKD-POL-017',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Never applies: policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::route_client_authzs reads only '
      + 'routes whose parent is a Server.',
    title: 'An AuthorizationPolicy on a route targets a route attached to a Server',
    why: 'Route-level authorization is part of inbound policy: it only applies to routes whose parentRef is a Server. '
      + 'A route attached to a Service configures the clients\' outbound routing; an AuthorizationPolicy targeting it is '
      + 'accepted but never consulted, so the traffic it was meant to allow stays denied (or stays open).',
    fix: 'Target the Server instead, or create an inbound route (parentRef kind Server, group policy.linkerd.io) and target that.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::route_client_authzs (only routes whose '
      + 'parent is a Server); policy-controller/k8s/index/src/inbound/routes.rs ParentRef::from_http_parent_ref',
    badExample: 'targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: orders-split}   # parent is Service orders',
    goodExample: 'targetRef: {group: policy.linkerd.io, kind: Server, name: orders-http}',
  },
  check(ctx) {
    for (const policy of ctx.index.own(POLICY_GROUP, 'AuthorizationPolicy')) {
      const target = authorizationTarget(policy);
      if (!target || (target.kind !== 'HTTPRoute' && target.kind !== 'GRPCRoute')) continue;
      const route = targetObject(ctx.index, policy, target);
      if (!route) continue; // LKD-POL-001
      if (refList(specOf(route).parentRefs).some((ref) => isServerParent(ref, route))) continue;
      ctx.report(policy, `spec.targetRef names ${target.kind} ${target.name}, which has no Server parentRef; route-level authorization `
        + 'only applies to routes attached to a Server, so this policy is never consulted.');
    }
  },
};
