/**
 * An HTTPLocalRateLimitPolicy limits each proxy, not the cluster: every pod behind the Server runs its own limiter
 * (linkerd2-proxy linkerd/proxy/server-policy/src/local_rate_limit.rs, one LocalRateLimit per server policy), so the
 * cluster-wide capacity of each rate is the rate × the proxies — a range when an autoscaler scales them.
 */
import { POLICY_GROUP } from '../../../core/vocabulary';
import { compareStrings } from '../../../util/compare';
import { serverCoverage } from '../../model/inbound/servers';
import { isMeshed } from '../../model/injector/injection';
import { IndexedObject, MeshIndex, PodTemplate } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { workloadLabel } from '../../model/pod-templates';
import { asRef, isPolicyRef, refList } from '../../model/refs';
import { ReplicaRange, replicasOf } from '../../model/replicas';
import { AnalysisContext } from '../../options';

export interface RateCapacity {
  /** `total`, `identity (per client identity)`, `overrides[0] (ServiceAccount shop/web)`. */
  readonly label: string;
  readonly perProxy: number;
}

export interface RateLimitCapacity {
  readonly policy: IndexedObject;
  readonly server: IndexedObject;
  readonly workloads: ReadonlyArray<{ readonly pod: PodTemplate; readonly replicas: ReplicaRange }>;
  /** Proxies enforcing the limits: the sum of the meshed workloads' replicas (max undefined when unknown). */
  readonly proxies: { readonly min: number; readonly max?: number };
  readonly rates: readonly RateCapacity[];
  /** True when the capacity is not one number: an autoscaler scales a workload, or a count is unknown. */
  readonly varies: boolean;
}

function rateOf(value: unknown): number | undefined {
  const n = (value as any)?.requestsPerSecond;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

function ratesOf(policy: IndexedObject): RateCapacity[] {
  const spec = specOf(policy);
  const rates: RateCapacity[] = [];
  const total = rateOf(spec.total);
  if (total !== undefined) rates.push({ label: 'total', perProxy: total });
  const identity = rateOf(spec.identity);
  if (identity !== undefined) rates.push({ label: 'identity (per client identity)', perProxy: identity });
  refList(spec.overrides).forEach((o: any, i) => {
    const clients = refList(o.clientRefs).map((r: any) => `ServiceAccount ${r.namespace ?? policy.id.namespace}/${r.name}`).join(', ');
    const rate = rateOf(o);
    if (rate !== undefined) rates.push({ label: `overrides[${i}] (${clients || 'no clients'})`, perProxy: rate });
  });
  return rates;
}

/** The capacity of one policy, or undefined when its Server does not exist or selects no meshed workload here. */
export function rateLimitCapacity(index: MeshIndex, context: AnalysisContext, policy: IndexedObject): RateLimitCapacity | undefined {
  const ref = asRef(specOf(policy).targetRef);
  if (!isPolicyRef(ref, 'Server')) return undefined;
  const server = index.get(POLICY_GROUP, 'Server', policy.id.namespace, String(ref!.name));
  if (!server) return undefined;
  const seen = new Set<IndexedObject>();
  const workloads = serverCoverage(index).podsOf(server).filter((pod) => isMeshed(pod) && !seen.has(pod.owner) && seen.add(pod.owner))
    .map((pod) => ({ pod, replicas: replicasOf(index, context, pod) }))
    // Input order must not change the message.
    .sort((a, b) => compareStrings(workloadLabel(a.pod), workloadLabel(b.pod)));
  const rates = ratesOf(policy);
  if (workloads.length === 0 || rates.length === 0) return undefined;
  const min = workloads.reduce((n, w) => n + w.replicas.min, 0);
  const max = workloads.every((w) => w.replicas.max !== undefined) ? workloads.reduce((n, w) => n + w.replicas.max!, 0) : undefined;
  return { policy, server, workloads, proxies: { min, max }, rates, varies: max !== min };
}

/** Every HTTPLocalRateLimitPolicy's capacity (the output's and the inventory's), in input order. */
export function rateLimitCapacities(index: MeshIndex, context: AnalysisContext): RateLimitCapacity[] {
  return index.list(POLICY_GROUP, 'HTTPLocalRateLimitPolicy').flatMap((p) => rateLimitCapacity(index, context, p) ?? []);
}

const range = (min: number, max: number | undefined) => (max === min ? `${min}` : max === undefined ? `${min}..?` : `${min}..${max}`);

/** `total 100 rps × 2..10 proxies = 200..1000 rps; identity (per client identity) 20 rps × …`. */
export function describeRates(c: RateLimitCapacity): string {
  const proxies = `${range(c.proxies.min, c.proxies.max)} ${c.proxies.min === 1 && c.proxies.max === 1 ? 'proxy' : 'proxies'}`;
  return c.rates.map((r) => `${r.label} ${r.perProxy} rps × ${proxies} = `
    + `${range(r.perProxy * c.proxies.min, c.proxies.max === undefined ? undefined : r.perProxy * c.proxies.max)} rps`).join('; ');
}

export function describeWorkloads(c: RateLimitCapacity): string {
  return c.workloads.map((w) => `${workloadLabel(w.pod)} (${w.replicas.origin})`).join(', ');
}
