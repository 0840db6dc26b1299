import { analyze } from '../../../src/analysis/engine';
import { Severity } from '../../../src/analysis/finding';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

function ruleFindings(objects: any[], ruleId: string, inventory: any[] = []) {
  return analyze(asManifests(objects), { inventory }).findings.filter((f) => f.ruleId === ruleId);
}

function route(kind: string, name: string, spec: Record<string, unknown>, namespace = 'mesh-lab'): any {
  return { apiVersion: 'gateway.networking.k8s.io/v1', kind, metadata: { name, namespace }, spec };
}

const ordersParent = (extra: Record<string, unknown> = {}) => ({ group: 'core', kind: 'Service', name: 'orders', namespace: 'mesh-lab', ...extra });

describe('LKD-ROUTE-012 route kinds on one Service port', () => {
  test('passes when gRPC has its own port', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').spec.ports.push({ name: 'grpc', port: 9090 });
    objects.push(route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent({ port: 9090 })] }));
    expect(ruleFindings(objects, 'LKD-ROUTE-012')).toEqual([]);
  });
  test('fires on the HTTPRoute when a GRPCRoute without port covers the same Service', () => {
    const objects = [...meshLab(), route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent()] })];
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-012');
    expect(finding).toMatchObject({ severity: Severity.ERROR, resource: { kind: 'HTTPRoute', name: 'orders-split' } });
    expect(finding.message).toMatch(/^Service mesh-lab\/orders port 8080 \(detect: no appProtocol.*\) is shared with GRPCRoute mesh-lab\/orders-grpc; .*never used there/);
  });
  // grpc/src/outbound.rs to_proto: appProtocol http serves HTTPRoutes only, so there the HTTPRoute wins (the GRPCRoute is LKD-ROUTE-026's).
  test('on an HTTP/1 port the HTTPRoute is used, not the GRPCRoute that reaches it through another parentRef', () => {
    const objects = [...meshLab(), route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent()] })];
    pick(objects, 'Service', 'orders').spec.ports[0].appProtocol = 'http';
    expect(ruleFindings(objects, 'LKD-ROUTE-012')).toEqual([]);
    expect(ruleFindings(objects, 'LKD-ROUTE-026').map((f) => f.resource.name)).toEqual(['orders-grpc']);
  });
  // outbound/index.rs apply_grpc_route: a rule filter grpc.rs convert_filter refuses fails the whole route ("Failed to
  // convert route"), so it is never filed and cannot win the port; its own mistake is LKD-ROUTE-011's.
  test('a GRPCRoute the index cannot convert does not take the port from the HTTPRoute', () => {
    const mirror = { type: 'RequestMirror', requestMirror: { backendRef: { name: 'orders-v2', port: 8080 } } };
    const objects = [...meshLab(), route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent()], rules: [{ filters: [mirror] }] })];
    expect(ruleFindings(objects, 'LKD-ROUTE-012')).toEqual([]);
    expect(ruleFindings(objects, 'LKD-ROUTE-011').map((f) => f.resource.name)).toEqual(['orders-grpc']);
    // Its status is still written, so an identical parentRef is still conflicted (status/src/index.rs reads no filters).
    const identical = [...meshLab(), route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent({ port: 8080 })], rules: [{ filters: [mirror] }] })];
    expect(ruleFindings(identical, 'LKD-ROUTE-012').map((f) => f.message)).toEqual([expect.stringMatching(/is identical to a parentRef of GRPCRoute mesh-lab\/orders-grpc/)]);
  });
  // status/src/index.rs parent_has_conflicting_routes + outbound/index/http.rs route_accepted_by_resource_port.
  test('an identical parentRef of a higher-ranked kind conflicts the route\'s status, and the outbound index drops it whatever the protocol', () => {
    const objects = [...meshLab(), route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent({ port: 8080 })] })];
    pick(objects, 'Service', 'orders').spec.ports[0].appProtocol = 'http';
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-012');
    expect(finding).toMatchObject({ resource: { kind: 'HTTPRoute', name: 'orders-split' } });
    expect(finding.message).toMatch(/parentRefs\[0\] \(Service mesh-lab\/orders, port 8080\) is identical to a parentRef of GRPCRoute mesh-lab\/orders-grpc; .*RouteReasonConflicted.*never used there/);
    // Another parentRef of the route to the same Service, without a port, is accepted and covers the port: not dropped.
    pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs.push(ordersParent());
    expect(ruleFindings(objects, 'LKD-ROUTE-012')).toEqual([]);
  });
  // A parentRef without a port covers every port; a route used on one of them is doing its job (as LKD-ROUTE-026 judges it).
  test('a route naming the whole Service is not reported where it loses, when another port uses it', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').spec.ports.push({ name: 'grpc', port: 9090, appProtocol: 'kubernetes.io/h2c' });
    pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs = [ordersParent()];
    const grpc = route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent({ port: 9090 })] });
    expect(ruleFindings([...objects, grpc], 'LKD-ROUTE-012')).toEqual([]);
    // Named on 9090, it is judged there.
    pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs = [ordersParent({ port: 9090 }), ordersParent({ port: 8080 })];
    expect(ruleFindings([...objects, grpc], 'LKD-ROUTE-012').map((f) => f.resource.name)).toEqual(['orders-split']);
  });
  test('on an opaque port the TCPRoute is used, not the HTTPRoute that reaches it through another parentRef', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').metadata.annotations = { 'config.linkerd.io/opaque-ports': '8080' };
    pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs = [ordersParent()];
    const tcp = {
      ...route('TCPRoute', 'orders-tcp', { parentRefs: [ordersParent({ port: 8080 })], rules: [{ backendRefs: [{ name: 'orders-v1', port: 8080 }] }] }),
      apiVersion: 'gateway.networking.k8s.io/v1alpha2',
    };
    expect(ruleFindings([...objects, tcp], 'LKD-ROUTE-012')).toEqual([]);
    expect(ruleFindings([...objects, tcp], 'LKD-ROUTE-026').map((f) => f.resource.name)).toEqual(['orders-split']);
  });
  // outbound/index.rs: a producer route reaches every namespace's watch, a consumer route only its own namespace's.
  test('a consumer GRPCRoute in another namespace outranks the producer HTTPRoute only for its own clients: no finding on the producer route', () => {
    const consumer = route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent()] }, 'web');
    expect(ruleFindings([...meshLab(), consumer], 'LKD-ROUTE-012')).toEqual([]);
    // A consumer HTTPRoute in web loses to a consumer GRPCRoute there: for those clients it is never used.
    const consumerHttp = route('HTTPRoute', 'orders-web', { parentRefs: [ordersParent({ port: 8080 })] }, 'web');
    const [finding] = ruleFindings([...meshLab(), consumer, consumerHttp], 'LKD-ROUTE-012');
    expect(finding).toMatchObject({ resource: { namespace: 'web', name: 'orders-web' } });
    expect(finding.message).toMatch(/for the clients in namespace web \(the only ones a consumer route serves\)/);
    // And a producer GRPCRoute outranks a consumer HTTPRoute in web, whose clients are served both.
    const producerGrpc = route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent()] });
    expect(ruleFindings([...meshLab(), producerGrpc, consumerHttp], 'LKD-ROUTE-012').map((f) => `${f.resource.namespace}/${f.resource.name}`).sort())
      .toEqual(['mesh-lab/orders-split', 'web/orders-web']);
  });
  test('each consumer namespace is judged on the producer routes and its own: a GRPCRoute in one namespace does not outrank another\'s', () => {
    const grpcIn = (namespace: string) => route('GRPCRoute', `orders-grpc-${namespace}`, { parentRefs: [ordersParent()] }, namespace);
    const httpIn = (namespace: string) => route('HTTPRoute', `orders-${namespace}`, { parentRefs: [ordersParent({ port: 8080 })] }, namespace);
    const found = ruleFindings([...meshLab(), grpcIn('web'), httpIn('web'), httpIn('shop'), grpcIn('ops')], 'LKD-ROUTE-012');
    expect(found.map((f) => [`${f.resource.namespace}/${f.resource.name}`, f.message.match(/shared with ([^;]*);/)![1]])).toEqual([
      ['web/orders-web', 'GRPCRoute web/orders-grpc-web for the clients in namespace web (the only ones a consumer route serves)'],
    ]);
  });
  test('counts routes from the inventory and TCPRoutes', () => {
    const tcp = { ...route('TCPRoute', 'orders-tcp', { parentRefs: [ordersParent({ port: 8080 })] }), apiVersion: 'gateway.networking.k8s.io/v1alpha2' };
    const [finding] = ruleFindings([...meshLab(), tcp], 'LKD-ROUTE-012');
    expect(finding).toMatchObject({ resource: { kind: 'TCPRoute', name: 'orders-tcp' }, message: expect.stringContaining('HTTPRoute mesh-lab/orders-split') });
    const inventoryGrpc = route('GRPCRoute', 'legacy-grpc', { parentRefs: [ordersParent({ port: 8080 })] });
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-012', [inventoryGrpc]).map((f) => f.resource.name)).toEqual(['orders-split']);
  });
});

