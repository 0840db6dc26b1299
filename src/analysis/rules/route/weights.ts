import { MAX_WEIGHT, forwardsNothing, isValidWeight, weightOrDefault } from '../../../core/backend-weights';
import { FindingEffect, Severity } from '../../finding';
import { allRoutes, backendRefs, rules } from '../../model/routes/lists';
import { onlyServerParents } from '../../model/routes/parents';
import { Rule, RuleArea } from '../../rule';

/** Weights a proxy can act on: each in range, and not all zero in a rule. */
export const backendWeights: Rule = {
  id: 'LKD-ROUTE-009',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED],
  doc: {
    certainty: 'Rejected: the Gateway API CRD limits weights to 0..1000000; Refused: a rule whose backends all weigh 0 '
      + 'forwards nothing (convert_outbound_route).',
    title: 'Backend weights are integers 0..1,000,000 and not all zero in a rule',
    why: 'A weight outside the range is rejected by the API server. When every backend of a rule weighs 0 the schema '
      + 'accepts the route but no request can be forwarded; the failure shows only as errors at runtime. (A route whose '
      + 'parents are all Servers is inbound policy: its backends are not used, so their weights do not matter.)',
    fix: 'Give at least one backend a positive weight; shares are weight ÷ sum of the rule\'s weights.',
    linkerdSource: 'Gateway API v1.2.1 CRD (backendRefs[].weight: 0 to 1000000); policy-controller/grpc/src/outbound/http.rs '
      + 'convert_outbound_route (RandomAvailable over the rule\'s weighted backends); policy-controller/k8s/index/src/inbound/index/http.rs '
      + '(a Server\'s routes keep no backends)',
    badExample: 'backendRefs:\n- {name: orders-v1, port: 8080, weight: 0}\n- {name: orders-v2, port: 8080, weight: 0}',
    goodExample: 'backendRefs:\n- {name: orders-v1, port: 8080, weight: 90}\n- {name: orders-v2, port: 8080, weight: 10}',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      const list = rules(route);
      for (let r = 0; r < list.length; r++) {
        const backends = backendRefs(list[r]);
        if (backends.length === 0) continue;
        backends.forEach((backend, b) => {
          const w = weightOrDefault(backend?.weight);
          if (!isValidWeight(w)) {
            ctx.report(route, `rules[${r}].backendRefs[${b}] has weight ${JSON.stringify(w)}; it must be an integer 0..${MAX_WEIGHT}.`, { effect: FindingEffect.REJECTED });
          }
        });
        if (forwardsNothing(backends.map((backend) => backend?.weight)) && !onlyServerParents(route)) {
          ctx.report(route, `every backend of rules[${r}] has weight 0, so no request matching that rule can be forwarded.`);
        }
      }
    }
  },
};
