/**
 * The API a newcomer reaches for (issue 14, points 1–5): splits with matched rules and their own retries, routes that
 * say what happens to unmatched requests, a workload that exposes its Service, authentications reused across Servers,
 * and routes on a Server (with the probe routes LKD-POL-010 asks for).
 */
import { Chart, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AppProtocol, AuthorizationPolicy, AuthorizationTarget, Authentication, GrpcRetryCode, GrpcRoute, GrpcTrafficSplit, HttpMethod, HttpRoute,
  MeshChecks, MeshedDeployment, Network, NetworkAuthentication, PathMatch, PodSelection, ProbeAccess, ProxyProtocol, RetryStatus, RouteBackend,
  Server, ServerAccess, ServerGrpcRoute, ServerHttpRoute, ServerPort, ServiceReference, Severity, TrafficSplit, UnmatchedRequests,
} from '../../src';
import { conformanceIssues } from '../support/conformance';
import { describeWithShared } from '../support/shared';
import { find, labChart, synth, synthChecked } from '../support/synth';

/** A chart with orders v1/v2 serving on `port` and their Services, built with exposeService. */
function ordersApp(port = 8080, appProtocol?: AppProtocol) {
  const app = Testing.app();
  MeshChecks.of(app).configure({ printWarnings: false });
  const chart = new Chart(app, 'lab', { namespace: 'mesh-lab' });
  const sa = new kplus.ServiceAccount(chart, 'Orders', { metadata: { name: 'orders' } });
  const workloads = ['v1', 'v2'].map((version) => new MeshedDeployment(chart, `Orders-${version}`, {
    name: `orders-${version}`,
    app: 'orders',
    version,
    serviceAccount: sa,
    containers: [{ image: 'example/orders:1.0.0', ports: [{ name: 'http', number: port }], securityContext: { user: 1000 } }],
  }));
  const versions = workloads.map((w) => w.exposeService({ ports: [{ port, name: 'http', appProtocol }] }));
  const stable = workloads[0].exposeService({ name: 'orders', allVersions: true, ports: [{ port, name: 'http', appProtocol }] });
  return { app, chart, workloads, versions, stable };
}

/** The construct validations alone (not the App-wide engine run, which would judge a one-object chart as a mesh). */
const constructErrors = (chart: Chart) => chart.node.findAll().flatMap((c) => c.node.validate().map((m) => `[${c.node.path}] ${m}`));
const errorsOf = (chart: Chart) => MeshChecks.of(chart).analyze().filter((f) => f.severity === Severity.ERROR);
const idsOf = (chart: Chart) => MeshChecks.of(chart).analyze().map((f) => f.ruleId);

