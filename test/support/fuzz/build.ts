/**
 * Builds a MeshSpec into a cdk8s App through the PUBLIC constructs only (what a user can write), plus cdk8s-plus for
 * the Services and ServiceAccounts a user would add beside them. Any exception escapes to the oracle, which decides
 * whether it is an acceptable coded error.
 */
import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AccessSpec, AppSpec, BackendSpec, DurationSpec, EgressSpec, GrpcMatchSpec, GrpcRetrySpec, HeaderSpec, HttpMatchSpec, HttpRetrySpec, MeshSpec,
  NetworkSpec, PolicySpec, PolicyTargetSpec, PortChoice, RateLimitSpec, RouteRuleSpec, RouteSpec, SelectorSpec, ServerPortSpec, ServerSpec,
  ServiceRefSpec, SplitSpec, StatusSpec, TimeoutsSpec,
} from './mesh-spec';
import {
  Authentication, AuthorizationPolicy, AuthorizationTarget, DefaultInboundPolicy, EgressNetwork, EgressTrafficPolicy, GrpcRetry, GrpcRetryCode,
  GrpcRoute, GrpcRouteMatch, HeaderMatch, HttpLocalRateLimitPolicy, HttpMethod, HttpRetry, HttpRoute, HttpRouteMatch, IServer, MeshChecks,
  MeshResource, MeshTlsAuthentication, MeshedDeployment, MeshedNamespace, Network, NetworkAuthentication, PathMatch, PodSelection, ProxyProtocol,
  RetryStatus, RouteBackend, RouteTimeouts, Server, ServerAccess, ServerPort, ServiceReference, TrafficSplit, UnmatchedRequests,
} from '../../../src';

/** Whatever JS callers pass; the constructs must cope (a coded error) with wrong types too. */
type Any = any;

interface BuiltApp {
  readonly spec: AppSpec;
  readonly serviceAccount: kplus.ServiceAccount;
  readonly workloads: MeshedDeployment[];
  readonly service: kplus.Service;
  /** Per version; undefined where the spec has no per-version Service. */
  readonly versionServices: (kplus.Service | undefined)[];
}

interface Built {
  readonly chart: Chart;
  readonly apps: BuiltApp[];
  readonly servers: Server[];
  readonly routes: MeshResource[];
}

const SMALL = {
  cpu: { request: kplus.Cpu.millis(10), limit: kplus.Cpu.millis(100) },
  memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) },
};
/** Ports of Services not generated here (referenced by name): assume the common one. */
const UNKNOWN_SERVICE_PORTS = [8080];

function at<T>(items: readonly T[], i: number): T | undefined {
  return items.length === 0 ? undefined : items[i % items.length];
}

export function duration(d: DurationSpec): Duration {
  return Duration[d.unit](d.amount);
}

// ---- workloads and Services -------------------------------------------------------------------

function portName(n: { number: number; name?: string }): string {
  return n.name ?? `p${n.number}`;
}

type NamedPort = { number: number; name?: string };

function service(chart: Chart, name: string, selector: Record<string, string>, ports: NamedPort[], offset: number): kplus.Service {
  const svc = new kplus.Service(chart, `Service-${name}`, {
    metadata: { name },
    ports: ports.map((p) => ({ name: portName(p), port: p.number + offset, targetPort: p.number })),
  });
  for (const [key, value] of Object.entries(selector)) svc.selectLabel(key, value);
  return svc;
}

function uniquePorts(app: AppSpec): { number: number; name?: string }[] {
  const seen = new Map<number, { number: number; name?: string }>();
  for (const v of app.versions) for (const p of v.ports) if (!seen.has(p.number)) seen.set(p.number, p);
  // Port names must be unique on a Service too.
  const names = new Set<string>();
  return [...seen.values()].map((p) => {
    const name = names.has(portName(p)) ? `p${p.number}` : portName(p);
    names.add(name);
    return { number: p.number, name };
  });
}

