/**
 * Static inbound-policy evaluation: for every container port of every meshed pod template, which Server governs it,
 * which AuthorizationPolicies apply, and — for any caller — whether the proxy would let the connection in and why.
 * Mirrors the policy controller's inbound index closely enough to explain decisions; it is not a proof of runtime
 * behaviour (route status, creation order and live inventory can differ).
 */
import { portListHas } from '../../core/port-lists';
import { authorizationTargets, serverAuthorizationsFor } from '../model/inbound/authorizations';
import { EffectiveDefault, effectiveDefaultPolicy, requiresIdentityOn, withRequiredIdentity } from '../model/inbound/default-policy';
import { probePaths } from '../model/inbound/probes';
import { portNameOf, routesForServer, serverAccessPolicy, serverCoverage } from '../model/inbound/servers';
import { InboundRequest, InboundRoute, inboundRoutes, routeFamilyOf, routeFor, routeLabelOf, servedServerRoutes, serverProxyProtocol } from '../model/inbound-routes';
import { isMeshed } from '../model/injector/injection';
import { controllerOpaqueOnPod } from '../model/injector/opaque-ports';
import { inboundRedirector, skippedInboundPorts, skippedInboundSource } from '../model/injector/skipped-ports';
import { ResourceId } from '../model/manifest';
import { MeshIndex, PodTemplate } from '../model/mesh-index';
import { specOf } from '../model/objects';
import { AnalysisContext } from '../options';
import { Caller, Decision, NetworkVerdict, PolicyMatch, authenticationsOf, authorizationAdmits, authorizedNetworks, callerIdentity, callerLabel, defaultPolicyAllows } from './authorization';
import { parseCidr, cidrContains } from '../../core/cidr';
import { IndexedObject } from '../model/object-store';
import { workloadLabel } from '../model/pod-templates';
import { refList } from '../model/refs';

export type { Caller, Decision } from './authorization';

export interface ServerSummary {
  readonly id: ResourceId;
  /** `spec.accessPolicy`, defaulted to `deny` as the CRD does. */
  readonly accessPolicy: string;
  readonly proxyProtocol?: string;
  /** Routes attached to the Server (requests matching none of them are refused once any exists). */
  readonly routes: ResourceId[];
}

/** The effective inbound authorization of one container port of one meshed pod template. */
export interface PortPolicy {
  /** The pod template the port belongs to. */
  readonly pod: PodTemplate;
  readonly workload: ResourceId;
  readonly namespace: string;
  readonly port: number;
  readonly portName?: string;
  /** The Server that governs the port: the first (by creation time, then name) of those selecting it. */
  readonly server?: ServerSummary;
  /** Other Servers selecting the same port, which Linkerd skips. */
  readonly shadowedServers: ResourceId[];
  /** The default policy that applies when no Server covers the port, and where it came from. */
  readonly defaultPolicy: EffectiveDefault;
  /** AuthorizationPolicies (and legacy ServerAuthorizations) that apply through the Server, its routes or the namespace. */
  readonly authorizations: ResourceId[];
  /** True when `config.linkerd.io/skip-inbound-ports` sends the port around the proxy. */
  readonly skipsProxy: boolean;
  /** The protocol the inbound proxy treats the port as: the Server's, else opaque or detect (`default_inbound_server`). */
  readonly protocol: string;
  /** The routes the proxy gets for this port: the Server's that its protocol serves, else the generated default and probe routes. */
  readonly routes: readonly InboundRoute[];
  /** HTTP probe paths of the pod on this port (the generated probe route opens these while no route is attached). */
  readonly probePaths: readonly string[];
  /** Whether a caller may connect to this port (some request gets through), and why. */
  allows(caller: Caller): Decision;
  /** Whether one request of a caller gets through: the route it lands on, then that route's authorizations. */
  allowsRequest(caller: Caller, request: InboundRequest): Decision & { readonly route?: InboundRoute };
  /**
   * Per route of `routes`, whether the caller's requests on it get through (the route's authorizations plus the
   * Server's, as linkerd2-proxy `try_route` checks them), with the deciding objects. Empty when the port has no routes
   * (skipped by the proxy, or opaque / TLS: authorized per connection, see `allows`).
   */
  allowsOnRoutes(caller: Caller): RouteDecision[];
}