describe('LKD-ROUTE-012 and LKD-ROUTE-026 on EgressNetwork ports', () => {
  const egress = (annotations?: Record<string, string>) => ({
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'EgressNetwork',
    metadata: { name: 'internet', namespace: 'mesh-lab', ...(annotations ? { annotations } : {}) },
    spec: { trafficPolicy: 'Allow' },
  });
  const egressParent = (port: number) => ({ group: 'policy.linkerd.io', kind: 'EgressNetwork', name: 'internet', port });
  const egressBackend = { group: 'policy.linkerd.io', kind: 'EgressNetwork', name: 'internet' };
  const tls = (port: number) => ({
    ...route('TLSRoute', 'api-tls', { parentRefs: [egressParent(port)], hostnames: ['api.example.com'], rules: [{ backendRefs: [egressBackend] }] }),
    apiVersion: 'gateway.networking.k8s.io/v1alpha2',
  });
  const http = (port: number) => route('HTTPRoute', 'api-http', { parentRefs: [egressParent(port)], rules: [{ backendRefs: [egressBackend] }] });
  test('an HTTPRoute and a TLSRoute on the same EgressNetwork port: the TLSRoute is conflicted and never used', () => {
    const [finding] = ruleFindings([...meshLab(), egress(), tls(8443), http(8443)], 'LKD-ROUTE-012');
    expect(finding).toMatchObject({ resource: { kind: 'TLSRoute', name: 'api-tls' } });
    expect(finding.message).toMatch(/parentRefs\[0\] \(EgressNetwork mesh-lab\/internet, port 8443\) is identical to a parentRef of HTTPRoute mesh-lab\/api-http/);
    expect(ruleFindings([...meshLab(), egress(), tls(8443), http(80)], 'LKD-ROUTE-012')).toEqual([]);
  });
  // outbound/index.rs Index::apply for EgressNetwork: its opaque-ports annotation, else the cluster's defaults, make a port opaque.
  test('an HTTPRoute on an opaque EgressNetwork port is never used; the default opaque ports apply without the annotation', () => {
    const [own] = ruleFindings([...meshLab(), egress({ 'config.linkerd.io/opaque-ports': '8443' }), http(8443)], 'LKD-ROUTE-026');
    expect(own).toMatchObject({ resource: { name: 'api-http' } });
    expect(own.message).toMatch(/EgressNetwork mesh-lab\/internet port 8443, which Linkerd treats as opaque \(the EgressNetwork's config.linkerd.io\/opaque-ports\)/);
    expect(ruleFindings([...meshLab(), egress(), http(3306)], 'LKD-ROUTE-026').map((f) => f.resource.name)).toEqual(['api-http']);
    expect(ruleFindings([...meshLab(), egress(), http(8443)], 'LKD-ROUTE-026')).toEqual([]);
    expect(ruleFindings([...meshLab(), egress({ 'config.linkerd.io/opaque-ports': '8443' }), tls(443)], 'LKD-ROUTE-026')).toEqual([]);
  });
});

describe('LKD-ROUTE-013 ambiguous matches', () => {
  const canary = (name: string, header = 'x-canary') => route('HTTPRoute', name, {
    parentRefs: [ordersParent({ port: 8080 })],
    rules: [{ matches: [{ headers: [{ name: header, value: 'true' }] }], backendRefs: [{ name: 'orders-v2', port: 8080 }] }],
  });
  test('passes for distinct matches', () => {
    expect(ruleFindings([...meshLab(), canary('orders-canary')], 'LKD-ROUTE-013')).toEqual([]);
  });
  test('fires when two routes on one port share a match (header names compared case-insensitively)', () => {
    const [finding] = ruleFindings([...meshLab(), canary('orders-canary'), canary('orders-canary-2', 'X-Canary')], 'LKD-ROUTE-013');
    expect(finding).toMatchObject({ severity: Severity.WARNING, resource: { name: 'orders-canary-2' } });
    expect(finding.message).toMatch(/rules\[0\]\.matches\[0\] \(PathPrefix \/, headers Exact:x-canary=true\) on Service mesh-lab\/orders:8080 is identical to rules\[0\]\.matches\[0\] of HTTPRoute mesh-lab\/orders-canary/);
  });
  test('a rule without matches collides with an explicit PathPrefix "/" elsewhere', () => {
    const catchAll = route('HTTPRoute', 'orders-all', {
      parentRefs: [ordersParent({ port: 8080 })], rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name: 'orders-v1', port: 8080 }] }],
    });
    expect(ruleFindings([...meshLab(), catchAll], 'LKD-ROUTE-013').map((f) => f.resource.name)).toEqual(['orders-split']);
  });
  test('routes whose hostnames share none serve different hosts and do not compete (the proxy matches the host first)', () => {
    const a = canary('a'); a.spec.hostnames = ['orders.example.com'];
    const b = canary('b'); b.spec.hostnames = ['orders.internal'];
    expect(ruleFindings([...meshLab(), a, b], 'LKD-ROUTE-013')).toEqual([]);
    b.spec.hostnames = ['ORDERS.example.com'];
    expect(ruleFindings([...meshLab(), a, b], 'LKD-ROUTE-013').map((f) => f.resource.name)).toEqual(['b']);
  });
  test('consumer routes in different namespaces do not compete with each other', () => {
    const a = canary('a'); a.metadata.namespace = 'team-a';
    const b = canary('b'); b.metadata.namespace = 'team-b';
    expect(ruleFindings([...meshLab(), a, b], 'LKD-ROUTE-013')).toEqual([]);
  });
  test('a consumer route competes with the producer routes and with its own namespace\'s, the first by namespace and name', () => {
    const at = (name: string, namespace: string, hostnames: string[]) => {
      const r = canary(name);
      r.metadata.namespace = namespace;
      r.spec.hostnames = hostnames;
      return r;
    };
    const found = ruleFindings([...meshLab(), at('p', 'mesh-lab', ['p.example.com']), at('a', 'team-a', ['orders.internal']),
      at('a2', 'team-a', ['orders.internal']), at('b', 'team-b', ['orders.internal'])], 'LKD-ROUTE-013');
    expect(found.map((f) => `${f.resource.namespace}/${f.resource.name}`)).toEqual(['team-a/a2']);
    expect(found[0].message).toMatch(/is identical to rules\[0\]\.matches\[0\] of HTTPRoute team-a\/a;/);
  });
  test('fires on a match repeated inside one route', () => {
    const objects = meshLab();
    const split = pick(objects, 'HTTPRoute', 'orders-split');
    split.spec.rules.push({ matches: [{ path: { type: 'PathPrefix', value: '/orders/' } }] }, { matches: [{ path: { value: '/orders' } }] });
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-013');
    expect(finding.message).toMatch(/rules\[2\]\.matches\[0\] \(PathPrefix \/orders\) repeats rules\[1\]\.matches\[0\]/);
  });
});

