import { Severity } from '../../finding';
import { IndexedObject, WORKLOAD_GROUP } from '../../model/mesh-index';
import { externalWorkloadServes, listSome } from '../../model/policy-view';
import { everyRoute, hasOwnKeys, serviceBackends, serviceParents } from '../../model/route-view';
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

  /** Every Service some route uses. */
  public services(): IterableIterator<IndexedObject> {
    return this.byService.keys();
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

/** Ports of a Service whose only endpoints are ExternalWorkloads that none of them serves (findWorkloadPort). */
function unservedExternalPorts(ctx: RuleContext, service: IndexedObject): string[] {
  const workloads = ctx.index.externalWorkloadsForService(service);
  if (workloads.length === 0 || ctx.index.podTemplatesForService(service).length > 0) return [];
  const ports = Array.isArray(service.object.spec?.ports) ? service.object.spec.ports : [];
  return ports.filter((p: any) => p && Number.isInteger(p.port) && !workloads.some((w) => externalWorkloadServes(w, p)))
    .map((p: any) => `${p.port}${p.targetPort !== undefined ? ` (targetPort ${JSON.stringify(p.targetPort)})` : ''}`);
}

function reportUnservedExternalPorts(ctx: RuleContext, services: Iterable<IndexedObject>): void {
  if (ctx.index.list(WORKLOAD_GROUP, 'ExternalWorkload').length === 0) return;
  for (const service of services) {
    const ports = unservedExternalPorts(ctx, service);
    if (ports.length === 0) continue;
    const names = ctx.index.externalWorkloadsForService(service).map((w) => w.id.name);
    ctx.report(service, `port ${ports.join(', ')} matches no port of the ExternalWorkloads this Service selects (${listSome(names)}) that have a `
      + 'workloadIP, by name or number and protocol; Linkerd\'s external workload controller writes no endpoint for it, so requests routes send '
      + 'there fail. List the port in the ExternalWorkloads\' spec.ports (and give them their workloadIPs), or point targetPort at one of theirs.');
  }
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
      + 'server nor Linkerd reports it; a typo in a selector label is enough. A Service that selects ExternalWorkloads has '
      + 'the endpoints Linkerd\'s external workload controller writes for them, but only on the ports they list (by targetPort '
      + 'name or number, same protocol): a Service port none of them lists has no endpoint.',
    fix: 'Make the Service selector match the pod template labels of its workload (e.g. app.kubernetes.io/name and version).',
    linkerdSource: 'not Linkerd: Kubernetes EndpointSlice controller (a selector that matches no pod leaves the Service '
      + 'without endpoints); controller/api/destination/external-workload/endpoints_controller.go (ExternalWorkloads); '
      + 'controller/api/destination/external-workload/endpoints_reconciler.go findWorkloadPort',
    badExample: 'kind: Service\nmetadata: {name: orders-v2}\nspec:\n  selector: {app.kubernetes.io/name: orders, app.kubernetes.io/version: v9}',
    goodExample: 'kind: Service\nmetadata: {name: orders-v2}\nspec:\n  selector: {app.kubernetes.io/name: orders, app.kubernetes.io/version: v2}',
  },
  check(ctx) {
    const used = collectUses(ctx);
    reportUnservedExternalPorts(ctx, used.services());
    for (const { service, namespace, selector, podCount, uses } of used.unselected) {
      ctx.report(service, `the selector ${selectorText(selector)} matches none of the ${podCount} pod template(s) in namespace ${namespace}, `
        + `but this Service is the ${describeUses(uses)}; requests sent to it have no endpoint and fail. Fix the selector labels.`);
    }
  },
};
