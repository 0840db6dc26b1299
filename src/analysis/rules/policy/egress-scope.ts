import { POLICY_GROUP } from '../../../core/vocabulary';
import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { egressNetworksIn, egressScopeFor } from '../../model/egress';
import { everyRoute } from '../../model/routes/lists';
import { egressNetworkParents } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

/**
 * A route in another namespace than its EgressNetwork is a consumer route, seen only by clients of the route's namespace
 * (outbound/index.rs ResourceRoutes::apply_http_route and friends); those clients resolve egress traffic against their
 * own namespace's EgressNetworks, else the global ones (resolve_egress_network). If the parent is in neither, no client
 * ever reaches the route through it.
 */
function checkConsumerRoutes(ctx: RuleContext): void {
  for (const route of everyRoute(ctx.index)) {
    const namespace = route.id.namespace ?? '';
    for (const parent of egressNetworkParents(route, ctx.index)) {
      if (parent.namespace === namespace) continue;
      const scope = egressScopeFor(ctx.index, ctx.context, namespace);
      if (parent.namespace === ctx.context.globalEgressNamespace && !scope.local) continue;
      const resolved = scope.local ? `namespace ${namespace}'s own EgressNetworks, which hide the global ones`
        : `the global egress namespace ${ctx.context.globalEgressNamespace}`;
      ctx.report(route, `parentRefs[${parent.position}] names EgressNetwork ${parent.namespace}/${parent.name}, but a route outside its `
        + `EgressNetwork's namespace applies only to clients in its own namespace, ${namespace}, and they resolve egress traffic against `
        + `${resolved}, never against namespace ${parent.namespace}: this route applies to no client.`, {
        fix: `Put the route in namespace ${parent.namespace} (then it applies to every client that resolves to that EgressNetwork), or attach `
          + `it to an EgressNetwork in ${scope.local ? namespace : ctx.context.globalEgressNamespace}.`,
      });
    }
  }
}

/** A namespace's own EgressNetworks replace the global ones for its clients, entirely. */
export const egressScope: Rule = {
  id: 'LKD-POL-023',
  area: RuleArea.POLICY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: which EgressNetworks the global egress namespace holds, usually installed separately '
      + '(egress_network.rs resolve_egress_network).',
    title: 'A namespace\'s own EgressNetworks do not silently hide the global ones',
    why: 'Clients resolve egress traffic against the EgressNetworks of their own namespace if it has any, and only otherwise '
      + 'against those of the global egress namespace (egress.globalEgressNetworkNamespace, linkerd-egress by default). One '
      + 'local EgressNetwork therefore takes every global one — a cluster-wide Deny, its routes and its traffic policy — away '
      + 'from that namespace\'s clients, whatever addresses the local one covers. For the same reason a route outside its '
      + 'EgressNetwork\'s namespace (a consumer route, seen only by clients of the route\'s namespace) applies to no client '
      + 'unless that EgressNetwork is one those clients resolve against.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/egress_network.rs resolve_egress_network; '
      + 'policy-controller/k8s/index/src/outbound/index.rs apply_http_route (a route outside its parent\'s namespace is a consumer '
      + 'route, for clients of its own namespace only)',
    fix: 'Repeat in the namespace the global EgressNetworks its clients still need (e.g. the Deny for everything else), or '
      + 'move the local EgressNetwork to the global egress namespace.',
    badExample: 'kind: EgressNetwork\nmetadata: {name: allow-api, namespace: shop}   # linkerd-egress/deny-all no longer applies to shop',
    goodExample: 'kind: EgressNetwork\nmetadata: {name: allow-api, namespace: linkerd-egress}',
  },
  check(ctx) {
    checkConsumerRoutes(ctx);
    const global = egressNetworksIn(ctx.index, ctx.context.globalEgressNamespace);
    if (global.length === 0) return;
    const names = listSome(global.map((n) => n.id.name));
    for (const net of ctx.index.own(POLICY_GROUP, 'EgressNetwork')) {
      const ns = net.id.namespace ?? '';
      if (ns === ctx.context.globalEgressNamespace) continue;
      // One finding per namespace: on its first own EgressNetwork.
      if (egressNetworksIn(ctx.index, ns).find((n) => !n.inventory) !== net) continue;
      ctx.report(net, `namespace ${ns} has its own EgressNetworks, so its clients no longer see the ${global.length} EgressNetwork(s) `
        + `of the global egress namespace ${ctx.context.globalEgressNamespace} (${names}): Linkerd resolves egress against the `
        + 'client\'s namespace alone when it has any. Repeat the global ones clients still need here, or move this one there.');
    }
  },
};
