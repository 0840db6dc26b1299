import { listOf } from '../../../util/json';
import { Severity } from '../../finding';
import { allRoutes } from '../../model/routes/lists';
import { serviceParents } from '../../model/routes/parents';
import { Rule, RuleArea } from '../../rule';

/** GAMMA routes match on the Service, not the Host header; hostnames only add a way to miss. */
export const meshHostnames: Rule = {
  id: 'LKD-ROUTE-021',
  area: RuleArea.ROUTE,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: the authority clients send (policy-controller/k8s/index/src/routes.rs host_match matches it '
      + 'against the hostnames).',
    title: 'A route attached to a Service sets no hostnames',
    why: 'For mesh (GAMMA) routes the Service itself selects the traffic; GEP-1294 says meshes should not interpret '
      + '`hostnames`. Linkerd still hands them to the proxy as host matches, so a request whose authority differs from the '
      + 'listed names (e.g. `orders:8080` vs the full DNS name) may not match the route at all. Either way the field misleads.',
    fix: 'Remove `hostnames` from routes whose parent is a Service.',
    linkerdSource: 'policy-controller/k8s/index/src/routes.rs host_match; policy-controller/grpc/src/routes.rs '
      + 'convert_host_match',
    badExample: 'spec:\n  hostnames: [orders.shop.svc.cluster.local]\n  parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]',
    goodExample: 'spec:\n  parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      const hostnames = listOf(route.object.spec?.hostnames);
      if (hostnames.length === 0 || serviceParents(route, ctx.index).length === 0) continue;
      ctx.report(route, `spec.hostnames (${hostnames.map(String).join(', ')}) is set on a route whose parent is a Service; mesh routes select `
        + 'traffic by Service, and host matching can make calls by short name miss the route. Remove spec.hostnames.');
    }
  },
};
