import { DeclaredCall, parseCalls } from './declared-calls';
import { MIRRORED_SERVICE_LABEL } from '../../../core/multicluster';
import { REFUSED_CALLS_ANNOTATION } from '../../../core/vocabulary';
import { compareStrings } from '../../../util/compare';
import { idLabel } from '../../../util/labels';
import { Severity } from '../../finding';
import { annotationOf, labelsOf } from '../../model/manifest';
import { MeshIndex, PodTemplate } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { refList } from '../../model/refs';
import { Decision, InboundPolicy, WorkloadRef, canReach, evaluateInboundPolicy } from '../../policy';
import { Rule, RuleArea } from '../../rule';

/** A declared refusal's verdict: proven (undefined), allowed by some workload behind the target, or undecidable. */
export interface RefusalVerdict {
  readonly call: DeclaredCall;
  /** The workloads that let the request in, each with the evaluation's decision (naming the objects that allow it). */
  readonly allowedBy: ReadonlyArray<{ readonly workload: string; readonly decision: Decision }>;
  /** Set when nothing allows it but the refusal hangs on facts outside the manifests. */
  readonly undecided?: Decision;
}

/**
 * The workloads behind a Service port and the container port each receives (targetPort), so that every one of them is
 * proven to refuse: canReach on the Service answers "allowed" only when all of them allow, and one that lets the
 * request in is enough to break a refusal.
 */
function targetsOf(index: MeshIndex, call: DeclaredCall): Array<{ workload: string; kind: string; port: number | string }> | undefined {
  const service = index.service(call.namespace, call.service);
  if (!service) return undefined;
  const servicePort = refList(specOf(service).ports).find((p: any) => p.port === call.port || p.name === call.port) as any;
  if (!servicePort) return undefined;
  const targetPort = servicePort.targetPort ?? servicePort.port;
  const pods = index.podTemplatesForService(service);
  if (pods.length === 0) return undefined;
  return pods.map((pod) => ({ workload: pod.owner.id.name, kind: pod.owner.id.kind, port: targetPort }));
}

/** Proves one declared refusal with the inbound-policy evaluation (the same one LKD-POL-013 proves calls with). */
export function proveRefusal(policy: InboundPolicy, from: WorkloadRef, call: DeclaredCall): RefusalVerdict {
  const targets = targetsOf(policy.index, call);
  const decisions = targets
    ? targets.map((t) => ({ workload: `${t.kind} ${call.namespace}/${t.workload}`, decision: canReach(policy, from, { namespace: call.namespace, workload: t.workload }, t.port, call.request) }))
    : [{ workload: `Service ${call.namespace}/${call.service}`, decision: canReach(policy, from, { namespace: call.namespace, service: call.service }, call.port, call.request) }];
  // Workload order, not input order, so that the message does not depend on the input.
  decisions.sort((a, b) => compareStrings(a.workload, b.workload));
  const allowedBy = decisions.filter((d) => d.decision.allowed);
  const undecided = decisions.find((d) => !d.decision.allowed && (d.decision.unseen === true || d.decision.uncertain === true));
  return { call, allowedBy, undecided: allowedBy.length === 0 && undecided ? undecided.decision : undefined };
}

/** `(GET /orders)` or empty: how messages name a declared request. */
export function requestText(call: DeclaredCall): string {
  return call.request ? ` (${[call.request.method, call.request.path].filter(Boolean).join(' ')})` : '';
}

/** The declared refusals of a workload (the refused-calls annotation, in the calls grammar) and the unreadable entries. */
export function refusalsOf(pod: PodTemplate): { calls: DeclaredCall[]; bad: string[] } {
  const value = annotationOf(pod.owner.object, REFUSED_CALLS_ANNOTATION);
  return typeof value === 'string' ? parseCalls(value, pod.namespace) : { calls: [], bad: [] };
}

