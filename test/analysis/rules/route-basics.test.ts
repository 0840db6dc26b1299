import { analyze } from '../../../src/analysis/engine';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

function ruleFindings(objects: any[], ruleId: string) {
  return analyze(asManifests(objects)).findings.filter((f) => f.ruleId === ruleId);
}

describe('LKD-ROUTE-001 omitted parent group', () => {
  test('passes with group core', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-001')).toEqual([]);
  });
  test('fires when the group is omitted, naming the route', () => {
    const objects = meshLab();
    delete pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-001');
    expect(finding.resource).toEqual({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', namespace: 'mesh-lab', name: 'orders-split' });
    expect(finding.message).toMatch(/parentRefs\[0\].*without group "core"/);
  });
  // outbound/index.rs is_egress_network and k8s/api/src/policy.rs targets_kind: policy.linkerd.io only; Gateway API defaults an omitted group.
  test('an EgressNetwork parent without group policy.linkerd.io on a Gateway API route (TLSRoute included) is ignored', () => {
    const tls = {
      apiVersion: 'gateway.networking.k8s.io/v1alpha2',
      kind: 'TLSRoute',
      metadata: { name: 'api', namespace: 'mesh-lab' },
      spec: { parentRefs: [{ kind: 'EgressNetwork', name: 'internet', port: 443 }], rules: [{ backendRefs: [{ group: 'policy.linkerd.io', kind: 'EgressNetwork', name: 'internet' }] }] },
    };
    const objects = [...meshLab(), tls];
    pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs.push({ kind: 'Server', name: 'orders-http' });
    expect(ruleFindings(objects, 'LKD-ROUTE-001').map((f) => `${f.resource.name}: ${f.message}`)).toEqual([
      expect.stringMatching(/^api: parentRefs\[0\] names EgressNetwork "internet" without a group; the API server defaults it to gateway.networking.k8s.io; .*Set parentRefs\[0\].group to policy.linkerd.io/),
    ]);
    // Server parents are LKD-POL-020's; Linkerd's own HTTPRoute defaults the group to policy.linkerd.io: fine there.
    const policyRoute = { apiVersion: 'policy.linkerd.io/v1beta3', kind: 'HTTPRoute', metadata: { name: 'p', namespace: 'mesh-lab' }, spec: { parentRefs: [{ kind: 'EgressNetwork', name: 'internet', port: 443 }] } };
    expect(ruleFindings([...meshLab(), policyRoute], 'LKD-ROUTE-001')).toEqual([]);
  });
});

describe('LKD-ROUTE-009 weights', () => {
  test('passes with 90/10', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-009')).toEqual([]);
  });
  test('fires when every weight is zero', () => {
    const objects = meshLab();
    for (const b of pick(objects, 'HTTPRoute', 'orders-split').spec.rules[0].backendRefs) b.weight = 0;
    expect(ruleFindings(objects, 'LKD-ROUTE-009').map((f) => f.message)).toEqual([expect.stringMatching(/every backend of rules\[0\] has weight 0/)]);
  });
  test('fires on an out-of-range weight', () => {
    const objects = meshLab();
    pick(objects, 'HTTPRoute', 'orders-split').spec.rules[0].backendRefs[0].weight = 1_000_001;
    expect(ruleFindings(objects, 'LKD-ROUTE-009')).toHaveLength(1);
  });
  // inbound/index/http.rs: a Server's routes keep no backends, so the pod serves what they match whatever the weights.
  test('on a route whose only parent is a Server, zero weights do not matter; an out-of-range one is still refused by the CRD', () => {
    const objects = meshLab();
    const route = pick(objects, 'HTTPRoute', 'orders-split');
    route.spec.parentRefs = [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }];
    for (const b of route.spec.rules[0].backendRefs) b.weight = 0;
    expect(ruleFindings(objects, 'LKD-ROUTE-009')).toEqual([]);
    route.spec.rules[0].backendRefs[0].weight = -1;
    expect(ruleFindings(objects, 'LKD-ROUTE-009').map((f) => f.effect)).toEqual(['rejected']);
  });
});

