import { Severity } from '../../finding';
import { Rule, RuleArea } from '../../rule';
import { allRoutes } from '../route-helpers';
import { groupIs, kindIs, refList, specOf } from '../policy-helpers';
import { POLICY_GROUP } from '../../model/mesh-index';

/** Inbound routes: a Server parentRef the inbound index would ignore. */
export const serverParentRefRule: Rule = {
  id: 'LKD-POL-020',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  doc: {
    title: 'A Server parentRef has group policy.linkerd.io, no port/sectionName, and the route\'s namespace',
    why: 'The inbound index attaches a route to a Server only when the parentRef says group policy.linkerd.io (an omitted group '
      + 'defaults to gateway.networking.k8s.io), sets neither port nor sectionName, and stays in the route\'s namespace. '
      + 'Otherwise the route, and any authorization on it, is silently ignored.',
    fix: 'Write parentRefs: [{group: policy.linkerd.io, kind: Server, name: <server>}] and keep the route beside the Server.',
    badExample: 'parentRefs:\n- kind: Server\n  name: orders-http\n  port: 8080',
    goodExample: 'parentRefs:\n- group: policy.linkerd.io\n  kind: Server\n  name: orders-http',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      refList(specOf(route).parentRefs).forEach((ref, i) => {
        if (!kindIs(ref, 'Server')) return;
        const path = `spec.parentRefs[${i}] (Server ${String(ref.name)})`;
        const problems: string[] = [];
        if (!groupIs(ref, POLICY_GROUP)) problems.push(`has group ${JSON.stringify(ref.group ?? null)} instead of policy.linkerd.io`);
        const raw = ref as any;
        if (raw.port !== undefined) problems.push('sets port');
        if (raw.sectionName !== undefined) problems.push('sets sectionName');
        if (ref.namespace !== undefined && ref.namespace !== route.id.namespace) problems.push(`points at namespace ${ref.namespace}`);
        if (problems.length > 0) {
          ctx.report(route, `${path} ${problems.join(', ')}; the inbound index ignores such a parent, so the route never attaches to the Server.`);
        }
      });
    }
  },
};
