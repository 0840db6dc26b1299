import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';
import { backendNamespace, backendRefs, everyRoute, isRecord, isServiceBackend, rules } from '../route-helpers';

function reportDuplicates(ctx: RuleContext, route: IndexedObject, backends: any[], r: number): void {
  const firstAt = new Map<string, number>();
  backends.forEach((backend, b) => {
    if (!isServiceBackend(backend) || typeof backend.name !== 'string' || backend.port === undefined) return;
    const key = `${backendNamespace(backend, route)}/${backend.name}:${String(backend.port)}`;
    const first = firstAt.get(key);
    if (first === undefined) {
      firstAt.set(key, b);
      return;
    }
    ctx.report(route, `rules[${r}].backendRefs[${b}] repeats rules[${r}].backendRefs[${first}] (Service ${key}); the two weights `
      + 'simply add up, which hides the real split. Merge them into one backendRef with the summed weight.');
  });
}

function reportLoneWeight(ctx: RuleContext, route: IndexedObject, backends: any[], r: number): void {
  const only = backends[0];
  if (backends.length !== 1 || !isRecord(only) || only.weight === undefined || only.weight === 0) return;
  ctx.report(route, `rules[${r}].backendRefs[0] is the only backend and sets weight ${JSON.stringify(only.weight)}; a lone backend `
    + 'gets all traffic whatever its weight. If this was meant as a canary, add the other backend; otherwise drop the weight.');
}

/** Split definitions that are legal but almost never what the author meant. */
export const backendSanity: Rule = {
  id: 'LKD-ROUTE-010',
  area: RuleArea.ROUTE,
  severity: Severity.WARNING,
  doc: {
    title: 'A rule lists each backend once, and a lone backend carries no weight',
    why: 'The same Service and port twice in one rule is accepted and its weights add up, so the split differs from '
      + 'what either line says. A single backend with a weight gets 100% of the traffic: usually a canary whose second '
      + 'backend was forgotten.',
    fix: 'Merge duplicate backendRefs; remove the weight from a lone backend or add the missing backend.',
    badExample: 'backendRefs:\n- {name: orders-v1, port: 8080, weight: 90}\n- {name: orders-v1, port: 8080, weight: 10}',
    goodExample: 'backendRefs:\n- {name: orders-v1, port: 8080, weight: 90}\n- {name: orders-v2, port: 8080, weight: 10}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      rules(route).forEach((rule, r) => {
        const backends = backendRefs(rule);
        reportDuplicates(ctx, route, backends, r);
        reportLoneWeight(ctx, route, backends, r);
      });
    }
  },
};
