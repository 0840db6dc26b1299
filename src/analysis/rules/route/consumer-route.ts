import { Severity } from '../../finding';
import { everyRoute } from '../../model/routes/lists';
import { serviceParents } from '../../model/routes/parents';
import { Rule, RuleArea } from '../../rule';

/** Producer vs consumer routes: the namespace of the route, not of the Service, decides who is affected. */
export const consumerRoute: Rule = {
  id: 'LKD-ROUTE-005',
  area: RuleArea.ROUTE,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: where the route\'s intended clients run; a consumer route in the clients\' namespace is correct '
      + 'Linkerd usage.',
    title: 'A route in another namespace than its parent Service only affects clients in the route\'s namespace',
    why: 'A route in the Service\'s namespace is a producer route and applies to every client. A route in any other '
      + 'namespace is a consumer route: Linkerd applies it only to clients running in the route\'s own namespace '
      + '(linkerd/linkerd2#10956). Nothing in the YAML shows this, and a split meant for everyone quietly covers one namespace.',
    fix: 'Move the route into the Service\'s namespace if it should apply to every caller; keep it (and suppress this '
      + 'finding with a reason) if it is meant for callers in its own namespace only.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index.rs Namespace::apply_http_route, '
      + 'Namespace::resource_routes_or_default (producer routes vs consumer routes)',
    badExample: 'metadata: {name: orders-split, namespace: frontend}\nspec:\n  parentRefs:\n  - {group: core, kind: Service, name: orders, namespace: shop, port: 8080}',
    goodExample: 'metadata: {name: orders-split, namespace: shop}\nspec:\n  parentRefs:\n  - {group: core, kind: Service, name: orders, port: 8080}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      const routeNamespace = route.id.namespace ?? '';
      for (const parent of serviceParents(route, ctx.index)) {
        if (parent.namespace === routeNamespace) continue;
        ctx.report(route, `parentRefs[${parent.position}] attaches to Service ${parent.namespace}/${parent.name} from namespace `
          + `"${routeNamespace}": this is a consumer route, applied only to clients in "${routeNamespace}", not to every caller.`);
      }
    }
  },
};
