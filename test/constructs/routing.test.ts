import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  GrpcRetryCode, GrpcRoute, HttpMethod, HttpRoute, PathMatch, RetryStatus, RouteBackend, ServiceReference, TrafficSplit,
} from '../../src';
import { find, labChart, synth, synthChecked } from '../support/synth';

function services(chart: any) {
  const make = (name: string) => new kplus.Service(chart, `Svc-${name}`, { metadata: { name }, ports: [{ name: 'http', port: 8080 }] });
  return { orders: make('orders'), v1: make('orders-v1'), v2: make('orders-v2') };
}

describe('HttpRoute', () => {
  test('always writes group core, kind Service and the port on the parent', () => {
    const chart = labChart();
    const s = services(chart);
    new HttpRoute(chart, 'R', {
      name: 'r',
      service: ServiceReference.fromService(s.orders),
      port: 8080,
      rules: [{ backends: [RouteBackend.service(ServiceReference.fromService(s.v1), { port: 8080 })] }],
    });
    const route = find(synth(chart), 'HTTPRoute', 'r');
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.spec.parentRefs).toEqual([{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }]);
    expect(route.spec.rules[0].backendRefs).toEqual([{ name: 'orders-v1', port: 8080 }]);
  });

  // Linkerd's outbound index resolves a backendRef without a namespace in the parent's namespace
  // (policy-controller/k8s/index/src/outbound/index.rs: the route is converted with the parent's Namespace).
  test('on a consumer route, a backend is written with its namespace, so Linkerd does not look it up beside the parent', () => {
    const chart = labChart();
    const s = services(chart);
    new HttpRoute(chart, 'C', {
      name: 'c',
      namespace: 'client-ns',
      service: ServiceReference.fromName('orders', 'mesh-lab'),
      port: 8080,
      rules: [{
        backends: [
          RouteBackend.service(ServiceReference.fromName('orders-canary'), { port: 8080 }),
          RouteBackend.service(ServiceReference.fromService(s.v2), { port: 8080 }),
        ],
      }],
    });
    const route = find(synth(chart), 'HTTPRoute', 'c');
    expect(route.metadata.namespace).toBe('client-ns');
    expect(route.spec.parentRefs).toEqual([{ group: 'core', kind: 'Service', name: 'orders', namespace: 'mesh-lab', port: 8080 }]);
    expect(route.spec.rules[0].backendRefs).toEqual([
      { name: 'orders-canary', namespace: 'client-ns', port: 8080 },
      { name: 'orders-v2', namespace: 'mesh-lab', port: 8080 },
    ]);
  });

  test('renders matches, rule timeouts and retry/timeout annotations in Linkerd\'s formats', () => {
    const chart = labChart();
    const s = services(chart);
    const route = new HttpRoute(chart, 'R', {
      name: 'r',
      service: ServiceReference.fromService(s.orders),
      port: 8080,
      retry: { statuses: [RetryStatus.SERVER_ERRORS, RetryStatus.code(429), RetryStatus.range(500, 504)], limit: 2, timeout: Duration.millis(300) },
      timeouts: { request: Duration.seconds(90), idle: Duration.minutes(2) },
    });
    route.addRule({
      matches: [{ path: PathMatch.prefix('/api'), method: HttpMethod.GET, headers: [{ name: 'x-canary', value: 'yes' }] }],
      backends: [RouteBackend.service(ServiceReference.fromService(s.v2), { port: 8080 })],
      requestTimeout: Duration.seconds(90),
    });
    const out = find(synth(chart), 'HTTPRoute', 'r');
    expect(out.metadata.annotations).toEqual({
      'retry.linkerd.io/http': '5xx,429,500-504',
      'retry.linkerd.io/limit': '2',
      'retry.linkerd.io/timeout': '300ms',
      'timeout.linkerd.io/request': '90s',
      'timeout.linkerd.io/idle': '2m',
    });
    expect(out.spec.rules[0]).toEqual({
      matches: [{ path: { type: 'PathPrefix', value: '/api' }, method: 'GET', headers: [{ name: 'x-canary', value: 'yes', type: 'Exact' }] }],
      backendRefs: [{ name: 'orders-v2', port: 8080 }],
      timeouts: { request: '90s' },
    });
  });

  // Linkerd reads timeout.linkerd.io/request before rules[].timeouts.request (outbound/index/http.rs convert_gateway_rule).
  test('a rule request timeout that the route\'s own would hide is refused (LKD-ROUTE-018)', () => {
    const chart = labChart();
    const s = services(chart);
    const route = new HttpRoute(chart, 'R', { name: 'r', service: ServiceReference.fromService(s.orders), port: 8080, timeouts: { request: Duration.seconds(10) } });
    expect(() => route.addRule({ requestTimeout: Duration.seconds(5) }))
      .toThrow(/\[lab\/R\] LKD-ROUTE-018: rules\[0\] sets requestTimeout, but the route's timeouts.request writes timeout.linkerd.io\/request/);
    expect(() => route.addRule({ requestTimeout: Duration.seconds(10) })).not.toThrow();
  });

  test('durations that Linkerd cannot read in one unit are refused', () => {
    const chart = labChart();
    const s = services(chart);
    const route = new HttpRoute(chart, 'R', { name: 'r', service: ServiceReference.fromService(s.orders), port: 8080 });
    expect(() => route.addRule({ requestTimeout: Duration.millis(100_000_001) })).toThrow(/\[lab\/R\] LKD-ROUTE-014: .*single Gateway API duration unit|one Gateway API duration unit/);
    expect(() => route.addRule({ requestTimeout: Duration.millis(1.5) })).toThrow(/LKD-INPUT-005/);
    expect(() => new HttpRoute(labChart(), 'R2', { name: 'r2', service: ServiceReference.fromName('x'), port: 80, timeouts: { request: Duration.millis(0.5) } }))
      .toThrow(/LKD-INPUT-005/);
  });

  test('refuses ports the Service does not expose (parent and backend)', () => {
    const chart = labChart();
    const s = services(chart);
    expect(() => new HttpRoute(chart, 'R', { name: 'r', service: ServiceReference.fromService(s.orders), port: 9090 })).toThrow(/LKD-ROUTE-004.*no port 9090/);
    const route = new HttpRoute(chart, 'R2', { name: 'r2', service: ServiceReference.fromService(s.orders), port: 8080 });
    expect(() => route.addRule({ backends: [RouteBackend.service(ServiceReference.fromService(s.v1), { port: 80 })] })).toThrow(/LKD-ROUTE-007.*port 80/);
  });

  test('refuses all-zero, out-of-range and duplicate backends', () => {
    const chart = labChart();
    const s = services(chart);
    const route = new HttpRoute(chart, 'R', { name: 'r', service: ServiceReference.fromService(s.orders), port: 8080 });
    const v1 = ServiceReference.fromService(s.v1);
    const v2 = ServiceReference.fromService(s.v2);
    const zero = (service: ServiceReference) => RouteBackend.service(service, { port: 8080, weight: 0 });
    expect(() => route.addRule({ backends: [zero(v1), zero(v2)] }))
      .toThrow(/LKD-ROUTE-009.*weight 0/);
    expect(() => route.addRule({ backends: [RouteBackend.service(v1, { port: 8080, weight: 1_000_001 })] })).toThrow(/LKD-ROUTE-009.*1000001/);
    expect(() => route.addRule({ backends: [RouteBackend.service(v1, { port: 8080 }), RouteBackend.service(v1, { port: 8080 })] })).toThrow(/LKD-ROUTE-010/);
  });

  test('refuses paths and headers Gateway API v1.2.1 rejects', () => {
    const chart = labChart();
    const route = new HttpRoute(chart, 'R', { name: 'r', service: ServiceReference.fromName('orders'), port: 8080 });
    for (const path of ['api', '/a//b', '/a/./b', '/a#b', '/a/..', '/a b', '/a%2Fb']) {
      expect(() => route.addRule({ matches: [{ path: PathMatch.exact(path) }] })).toThrow(/LKD-INPUT-006/);
    }
    expect(() => route.addRule({ matches: [{ headers: [{ name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }] }] })).toThrow(/twice/);
    expect(() => route.addRule({ matches: [{ headers: [{ name: ':authority', value: 'x' }] }] })).toThrow(/not an HTTP token/);
    expect(() => route.addRule({ matches: [{ path: PathMatch.regex('^/a.*$') }] })).not.toThrow();
  });

  test('refuses retry statuses outside 100..599 and a zero limit', () => {
    const mk = (retry: any) => new HttpRoute(labChart(), 'R', { name: 'r', service: ServiceReference.fromName('orders'), port: 8080, retry });
    expect(() => mk({ statuses: [RetryStatus.code(600)] })).toThrow(/LKD-RETRY-002/);
    expect(() => mk({ statuses: [RetryStatus.range(504, 500)] })).toThrow(/LKD-RETRY-002/);
    expect(() => mk({ statuses: [RetryStatus.GATEWAY_ERRORS], limit: 0 })).toThrow(/LKD-RETRY-002.*limit/);
    expect(() => mk({ statuses: [] })).toThrow(/LKD-INPUT-003/);
  });

  test('a route without rules fails synth', () => {
    const chart = labChart();
    new HttpRoute(chart, 'R', { name: 'r', service: ServiceReference.fromName('orders'), port: 8080 });
    expect(() => synthChecked(chart)).toThrow(/LKD-INPUT-003: HTTPRoute r has no rules/);
  });

  test('at most 16 rules', () => {
    const route = new HttpRoute(labChart(), 'R', { name: 'r', service: ServiceReference.fromName('orders'), port: 8080 });
    for (let i = 0; i < 16; i++) route.addRule({});
    expect(() => route.addRule({})).toThrow(/at most 16 rules/);
  });
});

