import { serviceAccountIdentity } from '../../../core/identity';
import { GATEWAY_NAME, MULTICLUSTER_NAMESPACE } from '../../../core/multicluster';
import { CALLS_ANNOTATION } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { FleetCluster, FleetRule, FleetRuleContext } from '../../fleet/fleet-rule';
import { ExportMode, MirroredService, gatewayIdentityOf } from '../../fleet/model';
import { annotationOf } from '../../model/manifest';
import { Injection, PodTemplate } from '../../model/mesh-index';
import { workloadLabel } from '../../model/pod-templates';
import { Caller, canReachAs } from '../../policy';
import { RuleArea } from '../../rule';
import { DeclaredCall, parseCalls } from '../policy/declared-calls';

/** Who the exported workload sees: the remote client itself (pod to pod), or the target cluster's gateway. */
function arrivingCaller(source: FleetCluster, target: FleetCluster, pod: PodTemplate, mirror: MirroredService): Caller {
  const client = `${workloadLabel(pod)} of cluster ${source.facts.name}`;
  if (mirror.mode === ExportMode.GATEWAY) {
    return {
      meshed: true,
      namespace: MULTICLUSTER_NAMESPACE,
      serviceAccount: GATEWAY_NAME,
      identity: gatewayIdentityOf(mirror.link, target.facts),
      label: `${target.facts.name}'s multicluster gateway (identity ${gatewayIdentityOf(mirror.link, target.facts)}), forwarding for ${client}`,
    };
  }
  const identity = serviceAccountIdentity(pod.serviceAccountName, pod.namespace, source.facts.trustDomain, source.facts.controlPlaneNamespace);
  return { meshed: true, namespace: pod.namespace, serviceAccount: pod.serviceAccountName, identity, label: `${client} (identity ${identity})` };
}

function route(mirror: MirroredService, target: FleetCluster): string {
  const exported = `Service ${mirror.exported.id.namespace}/${mirror.exported.id.name} of cluster ${target.facts.name}`;
  return mirror.mode === ExportMode.GATEWAY ? `${exported}, through its gateway` : `${exported}, pod to pod`;
}

/** A call to `<service>-<cluster>` that no mirror serves: say what is missing on the other side. */
function explainMissingMirror(ctx: FleetRuleContext, source: FleetCluster, pod: PodTemplate, call: DeclaredCall): void {
  // A Service of the calling cluster itself that happens to end in a linked cluster's name is no mirror at all.
  if (source.facts.index.service(call.namespace, call.service)) return;
  for (const link of source.facts.links) {
    const suffix = `-${link.targetCluster}`;
    const target = ctx.clusters.get(link.targetCluster);
    if (!target || !call.service.endsWith(suffix) || call.service.length === suffix.length) continue;
    const name = call.service.slice(0, -suffix.length);
    const service = target.facts.index.service(call.namespace, name);
    const problem = service
      ? `${target.facts.name}'s Service ${call.namespace}/${name} is not exported to ${source.facts.name} (no mirror.linkerd.io/exported label that Link ${link.subject.id.name} selects)`
      : `cluster ${target.facts.name} has no Service ${call.namespace}/${name} to mirror`;
    ctx.report(source, pod.owner, `declares that it calls ${call.service}.${call.namespace}:${call.port}, but ${problem}, so the mirrored Service will not exist.`, {
      fix: service ? `Label ${target.facts.name}'s Service ${name} mirror.linkerd.io/exported: "true" (gateway) or "remote-discovery" (flat network).` : undefined,
    });
    return;
  }
}

function checkPod(ctx: FleetRuleContext, source: FleetCluster, pod: PodTemplate): void {
  const value = annotationOf(pod.owner.object, CALLS_ANNOTATION);
  if (typeof value !== 'string') return;
  for (const call of parseCalls(value, pod.namespace).calls) {
    const mirror = source.mirrors.find((m) => m.name === call.service && m.namespace === call.namespace);
    if (!mirror) {
      explainMissingMirror(ctx, source, pod, call);
      continue;
    }
    const target = ctx.clusters.get(mirror.link.targetCluster)!;
    const where = `${call.service}.${call.namespace}:${call.port} (${route(mirror, target)})`;
    if (pod.injection !== Injection.ENABLED) {
      const state = pod.injection === Injection.UNKNOWN
        ? 'whether it is meshed is unknown here (its Namespace is not in this cluster\'s manifests)' : 'it is not meshed';
      ctx.report(source, pod.owner, `declares that it calls ${where}, but ${state}: only a Linkerd proxy can reach a mirrored Service.`, {
        fix: 'Inject the client (linkerd.io/inject: enabled on its namespace or pod template).',
        ...(pod.injection === Injection.UNKNOWN ? { severity: Severity.WARNING } : {}),
      });
      continue;
    }
    const caller = arrivingCaller(source, target, pod, mirror);
    const decision = canReachAs(target.policy(), caller, { namespace: call.namespace, service: mirror.exported.id.name }, call.port);
    if (decision.allowed) continue;
    if (decision.unseen) {
      ctx.report(source, pod.owner, `declares that it calls ${where}, which this analysis cannot follow into ${target.facts.name}: ${decision.reason}.`, {
        fix: `Declare the exported Service's workloads in ${target.facts.name}'s inventory to prove the call allowed.`, severity: Severity.WARNING,
      });
    } else {
      ctx.report(source, pod.owner, `declares that it calls ${where}, but ${target.facts.name}'s inbound policy would refuse it: ${decision.reason}.`);
    }
  }
}

/** Declared calls to mirrored Services, judged by the policy of the cluster that serves them. */
export const crossClusterCallsRule: FleetRule = {
  id: 'LKD-MC-004',
  area: RuleArea.MULTICLUSTER,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Refused: the serving cluster\'s inbound policy refuses the identity the call arrives with '
      + '(multicluster/service-mirror/cluster_watcher.go isExported decides the path). Calls whose identity or path '
      + 'the analysis cannot pin down are warnings.',
    title: 'Every declared call to a mirrored Service is allowed by the serving cluster\'s policy',
    why: 'A call to orders-west is served by cluster west, whose Servers and AuthorizationPolicies decide it. Through a gateway '
      + 'the workload sees west\'s linkerd-gateway identity; pod to pod (remote-discovery) it sees the client\'s own identity '
      + 'with the client cluster\'s trust domain. A policy written for local callers refuses both, and only at runtime. '
      + 'The mirror is named <service>-<cluster> (mirrorServiceName in multicluster/service-mirror/cluster_watcher.go).',
    linkerdSource: 'multicluster/service-mirror/cluster_watcher.go (rcsw *RemoteClusterServiceWatcher) mirrorServiceName isExported isRemoteDiscovery',
    fix: 'In the serving cluster, authorize the identity the call arrives with (the gateway\'s in gateway mode, the remote '
      + 'client\'s in flat-network mode), or export the Service so that a mirror exists.',
    badExample: '# east: client calls orders-west:8080; west: orders allows only client.shop...identity.linkerd.west.example',
    goodExample: '# west: orders allows client.shop.serviceaccount.identity.linkerd.east.example (remote-discovery export)',
  },
  check(ctx) {
    for (const source of ctx.clusters.values()) {
      for (const pod of source.facts.index.podTemplates) {
        if (!pod.owner.inventory) checkPod(ctx, source, pod);
      }
    }
  },
};
