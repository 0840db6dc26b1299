import { describeRates, describeWorkloads, rateLimitCapacity } from './rate-limit-capacity';
import { POLICY_GROUP } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { Rule, RuleArea } from '../../rule';

/** A local rate limit is per proxy: its cluster-wide capacity is rate × the proxies behind the Server. */
export const localRateLimits: Rule = {
  id: 'LKD-CAP-002',
  area: RuleArea.CAPACITY,
  severity: Severity.INFO,
  doc: {
    certainty: 'Advice: the limit counts per proxy, so its cluster-wide capacity is the rate times the replicas; a warning when '
      + 'an autoscaler makes the replicas, and so the capacity, vary.',
    title: 'A local rate limit\'s cluster-wide capacity is its rate × the replicas behind the Server',
    why: 'HTTPLocalRateLimitPolicy is enforced by each proxy on its own: every pod behind the Server keeps its own token '
      + 'buckets (total, per identity, per override), so the cluster accepts rate × replicas, not the rate — it is no '
      + 'global quota. With fixed replicas that is one number (information); when a HorizontalPodAutoscaler scales the '
      + 'workload, the capacity moves with it between minReplicas and maxReplicas (a warning: the limit a downstream '
      + 'system was sized for is exceeded as soon as the workload scales out).',
    fix: 'Size the rate as the cluster-wide budget divided by the replicas (HttpLocalRateLimitPolicy clusterBudget does '
      + 'it), and for an autoscaled workload decide whether the budget may be exceeded at maxReplicas or must hold there.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::client_ratelimit; '
      + 'linkerd2-proxy linkerd/proxy/server-policy/src/local_rate_limit.rs LocalRateLimit::check',
    badExample: 'kind: HTTPLocalRateLimitPolicy\nspec:\n  targetRef: {group: policy.linkerd.io, kind: Server, name: orders-http}\n'
      + '  total: {requestsPerSecond: 100}   # orders has an HPA 2..10: 200..1000 rps cluster-wide',
    goodExample: 'kind: HTTPLocalRateLimitPolicy\nspec:\n  targetRef: {group: policy.linkerd.io, kind: Server, name: orders-http}\n'
      + '  total: {requestsPerSecond: 50}   # 2 fixed replicas: 100 rps cluster-wide (information)',
  },
  check(ctx) {
    for (const policy of ctx.index.own(POLICY_GROUP, 'HTTPLocalRateLimitPolicy')) {
      const c = rateLimitCapacity(ctx.index, ctx.context, policy);
      if (!c) continue;
      const why = c.varies
        ? c.proxies.max === undefined
          ? '; how many proxies run is not known here, so neither is the capacity'
          : '; an autoscaler changes the cluster-wide capacity as it scales'
        : '';
      ctx.report(policy, `limits each proxy, not the cluster: Server ${c.server.id.name} is served by ${describeWorkloads(c)}, so the cluster-wide `
        + `capacity is ${describeRates(c)}${why}.`, c.varies ? { severity: Severity.WARNING } : { severity: Severity.INFO });
    }
  },
};
