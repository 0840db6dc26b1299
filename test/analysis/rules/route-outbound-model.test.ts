/**
 * The outbound model per Service port (protocol from appProtocol / opaque ports, the route kinds it serves, the default
 * route that exists only while no route is served) and the two rules that read it: baseline mesh-lab, one mutation each.
 */
import { analyze } from '../../../src/analysis/engine';
import { OutboundProtocol, outboundPolicy, servicePortProtocol } from '../../../src/analysis/model/outbound';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

const ids = (objects: any[], id: string) => analyze(asManifests(objects)).findings.filter((f) => f.ruleId === id);

function grpcRoute(name: string, matches?: any[]): any {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GRPCRoute',
    metadata: { name, namespace: 'mesh-lab' },
    spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'orders-v1', port: 8080 }], rules: [{ ...(matches ? { matches } : {}), backendRefs: [{ name: 'orders-v1', port: 8080 }] }] },
  };
}

describe('outbound model', () => {
  test('baseline: orders:8080 is detected HTTP, serves orders-split, and has no default route any more', () => {
    const result = analyze(asManifests(meshLab()));
    const orders = [...outboundPolicy(result.index, result.context).keys()].find((s) => s.id.name === 'orders')!;
    const view = outboundPolicy(result.index, result.context).get(orders)!.get(8080)!;
    expect(view.protocol.protocol).toBe(OutboundProtocol.DETECT);
    expect(view.served.map((r) => r.route.id.name)).toEqual(['orders-split']);
    expect(view.hasDefaultRoute).toBe(false);
    expect(result.findings.filter((f) => f.ruleId === 'LKD-ROUTE-025' || f.ruleId === 'LKD-ROUTE-026')).toEqual([]);
  });

  test.each([
    ['http', OutboundProtocol.HTTP1], ['HTTP', OutboundProtocol.HTTP1], ['kubernetes.io/h2c', OutboundProtocol.HTTP2],
    ['linkerd.io/opaque', OutboundProtocol.OPAQUE], ['linkerd.io/tcp', OutboundProtocol.OPAQUE], ['grpc', OutboundProtocol.UNKNOWN],
  ])('appProtocol %s is %s (AppProtocol::from_str)', (appProtocol, protocol) => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').spec.ports[0].appProtocol = appProtocol;
    const result = analyze(asManifests(objects));
    expect(servicePortProtocol(result.index, result.index.service('mesh-lab', 'orders')!, 8080, result.context).protocol).toBe(protocol);
  });

  test('opaque ports: the Service annotation, else the cluster default list; appProtocol wins over both', () => {
    const objects = meshLab();
    const svc = pick(objects, 'Service', 'orders');
    svc.metadata.annotations = { 'config.linkerd.io/opaque-ports': '8080' };
    let result = analyze(asManifests(objects));
    expect(servicePortProtocol(result.index, result.index.service('mesh-lab', 'orders')!, 8080, result.context).protocol).toBe(OutboundProtocol.OPAQUE);
    svc.spec.ports[0].appProtocol = 'http';
    result = analyze(asManifests(objects));
    expect(servicePortProtocol(result.index, result.index.service('mesh-lab', 'orders')!, 8080, result.context).protocol).toBe(OutboundProtocol.HTTP1);
    delete svc.metadata.annotations;
    delete svc.spec.ports[0].appProtocol;
    result = analyze(asManifests(objects), { defaultOpaquePorts: '8080' });
    expect(servicePortProtocol(result.index, result.index.service('mesh-lab', 'orders')!, 8080, result.context).protocol).toBe(OutboundProtocol.OPAQUE);
  });
});

