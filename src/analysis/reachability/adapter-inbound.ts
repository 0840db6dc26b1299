/**
 * Inbound, per workload port, in the plain views explain, diff and plan-deny read: the policy evaluation's port
 * (policy/evaluate.ts — the same one the policy rules read: its Server, protocol, routes, generated default and probe
 * routes, probe paths) in words, and its verdicts per caller and request class.
 */
import { InboundRoute, RequestMatch, routeFor } from '../model/inbound-routes';
import { ResourceId, textEntries } from '../model/manifest';
import { MeshIndex, PodTemplate } from '../model/mesh-index';
import { Caller, Decision, InboundPolicy, PortPolicy, RequestSample, requestSamples } from '../policy';
import { toCaller } from './adapter-callers';
import { Named, portTarget, readAuthorization, routeMatchTexts } from './adapter-words';
import { AuthorizationView, CallVerdict, CallerKind, CallerView, PortPolicyView, RouteView } from './views';
import { compareStrings } from '../../util/compare';
import { idLabel } from '../../util/labels';
import { authorizationTargets } from '../model/inbound/authorizations';
import { IndexedObject } from '../model/object-store';

function lookup(index: MeshIndex, id: ResourceId): IndexedObject | undefined {
  const group = id.apiVersion.includes('/') ? id.apiVersion.slice(0, id.apiVersion.indexOf('/')) : '';
  return index.get(group, id.kind, id.namespace, id.name);
}

/** The inbound protocol in words, as the policy evaluation decided it (the Server's, else the pod's opaque-ports). */
function protocolOf(policy: PortPolicy | undefined): string {
  if (policy?.server?.proxyProtocol) return policy.server.proxyProtocol;
  if (policy?.protocol === 'opaque') return 'opaque (config.linkerd.io/opaque-ports)';
  return policy?.server ? 'unknown (detected: HTTP/1, HTTP/2 or opaque TCP)' : 'detected (HTTP/1, HTTP/2 or opaque TCP)';
}

function routeView(index: MeshIndex, route: IndexedObject): RouteView {
  return {
    name: `${route.id.kind} ${route.id.name}`,
    id: route.id,
    generated: false,
    matches: routeMatchTexts(route),
    authorizations: authorizationTargets(index).forRoute(route).map((p) => p.id),
  };
}

export const PROBE_PREFIX = 'probe GET ';
/** The request class of the requests no route on the port matches. */
export const NO_ROUTE = '(no route)';

/**
 * The routes the policy controller generates while no route is attached, as the evaluation has them
 * (inbound/index.rs `ClusterInfo::default_inbound_http_routes`): the default route, and one probe class per path.
 */
function generatedRoutes(policy: PortPolicy): RouteView[] {
  return policy.routes.filter((r) => r.generated).flatMap((r) => (r.generated === 'default'
    ? [{ name: 'default', generated: true, matches: [], authorizations: [] }]
    : r.matches.map((m) => ({ name: `${PROBE_PREFIX}${m.pathExact}`, generated: true, matches: [`GET ${m.pathExact} (Exact)`], authorizations: [] }))));
}

export interface PortEntry {
  readonly view: PortPolicyView;
  readonly pod: PodTemplate;
  readonly policy?: PortPolicy;
}

function authorizationViews(index: MeshIndex, policy: PortPolicy | undefined, named: Named): AuthorizationView[] {
  const server = policy?.server ? lookup(index, policy.server.id) : undefined;
  const out: AuthorizationView[] = [];
  for (const id of policy?.authorizations ?? []) {
    const object = lookup(index, id);
    if (!object) continue;
    const read = readAuthorization(index, object);
    for (const i of read.named.identities) named.identities.add(i);
    for (const n of read.named.namespaces) named.namespaces.add(n);
    out.push({ id, target: id.kind === 'ServerAuthorization' ? `Server ${server?.id.name ?? '?'} (legacy)` : read.target, requires: read.requires });
  }
  return out;
}

export function portEntry(index: MeshIndex, inbound: InboundPolicy, pod: PodTemplate, port: number, admin = false): PortEntry {
  const policy = inbound.portPolicy(pod, port);
  // The routes the proxy receives (those the Server's protocol serves), not every route attached to the Server.
  const routes = (policy?.routes ?? []).flatMap((r) => (r.route ? [r.route] : []));
  const named: Named = { identities: new Set(), namespaces: new Set() };
  const authorizations = authorizationViews(index, policy, named);
  const defaultPolicy = policy?.defaultPolicy;
  const view: PortPolicyView = {
    target: portTarget(pod, port),
    namespace: pod.namespace,
    workload: pod.owner.id,
    port,
    portName: policy?.portName ?? pod.ports.find((p) => p.containerPort === port && p.name)?.name,
    meshed: policy !== undefined,
    skipsProxy: policy?.skipsProxy ?? false,
    server: policy?.server ? { id: policy.server.id, accessPolicy: policy.server.accessPolicy } : undefined,
    shadowedServers: policy?.shadowedServers ?? [],
    protocol: protocolOf(policy),
    routes: routes.map((r) => routeView(index, r)),
    generatedRoutes: policy && routes.length === 0 ? generatedRoutes(policy) : [],
    authorizations,
    defaultPolicy: defaultPolicy?.policy ?? 'none (not meshed)',
    defaultPolicyOrigin: defaultPolicy?.origin ?? 'the pods have no proxy',
    defaultPolicySource: defaultPolicy?.source === 'namespace' ? index.namespace(pod.namespace)?.id
      : defaultPolicy?.source === 'pod' ? pod.owner.id : undefined,
    probes: (policy?.probePaths ?? []).map((path) => `GET ${path}`),
    namedCallers: [...named.identities].sort(compareStrings),
    namedNamespaces: [...named.namespaces].sort(compareStrings),
    podLabels: textEntries(pod.labels),
    admin,
  };
  return { view, pod, policy };
}