describe('LKD-ROUTE-019 ServiceProfile wins', () => {
  const profile = (namespace: string) => ({
    apiVersion: 'linkerd.io/v1alpha2',
    kind: 'ServiceProfile',
    metadata: { name: 'orders.mesh-lab.svc.cluster.local', namespace },
    spec: { routes: [{ name: 'GET /orders', condition: { method: 'GET', pathRegex: '/orders' } }] },
  });
  test('an empty profile (no routes, no dstOverrides) overrides nothing (proxy Profile::has_routes_or_targets)', () => {
    const empty = { ...profile('mesh-lab'), spec: { routes: [] } };
    expect(ruleFindings([...meshLab(), empty], 'LKD-ROUTE-019')).toEqual([]);
  });
  test('passes without a ServiceProfile, and for a profile of another Service', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-019')).toEqual([]);
    // destination server.go profileID looks profiles up with the cluster domain: `orders.mesh-lab.svc` names nothing.
    const bare = { ...profile('mesh-lab'), metadata: { name: 'orders.mesh-lab.svc', namespace: 'mesh-lab' } };
    expect(ruleFindings([...meshLab(), bare], 'LKD-ROUTE-019')).toEqual([]);
    const other = { ...profile('mesh-lab'), metadata: { name: 'payments.mesh-lab.svc.cluster.local', namespace: 'mesh-lab' } };
    expect(ruleFindings([...meshLab(), other], 'LKD-ROUTE-019')).toEqual([]);
  });
  test('errors for a server-side profile, warns for a client-side one', () => {
    const [server] = ruleFindings([...meshLab(), profile('mesh-lab')], 'LKD-ROUTE-019');
    expect(server).toMatchObject({ severity: Severity.ERROR, resource: { name: 'orders-split' } });
    expect(server.message).toMatch(/ServiceProfile mesh-lab\/orders\.mesh-lab\.svc\.cluster\.local \(applies to every client\).*ignore this route/);
    const [client] = ruleFindings([...meshLab(), profile('frontend')], 'LKD-ROUTE-019');
    expect(client).toMatchObject({ severity: Severity.WARNING, message: expect.stringContaining('clients in namespace "frontend"') });
  });
  test('flags retry annotations on the profiled Service, even with the profile in the inventory', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').metadata.annotations = { 'retry.linkerd.io/http': '5xx' };
    const names = ruleFindings(objects, 'LKD-ROUTE-019', [profile('mesh-lab')]).map((f) => `${f.resource.kind}/${f.resource.name}`);
    expect(names).toEqual(['HTTPRoute/orders-split', 'Service/orders']);
  });
});