describe('outbound opaque ports as the policy controller reads a Service\'s (outbound/index.rs, parse_portset)', () => {
  function protocolOf(serviceAnnotation: string | undefined, namespaceAnnotation?: string, contextInput = {}): OutboundProtocol {
    const objects = meshLab();
    if (serviceAnnotation !== undefined) pick(objects, 'Service', 'orders').metadata.annotations = { 'config.linkerd.io/opaque-ports': serviceAnnotation };
    if (namespaceAnnotation !== undefined) pick(objects, 'Namespace', 'mesh-lab').metadata.annotations['config.linkerd.io/opaque-ports'] = namespaceAnnotation;
    const result = analyze(asManifests(objects), contextInput);
    return servicePortProtocol(result.index, result.index.service('mesh-lab', 'orders')!, 8080, result.context).protocol;
  }

  test('the namespace\'s list, which the injector copies onto the Service', () => {
    expect(protocolOf(undefined, '8080')).toBe(OutboundProtocol.OPAQUE);
    expect(protocolOf('9090', '8080')).toBe(OutboundProtocol.DETECT);
  });

  test('a namespace the injector\'s webhook skips passes nothing on: the Service falls back to the cluster default', () => {
    const objects = meshLab();
    const ns = pick(objects, 'Namespace', 'mesh-lab');
    ns.metadata.annotations['config.linkerd.io/opaque-ports'] = '8080';
    ns.metadata.labels = { ...ns.metadata.labels, 'config.linkerd.io/admission-webhooks': 'disabled' };
    const result = analyze(asManifests(objects));
    expect(servicePortProtocol(result.index, result.index.service('mesh-lab', 'orders')!, 8080, result.context).protocol).toBe(OutboundProtocol.DETECT);
  });

  test('ranges with spaces are read; a port name discards the whole list, and the cluster default with it', () => {
    expect(protocolOf('8079 - 8081')).toBe(OutboundProtocol.OPAQUE);
    expect(protocolOf('8080,http')).toBe(OutboundProtocol.DETECT);
    expect(protocolOf('http', undefined, { defaultOpaquePorts: '8080' })).toBe(OutboundProtocol.DETECT);
    expect(protocolOf(undefined, undefined, { defaultOpaquePorts: '8000-9000' })).toBe(OutboundProtocol.OPAQUE);
  });
});

