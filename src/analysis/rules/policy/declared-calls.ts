import { MIRRORED_SERVICE_LABEL } from '../../../core/multicluster';
import { CALLS_ANNOTATION } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { InboundRequest } from '../../model/inbound-routes';
import { annotationOf, labelsOf } from '../../model/manifest';
import { MeshIndex, PodTemplate } from '../../model/mesh-index';
import { InboundPolicy, canReach, evaluateInboundPolicy } from '../../policy';
import { Rule, RuleArea, RuleContext } from '../../rule';

export interface DeclaredCall {
  readonly text: string;
  readonly service: string;
  readonly namespace: string;
  readonly port: number | string;
  /** A request the call makes (`GET /orders`), so the proof runs per route as Linkerd authorizes, not per port. */
  readonly request?: InboundRequest;
}

const ENTRY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.([a-z0-9]([-a-z0-9]*[a-z0-9])?))?:([0-9]{1,5}|[a-z0-9]([-a-z0-9]*[a-z0-9])?)(\s+([A-Z]+))?(\s+(\/\S*))?$/;

/** Entries of the calls annotation (`service[.namespace]:port`, comma-separated) and the ones that are not. */
export function parseCalls(value: string, defaultNamespace: string): { calls: DeclaredCall[]; bad: string[] } {
  const calls: DeclaredCall[] = [];
  const bad: string[] = [];
  for (const text of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = ENTRY.exec(text);
    if (!m) {
      bad.push(text);
      continue;
    }
    const port = /^\d+$/.test(m[6]) ? Number(m[6]) : m[6];
    const request = m[9] !== undefined || m[11] !== undefined ? { method: m[9], path: m[11] } : undefined;
    calls.push({ text, service: m[1], namespace: m[4] ?? defaultNamespace, port, request });
  }
  return { calls, bad };
}

/** A mirrored Service stands for workloads of another cluster: the fleet checks (LKD-MC-004) judge calls to it. */
function isMirrored(index: MeshIndex, call: DeclaredCall): boolean {
  const service = index.service(call.namespace, call.service);
  return service !== undefined && labelsOf(service.object)[MIRRORED_SERVICE_LABEL] === 'true';
}

/**
 * The ServiceAccounts of the caller's namespace that the policy already admits for this call (another workload there
 * runs as one): the workload may have been meant to share it. At most a few workloads are tried.
 */
function admittedAccounts(ctx: RuleContext, pod: PodTemplate, call: DeclaredCall, policy: InboundPolicy): string[] {
  // The first few only, found without filtering the whole namespace for each refused call.
  const others: PodTemplate[] = [];
  for (const p of ctx.index.podTemplatesIn(pod.namespace)) {
    if (others.length === 8) break;
    if (p.serviceAccountName !== pod.serviceAccountName) others.push(p);
  }
  const admitted = others.filter((p) => canReach(policy, { namespace: p.namespace, name: p.owner.id.name, kind: p.owner.id.kind },
    { namespace: call.namespace, service: call.service }, call.port, call.request).allowed);
  return [...new Set(admitted.map((p) => p.serviceAccountName))].sort();
}

/**
 * The narrowest fix for a refused call: an authorization for the caller's identity on the route the call uses (a
 * ServerAccess.allow would open every route of the Server to it), or the ServiceAccount that is already admitted.
 */
function narrowestFix(ctx: RuleContext, pod: PodTemplate, call: DeclaredCall, policy: InboundPolicy): string {
  const who = `ServiceAccount ${pod.namespace}/${pod.serviceAccountName}`;
  const what = call.request ? `the route that serves ${[call.request.method, call.request.path].filter(Boolean).join(' ')} on ` : 'the route the call uses on ';
  const shared = admittedAccounts(ctx, pod, call, policy);
  const share = shared.length > 0
    ? ` Or, if ${pod.owner.id.kind} ${pod.owner.id.name} was meant to run as ${shared.map((s) => `ServiceAccount ${s}`).join(' or ')}, which the `
      + 'policy already admits for this call, set its serviceAccountName to that.'
    : '';
  return `Authorize ${who} on ${what}${call.service}.${call.namespace}:${call.port}: an AuthorizationPolicy targeting that route `
    + '(AuthorizationTarget.httpRoute / grpcRoute) with a MeshTLSAuthentication naming the ServiceAccount, or on the Server where no route '
    + `is attached; ServerAccess.allow would open every route of the Server.${share} Drop the declared call if it is gone.`;
}

