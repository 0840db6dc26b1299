import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { Rule, RuleContext, RuleArea } from '../../rule';

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

function checkExpressions(ctx: RuleContext, server: IndexedObject, field: string, selector: any): void {
  const expressions = selector?.matchExpressions;
  if (expressions === undefined) return;
  if (!Array.isArray(expressions)) {
    ctx.report(server, `spec.${field}.matchExpressions must be a list.`, { effect: FindingEffect.REJECTED });
    return;
  }
  expressions.forEach((req: any, i: number) => {
    const path = `spec.${field}.matchExpressions[${i}]`;
    if (!OPERATORS.includes(req?.operator)) {
      ctx.report(server, `${path}.operator ${JSON.stringify(req?.operator)} is not one of ${OPERATORS.join(', ')}; the CRD rejects it.`, { effect: FindingEffect.REJECTED });
    } else if ((req.operator === 'In' || req.operator === 'NotIn') && (!Array.isArray(req.values) || req.values.length === 0)) {
      // NotIn [] is legal and selects as if absent (labels.rs Expression::matches): odd, but the Server works.
      const harmless = req.operator === 'NotIn' && Array.isArray(req.values);
      ctx.report(server, `${path} uses ${req.operator} with no values; ${emptyEffect(req.operator, req.values)}. List the values.`,
        harmless ? { severity: Severity.WARNING } : {});
    }
  });
}

/** What Linkerd makes of In / NotIn without values (labels.rs Expression::matches). */
function emptyEffect(operator: string, values: unknown): string {
  if (operator === 'In') return 'it can never match';
  return values === undefined || values === null
    ? 'Linkerd treats a NotIn without a values list as an illegal expression, so the selector never matches'
    : 'it excludes nothing';
}

/** Exactly one of podSelector / externalWorkloadSelector, with well-formed expressions. */
export const serverSelectorShapeRule: Rule = {
  id: 'LKD-POL-016',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED],
  doc: {
    certainty: 'Rejected: the Server CRD\'s oneOf refuses both selectors or neither; Never applies: policy-'
      + 'controller/k8s/api/src/labels.rs Expression::matches treats a malformed expression as matching nothing. A '
      + 'harmless variant is a warning.',
    title: 'Server sets exactly one of podSelector and externalWorkloadSelector',
    why: 'The Server CRD requires exactly one selector (oneOf); the API server rejects both or neither. Selector operators '
      + 'are limited to In, NotIn, Exists and DoesNotExist. The policy controller (labels.rs Expression::matches) treats In or '
      + 'NotIn without a values list, and Exists or DoesNotExist with one, as illegal: it logs a warning and the selector '
      + 'matches no pod. In with an empty list never matches; NotIn with an empty list excludes nothing (a warning: the '
      + 'Server works, but the expression does not do what it says).',
    fix: 'Keep one selector; use matchLabels, or matchExpressions with a valid operator and values.',
    linkerdSource: 'policy-controller/k8s/api/src/labels.rs Selector::from_expressions, Expression::matches; the '
      + 'exactly-one-selector rule is the Server CRD\'s oneOf (charts/linkerd-crds/templates/policy/server.yaml)',
    badExample: 'spec:\n  port: 8080\n  # no podSelector',
    goodExample: 'spec:\n  port: 8080\n  podSelector:\n    matchLabels: {app: orders}',
  },
  check(ctx) {
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      const spec = specOf(server);
      const pod = spec.podSelector !== undefined && spec.podSelector !== null;
      const external = spec.externalWorkloadSelector !== undefined && spec.externalWorkloadSelector !== null;
      if (pod === external) {
        ctx.report(server, pod
          ? 'spec sets both podSelector and externalWorkloadSelector; the CRD requires exactly one.'
          : 'spec sets neither podSelector nor externalWorkloadSelector; the CRD requires exactly one (an empty podSelector {} selects every pod).', { effect: FindingEffect.REJECTED });
      }
      if (pod) checkExpressions(ctx, server, 'podSelector', spec.podSelector);
      if (external) checkExpressions(ctx, server, 'externalWorkloadSelector', spec.externalWorkloadSelector);
    }
  },
};
