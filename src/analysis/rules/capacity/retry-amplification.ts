import { describeChain, retryChains } from './retry-chains';
import { Severity } from '../../finding';
import { Rule, RuleArea } from '../../rule';

/** Retries at every hop multiply: a chain of declared calls whose worst-case attempts exceed the bound. */
export const retryAmplification: Rule = {
  id: 'LKD-CAP-001',
  area: RuleArea.CAPACITY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: how many requests fail and are retried at each hop; the limits only bound the worst case.',
    title: 'Retries along a chain of declared calls stay within maxRetryAmplification',
    why: 'Each client proxy retries a failed request up to its retry limit (retry.linkerd.io/limit on the route, else on '
      + 'its parent Service; 1 when only conditions are set), so one request becomes up to 1 + limit attempts at that hop; '
      + 'when the called workload retries its own calls too, the attempts multiply. Along a chain of declared calls '
      + '(addCall, the analysis.cdk8s-linkerd.io/calls annotation) the worst case reaching a hop is the product of '
      + '(1 + limit) of the request classes on the way — the route each call lands on, or the Service\'s default route. '
      + 'During an outage of the last hop that product is the load multiplier on it: a retry storm. Whether it happens '
      + 'depends on failures at run time, so this is a warning; the bound is the context option maxRetryAmplification '
      + '(default 10).',
    fix: 'Retry at one layer only (usually the edge), lower retry.linkerd.io/limit on the inner hops, or raise '
      + 'maxRetryAmplification (CLI --max-retry-amplification) where the last hop is sized for it.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs parse_http_retry; '
      + 'policy-controller/grpc/src/outbound/http.rs convert_retry; '
      + 'linkerd2-proxy linkerd/app/outbound/src/http/logical/policy/route/retry.rs RetryPolicy::set_extensions',
    badExample: 'kind: Service\nmetadata:\n  name: orders\n  annotations:\n    retry.linkerd.io/http: 5xx\n    retry.linkerd.io/limit: "3"\n'
      + '---\nkind: Deployment   # orders calls payments, whose Service retries 3 times too: 16 attempts\nmetadata:\n  name: orders\n'
      + '  annotations:\n    analysis.cdk8s-linkerd.io/calls: payments:8080',
    goodExample: 'kind: Service\nmetadata:\n  name: payments   # no retries on the inner hop: 4 attempts at most\n',
  },
  check(ctx) {
    const max = ctx.context.maxRetryAmplification;
    const seen = new Set<string>();
    for (const chain of retryChains(ctx.index, ctx.context)) {
      if (chain.factor <= max) continue;
      const text = describeChain(chain);
      if (seen.has(text)) continue;
      seen.add(text);
      const last = chain.hops[chain.hops.length - 1];
      const factors = chain.hops.map((h) => h.retry.factor).join(' × ');
      ctx.report(chain.hops[0].caller.owner, `one request can reach ${last.targets[0].owner.id.kind} ${last.targets[0].namespace}/${last.targets[0].owner.id.name} `
        + `as ${chain.factor} attempts in the worst case (${factors}), above maxRetryAmplification ${max}: ${text}.`);
    }
  },
};