// ---------------------------------------------------------------------------------------------------------------
// Verdicts

function verdict(
  entry: PortEntry, caller: CallerView, request: string, decision: Decision, deciders: readonly ResourceId[], route?: string,
): CallVerdict {
  return {
    source: caller.key,
    target: entry.view.target,
    request,
    allowed: decision.allowed,
    audited: decision.audited === true,
    because: decision.reason,
    ...(!decision.allowed && decision.uncertain ? { uncertain: true } : {}),
    deciders: [...deciders],
    ...(route !== undefined ? { route } : {}),
  };
}

function routeName(route: InboundRoute | undefined): string {
  if (!route) return NO_ROUTE;
  return route.route ? `${route.route.id.kind} ${route.route.id.name}` : route.generated === 'default' ? '*' : 'probe';
}

/** Whether the proxy sees requests on the port at all (else the port is decided per connection). */
function routed(entry: PortEntry): entry is PortEntry & { policy: PortPolicy } {
  return entry.policy !== undefined && !entry.policy.skipsProxy && entry.policy.routes.length > 0;
}

/** The matches of the port's routes (the request classes are cut from them), and whether they are gRPC matches. */
export function inboundMatches(entry: PortEntry): { readonly grpc: boolean; readonly matches: readonly RequestMatch[] } {
  if (!routed(entry)) return { grpc: false, matches: [] };
  return { grpc: entry.policy.protocol === 'gRPC', matches: entry.policy.routes.flatMap((r) => r.matches) };
}

/**
 * One request of one caller: the route it lands on (or none: refused), then that route's authorizations with the
 * Server's (linkerd2-proxy `server-policy` `http::Routes` / `try_route`, via policy/evaluate.ts `allowsRequest`); a
 * port the proxy does not route (opaque, TLS, skipped, unmeshed) is decided per connection.
 */
export function decideRequest(entry: PortEntry, callerView: CallerView, sample: RequestSample): CallVerdict {
  const caller: Caller = toCaller(callerView);
  if (!entry.policy) {
    return verdict(entry, callerView, sample.label, { allowed: true, reason: `${idLabel(entry.pod.owner.id)} is not meshed, so no inbound policy applies` }, [entry.pod.owner.id]);
  }
  if (!routed(entry)) {
    const d = entry.policy.allows(caller);
    return verdict(entry, callerView, sample.label, d, d.deciders ?? []);
  }
  const d = entry.policy.allowsRequest(caller, sample);
  const route = d.route?.generated === 'probe' ? `${PROBE_PREFIX}${sample.path}` : routeName(d.route);
  return verdict(entry, callerView, sample.label, d, d.deciders ?? [], route);
}

/**
 * Verdicts of one caller on a port, one per request class: each route the proxy gets (the generated default route is
 * `*`, each generated probe path its own class), and `(no route)` where some request matches none of them.
 * `connections` keeps only what decides whether the caller gets anywhere (the picture, plan-deny): the routes attached,
 * else the Server's verdict, with the probe classes for the kubelet alone (they are what it sends).
 */
export function decidePort(entry: PortEntry, callerView: CallerView, connections = false): CallVerdict[] {
  if (!routed(entry)) return [decideRequest(entry, callerView, { method: 'GET', path: '/', label: '*' })];
  const policy = entry.policy;
  const caller = toCaller(callerView);
  const probes = !connections || callerView.kind === CallerKind.KUBELET;
  const out: CallVerdict[] = [];
  for (const d of policy.allowsOnRoutes(caller)) {
    if (d.route.generated === 'probe') {
      for (const m of probes ? d.route.matches : []) {
        const request = policy.allowsRequest(caller, { method: 'GET', path: m.pathExact });
        out.push(verdict(entry, callerView, `${PROBE_PREFIX}${m.pathExact}`, request, request.deciders ?? []));
      }
    } else if (d.route.generated === 'default' && connections) {
      const whole = policy.allows(caller);
      out.push(verdict(entry, callerView, '*', whole, whole.deciders ?? []));
    } else {
      out.push(verdict(entry, callerView, routeName(d.route), d, d.deciders));
    }
  }
  if (connections) return out;
  const { grpc, matches } = inboundMatches(entry);
  const unmatched = requestSamples(matches, grpc).find((s) => !routeFor(policy.routes, s));
  if (unmatched) out.push({ ...decideRequest(entry, callerView, unmatched), request: NO_ROUTE });
  return out;
}

/** The request class a request lands in, as the proxy routes it (`http-route` `find`: the most specific match of the port's routes). */
export function requestClassOf(entry: PortEntry, method: string, path: string): string {
  if (!routed(entry)) return '*';
  const route = routeFor(entry.policy.routes, { method, path });
  if (route?.generated === 'probe') return `${PROBE_PREFIX}${path}`;
  return routeName(route);
}
