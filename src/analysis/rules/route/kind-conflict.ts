import { FindingEffect, Severity } from '../../finding';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { RouteFamily, attachedPorts, everyRouteWithInventory, familyRank, objectLabel, pushTo, routeFamily, serviceParents } from '../../model/route-view';
import { Rule, RuleArea } from '../../rule';

interface Attachment {
  readonly route: IndexedObject;
  readonly family: RouteFamily;
  readonly position: number;
  readonly service: string;
  /** The namespace whose clients alone use it (a consumer route: not in the Service's namespace); undefined for a producer route. */
  readonly consumer?: string;
  /** The Service ports it attaches to; undefined when it covers every port of a Service we cannot see. */
  readonly ports?: number[];
}

/** Attachments of one Service, by port; `everyPort` holds those that cover all ports of a Service we cannot see. */
interface ServiceSlots {
  readonly byPort: Map<number, Attachment[]>;
  readonly everyPort: Attachment[];
}

/** Services (`namespace/name`) that routes of more than one family attach to: a Service with one family has no conflict. */
function mixedTargets(index: MeshIndex): Set<string> {
  const firstFamily = new Map<string, RouteFamily>();
  const mixed = new Set<string>();
  for (const route of everyRouteWithInventory(index)) {
    const family = routeFamily(route);
    if (!family) continue;
    for (const parent of serviceParents(route, index)) {
      const first = firstFamily.get(parent.key);
      if (first === undefined) firstFamily.set(parent.key, family);
      else if (first !== family) mixed.add(parent.key);
    }
  }
  return mixed;
}

/** Every attachment to a Service that routes of several families share, by Service. */
function collectAttachments(index: MeshIndex): Map<string, Attachment[]> {
  const byService = new Map<string, Attachment[]>();
  const mixed = mixedTargets(index);
  if (mixed.size === 0) return byService;
  for (const route of everyRouteWithInventory(index)) {
    const family = routeFamily(route);
    if (!family) continue;
    for (const parent of serviceParents(route, index)) {
      if (!mixed.has(parent.key)) continue;
      const namespace = route.id.namespace ?? '';
      pushTo(byService, parent.key, {
        route,
        family,
        position: parent.position,
        service: parent.key,
        consumer: namespace === parent.namespace ? undefined : namespace,
        ports: attachedPorts(parent.ref, parent.service),
      });
    }
  }
  return byService;
}

/**
 * The contests of one Service, each a set of routes that some clients are served together (outbound/index.rs: a
 * producer route, in the Service's namespace, reaches every client namespace's watch; a consumer route only its own
 * namespace's): the producer routes alone, for every namespace without consumer routes, and for each consumer
 * namespace its routes with the producer routes. Each attachment is judged in the contest of the clients it serves.
 */
function contestsOf(attachments: Attachment[]): Array<{ judged: (a: Attachment) => boolean; slots: ServiceSlots }> {
  const consumers = [...new Set(attachments.map((a) => a.consumer).filter((c): c is string => c !== undefined))];
  return [undefined, ...consumers].map((scope) => ({
    judged: (a: Attachment) => a.consumer === scope,
    slots: slotsOf(attachments.filter((a) => a.consumer === undefined || a.consumer === scope)),
  }));
}

function slotsOf(attachments: Attachment[]): ServiceSlots {
  const slots: ServiceSlots = { byPort: new Map<number, Attachment[]>(), everyPort: [] };
  for (const attachment of attachments) {
    if (!attachment.ports) slots.everyPort.push(attachment);
    else for (const port of attachment.ports) pushTo(slots.byPort, port, attachment);
  }
  return slots;
}

interface Loss {
  readonly attachment: Attachment;
  readonly ports: Set<string>;
  readonly winners: Set<string>;
}

function recordLosses(contenders: Attachment[], port: string, judged: (a: Attachment) => boolean, losses: Map<Attachment, Loss>): void {
  const best = Math.min(...contenders.map((a) => familyRank(a.family)));
  const winners = contenders.filter((a) => familyRank(a.family) === best);
  for (const attachment of contenders) {
    if (familyRank(attachment.family) === best || !judged(attachment)) continue;
    const loss = losses.get(attachment) ?? { attachment, ports: new Set<string>(), winners: new Set<string>() };
    losses.set(attachment, loss);
    loss.ports.add(port);
    for (const w of winners) loss.winners.add(objectLabel(w.route));
  }
}

function findLosses(byService: Map<string, Attachment[]>): Loss[] {
  const losses = new Map<Attachment, Loss>();
  for (const attachments of byService.values()) {
    for (const { judged, slots: { byPort, everyPort } } of contestsOf(attachments)) {
      const ports: Array<[string, Attachment[]]> = [...byPort.entries()].map(([port, list]) => [String(port), [...list, ...everyPort]]);
      if (ports.length === 0) ports.push(['(every port)', everyPort]);
      for (const [port, contenders] of ports) {
        if (new Set(contenders.map((a) => a.family)).size > 1) recordLosses(contenders, port, judged, losses);
      }
    }
  }
  return [...losses.values()];
}

/** One Service port serves one protocol; Linkerd picks the route kind by a fixed precedence. */
export const kindConflict: Rule = {
  id: 'LKD-ROUTE-012',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    title: 'Only one route kind (GRPCRoute, HTTPRoute, TLSRoute, TCPRoute) attaches to a Service port',
    why: 'When different route kinds share a parent Service port, Linkerd keeps the highest-ranked kind '
      + '(GRPCRoute > HTTPRoute > TLSRoute > TCPRoute) for that port: the client proxy is served only routes of '
      + 'that kind. The status controller marks the others Accepted=False, reason RouteReasonConflicted, only when their '
      + 'parentRef is the same (same Service, and the same port or both without one); a route attached without a port next to '
      + 'one attached with a port stays Accepted and is still never used. The losing routes are applied without error. A '
      + 'parentRef without a port covers every port of the Service. A producer route (in the Service\'s namespace) is served to '
      + 'clients in every namespace, a consumer route only to those in its own: a route is judged against the routes served '
      + 'with it to its clients.',
    fix: 'Give each protocol its own Service port and set parentRef `port` on each route, or express everything with the winning kind.',
    linkerdSource: 'policy-controller/k8s/status/src/index.rs Index::parent_has_conflicting_routes (RouteReasonConflicted); '
      + 'policy-controller/k8s/index/src/outbound/index.rs (producer routes reach every namespace\'s watch, consumer routes their own); '
      + 'policy-controller/grpc/src/outbound.rs to_proto',
    badExample: 'kind: HTTPRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]}\n---\n'
      + 'kind: GRPCRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders}]}   # no port: covers 8080 too',
    goodExample: 'kind: HTTPRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]}\n---\n'
      + 'kind: GRPCRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 9090}]}',
  },
  check(ctx) {
    for (const { attachment, ports, winners } of findLosses(collectAttachments(ctx.index))) {
      const clients = attachment.consumer === undefined ? '' : ` for the clients in namespace ${attachment.consumer} (the only ones a consumer route serves)`;
      ctx.report(attachment.route, `parentRefs[${attachment.position}] (Service ${attachment.service}, port ${[...ports].join(', ')}) is `
        + `shared with ${[...winners].join(', ')}${clients}; Linkerd ranks GRPCRoute > HTTPRoute > TLSRoute > TCPRoute on one parent port, so this `
        + `${attachment.family} is never used there (its status says Accepted=False, RouteReasonConflicted, only when both parentRefs are identical).`, { effect: FindingEffect.IGNORED });
    }
  },
};