describe('splits take matched rules with their own retries (1)', () => {
  test('a gRPC canary with retries on exact methods: one GRPCRoute per rule, the rest at the same shares without retries, no LKD-RETRY-001', () => {
    const { chart, versions, stable } = ordersApp(9090, AppProtocol.HTTP2);
    new GrpcTrafficSplit(chart, 'Canary', {
      name: 'orders-canary',
      service: stable,
      port: 9090,
      backends: [{ service: versions[0], percent: 90 }, { service: versions[1], percent: 10 }],
      rules: [{
        name: 'orders-reads',
        matches: [{ service: 'orders.v1.Orders', method: 'GetOrder' }, { service: 'orders.v1.Orders', method: 'ListOrders' }],
        retry: { codes: [GrpcRetryCode.UNAVAILABLE], limit: 2, timeout: Duration.millis(300) },
        timeouts: { request: Duration.seconds(2) },
      }],
    });
    const objects = synthChecked(chart);
    const weighted = [{ name: 'orders-v1', port: 9090, weight: 90 }, { name: 'orders-v2', port: 9090, weight: 10 }];
    const reads = find(objects, 'GRPCRoute', 'orders-reads');
    expect(reads.metadata.annotations).toEqual({
      'retry.linkerd.io/grpc': 'unavailable', 'retry.linkerd.io/limit': '2', 'retry.linkerd.io/timeout': '300ms', 'timeout.linkerd.io/request': '2s',
    });
    expect(reads.spec.parentRefs).toEqual([{ group: 'core', kind: 'Service', name: 'orders', port: 9090 }]);
    expect(reads.spec.rules).toEqual([{
      matches: [
        { method: { type: 'Exact', service: 'orders.v1.Orders', method: 'GetOrder' } },
        { method: { type: 'Exact', service: 'orders.v1.Orders', method: 'ListOrders' } },
      ],
      backendRefs: weighted,
    }]);
    const rest = find(objects, 'GRPCRoute', 'orders-canary');
    expect(rest.metadata.annotations).toBeUndefined();
    expect(rest.spec.rules).toEqual([{ backendRefs: weighted }]);
    expect(idsOf(chart)).not.toContain('LKD-RETRY-001');
    expect(errorsOf(chart)).toEqual([]);
  });

  test('why the old way warned: a split without matches retries every method (LKD-RETRY-001)', () => {
    const { chart, versions, stable } = ordersApp(9090, AppProtocol.HTTP2);
    new GrpcTrafficSplit(chart, 'Canary', {
      name: 'orders-canary',
      service: stable,
      port: 9090,
      backends: [{ service: versions[0], percent: 90 }, { service: versions[1], percent: 10 }],
      retry: { codes: [GrpcRetryCode.UNAVAILABLE] },
    });
    expect(idsOf(chart)).toContain('LKD-RETRY-001');
  });

  test('an HTTP split with a retried GET rule: the rule route, and the rest routed unchanged', () => {
    const { chart, versions, stable } = ordersApp();
    const split = new TrafficSplit(chart, 'Split', {
      name: 'orders-split',
      service: stable,
      port: 8080,
      backends: [{ service: versions[0], percent: 90 }, { service: versions[1], percent: 10 }],
      rules: [{ name: 'orders-reads', matches: [{ method: HttpMethod.GET, path: PathMatch.prefix('/orders') }], retry: { statuses: [RetryStatus.GATEWAY_ERRORS] } }],
    });
    const objects = synthChecked(chart);
    expect(split.routes.map((r) => r.name)).toEqual(['orders-reads', 'orders-split']);
    expect(split.route.name).toBe('orders-split');
    expect(find(objects, 'HTTPRoute', 'orders-reads').metadata.annotations).toEqual({ 'retry.linkerd.io/http': 'gateway-error' });
    expect(find(objects, 'HTTPRoute', 'orders-reads').spec.rules[0].matches).toEqual([{ method: 'GET', path: { type: 'PathPrefix', value: '/orders' } }]);
    expect(find(objects, 'HTTPRoute', 'orders-split').spec.rules).toEqual([{ backendRefs: [{ name: 'orders-v1', port: 8080, weight: 90 }, { name: 'orders-v2', port: 8080, weight: 10 }] }]);
    expect(idsOf(chart)).not.toContain('LKD-RETRY-001');
    expect(errorsOf(chart)).toEqual([]);
  });

  test('still refuses shares that do not add up to 100, and rules without matches or with clashing names', () => {
    const base = { name: 's', service: ServiceReference.fromName('orders'), port: 8080 };
    const two = (a: number, b: number) => [{ service: ServiceReference.fromName('a'), percent: a }, { service: ServiceReference.fromName('b'), percent: b }];
    expect(() => new GrpcTrafficSplit(labChart(), 'S', { ...base, backends: two(90, 20), rules: [{ name: 'r', matches: [{ method: 'Get' }] }] }))
      .toThrow(/\[lab\/S\] LKD-ROUTE-009: the percents add up to 110/);
    expect(() => new TrafficSplit(labChart(), 'S', { ...base, backends: two(50, 40), rules: [{ name: 'r', matches: [{ method: HttpMethod.GET }] }] }))
      .toThrow(/LKD-ROUTE-009: the percents add up to 90/);
    expect(() => new TrafficSplit(labChart(), 'S', { ...base, backends: two(50, 50), rules: [{ name: 'r', matches: [] }] })).toThrow(/LKD-INPUT-003.*no matches/);
    expect(() => new TrafficSplit(labChart(), 'S', { ...base, backends: two(50, 50), rules: [{ name: 's', matches: [{ method: HttpMethod.GET }] }] }))
      .toThrow(/LKD-INPUT-004.*named "s"/);
    expect(() => new TrafficSplit(labChart(), 'S', { ...base, grpc: true, backends: two(50, 50), rules: [{ name: 'r', matches: [{ method: HttpMethod.GET }] }] }))
      .toThrow(/LKD-INPUT-004.*GrpcTrafficSplit/);
  });

  test('NOT_FOUND writes only the rule routes, and refuses settings no route would carry', () => {
    const chart = labChart();
    const backends = [{ service: ServiceReference.fromName('orders-v1'), percent: 100 }];
    const split = new GrpcTrafficSplit(chart, 'S', {
      name: 's',
      service: ServiceReference.fromName('orders'),
      port: 9090,
      backends,
      unmatched: UnmatchedRequests.NOT_FOUND,
      rules: [{ name: 'reads', matches: [{ service: 'orders.v1.Orders', method: 'GetOrder' }] }],
    });
    expect(synth(chart).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['GRPCRoute/reads']);
    expect(split.route.name).toBe('reads');
    expect(() => new GrpcTrafficSplit(labChart(), 'S', {
      name: 's',
      service: ServiceReference.fromName('orders'),
      port: 9090,
      backends,
      unmatched: UnmatchedRequests.NOT_FOUND,
      retry: { codes: [GrpcRetryCode.UNAVAILABLE] },
      rules: [{ name: 'reads', matches: [{ method: 'GetOrder' }] }],
    })).toThrow(/LKD-INPUT-004.*no route carries them/);
  });
});