describe('LKD-ROUTE-021 hostnames on a mesh route', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-021')).toEqual([]);
  });
  test('warns when a Service-parented route sets hostnames', () => {
    const objects = meshLab();
    pick(objects, 'HTTPRoute', 'orders-split').spec.hostnames = ['orders.mesh-lab.svc.cluster.local'];
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-021');
    expect(finding).toMatchObject({ severity: Severity.WARNING, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/spec\.hostnames \(orders\.mesh-lab\.svc\.cluster\.local\) is set on a route whose parent is a Service/);
  });
});

// status/src/index.rs parent_condition_server: a Server parentRef has no port, so a GRPCRoute naming the Server conflicts
// every HTTPRoute naming it, whatever the Server's proxyProtocol (inbound/routes.rs accepted_by_server then drops them).
describe('LKD-ROUTE-012 on a Server', () => {
  const serverParent = [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }];
  const lab = (protocol?: string) => {
    const objects = [
      ...meshLab(),
      route('HTTPRoute', 'orders-api', { parentRefs: serverParent, rules: [{ matches: [{ path: { value: '/api' } }] }] }),
      route('GRPCRoute', 'orders-grpc', { parentRefs: serverParent }),
    ];
    const server = pick(objects, 'Server', 'orders-http');
    if (protocol === undefined) delete server.spec.proxyProtocol; else server.spec.proxyProtocol = protocol;
    return objects;
  };
  test.each(['HTTP/1', 'gRPC', undefined])('the HTTPRoute is conflicted on a %s Server, and only LKD-ROUTE-012 says why', (protocol) => {
    const objects = lab(protocol);
    expect(ruleFindings(objects, 'LKD-ROUTE-012').map((f) => [f.severity, f.resource.name, f.message])).toEqual([[Severity.ERROR, 'orders-api',
      expect.stringMatching(/^parentRefs\[0\] \(Server mesh-lab\/orders-http\) is identical to a parentRef of GRPCRoute mesh-lab\/orders-grpc; .*this HTTPRoute is never used there/)]]);
    // The protocol does not drop it: LKD-ROUTE-026 names only a GRPCRoute the Server does not serve.
    expect(ruleFindings(objects, 'LKD-ROUTE-026').map((f) => f.resource.name)).toEqual(protocol === 'gRPC' ? [] : ['orders-grpc']);
  });
  test('without the GRPCRoute nothing is conflicted', () => {
    expect(ruleFindings(lab('HTTP/1').filter((o) => o.kind !== 'GRPCRoute'), 'LKD-ROUTE-012')).toEqual([]);
  });
});

