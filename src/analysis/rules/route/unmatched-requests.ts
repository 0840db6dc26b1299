import { rulesCoverAll } from '../../../core/route-coverage';
import { UNMATCHED_ANNOTATION, UnmatchedRequests } from '../../../core/unmatched-requests';
import { compareStrings } from '../../../util/compare';
import { Severity } from '../../finding';
import { annotationOf } from '../../model/manifest';
import { OutboundParentKind, PortRoute, ServedRoutes, ServicePortPolicy, outboundPolicy, servedTo } from '../../model/outbound';
import { routeAudiences, servedToConsumers } from '../../model/route-audiences';
import { RouteFamily } from '../../model/routes/lists';
import { Rule, RuleArea } from '../../rule';

function coversAll(route: PortRoute): boolean {
  return rulesCoverAll(route.route.object.spec?.rules, route.family === RouteFamily.GRPC);
}

/** The client groups of a port: everyone (producer routes), and each consumer namespace (its routes plus the producer's). */
function clientGroups(view: ServicePortPolicy): Array<{ label: string; served: ServedRoutes }> {
  const groups = [{ label: 'every client', served: servedTo(view) }];
  const audiences = routeAudiences(view.attached);
  for (const ns of [...audiences.consumers.keys()].sort(compareStrings)) {
    groups.push({ label: `clients in namespace ${ns}`, served: servedToConsumers(view, audiences, ns) });
  }
  return groups;
}

/**
 * Once a route is served on a Service port, the default route is gone: a request that matches no rule gets 404. A
 * route that matches only some requests (the reads to retry, one method to canary) silently cuts off the rest.
 */
export const unmatchedRequests: Rule = {
  id: 'LKD-ROUTE-025',
  area: RuleArea.ROUTE,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: whether clients send requests outside the matches; those get 404 (policy-'
      + 'controller/grpc/src/outbound/http.rs base_http_routes), which a construct\'s `unmatched` choice can declare '
      + 'intended.',
    title: 'Routes on a Service port match every request, or the rest is meant to get 404',
    why: 'The policy controller gives a Service port its default route (every request to the Service) only while no route is '
      + 'served there (linkerd2 policy-controller/grpc/src/outbound/http.rs base_http_routes, grpc.rs alike). Once an '
      + 'HTTPRoute or GRPCRoute whose rules all have matches is served, requests outside every match get HTTP 404 (gRPC: '
      + 'UNIMPLEMENTED), with nothing in the manifests saying so. Routes in the Service\'s namespace serve every client; a '
      + 'route in another namespace adds to them for its own namespace\'s clients (k8s/index/src/outbound/index.rs).',
    fix: 'Add a rule without matches (or a PathPrefix "/" match) that sends the rest to the Service, e.g. '
      + 'unmatched: UnmatchedRequests.ROUTE_TO_SERVICE on the route construct; when the 404 is intended, say so: '
      + 'unmatched: UnmatchedRequests.NOT_FOUND on the construct, or the annotation analysis.cdk8s-linkerd.io/unmatched: NotFound.',
    linkerdSource: 'policy-controller/grpc/src/outbound/http.rs base_http_routes, default_outbound_service_route; '
      + 'policy-controller/k8s/index/src/outbound/index.rs Namespace::resource_routes_or_default',
    badExample: 'rules:\n- matches: [{path: {type: PathPrefix, value: /orders}, method: GET}]\n  backendRefs: [{name: orders, port: 8080}]',
    goodExample: 'rules:\n- matches: [{path: {type: PathPrefix, value: /orders}, method: GET}]\n  backendRefs: [{name: orders, port: 8080}]\n- backendRefs: [{name: orders, port: 8080}]   # the rest',
  },
  check(ctx) {
    for (const ports of outboundPolicy(ctx.index, ctx.context).values()) {
      for (const view of ports.values()) {
        // An EgressNetwork keeps its fallback route whatever routes are served (grpc/src/outbound/http.rs base_http_routes).
        if (view.parentKind !== OutboundParentKind.SERVICE) continue;
        for (const { label, served: { family, routes } } of clientGroups(view)) {
          if ((family !== RouteFamily.HTTP && family !== RouteFamily.GRPC) || routes.some(coversAll)) continue;
          const where = `Service ${view.service.id.namespace}/${view.service.id.name} port ${view.port}`;
          const what = family === RouteFamily.GRPC ? 'a call no rule matches fails with UNIMPLEMENTED' : 'a request no rule matches gets 404';
          for (const route of routes) {
            // The author said the rest is meant to get 404 (a route construct's unmatched: NOT_FOUND writes this).
            if (annotationOf(route.route.object, UNMATCHED_ANNOTATION) === UnmatchedRequests.NOT_FOUND) continue;
            ctx.report(route.route, `every rule of ${route.route.id.kind} ${route.route.id.name} has matches, and no route served on ${where} `
              + `matches the rest for ${label}; Linkerd drops the default route once a route is served, so ${what}. Add a rule `
              + 'without matches (UnmatchedRequests.ROUTE_TO_SERVICE on the route construct), or, if that is intended, say so with '
              + `unmatched: UnmatchedRequests.NOT_FOUND (the annotation ${UNMATCHED_ANNOTATION}: ${UnmatchedRequests.NOT_FOUND}).`);
          }
        }
      }
    }
  },
};
