/**
 * Linkerd authorizes per route: the route a request lands on (an attached route, or the generated default and probe
 * routes), then that route's and the Server's authorizations. Baseline mesh-lab, then one mutation per behaviour.
 */
import { analyze } from '../../../src/analysis/engine';
import { canReach, evaluateInboundPolicy } from '../../../src/analysis/policy';
import { CALLS_ANNOTATION } from '../../../src/core/vocabulary';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

const orders = { namespace: 'mesh-lab', service: 'orders' };
const who = (name: string) => ({ namespace: 'mesh-lab', name });

function withProbePath(objects: any[], path: string): any[] {
  for (const name of ['orders-v1', 'orders-v2']) {
    for (const c of pick(objects, 'Deployment', name).spec.template.spec.containers) c.readinessProbe = { httpGet: { path, port: 'http' } };
  }
  return objects;
}

function withCaller(objects: any[], name: string, sa: string, calls: string): any[] {
  const caller = JSON.parse(JSON.stringify(pick(objects, 'Deployment', 'client')));
  caller.metadata = { name, namespace: 'mesh-lab', annotations: { [CALLS_ANNOTATION]: calls } };
  caller.spec.selector.matchLabels = { 'app.kubernetes.io/name': name };
  caller.spec.template.metadata.labels = { 'app.kubernetes.io/name': name };
  caller.spec.template.spec.serviceAccountName = sa;
  return [...objects, caller];
}

const policyOf = (objects: any[]) => {
  const result = analyze(asManifests(objects));
  return { result, policy: evaluateInboundPolicy(result.index, result.context) };
};

