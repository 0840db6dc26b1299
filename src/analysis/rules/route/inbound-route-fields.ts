import { isRecord } from '../../../util/json';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { allRoutes, backendRefs, isGrpcRoute, rules } from '../../model/routes/lists';
import { onlyServerParents } from '../../model/routes/parents';
import { Rule, RuleArea } from '../../rule';

/**
 * The rule fields of a Server-only route that the inbound index drops, in `spec.rules` order. GRPCRoute timeouts are
 * left to LKD-ROUTE-018: the CRD has no such field at all.
 */
function droppedFields(route: IndexedObject): string[] {
  const dropped: string[] = [];
  const list = rules(route);
  for (let r = 0; r < list.length; r++) {
    if (!isGrpcRoute(route) && isRecord(list[r]?.timeouts)) dropped.push(`rules[${r}].timeouts`);
    if (backendRefs(list[r]).length > 0) dropped.push(`rules[${r}].backendRefs`);
  }
  return dropped;
}

/**
 * A route whose parents are all Servers is inbound policy: the policy controller keeps its hostnames, matches and
 * filters, to decide which requests its authorizations cover, and nothing else. Timeouts and backends written on it
 * pass admission and then do nothing.
 */
export const inboundRouteFields: Rule = {
  id: 'LKD-ROUTE-028',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Ignored: the inbound index keeps only hostnames, matches and filters of a Server\'s route (policy-'
      + 'controller/k8s/index/src/inbound/index/http.rs TryFrom<gateway::HTTPRoute>), so its timeouts and backends do'
      + ' nothing.',
    title: 'A Server\'s (inbound) route carries no timeouts or backends',
    why: 'A route whose parentRefs are all Servers reaches only the inbound policy index, which reads its hostnames, matches and '
      + 'filters and drops the rest: `rules[].timeouts` sets no server-side timeout, and `rules[].backendRefs` sends nothing '
      + 'anywhere (the selected pod serves every request the route matches, whatever the backends and weights say). Both pass '
      + 'the API server and Linkerd\'s admission webhook, so the author believes a timeout or a split is in force that is not.',
    fix: 'Put timeouts and backends on a route whose parentRef is the Service (the client side, where Linkerd applies them); '
      + 'keep only matches and filters on the Server\'s route, which exists for per-route authorization.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index/http.rs TryFrom<gateway::HTTPRoute>, TryFrom<policy::HttpRoute> '
      + '(each rule keeps matches and filters only); policy-controller/k8s/index/src/inbound/index/grpc.rs TryFrom<gateway::GRPCRoute>; '
      + 'policy-controller/runtime/src/admission.rs (timeouts and backendRefs admitted on any parent)',
    badExample: 'parentRefs: [{group: policy.linkerd.io, kind: Server, name: orders-http}]\nrules:\n- timeouts: {request: 5s}\n'
      + '  backendRefs: [{name: orders, port: 80}]',
    goodExample: 'parentRefs: [{group: policy.linkerd.io, kind: Server, name: orders-http}]\nrules:\n- matches: [{path: {value: /orders}}]',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      if (!onlyServerParents(route)) continue;
      const dropped = droppedFields(route);
      if (dropped.length === 0) continue;
      const effects = [
        ...dropped.some((f) => f.endsWith('.timeouts')) ? ['no timeout applies'] : [],
        ...dropped.some((f) => f.endsWith('.backendRefs')) ? ['no request goes to these backends (the selected pods serve what the route matches)'] : [],
      ];
      ctx.report(route, `${dropped.join(', ')} ${dropped.length === 1 ? 'is' : 'are'} set, but every parent of this route is a Server: `
        + `the inbound policy index keeps only its matches and filters, so ${effects.join(' and ')}. Move `
        + `${dropped.length === 1 ? 'it' : 'them'} to a route whose parent is the Service.`);
    }
  },
};