describe('routes say what happens to requests no rule matches (2)', () => {
  const reads = { matches: [{ method: HttpMethod.GET }] };

  test('a route whose every rule has matches, with no catch-all on the Service port, fails synth with LKD-ROUTE-025', () => {
    const chart = labChart();
    new HttpRoute(chart, 'Reads', { name: 'reads', service: ServiceReference.fromName('orders'), port: 8080, retry: { statuses: [RetryStatus.SERVER_ERRORS] }, rules: [reads] });
    expect(() => synthChecked(chart)).toThrow(/\[lab\/Reads\] LKD-ROUTE-025: every rule of HTTPRoute reads has matches .*gets 404.*UnmatchedRequests.ROUTE_TO_SERVICE/);
  });

  test('ROUTE_TO_SERVICE writes a match-all companion without the retries, to the parent Service', () => {
    const chart = labChart();
    const route = new HttpRoute(chart, 'Reads', {
      name: 'reads',
      service: ServiceReference.fromName('orders'),
      port: 8080,
      retry: { statuses: [RetryStatus.SERVER_ERRORS] },
      timeouts: { request: Duration.seconds(5) },
      unmatched: UnmatchedRequests.ROUTE_TO_SERVICE,
      rules: [reads],
    });
    expect(constructErrors(chart)).toEqual([]);
    const objects = synth(chart);
    expect(route.unmatchedRoute?.name).toBe('reads-unmatched');
    const rest = find(objects, 'HTTPRoute', 'reads-unmatched');
    expect(rest.metadata.annotations).toBeUndefined();
    expect(rest.spec).toEqual({ parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }], rules: [{}] });
    expect(find(objects, 'HTTPRoute', 'reads').metadata.annotations['retry.linkerd.io/http']).toBe('5xx');
  });

  test('NOT_FOUND opts out; a match-all rule in the route or in another route on the same port counts as the catch-all', () => {
    const optOut = labChart();
    new HttpRoute(optOut, 'Reads', { name: 'reads', service: ServiceReference.fromName('orders'), port: 8080, unmatched: UnmatchedRequests.NOT_FOUND, rules: [reads] });
    expect(constructErrors(optOut)).toEqual([]);

    const own = labChart();
    new HttpRoute(own, 'Reads', { name: 'reads', service: ServiceReference.fromName('orders'), port: 8080, rules: [reads, {}] });
    expect(constructErrors(own)).toEqual([]);

    const other = labChart();
    new HttpRoute(other, 'Reads', { name: 'reads', service: ServiceReference.fromName('orders'), port: 8080, rules: [reads] });
    new HttpRoute(other, 'All', { name: 'all', service: ServiceReference.fromName('orders'), port: 8080, rules: [{ matches: [{ path: PathMatch.prefix('/') }] }] });
    expect(constructErrors(other)).toEqual([]);
  });

  test('an HTTPRoute catch-all does not cover a GRPCRoute, nor one on another port', () => {
    const chart = labChart();
    new GrpcRoute(chart, 'Reads', { name: 'reads', service: ServiceReference.fromName('orders'), port: 9090, rules: [{ matches: [{ method: 'GetOrder' }] }] });
    new HttpRoute(chart, 'All', { name: 'all', service: ServiceReference.fromName('orders'), port: 9090, rules: [{}] });
    new HttpRoute(chart, 'Other', { name: 'other', service: ServiceReference.fromName('orders'), port: 8080, rules: [reads] });
    expect(() => synthChecked(chart)).toThrow(/\[lab\/Reads\] LKD-ROUTE-025.*GRPCRoute reads[\s\S]*\[lab\/Other\] LKD-ROUTE-025/);
  });

  test('a producer catch-all covers consumer routes; a consumer catch-all covers only its own namespace', () => {
    const consumerAll = labChart();
    new HttpRoute(consumerAll, 'Reads', { name: 'reads', service: ServiceReference.fromName('orders'), port: 8080, rules: [reads] });
    new HttpRoute(consumerAll, 'Consumer', { name: 'all', namespace: 'shop', service: ServiceReference.fromName('orders', 'mesh-lab'), port: 8080, rules: [{}] });
    expect(constructErrors(consumerAll).join('\n')).toMatch(/\[lab\/Reads\] LKD-ROUTE-025/);

    const producerAll = labChart();
    new HttpRoute(producerAll, 'All', { name: 'all', service: ServiceReference.fromName('orders'), port: 8080, rules: [{}] });
    new HttpRoute(producerAll, 'Consumer', { name: 'reads', namespace: 'shop', service: ServiceReference.fromName('orders', 'mesh-lab'), port: 8080, rules: [reads] });
    expect(constructErrors(producerAll)).toEqual([]);
  });

  test('ROUTE_TO_SERVICE on a route that already matches everything is refused (the two match-all rules would compete)', () => {
    const chart = labChart();
    new HttpRoute(chart, 'All', { name: 'all', service: ServiceReference.fromName('orders'), port: 8080, unmatched: UnmatchedRequests.ROUTE_TO_SERVICE, rules: [{}] });
    expect(() => synthChecked(chart)).toThrow(/LKD-ROUTE-025: HTTPRoute all has a rule that matches every request/);
    expect(() => new HttpRoute(labChart(), 'R', { name: 'r', service: ServiceReference.fromName('orders'), port: 8080, unmatched: 'Drop' as any }))
      .toThrow(/LKD-INPUT-006.*UnmatchedRequests/);
  });
});

