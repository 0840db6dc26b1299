import { FindingEffect, Severity } from '../../finding';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { RouteFamily, attachedPorts, everyRouteWithInventory, familyRank, objectLabel, pushTo, routeFamily, serviceParents } from '../../model/route-view';
import { Rule, RuleArea } from '../../rule';

interface Attachment {
  readonly route: IndexedObject;
  readonly family: RouteFamily;
  readonly position: number;
  readonly service: string;
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

function collectSlots(index: MeshIndex): Map<string, ServiceSlots> {
  const slots = new Map<string, ServiceSlots>();
  const mixed = mixedTargets(index);
  if (mixed.size === 0) return slots;
  for (const route of everyRouteWithInventory(index)) {
    const family = routeFamily(route);
    if (!family) continue;
    for (const parent of serviceParents(route, index)) {
      const service = parent.key;
      if (!mixed.has(service)) continue;
      let entry = slots.get(service);
      if (!entry) slots.set(service, entry = { byPort: new Map<number, Attachment[]>(), everyPort: [] });
      const attachment: Attachment = { route, family, position: parent.position, service };
      const ports = attachedPorts(parent.ref, parent.service);
      if (!ports) {
        entry.everyPort.push(attachment);
        continue;
      }
      for (const port of ports) pushTo(entry.byPort, port, attachment);
    }
  }
  return slots;
}

interface Loss {
  readonly attachment: Attachment;
  readonly ports: Set<string>;
  readonly winners: Set<string>;
}

function recordLosses(contenders: Attachment[], port: string, losses: Map<Attachment, Loss>): void {
  const best = Math.min(...contenders.map((a) => familyRank(a.family)));
  const winners = contenders.filter((a) => familyRank(a.family) === best);
  for (const attachment of contenders) {
    if (familyRank(attachment.family) === best) continue;
    const loss = losses.get(attachment) ?? { attachment, ports: new Set<string>(), winners: new Set<string>() };
    losses.set(attachment, loss);
    loss.ports.add(port);
    for (const w of winners) loss.winners.add(objectLabel(w.route));
  }
}

function findLosses(slots: Map<string, ServiceSlots>): Loss[] {
  const losses = new Map<Attachment, Loss>();
  for (const { byPort, everyPort } of slots.values()) {
    const ports: Array<[string, Attachment[]]> = [...byPort.entries()].map(([port, list]) => [String(port), [...list, ...everyPort]]);
    if (ports.length === 0) ports.push(['(every port)', everyPort]);
    for (const [port, contenders] of ports) {
      if (new Set(contenders.map((a) => a.family)).size > 1) recordLosses(contenders, port, losses);
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
      + 'parentRef without a port covers every port of the Service.',
    fix: 'Give each protocol its own Service port and set parentRef `port` on each route, or express everything with the winning kind.',
    linkerdSource: 'policy-controller/k8s/status/src/index.rs Index::parent_has_conflicting_routes (RouteReasonConflicted); '
      + 'policy-controller/grpc/src/outbound.rs to_proto',
    badExample: 'kind: HTTPRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]}\n---\n'
      + 'kind: GRPCRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders}]}   # no port: covers 8080 too',
    goodExample: 'kind: HTTPRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]}\n---\n'
      + 'kind: GRPCRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 9090}]}',
  },
  check(ctx) {
    for (const { attachment, ports, winners } of findLosses(collectSlots(ctx.index))) {
      ctx.report(attachment.route, `parentRefs[${attachment.position}] (Service ${attachment.service}, port ${[...ports].join(', ')}) is `
        + `shared with ${[...winners].join(', ')}; Linkerd ranks GRPCRoute > HTTPRoute > TLSRoute > TCPRoute on one parent port, so this `
        + `${attachment.family} is never used there (its status says Accepted=False, RouteReasonConflicted, only when both parentRefs are identical).`, { effect: FindingEffect.IGNORED });
    }
  },
};
