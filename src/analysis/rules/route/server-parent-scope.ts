import { FindingEffect, Severity } from '../../finding';
import { serverParentProblems } from '../../model/routes/conversion';
import { everyRoute } from '../../model/routes/lists';
import { isServerParent, parentRefs } from '../../model/routes/parents';
import { Rule, RuleArea } from '../../rule';

/** Linkerd's inbound index drops Server parentRefs that carry a port, a sectionName, or point across namespaces. */
export const serverParentScope: Rule = {
  id: 'LKD-ROUTE-022',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Never applies: policy-controller/k8s/index/src/inbound/routes.rs ParentRef::from_http_parent_ref refuses the'
      + ' parentRef and the whole route with it.',
    title: 'A Server parentRef sets no port or sectionName and stays in the route\'s namespace',
    why: 'A Server already names its port. Linkerd\'s inbound index refuses a Server parentRef that sets `port` or '
      + '`sectionName`, or whose `namespace` differs from the route\'s, and with it the whole route, on every Server it names: '
      + 'the route (and any AuthorizationPolicy that targets it) never applies to inbound traffic, and the Servers get their '
      + 'default routes. The schema accepts all three.',
    fix: 'Remove `port` and `sectionName` from Server parentRefs and create the route in the Server\'s namespace.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/routes.rs ParentRef::from_http_parent_ref, '
      + 'ParentRef::from_grpc_parent_ref (InvalidParentRef SpecifiesPort, SpecifiesSection, '
      + 'ServerInAnotherNamespace)',
    badExample: 'parentRefs:\n- {group: policy.linkerd.io, kind: Server, name: orders-http, port: 8080}',
    goodExample: 'parentRefs:\n- {group: policy.linkerd.io, kind: Server, name: orders-http}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      const refs = parentRefs(route);
      for (let i = 0; i < refs.length; i++) {
        const ref = refs[i];
        if (!isServerParent(ref, route)) continue;
        const problems = serverParentProblems(route, ref);
        if (problems.length === 0) continue;
        ctx.report(route, `parentRefs[${i}] (Server ${ref.name}) ${problems.join(' and ')}; Linkerd's inbound index refuses such a `
          + 'Server parent and with it the whole route, on every Server it names, so the route and the AuthorizationPolicies that target it '
          + 'never apply. Remove them (a Server parent is always local and already names its port).', { effect: FindingEffect.IGNORED });
      }
    }
  },
};