describe('a workload exposes its Service (3)', () => {
  test('selects the workload\'s labels (or every version), keeps names and appProtocol, and is a ServiceReference with known ports', () => {
    const { chart, stable, versions } = ordersApp(9090, AppProtocol.HTTP2);
    const objects = synth(chart);
    const v1 = find(objects, 'Service', 'orders-v1');
    expect(v1.spec.selector).toEqual({ 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': 'v1' });
    expect(v1.spec.ports).toEqual([{ name: 'http', port: 9090, targetPort: 9090, appProtocol: 'kubernetes.io/h2c' }]);
    expect(find(objects, 'Service', 'orders').spec.selector).toEqual({ 'app.kubernetes.io/name': 'orders' });
    expect(stable.name).toBe('orders');
    expect(stable.serviceObject).toBeInstanceOf(kplus.Service);
    expect(versions[1].name).toBe('orders-v2');
    // The ports are known, so a route to a port the Service does not expose is refused at once.
    expect(() => new HttpRoute(chart, 'R', { name: 'r', service: stable, port: 8080, rules: [{}] })).toThrow(/LKD-ROUTE-004.*no port 8080/);
  });

  test('a targetPort and several named ports; refuses unnamed ports among several, unknown appProtocols and a Service exposed twice', () => {
    const chart = labChart();
    const w = new MeshedDeployment(chart, 'W', { name: 'web', app: 'web', containers: [{ image: 'example/web:1.0.0', securityContext: { user: 1000 } }] });
    w.exposeService({ ports: [{ port: 80, targetPort: 8080, name: 'http', appProtocol: AppProtocol.HTTP1 }, { port: 9000, name: 'admin' }] });
    expect(find(synth(chart), 'Service', 'web').spec.ports).toEqual([
      { name: 'http', port: 80, targetPort: 8080, appProtocol: 'http' }, { name: 'admin', port: 9000, targetPort: 9000 },
    ]);
    expect(() => w.exposeService({ name: 'web-2', ports: [{ port: 80 }, { port: 81 }] })).toThrow(/LKD-INPUT-003.*must name each/);
    expect(() => w.exposeService({ name: 'web-3', ports: [{ port: 80, appProtocol: 'grpc' as any }] })).toThrow(/LKD-INPUT-006.*opaque TCP/);
    // core/src/outbound.rs AppProtocol::from_str reads linkerd.io/tcp as opaque, like linkerd.io/opaque.
    w.exposeService({ name: 'web-tcp', ports: [{ port: 5432, name: 'db', appProtocol: AppProtocol.TCP }] });
    expect(find(synth(chart), 'Service', 'web-tcp').spec.ports).toEqual([{ name: 'db', port: 5432, targetPort: 5432, appProtocol: 'linkerd.io/tcp' }]);
    expect(() => w.exposeService({ ports: [{ port: 80 }] })).toThrow(/LKD-INPUT-004.*already exposed/);
    expect(() => w.exposeService({ name: 'web-4', ports: [] })).toThrow(/LKD-INPUT-003/);
  });
});

describe('ServerAccess.allow reuses an authentication (4)', () => {
  test('allowing the same clients on two Servers writes one MeshTLSAuthentication and two policies, with no duplicate finding', () => {
    const chart = labChart();
    const web = new kplus.ServiceAccount(chart, 'Web', { metadata: { name: 'web' } });
    const server = (name: string, port: number) => new Server(chart, name, { name, selector: PodSelection.app('orders'), port: ServerPort.number(port), proxyProtocol: ProxyProtocol.HTTP1 });
    const first = ServerAccess.allow(server('orders-http', 8080), { policyName: 'web-to-orders', authenticationName: 'web', serviceAccounts: [web] });
    const second = ServerAccess.allow(server('orders-admin', 9000), { policyName: 'web-to-admin', authentication: first.meshTls });
    const objects = synth(chart);
    expect(objects.filter((o) => o.kind === 'MeshTLSAuthentication').map((o) => o.metadata.name)).toEqual(['web']);
    expect(second.meshTls).toBe(first.meshTls);
    expect(find(objects, 'AuthorizationPolicy', 'web-to-admin').spec).toEqual({
      targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-admin' },
      requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', name: 'web' }],
    });
    expect(MeshChecks.of(chart).analyze().map((f) => f.ruleId)).not.toContain('LKD-MESH-009');
  });

  test('a NetworkAuthentication is reused too; reuse and new identities are not mixed', () => {
    const chart = labChart();
    const a = new Server(chart, 'A', { name: 'a', selector: PodSelection.app('orders'), port: ServerPort.number(8080) });
    const b = new Server(chart, 'B', { name: 'b', selector: PodSelection.app('orders'), port: ServerPort.number(9000) });
    const nets = ServerAccess.allow(a, { policyName: 'nodes-a', networks: [Network.cidr('10.0.0.0/8')] });
    const reused = ServerAccess.allow(b, { policyName: 'nodes-b', networkAuthentication: nets.network });
    expect(reused.network).toBe(nets.network);
    expect(synth(chart).filter((o) => o.kind === 'NetworkAuthentication')).toHaveLength(1);
    const sa = new kplus.ServiceAccount(chart, 'Sa', { metadata: { name: 'x' } });
    const mesh = ServerAccess.allow(a, { policyName: 'x-a', serviceAccounts: [sa] });
    expect(() => ServerAccess.allow(b, { policyName: 'x-b', authentication: mesh.meshTls, serviceAccounts: [sa] })).toThrow(/LKD-INPUT-004.*not both/);
    expect(() => ServerAccess.allow(b, { policyName: 'n-b', networkAuthentication: nets.network, networks: [Network.cidr('10.0.0.0/8')] })).toThrow(/LKD-INPUT-004/);
  });
});

describe('routes on a Server (5)', () => {
  function serverChart(protocol: ProxyProtocol = ProxyProtocol.HTTP1) {
    const chart = labChart();
    const server = new Server(chart, 'Srv', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080), proxyProtocol: protocol });
    return { chart, server };
  }

  test('an HTTPRoute with a policy.linkerd.io Server parent (no port, no sectionName, the Server\'s namespace) that a policy can target', () => {
    const { chart, server } = serverChart();
    const admin = new ServerHttpRoute(chart, 'Admin', {
      name: 'orders-admin', server, unmatched: UnmatchedRequests.ROUTE_TO_SERVICE, rules: [{ matches: [{ path: PathMatch.prefix('/admin') }] }],
    });
    const ops = new NetworkAuthentication(chart, 'Nets', { name: 'ops', networks: [Network.cidr('10.1.0.0/16')] });
    new AuthorizationPolicy(chart, 'AdminPolicy', { name: 'admin-only', target: AuthorizationTarget.httpRoute(admin), requiredAuthentications: [Authentication.network(ops)] });
    expect(constructErrors(chart)).toEqual([]);
    const objects = synth(chart);
    const route = find(objects, 'HTTPRoute', 'orders-admin');
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.metadata.namespace).toBe('mesh-lab');
    expect(route.spec).toEqual({
      parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/admin' } }] }],
    });
    expect(find(objects, 'HTTPRoute', 'orders-admin-unmatched').spec).toEqual({ parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }], rules: [{}] });
    expect(find(objects, 'AuthorizationPolicy', 'admin-only').spec.targetRef).toEqual({ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'orders-admin' });
  });

  test('a gRPC Server carries only GRPCRoutes, an opaque or TLS Server none; another namespace is refused', () => {
    expect(() => new ServerHttpRoute(serverChart(ProxyProtocol.GRPC).chart, 'R', { name: 'r', server: serverChart(ProxyProtocol.GRPC).server, rules: [{}] }))
      .toThrow(/LKD-INPUT-004.*proxyProtocol gRPC carries only GRPCRoutes/);
    const opaque = serverChart(ProxyProtocol.OPAQUE);
    expect(() => new ServerHttpRoute(opaque.chart, 'R', { name: 'r', server: opaque.server, rules: [{}] })).toThrow(/LKD-INPUT-004.*no routes at all/);
    const tls = serverChart(ProxyProtocol.TLS);
    expect(() => new ServerGrpcRoute(tls.chart, 'R', { name: 'r', server: tls.server, rules: [{}] })).toThrow(/LKD-INPUT-004.*no routes at all/);
    const http = serverChart(ProxyProtocol.HTTP2);
    expect(() => new ServerGrpcRoute(http.chart, 'R', { name: 'r', server: http.server, rules: [{}] })).toThrow(/LKD-INPUT-004.*only HTTPRoutes/);
    const grpc = serverChart(ProxyProtocol.GRPC);
    new ServerGrpcRoute(grpc.chart, 'R', { name: 'r', server: grpc.server, rules: [{ matches: [{ service: 'orders.v1.Orders' }] }], unmatched: UnmatchedRequests.NOT_FOUND });
    expect(find(synth(grpc.chart), 'GRPCRoute', 'r').spec.parentRefs).toEqual([{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }]);
    const other = serverChart();
    expect(() => new ServerHttpRoute(other.chart, 'R', { name: 'r', namespace: 'elsewhere', server: other.server, rules: [{}] })).toThrow(/LKD-ROUTE-022/);
  });

  test('a Server route that leaves requests unmatched without saying so fails synth (they would be refused)', () => {
    const { chart, server } = serverChart();
    new ServerHttpRoute(chart, 'Api', { name: 'api', server, rules: [{ matches: [{ path: PathMatch.prefix('/api') }] }] });
    expect(() => synthChecked(chart)).toThrow(/LKD-ROUTE-025.*HTTPRoute api.*Server orders-http.*is refused/);
  });

  test('ProbeAccess writes the probe route LKD-POL-010 asks for: GET on each probe path, admitted from the probe networks', () => {
    const build = (withProbes: boolean) => {
      const app = Testing.app();
      MeshChecks.of(app).configure({ printWarnings: false });
      const chart = new Chart(app, 'lab', { namespace: 'mesh-lab' });
      const workload = new MeshedDeployment(chart, 'Orders', {
        name: 'orders',
        app: 'orders',
        containers: [{
          image: 'example/orders:1.0.0',
          ports: [{ name: 'http', number: 8080 }],
          securityContext: { user: 1000 },
          readiness: kplus.Probe.fromHttpGet('/ready', { port: 8080 }),
          liveness: kplus.Probe.fromHttpGet('/healthz?full=1', { port: 8080 }),
        }],
      });
      const server = new Server(chart, 'Srv', { name: 'orders-http', selector: PodSelection.workload(workload), port: ServerPort.name('http'), proxyProtocol: ProxyProtocol.HTTP1 });
      new ServerHttpRoute(chart, 'Api', { name: 'orders-api', server, unmatched: UnmatchedRequests.NOT_FOUND, rules: [{ matches: [{ path: PathMatch.prefix('/api') }] }] });
      const probes = withProbes ? new ProbeAccess(chart, 'Probes', { server, workload, unmatched: UnmatchedRequests.NOT_FOUND }) : undefined;
      return { chart, probes };
    };
    expect(idsOf(build(false).chart)).toContain('LKD-POL-010');
    const { chart, probes } = build(true);
    expect(probes!.paths).toEqual(['/healthz', '/ready']);
    const objects = synth(chart);
    expect(find(objects, 'HTTPRoute', 'orders-http-probes').spec.rules).toEqual([{
      matches: [{ path: { type: 'Exact', value: '/healthz' }, method: 'GET' }, { path: { type: 'Exact', value: '/ready' }, method: 'GET' }],
    }]);
    expect(find(objects, 'NetworkAuthentication', 'orders-http-probes-networks').spec.networks).toEqual([{ cidr: '0.0.0.0/0' }, { cidr: '::/0' }]);
    expect(find(objects, 'AuthorizationPolicy', 'orders-http-probes').spec.targetRef).toEqual({ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'orders-http-probes' });
    expect(idsOf(chart)).not.toContain('LKD-POL-010');
    expect(errorsOf(chart)).toEqual([]);
  });

  test('ProbeAccess refuses a workload without an HTTP probe on the Server\'s port', () => {
    const chart = labChart();
    const workload = new MeshedDeployment(chart, 'W', { name: 'w', app: 'w', containers: [{ image: 'example/w:1.0.0', securityContext: { user: 1000 } }] });
    const server = new Server(chart, 'S', { name: 's', selector: PodSelection.workload(workload), port: ServerPort.number(8080) });
    expect(() => new ProbeAccess(chart, 'P', { server, workload })).toThrow(/LKD-INPUT-003.*no HTTP probe on port 8080/);
  });
});

