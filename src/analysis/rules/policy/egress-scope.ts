import { POLICY_GROUP } from '../../../core/vocabulary';
import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { egressNetworksIn } from '../../model/egress';
import { Rule, RuleArea } from '../../rule';

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
      + 'from that namespace\'s clients, whatever addresses the local one covers.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/egress_network.rs resolve_egress_network',
    fix: 'Repeat in the namespace the global EgressNetworks its clients still need (e.g. the Deny for everything else), or '
      + 'move the local EgressNetwork to the global egress namespace.',
    badExample: 'kind: EgressNetwork\nmetadata: {name: allow-api, namespace: shop}   # linkerd-egress/deny-all no longer applies to shop',
    goodExample: 'kind: EgressNetwork\nmetadata: {name: allow-api, namespace: linkerd-egress}',
  },
  check(ctx) {
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
