import { compareStrings } from '../../../util/compare';
import { isRecord } from '../../../util/json';
import { Severity } from '../../finding';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { backendNamespaces, isServiceBackend } from '../../model/routes/backends';
import { backendRefs, everyRoute, rules } from '../../model/routes/lists';
import { onlyServerParents } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** A backend two entries can repeat each other by: a named Service backend with a port. */
function isKeyed(backend: any): boolean {
  return isServiceBackend(backend) && typeof backend.name === 'string' && backend.port !== undefined;
}

/** What makes two backends the same: the Service they resolve to and the port, as one text. */
function backendKey(route: IndexedObject, backend: Record<string, any>, index: MeshIndex): string {
  return `${backendNamespaces(backend, route, index)[0]}/${backend.name}:${String(backend.port)}`;
}

/**
 * A backend's own filters, as one text: each backendRef is a weighted backend of its own that keeps its filters
 * (outbound/index/http.rs convert_backend), so the same Service with other filters is a deliberate split, not a repeat.
 */
function filtersKey(backend: Record<string, any>): string {
  return Array.isArray(backend.filters) && backend.filters.length > 0 ? JSON.stringify(backend.filters, sortedKeys) : '';
}

/** JSON.stringify replacer that writes object keys in one order, so filters written in another key order compare equal. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.keys(value).sort(compareStrings).map((k) => [k, value[k]]));
}

function reportRepeat(ctx: RuleContext, route: IndexedObject, r: number, b: number, first: number, key: string): void {
  ctx.report(route, `rules[${r}].backendRefs[${b}] repeats rules[${r}].backendRefs[${first}] (Service ${key}); the two weights `
    + 'simply add up, which hides the real split. Merge them into one backendRef with the summed weight.');
}

function reportDuplicates(ctx: RuleContext, route: IndexedObject, backends: readonly any[], r: number): void {
  if (backends.length < 2) return;
  const firstAt = new Map<string, number>();
  backends.forEach((backend, b) => {
    if (!isKeyed(backend)) return;
    const key = backendKey(route, backend, ctx.index);
    const same = `${key} ${filtersKey(backend)}`;
    const first = firstAt.get(same);
    if (first === undefined) firstAt.set(same, b);
    else reportRepeat(ctx, route, r, b, first, key);
  });
}

function reportLoneWeight(ctx: RuleContext, route: IndexedObject, backends: readonly any[], r: number): void {
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
    certainty: 'Depends on: which split the author meant; the weights Linkerd applies are certain, the intent is not.',
    title: 'A rule lists each backend once, and a lone backend carries no weight',
    why: 'The same Service and port twice in one rule, with the same filters, is accepted and its weights add up, so the split '
      + 'differs from what either line says (with other filters, each entry is a backend of its own: a deliberate split). A single backend with a weight gets 100% of the traffic: usually a canary whose second '
      + 'backend was forgotten.',
    fix: 'Merge duplicate backendRefs; remove the weight from a lone backend or add the missing backend.',
    linkerdSource: 'policy-controller/grpc/src/outbound/http.rs convert_outbound_route (each backendRef is its own weighted '
      + 'backend); Gateway API weighting',
    badExample: 'backendRefs:\n- {name: orders-v1, port: 8080, weight: 90}\n- {name: orders-v1, port: 8080, weight: 10}',
    goodExample: 'backendRefs:\n- {name: orders-v1, port: 8080, weight: 90}\n- {name: orders-v2, port: 8080, weight: 10}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      // A Server's route keeps no backends (LKD-ROUTE-028 says so): how they are split does not matter.
      if (onlyServerParents(route)) continue;
      const list = rules(route);
      for (let r = 0; r < list.length; r++) {
        const backends = backendRefs(list[r]);
        reportDuplicates(ctx, route, backends, r);
        reportLoneWeight(ctx, route, backends, r);
      }
    }
  },
};
