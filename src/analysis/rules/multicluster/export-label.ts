import { EXPORTED_LABEL } from '../../../core/multicluster';
import { Severity } from '../../finding';
import { FleetRule } from '../../fleet/fleet-rule';
import { EXPORT_VALUES } from '../../fleet/model';
import { RuleArea } from '../../rule';

/** The exported label's value decides the mode; any other value is selected by no default Link. */
export const exportLabelRule: FleetRule = {
  id: 'LKD-MC-006',
  area: RuleArea.MULTICLUSTER,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: the selectors of Links created elsewhere; a custom Link selector may well use the value.',
    title: 'mirror.linkerd.io/exported is "true" (gateway) or "remote-discovery" (flat network)',
    why: 'Links made by linkerd multicluster link / link-gen select mirror.linkerd.io/exported=true for gateway mirroring and '
      + '=remote-discovery for pod-to-pod mirroring (newLinkGenOptionsWithDefault in multicluster/cmd/link-gen.go). Any other '
      + 'value ("yes", "enabled") looks exported and is mirrored by no Link with the default selectors.',
    linkerdSource: 'multicluster/service-mirror/cluster_watcher.go (rcsw *RemoteClusterServiceWatcher) isExported isRemoteDiscovery',
    fix: 'Set the label to "true" (through the gateway) or "remote-discovery" (flat network), e.g. with ExportedService.export().',
    badExample: 'kind: Service\nmetadata:\n  labels: { mirror.linkerd.io/exported: "yes" }',
    goodExample: 'kind: Service\nmetadata:\n  labels: { mirror.linkerd.io/exported: "true" }',
  },
  check(ctx) {
    for (const cluster of ctx.clusters.values()) {
      for (const { service, value } of cluster.facts.exported) {
        if (EXPORT_VALUES.includes(value)) continue;
        const selected = [...ctx.clusters.values()].some((c) => c.facts.links.some((l) => l.targetCluster === cluster.facts.name)
          && c.mirrors.some((m) => m.exported === service));
        if (!selected) {
          ctx.report(cluster, service, `${EXPORTED_LABEL}: ${JSON.stringify(value)} on Service ${service.id.namespace}/${service.id.name} `
            + 'is neither "true" nor "remote-discovery", and no Link of the fleet selects it, so it is not mirrored anywhere.');
        }
      }
    }
  },
};