describe('GrpcRoute', () => {
  test('renders method matches and gRPC retries', () => {
    const chart = labChart();
    new GrpcRoute(chart, 'G', {
      name: 'g',
      service: ServiceReference.fromName('orders'),
      port: 9090,
      retry: { codes: [GrpcRetryCode.UNAVAILABLE, GrpcRetryCode.UNAVAILABLE, GrpcRetryCode.INTERNAL] },
      rules: [{ matches: [{ service: 'orders.v1.OrderService', method: 'GetOrder' }], backends: [RouteBackend.service(ServiceReference.fromName('orders-v1'), { port: 9090 })] }],
    });
    const out = find(synth(chart), 'GRPCRoute', 'g');
    expect(out.metadata.annotations).toEqual({ 'retry.linkerd.io/grpc': 'unavailable,internal' });
    expect(out.spec.rules[0].matches).toEqual([{ method: { type: 'Exact', service: 'orders.v1.OrderService', method: 'GetOrder' } }]);
    expect(out.spec.parentRefs[0]).toEqual({ group: 'core', kind: 'Service', name: 'orders', port: 9090 });
  });

  test('refuses names the GRPCRoute CEL rules reject', () => {
    const route = new GrpcRoute(labChart(), 'G', { name: 'g', service: ServiceReference.fromName('orders'), port: 9090 });
    expect(() => route.addRule({ matches: [{ method: 'Place-Order' }] })).toThrow(/LKD-INPUT-006.*Place-Order/);
    expect(() => route.addRule({ matches: [{ service: 'orders..v1' }] })).toThrow(/LKD-INPUT-006/);
    expect(() => route.addRule({ matches: Array(9).fill({ method: 'A' }) })).toThrow(/allows 8/);
  });
});

