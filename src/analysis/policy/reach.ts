/**
 * Whether a caller reaches a Service port (through targetPort to every selected pod) or a workload's container port,
 * read from the inbound evaluation (evaluate.ts): the pods behind the target, then each pod port's verdict.
 */
import { Caller, Decision } from './authorization';
import { InboundPolicy, ReachTarget, WorkloadRef } from './evaluate';
import { idLabel } from '../../util/labels';
import { resolveContainerPort } from '../model/inbound/servers';
import { InboundRequest } from '../model/inbound-routes';
import { Injection, MeshIndex, PodTemplate } from '../model/mesh-index';
import { absentService } from '../model/missing-references';
import { IndexedObject } from '../model/object-store';
import { specOf } from '../model/objects';
import { workloadLabel } from '../model/pod-templates';
import { refList } from '../model/refs';


export function findWorkload(index: MeshIndex, ref: WorkloadRef): PodTemplate | undefined {
  return index.podTemplatesIn(ref.namespace).find((p) => p.owner.id.name === ref.name && (!ref.kind || p.owner.id.kind === ref.kind));
}

/** The caller a workload's pods present: meshed only when injection is known to be enabled. */
export function callerOf(index: MeshIndex, ref: WorkloadRef): Caller | undefined {
  const pod = findWorkload(index, ref);
  return pod ? podCaller(pod) : undefined;
}

function podCaller(pod: PodTemplate): Caller {
  const meshed = pod.injection === Injection.ENABLED;
  const state = pod.injection === Injection.UNKNOWN ? 'injection unknown, treated as unmeshed' : meshed ? 'meshed' : 'unmeshed';
  return {
    meshed,
    namespace: pod.namespace,
    serviceAccount: pod.serviceAccountName,
    label: `${workloadLabel(pod)} (${state}, ServiceAccount ${pod.serviceAccountName})`,
  };
}

interface Hop {
  readonly pod: PodTemplate;
  readonly port?: number;
  readonly problem?: string;
}

/** Why a call cannot be followed to any pod, and whether that is only because the analysis does not see far enough. */
interface NoHops {
  readonly reason: string;
  readonly unseen?: boolean;
}

function serviceHops(index: MeshIndex, target: ReachTarget, port: number | string): Hop[] | NoHops {
  const { namespace, service: name } = target;
  const service = index.service(namespace, name!);
  if (!service) return absentService(index, namespace, name!);
  const servicePort = refList(specOf(service).ports).find((p: any) => p.port === port || p.name === port) as any;
  if (!servicePort) return { reason: `Service ${namespace}/${name} has no port ${port}` };
  const targetPort = servicePort.targetPort ?? servicePort.port;
  const pods = index.podTemplatesForService(service);
  if (pods.length === 0) return noPodsBehind(index, service, `Service ${namespace}/${name}`);
  return pods.map((pod) => {
    const resolved = typeof targetPort === 'number' ? targetPort : resolveContainerPort(pod, String(targetPort));
    return resolved === undefined
      ? { pod, problem: `${workloadLabel(pod)} has no container port named ${JSON.stringify(targetPort)} (targetPort of Service ${name})` }
      : { pod, port: resolved };
  });
}

/**
 * A Service that selects no pod template here. Where the analysis has none in that namespace (or never sees its
 * workloads), they may be deployed separately, as LKD-POL-006 says of Servers; so may the pods of a Service without a
 * selector, whose endpoints someone else manages.
 */
function noPodsBehind(index: MeshIndex, service: IndexedObject, label: string): NoHops {
  const namespace = service.id.namespace ?? '';
  const selector = specOf(service).selector;
  if (selector === undefined || selector === null || (typeof selector === 'object' && Object.keys(selector).length === 0)) {
    return { reason: `${label} has no selector, so its endpoints are managed outside the manifests and the pods behind it are not known`, unseen: true };
  }
  if (index.externalWorkloadsForService(service).length > 0) {
    return { reason: `${label} selects ExternalWorkloads, whose inbound policy runs on their own proxies outside this analysis`, unseen: true };
  }
  if (!index.seesPodTemplates(namespace) || index.podTemplatesIn(namespace).length === 0) {
    return { reason: `${label} selects no pod template here: this analysis has none in namespace ${namespace}; declare its workloads in the inventory`, unseen: true };
  }
  return { reason: `${label} selects no pod template` };
}