describe('LKD-ROUTE-026 a route kind the port\'s protocol never serves', () => {
  // grpc/src/inbound.rs to_server: a gRPC Server gets GRPCRoutes, an HTTP one HTTPRoutes, an opaque one none.
  test('a route of a kind its parent Server\'s proxyProtocol does not serve is ignored, with its authorizations', () => {
    const serverRoute = (kind: string, name: string) => ({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind,
      metadata: { name, namespace: 'mesh-lab' },
      spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }], rules: [{}] },
    });
    const withProtocol = (protocol: string | undefined, ...routes: any[]) => {
      const objects = [...meshLab(), ...routes];
      const server = pick(objects, 'Server', 'orders-http');
      if (protocol) server.spec.proxyProtocol = protocol; else delete server.spec.proxyProtocol;
      return ids(objects, 'LKD-ROUTE-026').map((f) => `${f.resource.name}: ${f.message}`);
    };
    expect(withProtocol('HTTP/2', serverRoute('GRPCRoute', 'orders-rpc'))).toEqual([
      expect.stringMatching(/^orders-rpc: GRPCRoute orders-rpc attaches to Server mesh-lab\/orders-http, whose proxyProtocol HTTP\/2 serves HTTPRoutes only: .*set the Server's proxyProtocol to gRPC\.$/),
    ]);
    expect(withProtocol('gRPC', serverRoute('HTTPRoute', 'orders-web'))).toEqual([expect.stringMatching(/^orders-web: .*proxyProtocol gRPC serves GRPCRoutes only/)]);
    expect(withProtocol('opaque', serverRoute('HTTPRoute', 'orders-web'))).toEqual([expect.stringMatching(/serves no route at all/)]);
    expect(withProtocol(undefined, serverRoute('HTTPRoute', 'orders-web'))).toEqual([]);
    expect(withProtocol('gRPC', serverRoute('GRPCRoute', 'orders-rpc'))).toEqual([]);
  });

  test('an HTTPRoute on an opaque port (the Service\'s opaque-ports) is ignored: error', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').metadata.annotations = { 'config.linkerd.io/opaque-ports': '8080' };
    const [f, ...rest] = ids(objects, 'LKD-ROUTE-026');
    expect(rest).toEqual([]);
    expect([f.severity, f.resource.name]).toEqual(['error', 'orders-split']);
    expect(f.message).toMatch(/treats as opaque \(the Service's config.linkerd.io\/opaque-ports\); its client proxies use only TCPRoute/);
  });

  test('a GRPCRoute on an appProtocol "http" port is ignored; "grpc" is unknown to Linkerd and served as opaque', () => {
    for (const [appProtocol, pattern] of [['http', /HTTP\/1 .* only HTTPRoute/], ['grpc', /unknown \(appProtocol "grpc"\).*only TCPRoute/]] as const) {
      const objects = [...meshLab(), grpcRoute('orders-grpc')];
      pick(objects, 'Service', 'orders-v1').spec.ports[0].appProtocol = appProtocol;
      expect(ids(objects, 'LKD-ROUTE-026').map((f) => f.message)).toEqual([expect.stringMatching(pattern)]);
    }
  });

  // Gateway API's GAMMA conformance (conformance/mesh/manifests.yaml, tests/mesh-split.yaml): a Service with http and
  // grpc ports, an HTTPRoute naming the Service without a port. Linkerd uses it on the http ports and passes the test.
  test('a portless parentRef: an unserved port is reported only when no port of the Service serves the route', () => {
    const objects = meshLab();
    const orders = pick(objects, 'Service', 'orders');
    orders.spec.ports.push({ name: 'grpc', port: 7070, appProtocol: 'grpc' });
    const split = pick(objects, 'HTTPRoute', 'orders-split');
    delete split.spec.parentRefs[0].port;
    expect(ids(objects, 'LKD-ROUTE-026')).toEqual([]);
    split.spec.parentRefs.push({ ...split.spec.parentRefs[0], port: 7070 });
    expect(ids(objects, 'LKD-ROUTE-026').map((f) => f.message)).toEqual([expect.stringMatching(/port 7070, which Linkerd treats as unknown/)]);
    split.spec.parentRefs.pop();
    orders.spec.ports = [orders.spec.ports[1]];
    expect(ids(objects, 'LKD-ROUTE-026').map((f) => f.message)).toEqual([expect.stringMatching(/port 7070, .* so this route is ignored/)]);
  });

  test('a GRPCRoute on kubernetes.io/h2c or a detected port is served: no finding', () => {
    const objects = [...meshLab(), grpcRoute('orders-grpc')];
    expect(ids(objects, 'LKD-ROUTE-026')).toEqual([]);
    pick(objects, 'Service', 'orders-v1').spec.ports[0].appProtocol = 'kubernetes.io/h2c';
    expect(ids(objects, 'LKD-ROUTE-026')).toEqual([]);
  });
});