function buildApp(chart: Chart, app: AppSpec): BuiltApp {
  const serviceAccount = new kplus.ServiceAccount(chart, `Identity-${app.name}`, { metadata: { name: app.name }, automountToken: false });
  const workloads = app.versions.map((v) => new MeshedDeployment(chart, `Workload-${app.name}-${v.version}`, {
    name: `${app.name}-${v.version}`,
    app: app.name,
    version: v.version,
    serviceAccount,
    meshed: v.meshed,
    containers: [{
      name: 'main',
      image: 'example/app:1.0.0',
      ports: v.ports.map((p) => ({ number: p.number, name: p.name })),
      securityContext: { user: 1000, group: 1000 },
      resources: SMALL,
    }],
  }));
  const versionServices = app.versions.map((v, i) => (v.service
    ? service(chart, `${app.name}-${v.version}`, workloads[i].selectorLabels, v.ports, app.servicePortOffset)
    : undefined));
  const appService = service(chart, app.name, { 'app.kubernetes.io/name': app.name }, uniquePorts(app), app.servicePortOffset);
  return { spec: app, serviceAccount, workloads, service: appService, versionServices };
}

// ---- references -------------------------------------------------------------------------------

function serviceRef(built: Built, ref: ServiceRefSpec): { ref: ServiceReference; ports: number[] } {
  if (ref.kind === 'name') return { ref: ServiceReference.fromName(ref.name, ref.namespace), ports: UNKNOWN_SERVICE_PORTS };
  const app = at(built.apps, ref.app)!;
  if (ref.kind === 'app') return { ref: ServiceReference.fromService(app.service), ports: app.service.ports.map((p) => p.port) };
  const i = ref.version % app.versionServices.length;
  const svc = app.versionServices[i];
  if (svc) return { ref: ServiceReference.fromService(svc), ports: svc.ports.map((p) => p.port) };
  return { ref: ServiceReference.fromName(`${app.spec.name}-${app.spec.versions[i].version}`), ports: UNKNOWN_SERVICE_PORTS };
}

function port(choice: PortChoice, ports: number[]): Any {
  return choice.kind === 'literal' ? choice.value : at(ports, choice.index) ?? UNKNOWN_SERVICE_PORTS[0];
}

function serviceAccounts(built: Built, indices: number[]): kplus.ServiceAccount[] {
  return indices.map((i) => at(built.apps, i)!.serviceAccount);
}

function network(n: NetworkSpec): Network {
  return Network.cidr(n.cidr, n.except);
}

// ---- retries and timeouts ---------------------------------------------------------------------

function retryStatus(s: StatusSpec): RetryStatus {
  switch (s.kind) {
    case 'server-errors': return RetryStatus.SERVER_ERRORS;
    case 'gateway-errors': return RetryStatus.GATEWAY_ERRORS;
    case 'code': return RetryStatus.code(s.code);
    default: return RetryStatus.range(s.from, s.to);
  }
}

function httpRetry(r: HttpRetrySpec | undefined): HttpRetry | undefined {
  return r && { statuses: r.statuses.map(retryStatus), limit: r.limit as Any, timeout: r.timeout && duration(r.timeout) };
}

function grpcRetry(r: GrpcRetrySpec | undefined): GrpcRetry | undefined {
  return r && { codes: r.codes as GrpcRetryCode[], limit: r.limit as Any, timeout: r.timeout && duration(r.timeout) };
}

function timeouts(t: TimeoutsSpec | undefined): RouteTimeouts | undefined {
  return t && { request: t.request && duration(t.request), response: t.response && duration(t.response), idle: t.idle && duration(t.idle) };
}

// ---- splits and routes ------------------------------------------------------------------------

function buildSplit(built: Built, s: SplitSpec, i: number): void {
  const app = at(built.apps, s.app)!;
  const ports = app.service.ports.map((p) => p.port);
  const versions = app.spec.versions;
  new TrafficSplit(built.chart, `Split${i}`, {
    name: `split-${i}`,
    service: s.parentByName ? ServiceReference.fromName(app.spec.name) : ServiceReference.fromService(app.service),
    port: port(s.port, ports),
    backends: s.percents.map((percent, b) => ({
      service: serviceRef(built, { kind: 'version', app: s.app, version: b % versions.length }).ref,
      percent: percent as Any,
      port: s.backendPort as Any,
    })),
    grpc: s.grpc,
    httpRetry: httpRetry(s.httpRetry),
    grpcRetry: grpcRetry(s.grpcRetry),
    timeouts: timeouts(s.timeouts),
  });
}

function headers(hs: HeaderSpec[]): HeaderMatch[] | undefined {
  return hs.length ? hs.map((h) => ({ name: h.name, value: h.value, regex: h.regex })) : undefined;
}