// outbound/index/http.rs route_accepted_by_resource_port compares the status's parentRef by name, kind, group and port,
// never namespace: an accepted parentRef to a namesake Service elsewhere lets the index file the route here too.
describe('LKD-ROUTE-012 and the status match that ignores namespaces', () => {
  const lab = () => {
    const other = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'orders', namespace: 'other' }, spec: { selector: { app: 'x' }, ports: [{ name: 'http', port: 8080, appProtocol: 'http' }] } };
    const both = route('HTTPRoute', 'orders-both', { parentRefs: [ordersParent({ port: 8080 }), ordersParent({ namespace: 'other', port: 8080 })] });
    const grpc = route('GRPCRoute', 'orders-grpc', { parentRefs: [ordersParent({ namespace: 'other', port: 8080 })] }, 'other');
    return [...meshLab(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } }, other, both, grpc];
  };
  test('a conflicted parentRef is made up for by an accepted one to the same name in another namespace', () => {
    expect(ruleFindings(lab(), 'LKD-ROUTE-012').filter((f) => f.resource.name === 'orders-both')).toEqual([]);
  });
  test('not by one the status controller refuses (a headless Service)', () => {
    const objects = lab();
    pick(objects, 'Service', 'orders').spec.clusterIP = 'None';
    expect(ruleFindings(objects, 'LKD-ROUTE-012').filter((f) => f.resource.name === 'orders-both').map((f) => f.message))
      .toEqual([expect.stringMatching(/^parentRefs\[1\] \(Service other\/orders, port 8080\) is identical to a parentRef of GRPCRoute other\/orders-grpc/)]);
  });
});
