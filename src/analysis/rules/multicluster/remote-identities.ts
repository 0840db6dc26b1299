import { POLICY_GROUP } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { FleetCluster, FleetRule, links } from '../../fleet/fleet-rule';
import { ExportMode, gatewayIdentityOf } from '../../fleet/model';
import { specOf } from '../../model/objects';
import { RuleArea } from '../../rule';

const SA_MARKER = '.serviceaccount.identity.';

/** `<control-plane-ns>.<trust-domain>`: what every workload identity of a cluster ends in. */
export function identitySuffix(cluster: FleetCluster): string {
  return `${cluster.facts.controlPlaneNamespace}.${cluster.facts.trustDomain}`;
}

function identitiesIn(cluster: FleetCluster): Array<{ subject: any; path: string; identity: string }> {
  const holders = [...cluster.facts.index.own(POLICY_GROUP, 'MeshTLSAuthentication'), ...cluster.facts.index.own(POLICY_GROUP, 'ServerAuthorization')];
  return holders.flatMap((subject) => {
    const spec = specOf(subject);
    const meshTls = subject.id.kind === 'MeshTLSAuthentication';
    const list = meshTls ? spec.identities : spec.client?.meshTLS?.identities;
    const base = meshTls ? 'spec.identities' : 'spec.client.meshTLS.identities';
    return Array.isArray(list)
      ? list.flatMap((identity, i) => (typeof identity === 'string' ? [{ subject, path: `${base}[${i}]`, identity }] : []))
      : [];
  });
}

/** The cluster of the fleet whose workloads present identities ending in `suffix`, other than `self`. */
function issuingCluster(clusters: Iterable<FleetCluster>, self: FleetCluster, suffix: string): FleetCluster | undefined {
  for (const cluster of clusters) if (cluster !== self && identitySuffix(cluster) === suffix) return cluster;
  return undefined;
}

/** Identities a policy names for callers of another cluster must be ones such a caller can present here. */
export const remoteIdentitiesRule: FleetRule = {
  id: 'LKD-MC-003',
  area: RuleArea.MULTICLUSTER,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: whether callers reach the Service through the gateway or pod to pod, which the Link\'s mode in '
      + 'the other cluster decides.',
    title: 'Identities authorized for callers of another cluster are ones those callers can present',
    why: 'A remote client presents its own cluster\'s identity (<sa>.<ns>.serviceaccount.identity.<control-plane-ns>.<its trust '
      + 'domain>) only on a direct, pod-to-pod connection (a Service exported as remote-discovery on a flat network). Through a '
      + 'gateway (exported: "true") the connection the workload sees comes from the target cluster\'s linkerd-gateway, so a '
      + 'MeshTLSAuthentication naming the remote client never matches; and without a Link from the caller\'s cluster nothing '
      + 'from there arrives at all. (The gateway identity is what link-gen copies into the Link\'s gatewayIdentity, from the '
      + 'mirror.linkerd.io/gateway-identity annotation of the gateway Service: multicluster/cmd/link-gen.go.)',
    linkerdSource: "multicluster/service-mirror/cluster_watcher.go (rcsw *RemoteClusterServiceWatcher) isExported isRemoteDiscovery; multicluster/charts/linkerd-multicluster/templates/gateway.yaml (the gateway's ServiceAccount identity)",
    fix: 'For gateway mode authorize the local gateway identity (linkerd-gateway.linkerd-multicluster.serviceaccount.identity...); '
      + 'to authorize the remote client itself, export the Service as remote-discovery (flat network) and link the caller\'s cluster.',
    badExample: '# west, Service orders exported: "true" (gateway)\nkind: MeshTLSAuthentication\nspec:\n  identities: [client.shop.serviceaccount.identity.linkerd.east.example]',
    goodExample: '# west, Service orders exported: remote-discovery, and east has a Link to west\nkind: MeshTLSAuthentication\nspec:\n  identities: [client.shop.serviceaccount.identity.linkerd.east.example]',
  },
  check(ctx) {
    for (const target of ctx.clusters.values()) {
      const own = identitySuffix(target);
      for (const { subject, path, identity } of identitiesIn(target)) {
        const marker = identity.indexOf(SA_MARKER);
        if (marker < 0) continue;
        const suffix = identity.slice(marker + SA_MARKER.length);
        // Clusters that share a trust domain present identical identities: nothing tells a remote caller apart.
        if (suffix === own) continue;
        const caller = issuingCluster(ctx.clusters.values(), target, suffix);
        if (!caller) continue;
        if (!links(caller, target)) {
          ctx.report(target, subject, `${path} "${identity}" is an identity of cluster ${caller.facts.name}, which has no Link to `
            + `${target.facts.name}: its workloads cannot call ${target.facts.name}'s Services.`, {
            fix: `Link ${caller.facts.name} to ${target.facts.name} (MulticlusterLink in ${caller.facts.name}, or linkerd multicluster link-gen), or drop the identity.`,
          });
          continue;
        }
        const modes = caller.mirrors.filter((m) => m.link.targetCluster === target.facts.name).map((m) => m.mode);
        if (modes.length > 0 && !modes.includes(ExportMode.REMOTE_DISCOVERY)) {
          const link = caller.facts.links.find((l) => l.targetCluster === target.facts.name)!;
          ctx.report(target, subject, `${path} "${identity}" is an identity of cluster ${caller.facts.name}, but ${target.facts.name} exports `
            + `its Services to ${caller.facts.name} only through the gateway, so they see the gateway's identity `
            + `"${gatewayIdentityOf(link, target.facts)}" instead and this entry never matches.`);
        }
      }
    }
  },
};