describe('construct choices reach the engine; messages name the real cause, once (issue: what a construct states)', () => {
  const reads = { matches: [{ method: HttpMethod.GET }] };

  test('unmatched: NOT_FOUND is written into the manifest, and the engine\'s LKD-ROUTE-025 stays silent, even with failOnWarnings', () => {
    const { app, chart, stable } = ordersApp();
    MeshChecks.of(app).configure({ failOnWarnings: true });
    new HttpRoute(chart, 'Reads', { name: 'reads', service: stable, port: 8080, unmatched: UnmatchedRequests.NOT_FOUND, rules: [reads] });
    expect(find(synth(chart), 'HTTPRoute', 'reads').metadata.annotations).toEqual({ 'analysis.cdk8s-linkerd.io/unmatched': 'NotFound' });
    expect(idsOf(chart)).not.toContain('LKD-ROUTE-025');
    expect(() => Testing.synth(chart)).not.toThrow(/LKD-ROUTE-025/);
  });

  test('LKD-ROUTE-025 is printed once, by the construct at its path; a gRPC call fails with UNIMPLEMENTED, not 404', () => {
    const { app, chart, stable } = ordersApp(9090, AppProtocol.HTTP2);
    MeshChecks.of(app).configure({ failOnWarnings: true });
    new GrpcRoute(chart, 'Reads', { name: 'reads', service: stable, port: 9090, rules: [{ matches: [{ method: 'GetOrder' }] }] });
    expect(idsOf(chart)).toContain('LKD-ROUTE-025');
    let message = '';
    try {
      Testing.synth(chart);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.match(/LKD-ROUTE-025/g)).toHaveLength(1);
    expect(message).toMatch(/\[lab\/Reads\] LKD-ROUTE-025: every rule of GRPCRoute reads .*fails with gRPC status UNIMPLEMENTED/);
    expect(message).not.toMatch(/404/);
  });

  test('ProbeAccess on a Server whose port name no container declares names the port, not the probes (LKD-POL-007)', () => {
    const chart = labChart();
    const workload = new MeshedDeployment(chart, 'W', {
      name: 'w',
      app: 'w',
      containers: [{ image: 'example/w:1.0.0', ports: [{ name: 'web', number: 8080 }], securityContext: { user: 1000 }, readiness: kplus.Probe.fromHttpGet('/ready', { port: 8080 }) }],
    });
    const server = new Server(chart, 'S', { name: 's', selector: PodSelection.workload(workload), port: ServerPort.name('http') });
    expect(() => new ProbeAccess(chart, 'P', { server, workload }))
      .toThrow(/LKD-POL-007: Server s names port "http", which no container of workload w declares.*Fix: Name the container port "http"/);
  });

  test('a percent of 110 is a range problem, 12.5 a whole-number one', () => {
    const split = (percent: number) => () => new TrafficSplit(labChart(), 'S', {
      name: 's',
      service: ServiceReference.fromName('orders'),
      port: 8080,
      backends: [{ service: ServiceReference.fromName('orders-v1'), percent }, { service: ServiceReference.fromName('orders-v2'), percent: 100 - percent }],
    });
    expect(split(110)).toThrow(/LKD-ROUTE-009: backends\[0\] percent 110 is outside 0\.\.100.*Fix: Give each backend a share from 0 to 100/);
    expect(split(110)).not.toThrow(/integer|whole/);
    expect(split(12.5)).toThrow(/LKD-ROUTE-009: backends\[0\] percent 12\.5 is not a whole number/);
  });
});