/** One route's verdict for one caller. */
export interface RouteDecision extends Decision {
  readonly route: InboundRoute;
  readonly deciders: readonly ResourceId[];
}

export interface InboundPolicy {
  readonly index: MeshIndex;
  readonly context: AnalysisContext;
  /** One entry per declared container port of every meshed pod template. */
  readonly ports: PortPolicy[];
  /** The policy of any port of a meshed pod template, declared or not; undefined for unmeshed pods. */
  portPolicy(pod: PodTemplate, port: number): PortPolicy | undefined;
  /** The declared ports of one workload. */
  forWorkload(namespace: string, name: string): PortPolicy[];
}

/** A workload by namespace and name (kind optional when the name is unambiguous). */
export interface WorkloadRef {
  readonly namespace: string;
  readonly name: string;
  readonly kind?: string;
}

/** What a caller wants to reach: a Service (its port, resolved through targetPort) or a workload's container port. */
export interface ReachTarget {
  readonly namespace: string;
  readonly service?: string;
  readonly workload?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Legacy ServerAuthorization (still honoured by Linkerd alongside AuthorizationPolicy)

/** Whether a legacy ServerAuthorization's client part (unauthenticated, or meshTLS identities) admits the caller. */
function serverAuthorizationClientAdmits(authz: IndexedObject, client: Record<string, any>, caller: Caller, context: AnalysisContext): boolean {
  if (client.unauthenticated === true) return true;
  const mtls = client.meshTLS;
  if (!caller.meshed || !mtls || typeof mtls !== 'object') return false;
  if (mtls.unauthenticatedTLS === true) return true;
  const identity = callerIdentity(caller, context) ?? '';
  const byIdentity = (Array.isArray(mtls.identities) ? mtls.identities : [])
    .some((p: unknown) => p === '*' || p === identity || (typeof p === 'string' && p.startsWith('*.') && identity.endsWith(p.slice(1))));
  const bySa = refList(mtls.serviceAccounts)
    .some((sa) => sa.name === (caller.serviceAccount ?? 'default') && (sa.namespace ?? authz.id.namespace) === caller.namespace);
  return byIdentity || bySa;
}

/**
 * What a legacy ServerAuthorization makes of a caller (inbound/server_authorization.rs client_authz): its client must
 * match and its address must lie in client.networks (the cluster networks when it names none). Like a
 * NetworkAuthentication, networks that a caller of unknown address may or may not be in leave the verdict uncertain.
 */
function serverAuthorizationMatch(authz: IndexedObject, caller: Caller, context: AnalysisContext): PolicyMatch {
  const name = `ServerAuthorization ${authz.id.name}`;
  const who = callerLabel(caller);
  const client = specOf(authz).client;
  if (!client || typeof client !== 'object') return { admitted: false, reason: `${name} has no client and admits no one` };
  if (!serverAuthorizationClientAdmits(authz, client, caller, context)) return { admitted: false, reason: `${name} does not match ${who}` };
  const networks = authorizedNetworks(client.networks, caller, context);
  if (networks === NetworkVerdict.UNCERTAIN) {
    return { admitted: false, uncertain: true, reason: `${name}: its client.networks admit only part of the cluster networks, and ${who}'s address decides` };
  }
  if (networks === NetworkVerdict.REFUSED) return { admitted: false, reason: `${name}: ${who} is not inside its client.networks` };
  return { admitted: true, reason: `legacy ${name} admits ${who}` };
}

// ---------------------------------------------------------------------------------------------------------------
// One port

interface ServerView {
  readonly server: IndexedObject;
  readonly policies: IndexedObject[];
  /** Every route attached to the Server. */
  readonly routes: IndexedObject[];
  /** `spec.proxyProtocol`, `detect` when unset or unknown. */
  readonly protocol: string;
  /** The attached routes its protocol serves: the only ones whose authorizations the proxy receives. */
  readonly served: IndexedObject[];
  readonly routePolicies: Map<IndexedObject, IndexedObject[]>;
  readonly legacy: IndexedObject[];
  /** Every authorization that applies through the Server, its routes or its namespace. */
  readonly authorizationIds: ResourceId[];
}

function serverView(index: MeshIndex, server: IndexedObject): ServerView {
  const authz = authorizationTargets(index);
  const routes = routesForServer(index, server);
  const protocol = serverProxyProtocol(server);
  const policies = [...authz.forServer(server), ...authz.forNamespace(server.id.namespace ?? '')];
  const routePolicies = new Map(routes.map((r) => [r, authz.forRoute(r)]));
  const legacy = serverAuthorizationsFor(index, server);
  return {
    server,
    policies,
    routes,
    protocol,
    served: servedServerRoutes(index, server, protocol),
    routePolicies,
    legacy,
    authorizationIds: [...policies, ...[...routePolicies.values()].flat(), ...legacy].map((p) => p.id),
  };
}

/** What the Server's own authorizations decide: a grant, else the reasons each refused (and whether one only might have). */
interface ServerGrant {
  readonly granted?: Decision;
  readonly rejections: string[];
  readonly uncertain: boolean;
}

/** What admits a caller on the Server itself: policies on it or its namespace, then legacy ServerAuthorizations. */
function serverGrant(index: MeshIndex, context: AnalysisContext, view: ServerView, caller: Caller): ServerGrant {
  const serverName = `Server ${view.server.id.name}`;
  const rejections: string[] = [];
  let uncertain = false;
  for (const policy of view.policies) {
    const match = authorizationAdmits(index, policy, caller, context);
    if (match.admitted) {
      const deciders = [policy.id, ...authenticationsOf(index, policy)];
      return { granted: { allowed: true, reason: `${match.reason} (it targets ${serverName} or its namespace)`, deciders }, rejections, uncertain };
    }
    rejections.push(match.reason);
    uncertain ||= match.uncertain === true;
  }
  for (const authz of view.legacy) {
    const match = serverAuthorizationMatch(authz, caller, context);
    if (match.admitted) return { granted: { allowed: true, reason: `${match.reason} on ${serverName}`, deciders: [authz.id, view.server.id] }, rejections, uncertain };
    rejections.push(match.reason);
    uncertain ||= match.uncertain === true;
  }
  return { rejections, uncertain };
}

/** The Server's accessPolicy, when nothing else admitted the caller; the rejections explain a denial. */
function accessPolicyDecision(context: AnalysisContext, view: ServerView, caller: Caller, rejections: string[], uncertain: boolean): Decision {
  const serverName = `Server ${view.server.id.name}`;
  const fallback = defaultPolicyAllows(serverAccessPolicy(view.server), caller, context, `${serverName} accessPolicy`);
  const why = rejections.length > 0 ? `${rejections.join('; ')}; ` : `no AuthorizationPolicy targets ${serverName}; `;
  const deciders = [view.server.id, ...view.authorizationIds];
  if (fallback.allowed) return { ...fallback, deciders };
  return { ...fallback, reason: `${why}${fallback.reason}`, deciders, ...(uncertain ? { uncertain } : {}) };
}

/** The Server's own authorizations (policies on it or its namespace, legacy ServerAuthorizations, accessPolicy). */
function decideServerLevel(index: MeshIndex, context: AnalysisContext, view: ServerView, caller: Caller): Decision {
  const { granted, rejections, uncertain } = serverGrant(index, context, view, caller);
  return granted ?? accessPolicyDecision(context, view, caller, rejections, uncertain);
}

/**
 * The probe route's own authorization: unauthenticated, from the probe networks. A caller whose address the manifests
 * do not know (the kubelet probes from its node) is admitted only uncertainly when the networks are narrowed.
 */
function probeRouteAdmits(context: AnalysisContext, caller: Caller, path: string): Decision | undefined {
  const networks = context.probeNetworks.join(', ');
  const everywhere = context.probeNetworks.some((n) => n === '0.0.0.0/0' || n === '::/0');
  const ip = parseCidr(caller.ip);
  const inside = everywhere || (ip !== undefined && context.probeNetworks.some((n) => {
    const net = parseCidr(n);
    return net !== undefined && cidrContains(net, ip);
  }));
  if (inside) return { allowed: true, reason: `GET ${path} is a probe path, and the probe route Linkerd generates while no route is attached admits unauthenticated requests from the probe networks (${networks})` };
  if (ip !== undefined || caller.meshed) return undefined;
  return {
    allowed: false,
    uncertain: true,
    reason: `GET ${path} is a probe path; the probe route Linkerd generates admits only the probe networks (${networks}), and whether ${caller.label} is in them depends on its address (the kubelet's is its node's), which the manifests do not say`,
  };
}

/** The probe route's decision where it is the verdict: it admits, or its uncertainty is all that stands against a refusal. */
function probeDecides(context: AnalysisContext, caller: Caller, path: string, serverLevel: Decision): Decision | undefined {
  const probe = probeRouteAdmits(context, caller, path);
  return probe && (probe.allowed || !serverLevel.allowed) ? probe : undefined;
}

/** The first route-level policy of a served route that admits the caller. */
function routeAdmitting(
  index: MeshIndex, context: AnalysisContext, view: ServerView, route: IndexedObject, caller: Caller,
): IndexedObject | undefined {
  return (view.routePolicies.get(route) ?? []).find((p) => authorizationAdmits(index, p, caller, context).admitted);
}

/**
 * Connection level: the Server's grants, then any served route's (some requests get through), then its accessPolicy.
 * Only the routes the Server's protocol serves count: the proxy never receives the others (an opaque Server none).
 */
function decideWithServer(index: MeshIndex, context: AnalysisContext, view: ServerView, caller: Caller): Decision {
  const { granted, rejections, uncertain } = serverGrant(index, context, view, caller);
  if (granted) return granted;
  const routeGrants: string[] = [];
  const onlyRoutes: ResourceId[] = [];
  const deciders: ResourceId[] = [];
  for (const route of view.served) {
    const admitting = routeAdmitting(index, context, view, route, caller);
    if (!admitting) continue;
    routeGrants.push(`${route.id.kind} ${route.id.name} (AuthorizationPolicy ${admitting.id.name})`);
    onlyRoutes.push(route.id);
    deciders.push(admitting.id, ...authenticationsOf(index, admitting));
  }
  if (routeGrants.length > 0) {
    return { allowed: true, reason: `allowed only for requests matching ${routeGrants.join(', ')} on Server ${view.server.id.name}`, onlyRoutes, deciders };
  }
  return accessPolicyDecision(context, view, caller, rejections, uncertain);
}

/** One resource route: the Server's own authorizations, else the route's; a refusal says whether other routes admit. */
function decideResourceRoute(
  index: MeshIndex, context: AnalysisContext, view: ServerView, route: InboundRoute, caller: Caller, serverLevel: Decision, elsewhere: boolean,
): RouteDecision {
  if (serverLevel.allowed) return { ...serverLevel, route, deciders: serverLevel.deciders ?? [view.server.id] };
  const label = routeLabelOf(route);
  const admitting = route.route ? routeAdmitting(index, context, view, route.route, caller) : undefined;
  if (admitting) {
    return {
      allowed: true,
      route,
      reason: `AuthorizationPolicy ${admitting.id.name} on ${label} admits ${callerLabel(caller)}`,
      deciders: [admitting.id, ...authenticationsOf(index, admitting)],
    };
  }
  if (!elsewhere) return { ...serverLevel, route, deciders: serverLevel.deciders ?? [view.server.id] };
  return {
    allowed: false,
    route,
    reason: `no AuthorizationPolicy on ${label} admits ${callerLabel(caller)}, and nothing on Server ${view.server.id.name} does (${serverLevel.reason})`,
    deciders: [route.route!.id, view.server.id],
  };
}

/** `spec.proxyProtocol`: `unknown` (the CRD default) means the proxy detects the protocol. */
function summary(view: ServerView): ServerSummary {
  const protocol = specOf(view.server).proxyProtocol;
  return {
    id: view.server.id,
    accessPolicy: serverAccessPolicy(view.server),
    proxyProtocol: typeof protocol === 'string' ? protocol : undefined,
    routes: view.routes.map((r) => r.id),
  };
}

function portPolicyOf(index: MeshIndex, context: AnalysisContext, pod: PodTemplate, port: number, views: Map<IndexedObject, ServerView>): PortPolicy {
  const claims = serverCoverage(index).claims(pod, port);
  const winner = claims[0];
  let view: ServerView | undefined;
  if (winner) {
    view = views.get(winner);
    if (!view) views.set(winner, view = serverView(index, winner));
  }
  const portName = portNameOf(pod, port);
  const skipsProxy = portListHas(skippedInboundPorts(index, context, pod), port);
  const resolvedDefault = effectiveDefaultPolicy(index, pod, context);
  const requireIdentity = requiresIdentityOn(pod, port);
  const defaultPolicy: EffectiveDefault = requireIdentity && withRequiredIdentity(resolvedDefault.policy) !== resolvedDefault.policy
    ? { ...resolvedDefault, policy: withRequiredIdentity(resolvedDefault.policy), origin: `${resolvedDefault.origin}, made authenticated-only on this port by config.linkerd.io/proxy-require-identity-inbound-ports` }
    : resolvedDefault;
  const protocol = view ? view.protocol : (controllerOpaqueOnPod(index, context, pod, port) ? 'opaque' : 'detect');
  const family = routeFamilyOf(protocol);
  const probes = probePaths(pod, index).get(port) ?? [];
  const routes = inboundRoutes(view ? view.served : [], family, probes, context.probeNetworks);
  const authorizations = view ? view.authorizationIds : [];
  const target = `${workloadLabel(pod)} port ${port}`;
  const defaultSource = resolvedDefault.source === 'namespace' ? index.namespace(pod.namespace)?.id
    : resolvedDefault.source === 'pod' ? pod.owner.id : undefined;
  const defaultDecision = (caller: Caller): Decision => ({
    ...defaultPolicyAllows(defaultPolicy.policy, caller, context, `no Server selects ${target}; the default inbound policy from ${defaultPolicy.origin}`),
    deciders: defaultSource ? [defaultSource] : [],
  });
  const serverLevelOf = (caller: Caller): Decision => (view ? decideServerLevel(index, context, view, caller) : defaultDecision(caller));
  return {
    pod,
    workload: pod.owner.id,
    namespace: pod.namespace,
    port,
    portName,
    server: view ? summary(view) : undefined,
    shadowedServers: claims.slice(1).map((s) => s.id),
    defaultPolicy,
    authorizations,
    skipsProxy,
    protocol,
    routes,
    probePaths: probes,
    allowsRequest(caller: Caller, request: InboundRequest) {
      if (skipsProxy) return this.allows(caller);
      const where = view ? `Server ${view.server.id.name}` : `the default policy of ${target}`;
      if (family === 'none') return this.allows(caller);
      const route = routeFor(routes, request);
      const what = `${request.method ?? 'a request'} ${request.path ?? '/'}`;
      if (!route) {
        return { allowed: false, reason: `${what} matches none of the routes attached to ${where}; once any route is attached, the proxy answers other requests with 404` };
      }
      const serverLevel = serverLevelOf(caller);
      if (route.generated === 'probe') {
        const probe = probeDecides(context, caller, request.path ?? '/', serverLevel);
        if (probe) return { ...probe, route };
      }
      if (serverLevel.allowed) return { ...serverLevel, route, reason: `${what} lands on ${routeLabelOf(route)}; ${serverLevel.reason}` };
      const routePolicies = route.route && view ? view.routePolicies.get(route.route) ?? [] : [];
      for (const policy of routePolicies) {
        const match = authorizationAdmits(index, policy, caller, context);
        if (match.admitted) {
          const deciders = [policy.id, ...authenticationsOf(index, policy)];
          return { allowed: true, route, reason: `${what} lands on ${routeLabelOf(route)}; ${match.reason}`, deciders };
        }
      }
      return { ...serverLevel, route, reason: `${what} lands on ${routeLabelOf(route)}; ${serverLevel.reason}` };
    },
    allows(caller: Caller): Decision {
      if (skipsProxy) {
        return {
          allowed: true,
          reason: `${target} is skipped by ${inboundRedirector(index, context)} for ${workloadLabel(pod)} (${skippedInboundSource(index, context, pod)}), so traffic bypasses the proxy and its policy`,
          deciders: [pod.owner.id],
        };
      }
      if (view) return decideWithServer(index, context, view, caller);
      return defaultDecision(caller);
    },
    allowsOnRoutes(caller: Caller): RouteDecision[] {
      if (skipsProxy || routes.length === 0) return [];
      const serverLevel = serverLevelOf(caller);
      const generated = (route: InboundRoute): RouteDecision => {
        const probe = route.generated === 'probe' ? probeDecides(context, caller, route.matches.map((m) => m.pathExact).join(', '), serverLevel) : undefined;
        return probe ? { ...probe, route, deciders: [] } : { ...serverLevel, route, deciders: serverLevel.deciders ?? [] };
      };
      if (!view || routes.every((r) => r.generated)) return routes.map(generated);
      // Whether some other route admits the caller changes how a refusal reads (the caller is not refused everywhere).
      const admitted = serverLevel.allowed ? [] : routes.filter((r) => r.route && routeAdmitting(index, context, view, r.route, caller));
      return routes.map((r) => (r.generated ? generated(r)
        : decideResourceRoute(index, context, view, r, caller, serverLevel, admitted.length > 0)));
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The whole mesh

/** The distinct TCP container ports a pod template declares, in declaration order. */
export function declaredPorts(pod: PodTemplate): number[] {
  const ports: number[] = [];
  for (const p of pod.ports) if (p.protocol === 'TCP' && !ports.includes(p.containerPort)) ports.push(p.containerPort);
  return ports;
}

/** Evaluations already made, per index and context: several rules (declared calls, scrapes) ask for the same one. */
const evaluations = new WeakMap<MeshIndex, WeakMap<AnalysisContext, InboundPolicy>>();

export function evaluateInboundPolicy(index: MeshIndex, context: AnalysisContext): InboundPolicy {
  let byContext = evaluations.get(index);
  if (!byContext) evaluations.set(index, byContext = new WeakMap());
  let policy = byContext.get(context);
  if (!policy) byContext.set(context, policy = evaluate(index, context));
  return policy;
}

function evaluate(index: MeshIndex, context: AnalysisContext): InboundPolicy {
  const views = new Map<IndexedObject, ServerView>();
  const cache = new Map<PodTemplate, Map<number, PortPolicy>>();
  const portPolicy = (pod: PodTemplate, port: number): PortPolicy | undefined => {
    if (!isMeshed(pod)) return undefined;
    let byPort = cache.get(pod);
    if (!byPort) cache.set(pod, byPort = new Map());
    let policy = byPort.get(port);
    if (!policy) byPort.set(port, policy = portPolicyOf(index, context, pod, port, views));
    return policy;
  };
  const ports: PortPolicy[] = [];
  for (const pod of index.podTemplates) {
    for (const port of isMeshed(pod) ? declaredPorts(pod) : []) ports.push(portPolicy(pod, port)!);
  }
  return {
    index,
    context,
    ports,
    portPolicy,
    forWorkload: (namespace, name) => ports.filter((p) => p.namespace === namespace && p.workload.name === name),
  };
}

