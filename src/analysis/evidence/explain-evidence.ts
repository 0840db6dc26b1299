/**
 * What explain adds about evidence and capacity (additive to its own output): the refusals declared against a port or
 * Service and whether the policy proves them, the retry factor of each request class of a Service port (LKD-CAP-001),
 * and the cluster-wide capacity of the local rate limits on the way (LKD-CAP-002).
 */
import { idLabel } from '../../util/labels';
import { serverCoverage } from '../model/inbound/servers';
import { MeshIndex, PodTemplate } from '../model/mesh-index';
import { specOf } from '../model/objects';
import { refList } from '../model/refs';
import { evaluateInboundPolicy } from '../policy';
import { parseTarget } from '../reachability/explain';
import { AnalysisResult } from '../result';
import { RateLimitCapacity, describeRates, describeWorkloads, rateLimitCapacities } from '../rules/capacity/rate-limit-capacity';
import { RetryClass, retryClasses } from '../rules/capacity/retry-chains';
import { proveRefusal, refusalsOf, requestText } from '../rules/policy/refused-calls';

/** A declared refusal and what the policy says of it. */
export interface RefusalView {
  /** `namespace/workload` of the caller. */
  readonly caller: string;
  /** The entry as declared, with its namespace: `orders.mesh-lab:8080 (GET /)`. */
  readonly target: string;
  /** `proven`: refused by every workload behind it; `allowed`: some let it in; `unproven`: depends on facts outside. */
  readonly verdict: 'proven' | 'allowed' | 'unproven';
  readonly because: string;
}

export interface RateLimitView {
  readonly policy: string;
  readonly server: string;
  readonly workloads: string;
  readonly capacity: string;
  readonly varies: boolean;
}

export interface ExplainEvidence {
  readonly refusals: RefusalView[];
  /** For a Service port: its request classes and the attempts one request of each may make (1 + retry limit). */
  readonly retryClasses?: RetryClass[];
  readonly rateLimits: RateLimitView[];
}

/** Declared refusals whose Service is `service` (and, when given, whose port is `port`), with their verdicts. */
function refusalsTo(result: AnalysisResult, accepts: (namespace: string, service: string, port: number | string) => boolean): RefusalView[] {
  const index = result.index;
  let policy: ReturnType<typeof evaluateInboundPolicy> | undefined;
  const views: RefusalView[] = [];
  for (const pod of index.podTemplates) {
    if (pod.owner.inventory) continue;
    for (const call of refusalsOf(pod).calls) {
      if (!accepts(call.namespace, call.service, call.port)) continue;
      policy ??= evaluateInboundPolicy(index, result.context);
      const verdict = proveRefusal(policy, { namespace: pod.namespace, name: pod.owner.id.name, kind: pod.owner.id.kind }, call);
      const target = `${call.service}.${call.namespace}:${call.port}${requestText(call)}`;
      const caller = `${pod.namespace}/${pod.owner.id.name}`;
      if (verdict.allowedBy.length > 0) {
        views.push({ caller, target, verdict: 'allowed', because: verdict.allowedBy.map((a) => `${a.workload} lets it in: ${a.decision.reason}`).join('; ') });
      } else if (verdict.undecided) {
        views.push({ caller, target, verdict: 'unproven', because: verdict.undecided.reason });
      } else {
        views.push({ caller, target, verdict: 'proven', because: 'every workload behind it refuses it' });
      }
    }
  }
  return views;
}

/** Every declared refusal of the analysis with its verdict (what diff compares). */
export function serviceRefusals(result: AnalysisResult): RefusalView[] {
  return refusalsTo(result, () => true);
}

function rateLimitView(c: RateLimitCapacity): RateLimitView {
  return {
    policy: idLabel(c.policy.id), server: idLabel(c.server.id), workloads: describeWorkloads(c), capacity: describeRates(c), varies: c.varies,
  };
}