describeWithShared('the new constructs against the real CRDs', () => {
  test('splits with rules, companions, exposed Services, Server routes and probe routes conform (schema, defaults, CEL)', () => {
    const { chart, versions, stable, workloads } = ordersApp(8080, AppProtocol.HTTP1);
    new TrafficSplit(chart, 'Split', {
      name: 'orders-split',
      service: stable,
      port: 8080,
      backends: [{ service: versions[0], percent: 90 }, { service: versions[1], percent: 10 }],
      rules: [{ name: 'orders-reads', matches: [{ method: HttpMethod.GET }], retry: { statuses: [RetryStatus.GATEWAY_ERRORS] } }],
    });
    new HttpRoute(chart, 'Direct', {
      name: 'direct',
      service: versions[0],
      port: 8080,
      unmatched: UnmatchedRequests.ROUTE_TO_SERVICE,
      rules: [{ matches: [{ headers: [{ name: 'x-debug', value: '1' }] }], backends: [RouteBackend.service(versions[1], { port: 8080 })] }],
    });
    const server = new Server(chart, 'Srv', { name: 'orders-http', selector: PodSelection.workload(workloads[0]), port: ServerPort.number(8080), proxyProtocol: ProxyProtocol.HTTP1 });
    new ServerHttpRoute(chart, 'Api', { name: 'orders-api', server, unmatched: UnmatchedRequests.ROUTE_TO_SERVICE, rules: [{ matches: [{ path: PathMatch.prefix('/api') }] }] });
    expect(conformanceIssues(synth(chart))).toEqual([]);
  });
});
