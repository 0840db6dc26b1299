import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';
import { backendNamespace, backendRefs, everyRoute, isServiceBackend, rules, serviceParents } from '../route-helpers';

interface Use {
  readonly route: IndexedObject;
  readonly role: 'parent' | 'backend';
}

function key(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** Every Service that a route uses as parent or backend, with the routes that use it. */
function usedServices(ctx: RuleContext): Map<string, Use[]> {
  const uses = new Map<string, Use[]>();
  const add = (namespace: string, name: unknown, use: Use) => {
    if (typeof name !== 'string') return;
    const k = key(namespace, name);
    const list = uses.get(k);
    if (list) list.push(use); else uses.set(k, [use]);
  };
  for (const route of everyRoute(ctx.index)) {
    for (const parent of serviceParents(route, ctx.index)) add(parent.namespace, parent.name, { route, role: 'parent' });
    for (const rule of rules(route)) {
      for (const backend of backendRefs(rule)) {
        if (isServiceBackend(backend)) add(backendNamespace(backend, route), backend.name, { route, role: 'backend' });
      }
    }
  }
  return uses;
}

function selectorText(selector: Record<string, unknown>): string {
  return Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(',');
}

function describeUses(uses: Use[]): string {
  const names = [...new Set(uses.map((u) => `${u.role} of ${u.route.id.kind} ${u.route.id.name}`))];
  return names.join(', ');
}

/**
 * A Service a route sends to (or attaches to) whose selector matches no pod: the API server and Linkerd accept it,
 * and the requests it should serve fail. Judged only when the namespace has pod templates here, so that a partial
 * output (pods deployed elsewhere) does not produce noise; Services without a selector use manual endpoints.
 */
export const serviceSelectsPods: Rule = {
  id: 'LKD-ROUTE-023',
  area: RuleArea.ROUTE,
  severity: Severity.WARNING,
  doc: {
    title: 'A Service that routes use as parent or backend selects at least one pod',
    why: 'A backend Service whose selector matches no pod has no endpoints: its share of a split fails with 503s, and '
      + 'a parent Service with no pods serves nothing to unmeshed clients or to rules without backends. Neither the API '
      + 'server nor Linkerd reports it; a typo in a selector label is enough.',
    fix: 'Make the Service selector match the pod template labels of its workload (e.g. app.kubernetes.io/name and version).',
    badExample: 'kind: Service\nmetadata: {name: orders-v2}\nspec:\n  selector: {app.kubernetes.io/name: orders, app.kubernetes.io/version: v9}',
    goodExample: 'kind: Service\nmetadata: {name: orders-v2}\nspec:\n  selector: {app.kubernetes.io/name: orders, app.kubernetes.io/version: v2}',
  },
  check(ctx) {
    for (const [k, uses] of usedServices(ctx)) {
      const [namespace, name] = [k.slice(0, k.indexOf('/')), k.slice(k.indexOf('/') + 1)];
      const service = ctx.index.service(namespace, name);
      const selector = service?.object.spec?.selector;
      if (!service || !selector || typeof selector !== 'object' || Object.keys(selector).length === 0) continue;
      const pods = ctx.index.podTemplatesIn(namespace);
      if (pods.length === 0 || ctx.index.podTemplatesForService(service).length > 0) continue;
      ctx.report(service, `the selector ${selectorText(selector)} matches none of the ${pods.length} pod template(s) in namespace ${namespace}, `
        + `but this Service is the ${describeUses(uses)}; requests sent to it have no endpoint and fail. Fix the selector labels.`);
    }
  },
};
