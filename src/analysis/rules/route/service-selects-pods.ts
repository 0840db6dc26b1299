import { hasOwnKeys } from '../../../util/json';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { serviceBackends } from '../../model/routes/backends';
import { everyRoute } from '../../model/routes/lists';
import { serviceParents } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

interface Use {
  readonly route: IndexedObject;
  readonly role: 'parent' | 'backend';
}

/** A Service that routes use and whose selector selects none of its namespace's pods: one finding. */
interface Unselected {
  readonly service: IndexedObject;
  /** The namespace as the message names it (that of the `namespace/name` the routes wrote). */
  readonly namespace: string;
  readonly selector: Record<string, unknown>;
  readonly podCount: number;
  readonly uses: Use[];
}

/** Whether routes can count on the Service's pods: only a Service with a selector, in a namespace with pods here, is judged. */
function judge(ctx: RuleContext, service: IndexedObject, namespace: string): Unselected | undefined {
  const selector = service.object.spec?.selector;
  if (!selector || typeof selector !== 'object' || !hasOwnKeys(selector)) return undefined;
  const podCount = ctx.index.podTemplatesIn(namespace).length;
  if (podCount === 0 || ctx.index.podTemplatesForService(service).length > 0) return undefined;
  if (ctx.index.externalWorkloadsForService(service).length > 0) return undefined;
  return { service, namespace, selector, podCount, uses: [] };
}

/**
 * The uses of Services by routes, grouped by the Service they resolve to and judged once per Service (grouping by the
 * object spares building a text key per use).
 */
class ServiceUses {
  public readonly unselected: Unselected[] = [];
  private readonly byService = new Map<IndexedObject, Unselected | null>();

  constructor(private readonly ctx: RuleContext) {}

  public add(namespace: string, service: IndexedObject | undefined, route: IndexedObject, role: Use['role']): void {
    if (!service) return;
    let group = this.byService.get(service);
    if (group === undefined) {
      group = judge(this.ctx, service, namespace) ?? null;
      this.byService.set(service, group);
      if (group) this.unselected.push(group);
    }
    // Only the few findings need their uses.
    group?.uses.push({ route, role });
  }
}

function collectUses(ctx: RuleContext): ServiceUses {
  const uses = new ServiceUses(ctx);
  for (const route of everyRoute(ctx.index)) {
    for (const p of serviceParents(route, ctx.index)) uses.add(p.namespace, p.service, route, 'parent');
    for (const b of serviceBackends(route, ctx.index)) uses.add(b.namespace, b.service, route, 'backend');
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
    certainty: 'Depends on: pods deployed outside the manifests; a Service with no endpoints fails its share only if no such'
      + ' pods exist.',
    title: 'A Service that routes use as parent or backend selects at least one pod',
    why: 'A backend Service whose selector matches no pod has no endpoints: its share of a split fails with 503s, and '
      + 'a parent Service with no pods serves nothing to unmeshed clients or to rules without backends. Neither the API '
      + 'server nor Linkerd reports it; a typo in a selector label is enough. A Service that selects ExternalWorkloads has '
      + 'the endpoints Linkerd\'s external workload controller writes for them (LKD-MESH-015 checks that they get some).',
    fix: 'Make the Service selector match the pod template labels of its workload (e.g. app.kubernetes.io/name and version).',
    linkerdSource: 'not Linkerd: Kubernetes EndpointSlice controller (a selector that matches no pod leaves the Service '
      + 'without endpoints); controller/api/destination/external-workload/endpoints_controller.go (ExternalWorkloads)',
    badExample: 'kind: Service\nmetadata: {name: orders-v2}\nspec:\n  selector: {app.kubernetes.io/name: orders, app.kubernetes.io/version: v9}',
    goodExample: 'kind: Service\nmetadata: {name: orders-v2}\nspec:\n  selector: {app.kubernetes.io/name: orders, app.kubernetes.io/version: v2}',
  },
  check(ctx) {
    const used = collectUses(ctx);
    for (const { service, namespace, selector, podCount, uses } of used.unselected) {
      ctx.report(service, `the selector ${selectorText(selector)} matches none of the ${podCount} pod template(s) in namespace ${namespace}, `
        + `but this Service is the ${describeUses(uses)}; requests sent to it have no endpoint and fail. Fix the selector labels.`);
    }
  },
};
