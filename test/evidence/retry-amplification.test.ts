/**
 * LKD-CAP-001: along chains of declared calls, worst-case attempts = product of (1 + retry limit) per hop, per request
 * class; above maxRetryAmplification (default 10) a warning naming the chain, the factor and where retries are set.
 */
import { analyze } from '../../src/analysis/engine';
import { CALLS_ANNOTATION } from '../../src/core/vocabulary';
import { HttpRoute, MeshChecks, MeshedDeployment, RetryStatus } from '../../src/index';
import { asManifests } from '../support/mesh-fixture';
import { labChart, synthChecked } from '../support/synth';

const NS = 'shop';
const labels = (app: string) => ({ 'app.kubernetes.io/name': app });

function workload(name: string, calls?: string): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, ...(calls ? { annotations: { [CALLS_ANNOTATION]: calls } } : {}) },
    spec: { selector: { matchLabels: labels(name) }, template: { metadata: { labels: labels(name) }, spec: { containers: [{ name: 'app', image: 'app:1', ports: [{ containerPort: 8080 }] }] } } },
  };
}

function service(name: string, retries?: Record<string, string>): any {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: NS, ...(retries ? { annotations: retries } : {}) },
    spec: { selector: labels(name), ports: [{ name: 'http', port: 8080, targetPort: 8080 }] },
  };
}

const retry = (limit: string) => ({ 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/limit': limit });
const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, annotations: { 'linkerd.io/inject': 'enabled' } } };

/** web → orders → payments, with the given retries on the orders and payments Services. */
function chain(orders?: Record<string, string>, payments?: Record<string, string>): any[] {
  return [ns, workload('web', 'orders:8080'), workload('orders', 'payments:8080'), workload('payments'), service('orders', orders), service('payments', payments)];
}

const findings = (objects: any[], options = {}) => analyze(asManifests(objects), options).findings.filter((f) => f.ruleId === 'LKD-CAP-001');

describe('LKD-CAP-001 retry amplification on plain YAML', () => {
  test('3 retries at each of two hops: 16 attempts reach payments, a warning naming chain, factor and sources', () => {
    const [f, ...rest] = findings(chain(retry('3'), retry('3')));
    expect(rest).toEqual([]);
    expect(f.severity).toBe('warning');
    expect(f.resource.name).toBe('web');
    expect(f.message).toBe('one request can reach Deployment shop/payments as 16 attempts in the worst case (4 × 4), above maxRetryAmplification 10: '
      + 'Deployment shop/web → orders.shop:8080 [the default route: ×4, retry.linkerd.io/http="5xx", retry.linkerd.io/limit="3" on Service shop/orders] → '
      + 'Deployment shop/orders → payments.shop:8080 [the default route: ×4, retry.linkerd.io/http="5xx", retry.linkerd.io/limit="3" on Service shop/payments] → '
      + 'Deployment shop/payments.');
  });

  test('within the bound: no finding; the bound is the context option', () => {
    expect(findings(chain(retry('1'), retry('3')))).toEqual([]); // 2 × 4 = 8
    expect(findings(chain(retry('3'), undefined))).toEqual([]); // 4 × 1
    expect(findings(chain(retry('1'), retry('3')), { maxRetryAmplification: 7 }).map((f) => f.message)).toEqual([expect.stringMatching(/as 8 attempts .* above maxRetryAmplification 7/)]);
    expect(findings(chain(retry('3'), retry('3')), { maxRetryAmplification: 16 })).toEqual([]);
  });

  test('per request class: a route\'s own retries replace the Service\'s, and a declared request picks its route', () => {
    const route = (name: string, path: string, limit?: string) => ({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name, namespace: NS, ...(limit ? { annotations: retry(limit) } : {}) },
      spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'payments', port: 8080 }], rules: [{ matches: [{ path: { type: 'PathPrefix', value: path } }], backendRefs: [{ name: 'payments', port: 8080 }] }] },
    });
    const objects = chain(retry('3'), undefined);
    objects.push(route('refunds', '/refunds', '9'), route('charges', '/charges'));
    // Without a declared request the worst class counts: refunds, ×10 → 40.
    expect(findings(objects).map((f) => f.message)).toEqual([expect.stringMatching(/as 40 attempts .*\[HTTPRoute shop\/refunds: ×10, retry.linkerd.io\/http="5xx", retry.linkerd.io\/limit="9" on HTTPRoute shop\/refunds\]/)]);
    // A call that declares its request lands on charges: no retry there.
    objects[2].metadata.annotations[CALLS_ANNOTATION] = 'payments:8080 POST /charges';
    expect(findings(objects)).toEqual([]);
  });

  test('a cycle of calls ends where it would revisit a workload', () => {
    const objects = [ns, workload('a', 'b:8080'), workload('b', 'a:8080'), service('a', retry('3')), service('b', retry('3'))];
    // a → b → a: the hop back to a counts (16 attempts reach a), and the chain ends there.
    expect(findings(objects).map((f) => f.message)).toEqual([expect.stringMatching(/^one request can reach Deployment shop\/a as 16 attempts .*: Deployment shop\/a → b\.shop:8080 .* → Deployment shop\/b → a\.shop:8080 .* → Deployment shop\/a\.$/)]);
  });
});

describe('LKD-CAP-001 on constructs', () => {
  const container = { image: 'app:1', ports: [{ number: 8080 }], securityContext: { user: 100 } };
  test('route retries of limit 3 on both hops: 16 attempts, a warning (failing under failOnWarnings); MeshChecks sets the bound', () => {
    const build = (max?: number) => {
      const chart = labChart();
      MeshChecks.of(chart).configure({ failOnWarnings: true, ...(max !== undefined ? { maxRetryAmplification: max } : {}) });
      const deploy = (name: string) => new MeshedDeployment(chart, name, { name, app: name, containers: [container] });
      const [web, orders, payments] = ['web', 'orders', 'payments'].map(deploy);
      const ordersSvc = orders.exposeService({ ports: [{ port: 8080 }] });
      const paymentsSvc = payments.exposeService({ ports: [{ port: 8080 }] });
      web.addCall(ordersSvc, 8080);
      orders.addCall(paymentsSvc, 8080);
      new HttpRoute(chart, 'O', { name: 'orders-retries', service: ordersSvc, port: 8080, retry: { statuses: [RetryStatus.SERVER_ERRORS], limit: 3 } });
      new HttpRoute(chart, 'P', { name: 'payments-retries', service: paymentsSvc, port: 8080, retry: { statuses: [RetryStatus.SERVER_ERRORS], limit: 3 } });
      return chart;
    };
    expect(() => synthChecked(build())).toThrow(/LKD-CAP-001 at lab\/web .*as 16 attempts in the worst case \(4 × 4\)/);
    let error: unknown;
    try {
      synthChecked(build(16));
    } catch (e) {
      error = e;
    }
    expect(String(error ?? '')).not.toMatch(/LKD-CAP-001/);
  });
});
