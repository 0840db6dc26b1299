/**
 * LKD-CAP-002: a local rate limit is per proxy; its cluster-wide capacity is rate × the replicas behind the Server
 * (min..max under a HorizontalPodAutoscaler). The construct divides a cluster-wide budget by the replicas.
 */
import * as kplus from 'cdk8s-plus-28';
import { analyze } from '../../src/analysis/engine';
import {
  AutoscaledBudget, HttpLocalRateLimitPolicy, MeshedDeployment, MeshedNamespace, PodSelection, Server, ServerPort,
} from '../../src/index';
import { asManifests, meshLab, pick } from '../support/mesh-fixture';
import { find, labChart, synth, synthChecked } from '../support/synth';

const policy = (spec: object) => ({
  apiVersion: 'policy.linkerd.io/v1alpha1',
  kind: 'HTTPLocalRateLimitPolicy',
  metadata: { name: 'orders-limit', namespace: 'mesh-lab' },
  spec: { targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }, ...spec },
});
const hpa = (target: string, min: number | undefined, max: number) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: target, namespace: 'mesh-lab' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, ...(min !== undefined ? { minReplicas: min } : {}), maxReplicas: max },
});
const findings = (objects: any[], options = {}) => analyze(asManifests(objects), options).findings.filter((f) => f.ruleId === 'LKD-CAP-002');

describe('LKD-CAP-002 on plain YAML', () => {
  test('fixed replicas: information with total, identity and each override × the proxies', () => {
    const objects = [...meshLab(), policy({
      total: { requestsPerSecond: 100 },
      identity: { requestsPerSecond: 20 },
      overrides: [{ requestsPerSecond: 50, clientRefs: [{ kind: 'ServiceAccount', name: 'client' }] }],
    })];
    pick(objects, 'Deployment', 'orders-v1').spec.replicas = 3;
    expect(findings(objects).map((f) => [f.severity, f.message])).toEqual([['info',
      'limits each proxy, not the cluster: Server orders-http is served by Deployment mesh-lab/orders-v1 (3 replicas), Deployment mesh-lab/orders-v2 '
      + '(1 replica), so the cluster-wide capacity is total 100 rps × 4 proxies = 400 rps; identity (per client identity) 20 rps × 4 proxies = 80 rps; '
      + 'overrides[0] (ServiceAccount mesh-lab/client) 50 rps × 4 proxies = 200 rps.']]);
  });

  test('an autoscaler makes it vary: a warning with min..max', () => {
    const objects = [...meshLab(), policy({ total: { requestsPerSecond: 100 } }), hpa('orders-v1', 2, 10)];
    const [f] = findings(objects);
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/Deployment mesh-lab\/orders-v1 \(HorizontalPodAutoscaler mesh-lab\/orders-v1: 2\.\.10 replicas\), Deployment mesh-lab\/orders-v2 \(1 replica\)/);
    expect(f.message).toMatch(/total 100 rps × 3\.\.11 proxies = 300\.\.1100 rps; an autoscaler changes the cluster-wide capacity as it scales\.$/);
    // minReplicas defaults to 1.
    expect(findings([...meshLab(), policy({ total: { requestsPerSecond: 10 } }), hpa('orders-v2', undefined, 4)])[0].message).toMatch(/× 2\.\.5 proxies = 20\.\.50 rps/);
  });

  test('no finding when the Server does not exist', () => {
    const objects = [...meshLab(), policy({ total: { requestsPerSecond: 100 } })];
    objects.splice(objects.findIndex((o) => o.kind === 'Server'), 1);
    expect(findings(objects)).toEqual([]);
  });
});

describe('HttpLocalRateLimitPolicy.clusterBudget', () => {
  const container = { image: 'app:1', ports: [{ number: 8080 }], securityContext: { user: 100 } };
  function lab(replicas: number[]) {
    const chart = labChart();
    new MeshedNamespace(chart, 'Ns', { name: 'mesh-lab' });
    const workloads = replicas.map((n, i) => new MeshedDeployment(chart, `W${i}`, { name: `orders-v${i + 1}`, app: 'orders', version: `v${i + 1}`, replicas: n, containers: [container] }));
    const server = new Server(chart, 'S', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080) });
    return { chart, workloads, server };
  }
  const totalOf = (chart: any) => find(synth(chart), 'HTTPLocalRateLimitPolicy', 'limit').spec.total;

  test('divides the budget by the replicas behind the Server (rounded down)', () => {
    const { chart, workloads, server } = lab([2, 3]);
    new HttpLocalRateLimitPolicy(chart, 'L', { name: 'limit', server, clusterBudget: { totalRequestsPerSecond: 101, workloads } });
    expect(totalOf(chart)).toEqual({ requestsPerSecond: 20 });
    // The engine reads it back: 20 × 5 proxies = 100 rps cluster-wide (information).
    const f = analyze(synthChecked(chart).map((object) => ({ object }))).findings.filter((x) => x.ruleId === 'LKD-CAP-002');
    expect(f.map((x) => [x.severity, x.message])).toEqual([['info', expect.stringMatching(/total 20 rps × 5 proxies = 100 rps\.$/)]]);
  });

  test('an autoscaled workload is refused unless told which bound to divide by', () => {
    const { chart, workloads, server } = lab([1, 1]);
    new kplus.HorizontalPodAutoscaler(chart, 'Hpa', { target: workloads[0].deployment, minReplicas: 2, maxReplicas: 8 });
    new HttpLocalRateLimitPolicy(chart, 'L', { name: 'limit', server, clusterBudget: { totalRequestsPerSecond: 90, workloads } });
    expect(() => synthChecked(chart)).toThrow(/LKD-CAP-002: clusterBudget cannot be divided by the replicas of orders-v1 \(HorizontalPodAutoscaler .*: 2\.\.8\).*Fix: set clusterBudget\.autoscaled/s);
    for (const [autoscaled, rate] of [[AutoscaledBudget.HOLD_AT_MAX_REPLICAS, 10], [AutoscaledBudget.REACH_AT_MIN_REPLICAS, 30]] as const) {
      const again = lab([1, 1]);
      new kplus.HorizontalPodAutoscaler(again.chart, 'Hpa', { target: again.workloads[0].deployment, minReplicas: 2, maxReplicas: 8 });
      new HttpLocalRateLimitPolicy(again.chart, 'L', { name: 'limit', server: again.server, clusterBudget: { totalRequestsPerSecond: 90, workloads: again.workloads, autoscaled } });
      expect([autoscaled, totalOf(again.chart)]).toEqual([autoscaled, { requestsPerSecond: rate }]);
    }
  });

  test('bad budgets: coded errors', () => {
    const { chart, workloads, server } = lab([1]);
    expect(() => new HttpLocalRateLimitPolicy(chart, 'A', { name: 'a', server, totalRequestsPerSecond: 5, clusterBudget: { totalRequestsPerSecond: 9, workloads } }))
      .toThrow(/\[lab\/A\] LKD-POL-014: the policy sets both totalRequestsPerSecond and clusterBudget/);
    expect(() => new HttpLocalRateLimitPolicy(chart, 'B', { name: 'b', server, clusterBudget: { totalRequestsPerSecond: 0, workloads } })).toThrow(/\[lab\/B\] LKD-POL-014: clusterBudget\.totalRequestsPerSecond 0/);
    expect(() => new HttpLocalRateLimitPolicy(chart, 'C', { name: 'c', server, clusterBudget: { totalRequestsPerSecond: 9, workloads: [] } })).toThrow(/\[lab\/C\] LKD-POL-014: clusterBudget names no workloads/);
  });
});
