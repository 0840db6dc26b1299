import { POLICY_GROUP } from '../../../core/vocabulary';
import { listOf } from '../../../util/json';
import { objectLabel } from '../../../util/labels';
import { FindingEffect, Severity } from '../../finding';
import { conflictedServerRoutes } from '../../model/inbound-routes';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { OutboundRef, PortRoute, ServedRoutes, ServicePortPolicy, acceptedAt, allOutboundRefs, outboundPolicy, servedFamilies, servedTo } from '../../model/outbound';
import { RouteAudiences, routeAudiences, servedToConsumers } from '../../model/route-audiences';
import { isServerParent } from '../../model/routes/parents';
import { AnalysisContext } from '../../options';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** parentRefs whose status the controller conflicts and that no other parentRef of the route makes up for. */
function droppedRefs(index: MeshIndex): OutboundRef[] {
  return allOutboundRefs(index).filter((ref) => !ref.route.inventory && ref.conflictedBy.length > 0 && !acceptedAt(index, ref));
}

function parentLabel(ref: { kind: string; namespace: string; name: string }): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}

function reportConflicted(ctx: RuleContext, ref: OutboundRef): void {
  const port = ref.port === undefined ? 'no port' : `port ${ref.port}`;
  const winners = ref.conflictedBy.map(objectLabel).join(', ');
  ctx.report(ref.route, `parentRefs[${ref.position}] (${parentLabel(ref)}, ${port}) is identical to a parentRef of ${winners}; Linkerd ranks `
    + 'GRPCRoute > HTTPRoute > TLSRoute > TCPRoute, so the status controller marks this parent Accepted=False (RouteReasonConflicted), and '
    + `the outbound index takes a route only where its status accepts it: this ${ref.route.id.kind} is never used there.`, { effect: FindingEffect.IGNORED });
}

/** The position of the parentRef by which a route names a Server (the inbound index reads one in the route's namespace). */
function serverRefPosition(route: IndexedObject, server: IndexedObject): number {
  return listOf(route.object.spec?.parentRefs).findIndex((ref) => isServerParent(ref, route) && ref.name === server.id.name
    && (ref.namespace === undefined || ref.namespace === route.id.namespace));
}

/**
 * The same conflict on a Server: a Server parentRef has no port, so a GRPCRoute naming the Server conflicts every
 * HTTPRoute naming it, and the inbound index serves the Server only routes its status accepts (accepted_by_server).
 */
function reportServerConflicts(ctx: RuleContext): void {
  for (const server of ctx.index.list(POLICY_GROUP, 'Server')) {
    for (const [route, winners] of conflictedServerRoutes(ctx.index, server)) {
      if (route.inventory) continue;
      ctx.report(route, `parentRefs[${serverRefPosition(route, server)}] (Server ${server.id.namespace ?? ''}/${server.id.name}) is identical to a `
        + `parentRef of ${winners.map(objectLabel).join(', ')}; Linkerd ranks GRPCRoute above HTTPRoute, so the status controller marks this parent `
        + 'Accepted=False (RouteReasonConflicted), and the inbound index serves a Server only the routes its status accepts: this HTTPRoute is '
        + 'never used there, and the AuthorizationPolicies that target it authorize nothing. Give HTTP and gRPC traffic Servers of their own.',
      { effect: FindingEffect.IGNORED });
    }
  }
}

/** A route the clients of one scope are not served on a port because the protocol serves a higher-ranked kind there. */
interface Loss {
  readonly view: ServicePortPolicy;
  readonly route: PortRoute;
  readonly ports: Set<number>;
  readonly winners: Set<string>;
  readonly consumer?: string;
}

/**
 * What the clients of `scope` (undefined: every client) are served on a port, and the routes judged for them: the
 * producer routes for every client, a namespace's own consumer routes for its clients.
 */
function scoped(view: ServicePortPolicy, audiences: RouteAudiences, scope: string | undefined): { served: ServedRoutes; judged: PortRoute[] } {
  if (scope === undefined) return { served: servedTo(view), judged: audiences.producers.map((i) => view.attached[i]) };
  const own = audiences.consumers.get(scope) ?? [];
  return { served: servedToConsumers(view, audiences, scope), judged: own.map((i) => view.attached[i]) };
}

/**
 * The scopes of a port's clients (every client: the producer routes; each consumer namespace: its routes with them),
 * and in each the accepted routes of a kind the protocol serves that lose to the kind that wins. A producer route is
 * judged for every client, a consumer route for its own namespace.
 */