describe('per-request inbound policy', () => {
  test('baseline: mesh-lab probes /health, so GET / is refused to the default ServiceAccount and LKD-POL-022 is silent', () => {
    const { result, policy } = policyOf(withCaller(withProbePath(meshLab(), '/health'), 'wrong-client', 'default', 'orders:8080'));
    expect(canReach(policy, who('wrong-client'), orders, 8080, { method: 'GET', path: '/' }).allowed).toBe(false);
    expect(canReach(policy, who('wrong-client'), orders, 8080, { method: 'GET', path: '/health' }).allowed).toBe(true);
    expect(result.findings.filter((f) => f.ruleId === 'LKD-POL-022')).toEqual([]);
  });

  test('a probe on "/" opens GET / to everyone through the generated probe route, and LKD-POL-022 says so', () => {
    const { result, policy } = policyOf(withCaller(withProbePath(meshLab(), '/'), 'wrong-client', 'default', 'orders:8080'));
    const decision = canReach(policy, who('wrong-client'), orders, 8080, { method: 'GET', path: '/' });
    expect(decision.allowed).toBe(true);
    expect(decision.reason).toMatch(/probe path/);
    // Other requests still land on the default route, which only the Server's authorizations open.
    expect(canReach(policy, who('wrong-client'), orders, 8080, { method: 'GET', path: '/orders' }).allowed).toBe(false);
    const warnings = result.findings.filter((f) => f.ruleId === 'LKD-POL-022');
    expect(warnings.map((f) => f.resource.name).sort()).toEqual(['orders-v1', 'orders-v2']);
    expect(warnings[0].message).toMatch(/GET \/ on port 8080 .* only because \/ is also a probe path/);
  });

  test('a probe route is not generated once an HTTPRoute is attached to the Server: unmatched requests get 404', () => {
    const objects = withProbePath(meshLab(), '/');
    objects.push({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'orders-read', namespace: 'mesh-lab' },
      spec: {
        parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }],
        rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/orders' }, method: 'GET' }] }],
      },
    });
    const { result, policy } = policyOf(withCaller(objects, 'wrong-client', 'default', 'orders:8080'));
    const root = canReach(policy, who('wrong-client'), orders, 8080, { method: 'GET', path: '/' });
    expect(root.allowed).toBe(false);
    expect(root.reason).toMatch(/404/);
    expect(result.findings.filter((f) => f.ruleId === 'LKD-POL-022')).toEqual([]);
  });

  test('a gRPC Server serves GRPCRoutes only: an HTTPRoute on it does not remove the default route', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.proxyProtocol = 'gRPC';
    objects.push({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'orders-read', namespace: 'mesh-lab' },
      spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }], rules: [{ matches: [{ path: { type: 'Exact', value: '/x' } }] }] },
    });
    const { policy } = policyOf(objects);
    const port = policy.ports.find((p) => p.workload.name === 'orders-v1' && p.port === 8080)!;
    expect(port.protocol).toBe('gRPC');
    expect(port.routes.map((r) => r.generated)).toEqual(['default']);
  });

  test('declared calls may name the request, and the proof runs for that request', () => {
    const objects = withCaller(withProbePath(meshLab(), '/'), 'wrong-client', 'default', 'orders:8080 GET /, orders:8080 GET /orders');
    const calls = analyze(asManifests(objects)).findings.filter((f) => f.ruleId === 'LKD-POL-013');
    expect(calls.map((f) => f.message)).toEqual([expect.stringMatching(/orders\.mesh-lab:8080 \(GET \/orders\), but the mesh would refuse it/)]);
  });

  test('an invalid pod default-policy annotation falls back to the cluster default, not the namespace\'s', () => {
    const objects = meshLab().filter((o) => !(o.kind === 'Server' || o.kind === 'AuthorizationPolicy'));
    pick(objects, 'Namespace', 'mesh-lab').metadata.annotations['config.linkerd.io/default-inbound-policy'] = 'deny';
    pick(objects, 'Deployment', 'orders-v1').spec.template.metadata.annotations = { 'config.linkerd.io/default-inbound-policy': 'nope' };
    const { policy } = policyOf(objects);
    const v1 = policy.ports.find((p) => p.workload.name === 'orders-v1' && p.port === 8080)!;
    const v2 = policy.ports.find((p) => p.workload.name === 'orders-v2' && p.port === 8080)!;
    expect([v1.defaultPolicy.policy, v1.defaultPolicy.source]).toEqual(['all-unauthenticated', 'cluster']);
    expect([v2.defaultPolicy.policy, v2.defaultPolicy.source]).toEqual(['deny', 'namespace']);
  });

  test('require-identity ports make an allowing default authenticated-only', () => {
    const objects = meshLab().filter((o) => !(o.kind === 'Server' || o.kind === 'AuthorizationPolicy'));
    delete pick(objects, 'Namespace', 'mesh-lab').metadata.annotations['config.linkerd.io/default-inbound-policy'];
    pick(objects, 'Deployment', 'orders-v1').spec.template.metadata.annotations = { 'config.linkerd.io/proxy-require-identity-inbound-ports': '8080' };
    const { result, policy } = policyOf(objects);
    const v1 = policy.ports.find((p) => p.workload.name === 'orders-v1' && p.port === 8080)!;
    expect(v1.defaultPolicy.policy).toBe('all-authenticated');
    expect(v1.allows({ meshed: false }).allowed).toBe(false);
    const plaintext = result.findings.filter((f) => f.ruleId === 'LKD-POL-011').map((f) => f.resource.name);
    expect(plaintext).toEqual(['orders-v2']);
  });

  test('require-identity ports are read as the policy controller reads them: a list with a port name requires nothing', () => {
    const defaultFor = (value: string) => {
      const objects = meshLab().filter((o) => !(o.kind === 'Server' || o.kind === 'AuthorizationPolicy'));
      delete pick(objects, 'Namespace', 'mesh-lab').metadata.annotations['config.linkerd.io/default-inbound-policy'];
      pick(objects, 'Deployment', 'orders-v1').spec.template.metadata.annotations = { 'config.linkerd.io/proxy-require-identity-inbound-ports': value };
      return policyOf(objects).policy.ports.find((p) => p.workload.name === 'orders-v1' && p.port === 8080)!.defaultPolicy.policy;
    };
    expect([defaultFor('8080,admin'), defaultFor('9000')]).toEqual(['all-unauthenticated', 'all-unauthenticated']);
    expect([defaultFor('8000 - 8090'), defaultFor('+8080')]).toEqual(['all-authenticated', 'all-authenticated']);
  });
});