describe('LKD-ROUTE-025 requests outside every match get 404', () => {
  test('a split route that matches only GET /orders leaves the rest without a route: warning on the route', () => {
    const objects = meshLab();
    pick(objects, 'HTTPRoute', 'orders-split').spec.rules[0].matches = [{ path: { type: 'PathPrefix', value: '/orders' }, method: 'GET' }];
    const [f, ...rest] = ids(objects, 'LKD-ROUTE-025');
    expect(rest).toEqual([]);
    expect([f.severity, f.resource.name]).toEqual(['warning', 'orders-split']);
    expect(f.message).toMatch(/no route served on Service mesh-lab\/orders port 8080 matches the rest for every client; .* gets 404/);
  });

  test('a catch-all path regex (/.*) matches every request, as PathPrefix / does: no finding', () => {
    const objects = meshLab();
    pick(objects, 'HTTPRoute', 'orders-split').spec.rules[0].matches = [{ path: { type: 'RegularExpression', value: '/.*' } }];
    expect(ids(objects, 'LKD-ROUTE-025')).toEqual([]);
    pick(objects, 'HTTPRoute', 'orders-split').spec.rules[0].matches = [{ path: { type: 'RegularExpression', value: '/orders.*' } }];
    expect(ids(objects, 'LKD-ROUTE-025')).toHaveLength(1);
  });

  test('a second route with a match-all rule covers the rest: no finding', () => {
    const objects = meshLab();
    const split = pick(objects, 'HTTPRoute', 'orders-split');
    split.spec.rules[0].matches = [{ path: { type: 'PathPrefix', value: '/orders' }, method: 'GET' }];
    objects.push({ ...JSON.parse(JSON.stringify(split)), metadata: { name: 'orders-rest', namespace: 'mesh-lab' }, spec: { ...split.spec, rules: [{ backendRefs: [{ name: 'orders-v1', port: 8080 }] }] } });
    expect(ids(objects, 'LKD-ROUTE-025')).toEqual([]);
  });

  test('a consumer route in another namespace adds to the producer\'s for its clients only', () => {
    const objects = meshLab();
    const split = pick(objects, 'HTTPRoute', 'orders-split');
    objects.push({
      ...JSON.parse(JSON.stringify(split)),
      metadata: { name: 'shop-reads', namespace: 'shop' },
      spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', namespace: 'mesh-lab', port: 8080 }], rules: [{ matches: [{ method: 'GET' }], backendRefs: [{ name: 'orders-v1', namespace: 'mesh-lab', port: 8080 }] }] },
    });
    // The producer's orders-split still matches everything for clients in shop.
    expect(ids(objects, 'LKD-ROUTE-025')).toEqual([]);
    split.spec.rules[0].matches = [{ path: { type: 'Exact', value: '/x' } }];
    expect(ids(objects, 'LKD-ROUTE-025').map((f) => f.message.match(/for ([^;]*);/)![1]).sort()).toEqual(['clients in namespace shop', 'clients in namespace shop', 'every client']);
    // Each consumer namespace is served the producer's routes and its own, never another namespace's.
    const shopReads = objects[objects.length - 1];
    objects.push({ ...JSON.parse(JSON.stringify(shopReads)), metadata: { name: 'web-reads', namespace: 'web' } });
    expect(ids(objects, 'LKD-ROUTE-025').map((f) => `${f.resource.name} for ${f.message.match(/for ([^;]*);/)![1]}`).sort()).toEqual([
      'orders-split for clients in namespace shop', 'orders-split for clients in namespace web', 'orders-split for every client',
      'shop-reads for clients in namespace shop', 'web-reads for clients in namespace web',
    ]);
  });
});

describe('routes Linkerd does not serve', () => {
  const gatewayOnly = (filters: any[]) => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'ingress', namespace: 'mesh-lab' },
    spec: { parentRefs: [{ name: 'public-gw' }], rules: [{ filters, backendRefs: [{ name: 'orders', port: 8080 }] }] },
  });

  test('a route whose only parent is another implementation\'s Gateway gets neither LKD-ROUTE-011 nor LKD-ROUTE-002', () => {
    const objects = [...meshLab(), gatewayOnly([{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } }])];
    expect(ids(objects, 'LKD-ROUTE-011')).toEqual([]);
    expect(ids(objects, 'LKD-ROUTE-002')).toEqual([]);
  });

  test('the same filter on a route with a Service parent is LKD-ROUTE-011 (Linkerd skips the whole route)', () => {
    const objects = meshLab();
    pick(objects, 'HTTPRoute', 'orders-split').spec.rules[0].filters = [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } }];
    expect(ids(objects, 'LKD-ROUTE-011').map((f) => f.resource.name)).toEqual(['orders-split']);
  });
});