function allowedMessage(verdict: RefusalVerdict): string {
  const { call } = verdict;
  const by = verdict.allowedBy.map(({ workload, decision }) => {
    const deciders = decision.deciders && decision.deciders.length > 0 ? ` [${decision.deciders.map(idLabel).join(', ')}]` : '';
    return `${workload} lets it in: ${decision.reason}${deciders}`;
  });
  return `declares that the mesh refuses its requests to ${call.service}.${call.namespace}:${call.port}${requestText(call)}, `
    + `but the inbound policy allows them: ${by.join('; ')}.`;
}

/** Declared refusals (the refused-calls annotation) must be refused by the inbound policy the manifests produce. */
export const refusedCalls: Rule = {
  id: 'LKD-POL-026',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Open wider: the inbound policy the manifests describe admits a request the workload declares must be refused '
      + '(policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::client_authzs). A refusal that rests on callers or '
      + 'networks outside the manifests is a warning.',
    title: 'Every refusal a workload declares is refused by the mesh\'s inbound policy',
    why: 'mTLS between meshed pods does not mean the target refuses the wrong identity or a plaintext client: the '
      + 'default policy (all-unauthenticated), an audit Server, a generated probe route or a broad AuthorizationPolicy '
      + 'lets them in. A release gate needs the negative evidence too. A workload declares the requests the mesh must '
      + 'refuse (`addRefusedCall`, the analysis.cdk8s-linkerd.io/refused-calls annotation, in the grammar of the calls '
      + 'annotation) and the build proves each against the same per-route evaluation as LKD-POL-013: every workload behind '
      + 'the Service must refuse it. One that lets it in is an error naming the objects that allow it; a refusal that '
      + 'hangs on facts outside the manifests (the Service or its workloads deployed elsewhere, the caller\'s pod address, '
      + 'whether its namespace is meshed) is a warning.',
    fix: 'Narrow the authorization that admits the caller (its MeshTLSAuthentication identities, the NetworkAuthentication '
      + 'networks, a Server with accessPolicy deny instead of audit or all-unauthenticated), or drop the refusal if the call '
      + 'is meant to work.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::http_routes, '
      + 'PolicyIndex::route_client_authzs, PolicyIndex::client_authzs, ClusterInfo::default_inbound_http_routes',
    badExample: 'kind: Deployment\nmetadata:\n  name: wrong-client\n  annotations:\n'
      + '    analysis.cdk8s-linkerd.io/refused-calls: orders:8080 GET /   # but orders is all-unauthenticated',
    goodExample: 'kind: Deployment\nmetadata:\n  name: wrong-client\n  annotations:\n'
      + '    analysis.cdk8s-linkerd.io/refused-calls: orders:8080 GET /   # a deny Server admits only SA client',
  },
  check(ctx) {
    let policy: InboundPolicy | undefined;
    for (const pod of ctx.index.podTemplates) {
      if (pod.owner.inventory) continue;
      const { calls, bad } = refusalsOf(pod);
      for (const text of bad) {
        ctx.report(pod.owner, `${REFUSED_CALLS_ANNOTATION} entry ${JSON.stringify(text)} is not service[.namespace]:port [METHOD] [/path].`);
      }
      for (const call of calls) {
        const service = ctx.index.service(call.namespace, call.service);
        // A mirrored Service stands for another cluster's workloads, whose policy this analysis does not hold.
        if (service && labelsOf(service.object)[MIRRORED_SERVICE_LABEL] === 'true') continue;
        policy ??= evaluateInboundPolicy(ctx.index, ctx.context);
        const verdict = proveRefusal(policy, { namespace: pod.namespace, name: pod.owner.id.name, kind: pod.owner.id.kind }, call);
        if (verdict.allowedBy.length > 0) {
          ctx.report(pod.owner, allowedMessage(verdict));
        } else if (verdict.undecided) {
          ctx.report(pod.owner, `declares that the mesh refuses its requests to ${call.service}.${call.namespace}:${call.port}${requestText(call)}, `
            + `which this analysis cannot prove: ${verdict.undecided.reason}. Declare what is missing (the Service and its workloads, the caller's `
            + 'Namespace, or the cluster networks) to decide it.', { severity: Severity.WARNING });
        }
      }
    }
  },
};