describe('TrafficSplit', () => {
  test('90/10 becomes one rule with weighted backends on the stable Service', () => {
    const chart = labChart();
    const s = services(chart);
    new TrafficSplit(chart, 'Split', {
      name: 'orders-split',
      service: ServiceReference.fromService(s.orders),
      port: 8080,
      backends: [{ service: ServiceReference.fromService(s.v1), percent: 90 }, { service: ServiceReference.fromService(s.v2), percent: 10 }],
    });
    const route = find(synth(chart), 'HTTPRoute', 'orders-split');
    expect(route.spec.rules).toEqual([{ backendRefs: [{ name: 'orders-v1', port: 8080, weight: 90 }, { name: 'orders-v2', port: 8080, weight: 10 }] }]);
  });

  test('refuses shares that do not add up to 100', () => {
    const backends = [{ service: ServiceReference.fromName('a'), percent: 90 }, { service: ServiceReference.fromName('b'), percent: 20 }];
    expect(() => new TrafficSplit(labChart(), 'Split', { name: 's', service: ServiceReference.fromName('x'), port: 80, backends }))
      .toThrow(/\[lab\/Split\] LKD-ROUTE-009: the percents add up to 110, not 100/);
    expect(() => new TrafficSplit(labChart(), 'Split', { name: 's', service: ServiceReference.fromName('x'), port: 80, backends: [{ service: ServiceReference.fromName('a'), percent: 100.5 }] }))
      .toThrow(/LKD-ROUTE-009/);
  });

  test('a gRPC split makes a GRPCRoute; the retry family must match', () => {
    const chart = labChart();
    new TrafficSplit(chart, 'Split', {
      name: 'g',
      service: ServiceReference.fromName('orders'),
      port: 9090,
      grpc: true,
      backends: [{ service: ServiceReference.fromName('orders-v1'), percent: 50 }, { service: ServiceReference.fromName('orders-v2'), percent: 50 }],
    });
    expect(find(synth(chart), 'GRPCRoute', 'g').spec.rules[0].backendRefs).toHaveLength(2);
    expect(() => new TrafficSplit(labChart(), 'S', {
      name: 'g',
      service: ServiceReference.fromName('orders'),
      port: 9090,
      grpc: true,
      httpRetry: { statuses: [RetryStatus.SERVER_ERRORS] },
      backends: [{ service: ServiceReference.fromName('orders-v1'), percent: 100 }],
    })).toThrow(/LKD-RETRY-004/);
  });
});

describe('TrafficSplit with one backend', () => {
  test('writes no weight (a lone backend gets all traffic; LKD-ROUTE-010 would warn about "100")', () => {
    const chart = labChart();
    new TrafficSplit(chart, 'Split', {
      name: 's',
      service: ServiceReference.fromName('orders'),
      port: 8080,
      backends: [{ service: ServiceReference.fromName('orders-v2'), percent: 100 }],
    });
    expect(find(synth(chart), 'HTTPRoute', 's').spec.rules[0].backendRefs).toEqual([{ name: 'orders-v2', port: 8080 }]);
  });
});
