import { FindingEffect, Severity } from '../../finding';
import { everyRoute } from '../../model/routes/lists';
import { parentRefs } from '../../model/routes/parents';
import { Rule, RuleArea } from '../../rule';

/** Without parentRefs a route belongs to nothing: no Service, no Server, no Gateway ever reads it. */
export const missingParents: Rule = {
  id: 'LKD-ROUTE-017',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Never applies: a route is indexed only under its parentRefs (policy-'
      + 'controller/k8s/index/src/outbound/index.rs Namespace::apply_http_route).',
    title: 'A route has at least one parentRef',
    why: 'parentRefs is optional in the schema, so a route without it is accepted, but Linkerd (like every Gateway API '
      + 'implementation) only acts on routes attached to a parent. Such a route is dead configuration that looks live.',
    fix: 'Add a parentRef: `{group: core, kind: Service, name: <service>, port: <port>}` for mesh (outbound) routes, '
      + 'or `{group: policy.linkerd.io, kind: Server, name: <server>}` for inbound policy routes.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index.rs Namespace::apply_http_route and '
      + 'policy-controller/k8s/index/src/inbound/routes.rs ParentRef::collect_from_http (a route is indexed only '
      + 'under its parentRefs)',
    badExample: 'kind: HTTPRoute\nspec:\n  rules:\n  - backendRefs: [{name: orders-v2, port: 8080}]',
    goodExample: 'kind: HTTPRoute\nspec:\n  parentRefs:\n  - {group: core, kind: Service, name: orders, port: 8080}\n  rules:\n  - backendRefs: [{name: orders-v2, port: 8080}]',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      if (parentRefs(route).length > 0) continue;
      ctx.report(route, 'spec.parentRefs is missing or empty, so the route is attached to nothing and Linkerd never uses it; '
        + 'add a Service (or Server) parentRef.', { effect: FindingEffect.IGNORED });
    }
  },
};
