import { Severity } from '../../finding';
import { FleetRule } from '../../fleet/fleet-rule';
import { RuleArea } from '../../rule';

/** A Link must point at a cluster of the fleet that exports something it selects. */
export const linkTargetsRule: FleetRule = {
  id: 'LKD-MC-005',
  area: RuleArea.MULTICLUSTER,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: which Services the target cluster exports when the Link is applied; a Link to a cluster the '
      + 'fleet analysed and that exports nothing it selects is an error.',
    title: 'Every Link targets a cluster of the fleet that exports a Service the Link selects',
    why: 'The service mirror of a Link mirrors only the Services of the target cluster that its selector (gateway) or '
      + 'remoteDiscoverySelector (flat network) matches; an empty selector matches nothing (isExported / isRemoteDiscovery in '
      + 'multicluster/service-mirror/cluster_watcher.go). A Link to a cluster nobody analysed cannot be checked (anchors, '
      + 'policies), and one that selects nothing runs a mirror controller that mirrors nothing.',
    linkerdSource: 'multicluster/cmd/link-gen.go (the Link a cluster gets); multicluster/service-mirror/cluster_watcher.go (rcsw *RemoteClusterServiceWatcher) isExported',
    fix: 'Name a cluster of the fleet in targetClusterName (analyze --cluster NAME=PATH for each), and label the Services to share '
      + 'mirror.linkerd.io/exported: "true" (gateway) or "remote-discovery" (flat network).',
    badExample: 'kind: Link\nspec:\n  targetClusterName: west\n  selector: { matchLabels: { mirror.linkerd.io/exported: "true" } }\n# west exports no Service',
    goodExample: '# west: Service orders labelled mirror.linkerd.io/exported: "true"',
  },
  check(ctx) {
    const names = [...ctx.clusters.keys()];
    for (const source of ctx.clusters.values()) {
      for (const link of source.facts.links) {
        const target = ctx.clusters.get(link.targetCluster);
        if (target === source) {
          ctx.report(source, link.subject, `Link ${link.subject.id.name} of cluster ${source.facts.name} targets ${source.facts.name} itself.`, {
            severity: Severity.ERROR, fix: 'Set targetClusterName to the other cluster, or remove the Link.',
          });
        } else if (!target) {
          ctx.report(source, link.subject, `Link ${link.subject.id.name} of cluster ${source.facts.name} targets cluster "${link.targetCluster}", `
            + `which is not part of the analysed fleet (${names.join(', ')}): its anchors and policies cannot be checked.`);
        } else if (!source.mirrors.some((m) => m.link === link)) {
          ctx.report(source, link.subject, `Link ${link.subject.id.name} of cluster ${source.facts.name} mirrors nothing: cluster `
            + `${target.facts.name} exports no Service its selector or remoteDiscoverySelector matches.`);
        }
      }
    }
  },
};
