/**
 * The seed's experiments, proven at build time on the construct-built mesh-lab: who may call orders:8080.
 */
import { Testing } from 'cdk8s';
import { MeshLab, NAMESPACE, NegativeExperiment } from '../../examples/mesh-lab/mesh-lab';
import { analyze } from '../../src/analysis/engine';
import { canReach, evaluateInboundPolicy, routeShares } from '../../src/analysis/policy';
import { synth, synthChecked } from '../support/synth';

function analyzed(withPolicy: boolean) {
  const app = Testing.app();
  const lab = new MeshLab(app, 'mesh-lab', { withPolicy });
  // Without the policy the negative experiment's declared refusals fail the app's synth (LKD-POL-026): read it unchecked.
  const negative = new NegativeExperiment(app, 'negative');
  const render = withPolicy ? synthChecked : synth;
  const objects = [...render(lab), ...render(negative)];
  const result = analyze(objects.map((object) => ({ object })));
  return { result, policy: evaluateInboundPolicy(result.index, result.context) };
}

const orders = { namespace: NAMESPACE, service: 'orders' };
const caller = (name: string) => ({ namespace: NAMESPACE, name });

describe('mesh-lab with its policy', () => {
  const { policy, result } = analyzed(true);

  test('client → orders:8080 is allowed by client-to-orders', () => {
    const decision = canReach(policy, caller('client'), orders, 8080);
    expect(decision.allowed).toBe(true);
    expect(decision.reason).toMatch(/client-to-orders/);
  });

  test('wrong-client (default ServiceAccount) is denied', () => {
    expect(canReach(policy, caller('wrong-client'), orders, 8080).allowed).toBe(false);
  });

  test('plain-client (not meshed) is denied', () => {
    expect(canReach(policy, caller('plain-client'), orders, 8080).allowed).toBe(false);
  });

  // Linkerd authorizes per route: every request a user would try, not only "some request on the port".
  test.each([['GET', '/'], ['GET', '/orders'], ['POST', '/orders']])('wrong-client and plain-client are refused %s %s', (method, path) => {
    for (const who of ['wrong-client', 'plain-client']) {
      const decision = canReach(policy, caller(who), orders, 8080, { method, path });
      expect([who, decision.allowed]).toEqual([who, false]);
    }
    expect(canReach(policy, caller('client'), orders, 8080, { method, path }).allowed).toBe(true);
  });

  test('only the probe path is open to everyone, through the probe route Linkerd generates', () => {
    const decision = canReach(policy, caller('plain-client'), orders, 8080, { method: 'GET', path: '/health' });
    expect(decision.allowed).toBe(true);
    expect(decision.reason).toMatch(/probe path/);
    // The probe route matches GET with the exact path only.
    expect(canReach(policy, caller('plain-client'), orders, 8080, { method: 'POST', path: '/health' }).allowed).toBe(false);
    expect(canReach(policy, caller('plain-client'), orders, 8080, { method: 'GET', path: '/health/x' }).allowed).toBe(false);
  });

  test('orders-split sends 90% to orders-v1 and 10% to orders-v2', () => {
    const [split] = routeShares(result.index).filter((r) => r.route.name === 'orders-split');
    expect(split.backends.map((b) => [b.name, b.percent])).toEqual([['orders-v1', 90], ['orders-v2', 10]]);
  });

  test('the engine reports no errors and no open-plaintext warning', () => {
    expect(result.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(result.findings.map((f) => f.ruleId)).not.toContain('LKD-POL-011');
  });
});

describe('mesh-lab with the policy objects removed', () => {
  const { policy, result } = analyzed(false);

  test('plain-client is allowed: the default all-unauthenticated policy leaves plaintext open', () => {
    const decision = canReach(policy, caller('plain-client'), orders, 8080);
    expect(decision.allowed).toBe(true);
    expect(decision.reason).toMatch(/all-unauthenticated/);
  });

  test('the negative experiment\'s declared refusals fail its synth (LKD-POL-026)', () => {
    const app = Testing.app();
    new MeshLab(app, 'mesh-lab', { withPolicy: false });
    expect(() => synthChecked(new NegativeExperiment(app, 'negative'))).toThrow(/LKD-POL-026 at negative\/PlainClient .*LKD-POL-026 at negative\/WrongClient/s);
  });

  test('and the engine warns about it on the orders workloads', () => {
    const warnings = result.findings.filter((f) => f.ruleId === 'LKD-POL-011');
    expect(warnings.map((f) => f.resource.name).sort()).toEqual(['orders-v1', 'orders-v2']);
    expect(warnings[0].message).toMatch(/8080/);
  });
});