function precedenceLosses(index: MeshIndex, context: AnalysisContext): Loss[] {
  const losses = new Map<string, Loss>();
  for (const ports of outboundPolicy(index, context).values()) {
    const views = [...ports.values()];
    // Only a port with routes of two kinds has a loser (the usual parent has one kind).
    if (!views.some((v) => v.attached.some((r) => r.family !== v.attached[0].family))) continue;
    const consumers = [...new Set(views.flatMap((v) => v.attached.filter((r) => !r.producer).map((r) => r.clients)))];
    const audiencesOf = new Map(views.map((view) => [view, routeAudiences(view.attached)]));
    for (const scope of [undefined, ...consumers]) {
      const results = new Map(views.map((view) => [view, scoped(view, audiencesOf.get(view)!, scope)]));
      // A route that names the whole Service and is used on one of its ports is doing its job (as in LKD-ROUTE-026).
      const servedSomewhere = new Set([...results.values()].flatMap((w) => w.served.routes.map((r) => r.route)));
      for (const view of views) {
        const { served: winner, judged } = results.get(view)!;
        const served = servedFamilies(view.protocol.protocol);
        for (const route of judged) {
          if (!route.accepted || route.family === winner.family || !served.includes(route.family)) continue;
          if (!route.namedPort && servedSomewhere.has(route.route)) continue;
          const key = `${objectLabel(route.route)}|${view.service.id.namespace}/${view.service.id.name}|${scope ?? ''}`;
          const loss = losses.get(key) ?? { view, route, ports: new Set<number>(), winners: new Set<string>(), consumer: scope };
          losses.set(key, loss);
          loss.ports.add(view.port);
          for (const w of winner.routes) loss.winners.add(objectLabel(w.route));
        }
      }
    }
  }
  return [...losses.values()];
}

function reportLoss(ctx: RuleContext, { view, route, ports, winners, consumer }: Loss): void {
  const clients = consumer === undefined ? '' : ` for the clients in namespace ${consumer} (the only ones a consumer route serves)`;
  const parent = `${view.parentKind} ${view.service.id.namespace ?? ''}/${view.service.id.name}`;
  ctx.report(route.route, `${parent} port ${[...ports].sort((a, b) => a - b).join(', ')} (${view.protocol.protocol}: ${view.protocol.origin}) is `
    + `shared with ${[...winners].join(', ')}${clients}; Linkerd serves one route kind per parent port, ranking GRPCRoute > HTTPRoute > TLSRoute > `
    + `TCPRoute among the kinds the port's protocol serves, so this ${route.family} is never used there.`, { effect: FindingEffect.IGNORED });
}

/** One Service port serves one protocol; Linkerd picks the route kind by a fixed precedence. */
export const kindConflict: Rule = {
  id: 'LKD-ROUTE-012',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Ignored: policy-controller/k8s/status/src/index.rs parent_has_conflicting_routes marks the lower-ranked kind'
      + ' Conflicted and it is not served.',
    title: 'Only one route kind (GRPCRoute, HTTPRoute, TLSRoute, TCPRoute) attaches to a Service or EgressNetwork port, or to a Server',
    why: 'A client proxy is served one route kind per parent port. When parentRefs of different kinds are identical (same '
      + 'Service or EgressNetwork, and the same port or both without one), the status controller marks the lower-ranked ones '
      + 'Accepted=False, RouteReasonConflicted (GRPCRoute > HTTPRoute > TLSRoute > TCPRoute), and the outbound index files a '
      + 'route only where its status accepts it: those routes are dropped whatever the port\'s protocol, even when the winner '
      + 'is itself of a kind the port does not serve. Routes that reach the same port through different parentRefs (one with '
      + 'the port, one without) stay Accepted; there the port\'s protocol decides: the first kind it serves (LKD-ROUTE-026 '
      + 'lists which) that has a route wins, and the others of a served kind are never used. A parentRef without a port covers '
      + 'every port of a Service, and is reported only when it is used on none of them. A producer route (in the parent\'s namespace) is served to clients in every namespace, a '
      + 'consumer route only to those in its own: a route is judged against the routes served with it to its clients. The '
      + 'losing routes are applied without error. A Server is one parent for every route kind (its parentRefs have no port): a '
      + 'GRPCRoute naming it conflicts every HTTPRoute naming it, whatever its proxyProtocol, and the inbound index serves only '
      + 'the routes a Server\'s status accepts, so those HTTPRoutes and the AuthorizationPolicies on them do nothing.',
    fix: 'Give each protocol its own Service port and set parentRef `port` on each route, or express everything with the winning kind.',
    linkerdSource: 'policy-controller/k8s/status/src/index.rs Index::parent_has_conflicting_routes (RouteReasonConflicted), '
      + 'Index::parent_condition_server; policy-controller/k8s/index/src/inbound/routes.rs RouteBinding::accepted_by_server; '
      + 'policy-controller/k8s/index/src/outbound/index/http.rs route_accepted_by_resource_port, route_accepted_by_service; '
      + 'policy-controller/k8s/index/src/outbound/index.rs (producer routes reach every namespace\'s watch, consumer routes their own); '
      + 'policy-controller/grpc/src/outbound.rs to_proto',
    badExample: 'kind: HTTPRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]}\n---\n'
      + 'kind: GRPCRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders}]}   # no port: covers 8080 too',
    goodExample: 'kind: HTTPRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]}\n---\n'
      + 'kind: GRPCRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 9090}]}',
  },
  check(ctx) {
    for (const ref of droppedRefs(ctx.index)) reportConflicted(ctx, ref);
    for (const loss of precedenceLosses(ctx.index, ctx.context)) reportLoss(ctx, loss);
    reportServerConflicts(ctx);
  },
};
