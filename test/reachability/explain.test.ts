/** explain on mesh-lab: the resolved inbound policy of orders-v1:8080 and the verdict of each known caller. */
import { findObject, manifests, meshLabObjects } from './mesh-lab-fixture';
import { MeshReachability } from '../../src';
import { explainPort, findPort, findServicePort, formatPortExplanation, formatServiceExplanation, meshModel } from '../../src/analysis/reachability';

describe('explain a workload port', () => {
  const objects = meshLabObjects({ negative: true });

  test('the policy of orders-v1:8080 and who may call it', () => {
    const result = MeshReachability.explain(objects, 'mesh-lab/orders-v1:8080');
    expect(result).toMatchObject({
      target: 'mesh-lab/orders-v1:8080',
      workload: 'Deployment mesh-lab/orders-v1',
      meshed: true,
      protocol: 'HTTP/1',
      server: 'Server mesh-lab/orders-http',
      accessPolicy: 'deny',
      defaultPolicy: 'all-unauthenticated',
      routes: ['default', 'probe GET /health'],
      authorizations: ['AuthorizationPolicy mesh-lab/client-to-orders'],
      probes: ['GET /health'],
    });
    const verdicts = Object.fromEntries(result.verdicts.map((v) => [`${v.source} ${v.request}`, v.allowed]));
    expect(verdicts).toEqual({
      'mesh-lab/client *': true,
      'mesh-lab/default *': false,
      'mesh-lab/orders *': false,
      'other-meshed *': false,
      'unauthenticated *': false,
      'external *': false,
      'kubelet *': false,
      // The generated probe route admits GET /health from the probe networks whoever sends it (not the kubelet alone).
      ...Object.fromEntries(['mesh-lab/client', 'mesh-lab/default', 'mesh-lab/orders', 'other-meshed', 'unauthenticated', 'external', 'kubelet']
        .map((caller) => [`${caller} probe GET /health`, true])),
    });
    const client = result.verdicts.find((v) => v.source === 'mesh-lab/client')!;
    expect(client.deciders).toEqual(['AuthorizationPolicy mesh-lab/client-to-orders', 'MeshTLSAuthentication mesh-lab/client-sa']);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  // inbound/index.rs probe routes: unauthenticated from policyController.probeNetworks; the kubelet probes from its node.
  test('narrowed probe networks make the kubelet\'s probe verdict uncertain, not a denial', () => {
    const model = meshModel(manifests(objects), { probeNetworks: ['10.0.0.0/8'] });
    const port = findPort(model, 'mesh-lab/orders-v1:8080');
    if (typeof port === 'string') throw new Error(port);
    const result = explainPort(model, port, { from: 'kubelet' });
    if (typeof result === 'string') throw new Error(result);
    const probe = result.verdicts.find((v) => v.request === 'probe GET /health')!;
    expect(probe).toMatchObject({ allowed: false, uncertain: true });
    expect(probe.because).toMatch(/depends on its address \(the kubelet's is its node's\)/);
    expect(formatPortExplanation(result, true)).toMatch(/UNSURE kubelet \[probe GET \/health\]/);
    expect(formatPortExplanation(result)).toMatch(/\n {4}kubelet \| DENY {14}\| UNSURE\n/);
    const everywhere = explainPort(meshModel(manifests(objects)), port, { from: 'kubelet' });
    if (typeof everywhere === 'string') throw new Error(everywhere);
    expect(everywhere.verdicts.find((v) => v.request === 'probe GET /health')).toMatchObject({ allowed: true });
    const api = MeshReachability.explain(objects, 'mesh-lab/orders-v1:8080', { caller: 'kubelet', probeNetworks: ['10.0.0.0/8'] });
    expect(api.verdicts.find((v) => v.request === 'probe GET /health')).toMatchObject({ allowed: false, uncertain: true });
  });

  // core/src/identity_match.rs IdentityMatch::from_str: in "*.*.x" the second "*" is a literal label, which names nobody.
  test('a "*.*.serviceaccount..." identity admits no one, not even the other meshed identities', () => {
    const wild = meshLabObjects({ negative: true });
    findObject(wild, 'MeshTLSAuthentication', 'client-sa').spec = { identities: ['*.*.serviceaccount.identity.linkerd.cluster.local'] };
    const verdicts = MeshReachability.explain(wild, 'mesh-lab/orders-v1:8080').verdicts;
    expect(verdicts.find((v) => v.source === 'other-meshed')!.allowed).toBe(false);
    expect(verdicts.find((v) => v.source === 'mesh-lab/client')!.allowed).toBe(false);
    findObject(wild, 'MeshTLSAuthentication', 'client-sa').spec = { identities: ['*.serviceaccount.identity.linkerd.cluster.local'] };
    expect(MeshReachability.explain(wild, 'mesh-lab/orders-v1:8080').verdicts.find((v) => v.source === 'other-meshed')!.allowed).toBe(true);
  });

  test('--from and --method/--path narrow to one caller and one request class', () => {
    const result = MeshReachability.explain(objects, 'mesh-lab/orders-v2:http', { caller: 'kubelet', method: 'GET', path: '/health' });
    expect(result.verdicts.map((v) => [v.source, v.request, v.allowed])).toEqual([['kubelet', 'probe GET /health', true]]);
    const denied = MeshReachability.explain(objects, 'mesh-lab/orders-v2:8080', { caller: 'mesh-lab/default', path: '/x' });
    expect(denied.verdicts.map((v) => [v.source, v.allowed])).toEqual([['mesh-lab/default', false]]);
  });

  test('a Server with a route: verdicts per route, and requests no route matches are refused', () => {
    const routed = meshLabObjects();
    routed.push({
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'HTTPRoute',
      metadata: { name: 'orders-api', namespace: 'mesh-lab' },
      spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }], rules: [{ matches: [{ path: { value: '/api' } }] }] },
    });
    const model = meshModel(manifests(routed));
    const port = findPort(model, 'mesh-lab/orders-v1:8080');
    if (typeof port === 'string') throw new Error(port);
    expect(port.routes.map((r) => [r.name, r.matches])).toEqual([['HTTPRoute orders-api', ['/api (PathPrefix)']]]);
    const e = explainPort(model, port, { from: 'mesh-lab/client', path: '/other' });
    if (typeof e === 'string') throw new Error(e);
    expect(e.verdicts.map((v) => [v.request, v.allowed])).toEqual([['(no route)', false]]);
    expect(formatPortExplanation(e, true)).toContain('DENY   mesh-lab/client [(no route)]');
  });

  test('bad targets are clear errors', () => {
    expect(() => MeshReachability.explain(objects, 'orders:8080')).toThrow(/is not NAMESPACE\/WORKLOAD:PORT/);
    expect(() => MeshReachability.explain(objects, 'mesh-lab/orders-v1:9090')).toThrow(/declares no port 9090 \(it declares 8080\)/);
    expect(() => MeshReachability.explain(objects, 'mesh-lab/orders-v1:8080', { caller: 'Bad Caller' })).toThrow(/caller \(--from\) must be/);
  });
});