function checkWorkload(ctx: RuleContext, pod: PodTemplate, policy: () => InboundPolicy): void {
  const value = annotationOf(pod.owner.object, CALLS_ANNOTATION);
  if (typeof value !== 'string') return;
  const { calls, bad } = parseCalls(value, pod.namespace);
  for (const text of bad) {
    ctx.report(pod.owner, `${CALLS_ANNOTATION} entry ${JSON.stringify(text)} is not service[.namespace]:port [METHOD] [/path].`);
  }
  for (const call of calls) {
    if (isMirrored(ctx.index, call)) continue;
    const decision = canReach(policy(), { namespace: pod.namespace, name: pod.owner.id.name, kind: pod.owner.id.kind },
      { namespace: call.namespace, service: call.service }, call.port, call.request);
    if (!decision.allowed) {
      const request = call.request ? ` (${[call.request.method, call.request.path].filter(Boolean).join(' ')})` : '';
      if (decision.unseen) {
        // The Service or its workloads are deployed separately: nothing here proves the call refused.
        ctx.report(pod.owner, `declares that it calls ${call.service}.${call.namespace}:${call.port}${request}, which this analysis cannot follow: `
          + `${decision.reason}. Declare what is missing (the Service and its workloads, or the caller's Namespace) in the inventory to prove the call allowed.`,
        { severity: Severity.WARNING });
        continue;
      }
      if (decision.uncertain) {
        // The pod's address decides, and the manifests do not give it: a warning, not a certain refusal.
        ctx.report(pod.owner, `declares that it calls ${call.service}.${call.namespace}:${call.port}${request}, which the mesh refuses unless its `
          + `pod address lies in the networks authorized: ${decision.reason}. Declare the cluster's clusterNetworks (the pod network) to decide it.`,
        { severity: Severity.WARNING });
        continue;
      }
      ctx.report(pod.owner, `declares that it calls ${call.service}.${call.namespace}:${call.port}${request}, but the mesh would refuse it: ${decision.reason}.`,
        { fix: narrowestFix(ctx, pod, call, policy()) });
    }
  }
}

/** Declared dependencies (the calls annotation) must be allowed by the inbound policy the manifests produce. */
export const declaredCalls: Rule = {
  id: 'LKD-POL-013',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Refused: the inbound policy the manifests describe refuses a call the workload declares (policy-'
      + 'controller/k8s/index/src/inbound/index.rs PolicyIndex::client_authzs, route_client_authzs). Calls decided by'
      + ' facts outside the manifests (a caller\'s address, objects the analysis cannot see) are warnings.',
    title: 'Every call a workload declares is allowed by the mesh\'s inbound policy',
    why: 'Moving to authenticated or deny policies is where outages come from (linkerd2#7154, #10691): a caller that '
      + 'nobody listed in an AuthorizationPolicy gets 403s, or connection resets, only after the rollout. Declaring the calls '
      + 'a workload makes lets the build prove each one is still allowed. Linkerd authorizes per route (the route a request '
      + 'lands on, then that route\'s and the Server\'s authorizations: linkerd2 policy-controller/k8s/index/src/inbound/index.rs '
      + 'http_routes and the proxy\'s server-policy try_route), so a call may name its method and path '
      + '(`orders:8080 GET /orders`); without them the call counts as allowed when some request gets through. A call to a '
      + 'Service, or to workloads, that the analysis does not see (another namespace, another tool\'s chart, a '
      + '`ServiceReference.fromName`) cannot be proved either way: a warning until the inventory declares them.',
    fix: 'Authorize the caller\'s ServiceAccount on the narrowest object that decides the call: an AuthorizationPolicy on the route it '
      + 'uses (ServerAccess.allow opens every route of the Server), or run the workload as the ServiceAccount it was meant to share; '
      + 'drop the declared call if it is gone.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::http_routes, '
      + 'PolicyIndex::route_client_authzs, PolicyIndex::client_authzs, ClusterInfo::default_inbound_http_routes',
    badExample: 'kind: Deployment\nmetadata:\n  name: wrong-client\n  annotations:\n    analysis.cdk8s-linkerd.io/calls: orders:8080   # runs as SA default',
    goodExample: 'kind: Deployment\nmetadata:\n  name: client\n  annotations:\n    analysis.cdk8s-linkerd.io/calls: orders:8080   # SA client is authorized',
  },
  check(ctx) {
    // The inbound policy of the whole mesh is computed only when some workload declares calls (and once per analysis).
    const lazyPolicy = () => evaluateInboundPolicy(ctx.index, ctx.context);
    for (const pod of ctx.index.podTemplates) {
      if (!pod.owner.inventory) checkWorkload(ctx, pod, lazyPolicy);
    }
  },
};