function httpMatch(m: HttpMatchSpec): HttpRouteMatch {
  const path = m.path && (m.path.type === 'exact' ? PathMatch.exact(m.path.value) : m.path.type === 'prefix' ? PathMatch.prefix(m.path.value) : PathMatch.regex(m.path.value));
  return { path, method: m.method as HttpMethod | undefined, headers: headers(m.headers) };
}

function grpcMatch(m: GrpcMatchSpec): GrpcRouteMatch {
  return { service: m.service, method: m.method, headers: headers(m.headers) };
}

function backend(built: Built, b: BackendSpec): RouteBackend {
  const target = serviceRef(built, b.target);
  return RouteBackend.service(target.ref, { port: port(b.port, target.ports), weight: b.weight as Any });
}

function httpRule(built: Built, r: RouteRuleSpec) {
  return {
    matches: r.httpMatches.length ? r.httpMatches.map(httpMatch) : undefined,
    backends: r.backends.map((b) => backend(built, b)),
    requestTimeout: r.requestTimeout && duration(r.requestTimeout),
  };
}

function grpcRule(built: Built, r: RouteRuleSpec) {
  return { matches: r.grpcMatches.length ? r.grpcMatches.map(grpcMatch) : undefined, backends: r.backends.map((b) => backend(built, b)) };
}

function buildRoute(built: Built, r: RouteSpec, i: number): MeshResource {
  const parent = serviceRef(built, r.parent);
  // The fuzzer explores what Linkerd reads route by route; a 404 for unmatched requests is a choice, not a defect here.
  const common = {
    name: r.name ?? `route-${i}`, service: parent.ref, port: port(r.port, parent.ports), timeouts: timeouts(r.timeouts), unmatched: UnmatchedRequests.NOT_FOUND,
  };
  if (r.grpc) return new GrpcRoute(built.chart, `GrpcRoute${i}`, { ...common, retry: grpcRetry(r.grpcRetry), rules: r.rules.map((x) => grpcRule(built, x)) });
  return new HttpRoute(built.chart, `HttpRoute${i}`, { ...common, retry: httpRetry(r.httpRetry), rules: r.rules.map((x) => httpRule(built, x)) });
}

// ---- policy -----------------------------------------------------------------------------------

function selection(app: BuiltApp, workload: MeshedDeployment, s: SelectorSpec): PodSelection {
  switch (s.kind) {
    case 'app': return PodSelection.app(app.spec.name);
    case 'workload': return PodSelection.workload(workload);
    case 'version-label': return PodSelection.labels({ ...workload.selectorLabels });
    case 'labels': return PodSelection.labels(s.labels);
    default: return PodSelection.expressions([{ key: 'app.kubernetes.io/name', operator: s.operator, values: s.values }]);
  }
}

function serverPort(versionPorts: { number: number; name?: string }[], p: ServerPortSpec): ServerPort {
  if (p.kind === 'number') return ServerPort.number(p.value as Any);
  if (p.kind === 'name') return ServerPort.name(p.value);
  const chosen = at(versionPorts, p.index)!;
  return p.byName && chosen.name ? ServerPort.name(chosen.name) : ServerPort.number(chosen.number);
}

function buildServer(built: Built, s: ServerSpec, i: number): Server {
  const app = at(built.apps, s.app)!;
  const v = s.version % app.workloads.length;
  return new Server(built.chart, `Server${i}`, {
    name: s.name ?? `srv-${i}`,
    selector: selection(app, app.workloads[v], s.selector),
    port: serverPort(app.spec.versions[v].ports, s.port),
    proxyProtocol: s.proxyProtocol as ProxyProtocol | undefined,
    accessPolicy: s.accessPolicy as DefaultInboundPolicy | undefined,
  });
}

function buildAccess(built: Built, a: AccessSpec, i: number): void {
  const server = at(built.servers, a.server);
  if (!server) return;
  ServerAccess.allow(server, {
    policyName: a.policyName ?? `allow-${i}`,
    serviceAccounts: serviceAccounts(built, a.serviceAccounts),
    namespaces: a.namespaces,
    networks: a.networks.map(network),
  });
}