// policy-controller/core/src/outbound.rs AppProtocol::from_str; grpc/src/outbound.rs to_proto serves Unknown as opaque.
describe('LKD-ROUTE-027 appProtocol Linkerd does not read', () => {
  const withAppProtocol = (value: string | undefined, service = 'orders-v1') => {
    const objects = meshLab();
    const port = pick(objects, 'Service', service).spec.ports[0];
    if (value === undefined) delete port.appProtocol; else port.appProtocol = value;
    return objects;
  };
  test.each(['grpc', 'http2', 'h2c', 'HTTPS'])('warns on %s: the port is opaque TCP to meshed clients', (value) => {
    expect(ruleFindings(withAppProtocol(value), 'LKD-ROUTE-027').map((f) => [f.severity, f.resource.name, f.message])).toEqual([
      ['warning', 'orders-v1', expect.stringMatching(new RegExp(`port 8080 has appProtocol "${value}", which Linkerd does not know: meshed clients treat the port as opaque TCP`))],
    ]);
  });
  test.each(['http', 'HTTP', 'kubernetes.io/h2c', 'linkerd.io/opaque', 'linkerd.io/tcp', undefined])('passes on %s', (value) => {
    expect(ruleFindings(withAppProtocol(value), 'LKD-ROUTE-027')).toEqual([]);
  });
  test('a Service with a route is LKD-ROUTE-026\'s, and one without meshed pods is not the mesh\'s', () => {
    expect(ruleFindings(withAppProtocol('grpc', 'orders'), 'LKD-ROUTE-027')).toEqual([]);
    const objects = withAppProtocol('grpc');
    for (const d of objects.filter((o) => o.kind === 'Deployment')) d.spec.template.metadata.annotations = { ...d.spec.template.metadata.annotations, 'linkerd.io/inject': 'disabled' };
    expect(ruleFindings(objects, 'LKD-ROUTE-027')).toEqual([]);
  });
});

// inbound/index/http.rs and grpc.rs: a Server's routes keep matches and filters only.
describe('LKD-ROUTE-028 a Server\'s route carries no timeouts or backends', () => {
  const serverRoute = (kind: 'HTTPRoute' | 'GRPCRoute', rule: Record<string, unknown>, parents: any[] = [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }]) => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind,
    metadata: { name: 'orders-in', namespace: 'mesh-lab' },
    spec: { parentRefs: parents, rules: [{ matches: kind === 'HTTPRoute' ? [{ path: { value: '/orders' } }] : [{ method: { service: 'orders.Orders' } }], ...rule }] },
  });
  const found = (route: any, id = 'LKD-ROUTE-028') => ruleFindings([...meshLab(), route], id).filter((f) => f.resource.name === 'orders-in');
  test('timeouts and backends on a Server-only route do nothing', () => {
    expect(found(serverRoute('HTTPRoute', { timeouts: { request: '5s' } })).map((f) => [f.severity, f.message])).toEqual([['error',
      'rules[0].timeouts is set, but every parent of this route is a Server: the inbound policy index keeps only its matches and filters, so no timeout applies. Move it to a route whose parent is the Service.']]);
    expect(found(serverRoute('GRPCRoute', { backendRefs: [{ name: 'orders', port: 8080, weight: 10 }] })).map((f) => f.message)).toEqual([
      expect.stringMatching(/^rules\[0\]\.backendRefs is set, .*so no request goes to these backends \(the selected pods serve what the route matches\)\. Move it/),
    ]);
  });
  test('other rules leave those fields to it: no lone-weight, unreadable-timeout or ignored-backendRequest finding', () => {
    const route = serverRoute('HTTPRoute', { timeouts: { request: '1m30s', backendRequest: '2s' }, backendRefs: [{ name: 'orders', port: 8080, weight: 10 }] });
    expect(found(route).map((f) => f.message)).toEqual([expect.stringMatching(/^rules\[0\]\.timeouts, rules\[0\]\.backendRefs are set, .*so no timeout applies and no request goes to these backends/)]);
    for (const id of ['LKD-ROUTE-010', 'LKD-ROUTE-014', 'LKD-ROUTE-018']) expect(found(route, id)).toEqual([]);
  });
  test('a route with a Service or a Gateway parent too is not the inbound index\'s alone', () => {
    const also = (ref: Record<string, unknown>) => serverRoute('HTTPRoute', { timeouts: { request: '5s' } }, [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }, ref]);
    expect(found(also({ group: 'core', kind: 'Service', name: 'orders', port: 8080 }))).toEqual([]);
    expect(found(also({ name: 'edge' }))).toEqual([]);
    expect(found(serverRoute('HTTPRoute', {}))).toEqual([]);
  });
});