/** The local rate limits whose Server claims `port` of one of `pods`. */
function rateLimitsOn(result: AnalysisResult, pods: ReadonlyArray<{ pod: PodTemplate; port: number }>): RateLimitView[] {
  const coverage = serverCoverage(result.index);
  return rateLimitCapacities(result.index, result.context)
    .filter((c) => pods.some(({ pod, port }) => coverage.claims(pod, port).includes(c.server)))
    .map(rateLimitView);
}

function serviceOf(index: MeshIndex, namespace: string, name: string) {
  return index.service(namespace, name);
}

/** The evidence for `explain --to NAMESPACE/WORKLOAD:PORT`; undefined when the target does not parse or exist. */
export function portEvidence(result: AnalysisResult, text: string): ExplainEvidence | undefined {
  const target = parseTarget(text);
  if (!target || typeof target.port !== 'number') return undefined;
  const pod = result.index.podTemplatesIn(target.namespace).find((p) => p.owner.id.name === target.name);
  if (!pod) return undefined;
  const port = target.port;
  // A refusal lands here when its Service selects this workload and forwards the port to this container port.
  const refusals = refusalsTo(result, (namespace, name, servicePort) => {
    const service = serviceOf(result.index, namespace, name);
    if (!service || !result.index.podTemplatesForService(service).includes(pod)) return false;
    const spec = refList(specOf(service).ports).find((p: any) => p.port === servicePort || p.name === servicePort) as any;
    return spec !== undefined && (spec.targetPort ?? spec.port) === port;
  });
  return { refusals, rateLimits: rateLimitsOn(result, [{ pod, port }]) };
}

/** The evidence for `explain --to-service NAMESPACE/SERVICE:PORT`; undefined when the target does not parse or exist. */
export function serviceEvidence(result: AnalysisResult, text: string): ExplainEvidence | undefined {
  const target = parseTarget(text);
  if (!target || typeof target.port !== 'number') return undefined;
  const service = serviceOf(result.index, target.namespace, target.name);
  const spec = service ? refList(specOf(service).ports).find((p: any) => p.port === target.port) as any : undefined;
  if (!service || !spec) return undefined;
  const refusals = refusalsTo(result, (namespace, name, port) =>
    namespace === target.namespace && name === target.name && (port === target.port || port === spec.name));
  const targetPort = spec.targetPort ?? spec.port;
  const pods = result.index.podTemplatesForService(service).flatMap((pod) => (typeof targetPort === 'number' ? [{ pod, port: targetPort }] : []));
  return {
    refusals,
    retryClasses: retryClasses(result.index, result.context, service, target.port, target.namespace),
    rateLimits: rateLimitsOn(result, pods),
  };
}

const VERDICT_WORDS: Record<RefusalView['verdict'], string> = { proven: 'REFUSED', allowed: 'ALLOWED', unproven: 'UNSURE ' };

/** Text lines after explain's own, indented as its sections are. */
export function formatEvidence(e: ExplainEvidence): string {
  const lines: string[] = [];
  if (e.retryClasses) {
    lines.push('  retry amplification (attempts per request, by request class; LKD-CAP-001 multiplies them along declared calls):');
    for (const c of e.retryClasses) lines.push(`    ${c.name}: ×${c.factor}${c.source ? ` (${c.source})` : ' (no retry)'}`);
  }
  if (e.rateLimits.length > 0) lines.push('  local rate limits, per proxy (LKD-CAP-002):');
  for (const r of e.rateLimits) {
    lines.push(`    ${r.policy} on ${r.server}, served by ${r.workloads}: cluster-wide ${r.capacity}${r.varies ? ' (varies)' : ''}`);
  }
  if (e.refusals.length > 0) lines.push('  declared refusals (LKD-POL-026):');
  for (const r of e.refusals) lines.push(`    ${VERDICT_WORDS[r.verdict]} ${r.caller} → ${r.target}: ${r.because}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