/** The target, or undefined when the spec points into an empty list ("none": the policy is not built). */
function policyTarget(built: Built, t: PolicyTargetSpec): AuthorizationTarget | undefined {
  switch (t.kind) {
    case 'server': {
      const server = at(built.servers, t.server);
      return server && AuthorizationTarget.server(server);
    }
    case 'server-name': return AuthorizationTarget.server(Server.fromServerName(t.name));
    case 'namespace': return AuthorizationTarget.namespace(t.name);
    default: {
      const route = at(built.routes, t.route);
      if (!route) return undefined;
      return route instanceof GrpcRoute ? AuthorizationTarget.grpcRoute(route) : AuthorizationTarget.httpRoute(route);
    }
  }
}

function buildPolicy(built: Built, p: PolicySpec, i: number): void {
  const target = policyTarget(built, p.target);
  if (!target) return;
  const meshTls = p.meshTls.map((m, j) => Authentication.meshTls(new MeshTlsAuthentication(built.chart, `Pol${i}Tls${j}`, {
    name: `pol-${i}-tls-${j}`, serviceAccounts: serviceAccounts(built, m.serviceAccounts), namespaces: m.namespaces, identities: m.identities,
  })));
  const networks = p.networks.map((ns, j) => Authentication.network(new NetworkAuthentication(built.chart, `Pol${i}Net${j}`, {
    name: `pol-${i}-net-${j}`, networks: ns.map(network),
  })));
  const sas = serviceAccounts(built, p.serviceAccounts).map((sa) => Authentication.serviceAccount(sa));
  new AuthorizationPolicy(built.chart, `Policy${i}`, { name: p.name ?? `pol-${i}`, target, requiredAuthentications: [...meshTls, ...networks, ...sas] });
}

/** Linkerd sends rate limits only for detected, HTTP/1 and HTTP/2 Servers (LKD-POL-024): a coherent mesh limits those. */
const RATE_LIMITED = new Set([undefined, 'unknown', 'HTTP/1', 'HTTP/2']);

function buildRateLimit(built: Built, r: RateLimitSpec, i: number, servers: readonly ServerSpec[]): void {
  const server: IServer | undefined = at(built.servers, r.server);
  if (!server || !RATE_LIMITED.has(at(servers, r.server)?.proxyProtocol as string | undefined)) return;
  new HttpLocalRateLimitPolicy(built.chart, `RateLimit${i}`, {
    name: r.name ?? `rl-${i}`,
    server,
    totalRequestsPerSecond: r.total as Any,
    identityRequestsPerSecond: r.identity as Any,
    overrides: r.overrides.length
      ? r.overrides.map((o) => ({ requestsPerSecond: o.requestsPerSecond as Any, clients: serviceAccounts(built, o.clients) }))
      : undefined,
  });
}

function buildEgress(built: Built, e: EgressSpec, i: number): void {
  new EgressNetwork(built.chart, `Egress${i}`, {
    name: e.name ?? `egress-${i}`, trafficPolicy: e.trafficPolicy as EgressTrafficPolicy, networks: e.networks?.map(network),
  });
}

/**
 * Builds the mesh. Order follows dependencies (apps, then Servers and routes, then what points at them); the
 * determinism test builds the same meshes in other orders.
 */
export function buildMesh(spec: MeshSpec, app: App = Testing.app()): Chart {
  MeshChecks.of(app).configure({ printWarnings: false });
  const chart = new Chart(app, 'fuzz', { namespace: spec.namespace });
  new MeshedNamespace(chart, 'Namespace', { name: spec.namespace, defaultInboundPolicy: spec.defaultInboundPolicy as DefaultInboundPolicy | undefined });
  const apps = spec.apps.map((a) => buildApp(chart, a));
  const built: Built = { chart, apps, servers: [], routes: [] };
  spec.splits.forEach((s, i) => buildSplit(built, s, i));
  spec.servers.forEach((s, i) => built.servers.push(buildServer(built, s, i)));
  spec.routes.forEach((r, i) => built.routes.push(buildRoute(built, r, i)));
  spec.accesses.forEach((a, i) => buildAccess(built, a, i));
  spec.policies.forEach((p, i) => buildPolicy(built, p, i));
  spec.rateLimits.forEach((r, i) => buildRateLimit(built, r, i, spec.servers));
  spec.egress.forEach((e, i) => buildEgress(built, e, i));
  return chart;
}