describe('explain a Service port', () => {
  // grpc/src/outbound/http.rs base_http_routes: no default route once a route is served.
  test('a Service port whose routes all have matches says what the other requests get', () => {
    const objects = meshLabObjects();
    findObject(objects, 'HTTPRoute', 'orders-split').spec.rules[0].matches = [{ path: { type: 'PathPrefix', value: '/api' } }];
    const view = findServicePort(meshModel(manifests(objects)), 'mesh-lab/orders:8080');
    if (typeof view === 'string') throw new Error(view);
    expect(view.unmatched).toMatch(/^get HTTP 404 .*Linkerd drops the default route/);
    expect(formatServiceExplanation(view)).toMatch(/requests no rule matches: get HTTP 404/);
    const catchAll = findServicePort(meshModel(manifests(meshLabObjects())), 'mesh-lab/orders:8080');
    if (typeof catchAll === 'string') throw new Error(catchAll);
    expect(catchAll.unmatched).toBeUndefined();
  });
  // outbound/index.rs: without the Service's annotation, the injector's list (namespace, else the cluster defaults) applies.
  test('an opaque Service port names whose opaque-ports list makes it opaque', () => {
    const objects = meshLabObjects();
    findObject(objects, 'Service', 'orders').spec.ports.push({ name: 'mysql', port: 3306 });
    const byDefault = findServicePort(meshModel(manifests(objects)), 'mesh-lab/orders:3306');
    if (typeof byDefault === 'string') throw new Error(byDefault);
    expect(byDefault.protocol).toMatch(/^opaque \(config\.linkerd\.io\/opaque-ports as the injector sets it \(the namespace's, else the defaults/);
    findObject(objects, 'Service', 'orders').metadata.annotations = { 'config.linkerd.io/opaque-ports': '3306' };
    const own = findServicePort(meshModel(manifests(objects)), 'mesh-lab/orders:3306');
    if (typeof own === 'string') throw new Error(own);
    expect(own.protocol).toBe('opaque (the Service\'s config.linkerd.io/opaque-ports)');
  });

  test('orders:8080: protocol, the split with its shares, the endpoints', () => {
    const objects = meshLabObjects();
    findObject(objects, 'HTTPRoute', 'orders-split').metadata.annotations = { 'retry.linkerd.io/http': '5xx', 'timeout.linkerd.io/request': '2s' };
    const service = findServicePort(meshModel(manifests(objects)), 'mesh-lab/orders:8080');
    if (typeof service === 'string') throw new Error(service);
    expect(service.protocol).toBe('detected (no appProtocol; the endpoints\' Server: HTTP/1)');
    expect(service.endpoints).toEqual(['mesh-lab/orders-v1:8080', 'mesh-lab/orders-v2:8080']);
    expect(service.defaultRoute).toBeUndefined();
    expect(service.routes).toEqual([{
      id: expect.objectContaining({ kind: 'HTTPRoute', name: 'orders-split' }),
      name: 'HTTPRoute orders-split',
      rules: [{
        index: 0,
        matches: [],
        timeouts: {},
        backends: [
          { name: 'mesh-lab/orders-v1:8080', kind: 'Service', weight: 90, percent: 90 },
          { name: 'mesh-lab/orders-v2:8080', kind: 'Service', weight: 10, percent: 10 },
        ],
      }],
      retries: { 'retry.linkerd.io/http': '5xx' },
      timeouts: { 'timeout.linkerd.io/request': '2s' },
    }]);
    const v1 = findServicePort(meshModel(manifests(objects)), 'mesh-lab/orders-v1:8080');
    expect(typeof v1 !== 'string' && v1.defaultRoute).toMatch(/every request goes to the endpoints of Service mesh-lab\/orders-v1/);
  });
  // explain reads the outbound model (grpc/src/outbound.rs to_proto, outbound/index.rs), not its own attachment rule.
  describe('routes as the client proxy is served them', () => {
    function servicePort(objects: any[], target: string) {
      const view = findServicePort(meshModel(manifests(objects)), target);
      if (typeof view === 'string') throw new Error(view);
      return view;
    }
    function grpcRouteOn(objects: any[], namespace = 'mesh-lab', portless = false): any {
      const http = findObject(objects, 'HTTPRoute', 'orders-split');
      const parentRefs = portless ? http.spec.parentRefs.map(({ port, ...ref }: any) => ref) : http.spec.parentRefs;
      return {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'GRPCRoute',
        metadata: { name: 'orders-grpc', namespace },
        spec: { parentRefs, rules: [{ backendRefs: [{ name: 'orders-v1', namespace: 'mesh-lab', port: 8080 }] }] },
      };
    }

    test('a GRPCRoute on an HTTP/1 port (appProtocol: http) is not served: the HTTPRoute is, and the GRPCRoute says why', () => {
      const objects = meshLabObjects();
      findObject(objects, 'Service', 'orders').spec.ports[0].appProtocol = 'http';
      objects.push(grpcRouteOn(objects, 'mesh-lab', true));
      const view = servicePort(objects, 'mesh-lab/orders:8080');
      expect(view.routes.map((r) => r.name)).toEqual(['HTTPRoute orders-split']);
      expect(view.unusedRoutes).toEqual([expect.objectContaining({ name: 'GRPCRoute orders-grpc', reason: expect.stringMatching(/serves no GRPCRoute/) })]);
      expect(formatServiceExplanation(view)).toMatch(/not served to every client: GRPCRoute orders-grpc: the port's protocol/);
    });

    test('a GRPCRoute beside an HTTPRoute on a detected port is served; the HTTPRoute is unused, conflicted or not', () => {
      const objects = meshLabObjects();
      objects.push(grpcRouteOn(objects, 'mesh-lab', true));
      const view = servicePort(objects, 'mesh-lab/orders:8080');
      expect(view.routes.map((r) => r.name)).toEqual(['GRPCRoute orders-grpc']);
      expect(view.unusedRoutes?.map((u) => [u.name, u.reason])).toEqual([['HTTPRoute orders-split', 'a GRPCRoute is served on this port first: unused']]);
      // The same parentRef: the policy controller conflicts the HTTPRoute's status (parent_has_conflicting_routes).
      objects[objects.length - 1] = grpcRouteOn(objects);
      const conflicted = servicePort(objects, 'mesh-lab/orders:8080');
      expect(conflicted.routes.map((r) => r.name)).toEqual(['GRPCRoute orders-grpc']);
      expect(conflicted.unusedRoutes?.[0].reason).toMatch(/^its status is conflicted by GRPCRoute mesh-lab\/orders-grpc/);
    });

    test('a consumer route in another namespace leaves every other client the default route', () => {
      const objects = meshLabObjects();
      objects.splice(objects.indexOf(findObject(objects, 'HTTPRoute', 'orders-split')), 1);
      objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, grpcRouteOn(objects.concat([{
        kind: 'HTTPRoute', metadata: { name: 'orders-split' }, spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', namespace: 'mesh-lab', port: 8080 }] },
      }]), 'shop'));
      const view = servicePort(objects, 'mesh-lab/orders:8080');
      expect(view.routes).toEqual([]);
      expect(view.defaultRoute).toMatch(/every request goes to the endpoints/);
      expect(view.unmatched).toBeUndefined();
      expect(view.unusedRoutes?.map((u) => u.reason)).toEqual(['a consumer route: only clients in namespace shop use it']);
    });
  });
});

describe('declared calls in the model', () => {
  // A Service in a namespace the input writes does not exist; one elsewhere may come from another tool.
  test('a call to a missing Service of a seen namespace does not exist; one in an unseen namespace is only not in this analysis', () => {
    const objects = meshLabObjects();
    const client = findObject(objects, 'Deployment', 'client');
    client.metadata.annotations = { ...client.metadata.annotations, 'analysis.cdk8s-linkerd.io/calls': 'ghost:8080,payments.billing:8080' };
    const problems = Object.fromEntries(meshModel(manifests(objects)).declaredCalls.map((c) => [c.service, c.problem]));
    expect(problems['mesh-lab/ghost:8080']).toBe('Service mesh-lab/ghost does not exist');
    expect(problems['billing/payments:8080']).toMatch(/^Service billing\/payments is not in this analysis \(namespace billing is not part of this analysis/);
  });
});