function workloadHops(index: MeshIndex, target: ReachTarget, port: number | string): Hop[] | NoHops {
  const pod = findWorkload(index, { namespace: target.namespace, name: target.workload! });
  if (!pod) {
    const reason = `workload ${target.namespace}/${target.workload} does not exist`;
    return index.seesPodTemplates(target.namespace) ? { reason } : { reason: `${reason} in this analysis (namespace ${target.namespace} is not part of it)`, unseen: true };
  }
  const resolved = typeof port === 'number' ? port : resolveContainerPort(pod, port);
  return resolved === undefined ? [{ pod, problem: `${workloadLabel(pod)} has no container port named ${port}` }] : [{ pod, port: resolved }];
}

function hopDecision(result: InboundPolicy, hop: Hop, caller: Caller, request?: InboundRequest): Decision {
  if (hop.problem !== undefined || hop.port === undefined) return { allowed: false, reason: hop.problem ?? 'no port' };
  const policy = result.portPolicy(hop.pod, hop.port);
  if (!policy) {
    return { allowed: true, reason: `${workloadLabel(hop.pod)} is not meshed, so no inbound policy applies (${idLabel(hop.pod.owner.id)} sees plain TCP)` };
  }
  return request ? policy.allowsRequest(caller, request) : policy.allows(caller);
}

/**
 * Whether a client workload can open a connection to a Service port (through targetPort to every selected pod)
 * or to a workload's container port. Allowed only when every selected pod allows it.
 */
export function canReach(result: InboundPolicy, from: WorkloadRef, target: ReachTarget, port: number | string, request?: InboundRequest): Decision {
  const pod = findWorkload(result.index, from);
  if (!pod) return { allowed: false, reason: `client workload ${from.namespace}/${from.name} does not exist` };
  const caller = podCaller(pod);
  const decision = canReachAs(result, caller, target, port, request);
  if (decision.allowed || pod.injection !== Injection.UNKNOWN) return decision;
  // Whether the caller is meshed is its Namespace's to say, and that Namespace is not here: a refusal that only the
  // unmeshed reading gives proves nothing.
  const meshed = canReachAs(result, { ...caller, meshed: true, label: `${workloadLabel(pod)} (meshed, ServiceAccount ${pod.serviceAccountName})` }, target, port, request);
  if (!meshed.allowed) return decision;
  return {
    allowed: false,
    unseen: true,
    reason: `whether ${workloadLabel(pod)} is meshed is unknown (namespace ${pod.namespace}, whose linkerd.io/inject annotation decides, is not part of `
      + `this analysis); meshed it would be allowed, unmeshed refused (${decision.reason})`,
  };
}

/** As canReach, for a caller described directly (e.g. one in another cluster of a fleet, or a multicluster gateway). */
export function canReachAs(result: InboundPolicy, caller: Caller, target: ReachTarget, port: number | string, request?: InboundRequest): Decision {
  if (!target.service && !target.workload) return { allowed: false, reason: 'the target names neither a service nor a workload' };
  const hops = target.service ? serviceHops(result.index, target, port) : workloadHops(result.index, target, port);
  if (!Array.isArray(hops)) return { allowed: false, reason: hops.reason, ...(hops.unseen ? { unseen: true } : {}) };
  const decisions = hops.map((hop) => ({ hop, decision: hopDecision(result, hop, caller, request) }));
  const denied = decisions.find((d) => !d.decision.allowed);
  if (denied) {
    const prefix = decisions.length > 1 ? `${workloadLabel(denied.hop.pod)} (one of ${decisions.length} selected workloads) denies: ` : '';
    const uncertain = decisions.every((d) => d.decision.allowed || d.decision.uncertain === true);
    return { allowed: false, reason: `${prefix}${denied.decision.reason}`, ...(uncertain ? { uncertain } : {}) };
  }
  const reasons = [...new Set(decisions.map((d) => d.decision.reason))];
  return { allowed: true, audited: decisions.some((d) => d.decision.audited), reason: reasons.join('; ') };
}
