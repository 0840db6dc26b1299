/** plan-deny on mesh-lab: what a move to deny refuses, the objects that keep it allowed, and nothing left after. */
import * as kplus from 'cdk8s-plus-28';
import { findObject, manifests, meshLabObjects } from './mesh-lab-fixture';
import { MeshReachability, Network, PodSelection, Server, ServerAccess, ServerPort } from '../../src';
import { formatDenyPlanText, parseObservedEdges, planDenyManifests } from '../../src/analysis/reachability';
import { labChart, synth } from '../support/synth';

const PROMETHEUS_SA = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'prometheus', namespace: 'linkerd-viz' } };
/** What `linkerd viz edges deployment -n mesh-lab -o json` prints (viz/cmd/edges.go): one meshed, one plaintext edge. */
const EDGES = [
  { src: 'client', src_namespace: 'mesh-lab', dst: 'orders-v1', dst_namespace: 'mesh-lab', client_id: 'client.mesh-lab', server_id: 'orders.mesh-lab', no_tls_reason: '' },
  { src: 'plain-client', src_namespace: 'mesh-lab', dst: 'orders-v2', dst_namespace: 'mesh-lab', client_id: '', server_id: '', no_tls_reason: 'not_provided_by_remote' },
];

describe('plan-deny', () => {
  test('without a Server: the declared call, the observed edges and the scrapes would be refused', () => {
    const objects = [...meshLabObjects({ withPolicy: false, negative: true }), PROMETHEUS_SA];
    const plan = MeshReachability.planDeny(objects, 'mesh-lab', { observedEdges: EDGES });
    expect(plan.refused.map((c) => [c.origin, c.source, c.target])).toEqual([
      ['scrape', 'linkerd-viz/prometheus', 'mesh-lab/client:4191'],
      ['scrape', 'linkerd-viz/prometheus', 'mesh-lab/orders-v1:4191'],
      ['declared', 'mesh-lab/client', 'mesh-lab/orders-v1:8080'],
      ['scrape', 'linkerd-viz/prometheus', 'mesh-lab/orders-v2:4191'],
      ['declared', 'mesh-lab/client', 'mesh-lab/orders-v2:8080'],
      ['observed', 'unauthenticated', 'mesh-lab/orders-v2:8080'],
      ['scrape', 'linkerd-viz/prometheus', 'mesh-lab/wrong-client:4191'],
    ]);
    expect(plan.refused[2].because).toMatch(/Namespace mesh-lab is deny/);
    expect(plan.objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Server/orders-v1-8080', 'MeshTLSAuthentication/orders-v1-8080-callers', 'AuthorizationPolicy/orders-v1-8080-callers',
      'Server/orders-v2-8080', 'MeshTLSAuthentication/orders-v2-8080-callers', 'AuthorizationPolicy/orders-v2-8080-callers',
      'NetworkAuthentication/orders-v2-8080-cluster', 'AuthorizationPolicy/orders-v2-8080-unauthenticated',
      'Server/proxy-admin', 'HTTPRoute/proxy-metrics', 'HTTPRoute/proxy-probes', 'AuthorizationPolicy/prometheus-scrape',
      'NetworkAuthentication/kubelet', 'AuthorizationPolicy/proxy-probes',
    ]);
    expect(plan.objects[1].spec).toEqual({ identityRefs: [{ kind: 'ServiceAccount', name: 'client', namespace: 'mesh-lab' }] });
    expect(plan.constructLines).toContain("const saMeshLabClient = kplus.ServiceAccount.fromServiceAccountName(chart, 'saMeshLabClient', 'client', { namespaceName: 'mesh-lab' });");
    expect(plan.constructLines).toContain("ServerAccess.allow(ordersV18080, { policyName: 'orders-v1-8080-callers', authenticationName: 'orders-v1-8080-callers', "
      + 'serviceAccounts: [saMeshLabClient] });');

    // Applying the plan and planning again: nothing left, and the kubelet's probes are still authorized.
    const again = MeshReachability.planDeny([...objects, ...plan.objects], 'mesh-lab', { observedEdges: EDGES });
    expect(again.refused).toEqual([]);
    expect(again.objects).toEqual([]);
    const denied = [...objects, ...plan.objects];
    findObject(denied, 'Namespace', 'mesh-lab').metadata.annotations['config.linkerd.io/default-inbound-policy'] = 'deny';
    const probe = MeshReachability.explain(denied, 'mesh-lab/orders-v1:8080', { caller: 'kubelet', path: '/health' });
    expect(probe.verdicts.map((v) => [v.request, v.allowed])).toEqual([['probe GET /health', true]]);
  });

  // inject.go AppendNamespaceAnnotations copies the namespace's policy at injection; workload.rs reads only the pod's.
  test('the plan for a namespace says that running pods keep their policy until restarted; the cluster default has no such note', () => {
    const input = manifests(meshLabObjects());
    expect(formatDenyPlanText(planDenyManifests(input, 'mesh-lab'), '')).toMatch(/Note: a namespace's default-inbound-policy reaches a pod when the pod is injected: pods running before the change keep their old policy until they are restarted/);
    expect(formatDenyPlanText(planDenyManifests(input, undefined), '')).not.toMatch(/until they are restarted/);
  });

  test('mesh-lab as shipped: its Server already decides orders, so only the scrapes need a plan', () => {
    const plan = MeshReachability.planDeny([...meshLabObjects(), PROMETHEUS_SA], 'mesh-lab');
    expect(plan.refused.map((c) => c.origin)).toEqual(['scrape', 'scrape', 'scrape']);
  });

  test('all-authenticated: only the plaintext caller is refused, and its new Server keeps the meshed callers too', () => {
    const objects = meshLabObjects({ withPolicy: false, negative: true });
    const plan = MeshReachability.planDeny(objects, 'mesh-lab', { observedEdges: EDGES, policy: 'all-authenticated' });
    expect(plan.refused.map((c) => [c.origin, c.source, c.target])).toEqual([['observed', 'unauthenticated', 'mesh-lab/orders-v2:8080']]);
    expect(plan.objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Server/orders-v2-8080', 'MeshTLSAuthentication/orders-v2-8080-callers', 'AuthorizationPolicy/orders-v2-8080-callers',
      'NetworkAuthentication/orders-v2-8080-cluster', 'AuthorizationPolicy/orders-v2-8080-unauthenticated',
    ]);
    const again = MeshReachability.planDeny([...objects, ...plan.objects], 'mesh-lab', { observedEdges: EDGES, policy: 'all-authenticated' });
    expect(again.refused).toEqual([]);
    expect(() => MeshReachability.planDeny(objects, 'mesh-lab', { policy: 'audit' })).toThrow(/deny or all-authenticated/);
  });

  test('the cluster default: namespaces with their own policy are not moved', () => {
    const objects = meshLabObjects({ withPolicy: false });
    expect(MeshReachability.planClusterDeny(objects).refused.map((c) => c.target)).toEqual(['mesh-lab/orders-v1:8080', 'mesh-lab/orders-v2:8080']);
    findObject(objects, 'Namespace', 'mesh-lab').metadata.annotations['config.linkerd.io/default-inbound-policy'] = 'all-unauthenticated';
    expect(MeshReachability.planClusterDeny(objects).refused).toEqual([]);
  });

  test('the construct lines, run as written, keep the calls allowed too', () => {
    const objects = meshLabObjects({ withPolicy: false, negative: true });
    const plan = MeshReachability.planDeny(objects, 'mesh-lab', { observedEdges: EDGES });
    const chart = labChart();
    // The lines are the code a construct user pastes: run them against the real constructs.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    new Function('chart', 'Server', 'PodSelection', 'ServerPort', 'ServerAccess', 'kplus', 'Network', plan.constructLines.join('\n'))(
      chart, Server, PodSelection, ServerPort, ServerAccess, kplus, Network);
    const written = synth(chart);
    expect(written.map((o) => o.kind).sort()).toEqual([
      'AuthorizationPolicy', 'AuthorizationPolicy', 'AuthorizationPolicy', 'MeshTLSAuthentication', 'MeshTLSAuthentication', 'NetworkAuthentication',
      'Server', 'Server',
    ]);
    expect(MeshReachability.planDeny([...objects, ...written], 'mesh-lab', { observedEdges: EDGES }).refused).toEqual([]);
  });

  // authorization.ts: a NetworkAuthentication covering part of the cluster networks admits only some addresses.
  test('a refusal that the caller\'s unknown address decides is marked UNSURE, as explain marks it', () => {
    const objects = meshLabObjects({ withPolicy: false, negative: true });
    const first = MeshReachability.planDeny(objects, 'mesh-lab', { observedEdges: EDGES });
    const kept = first.objects.filter((o) => o.metadata.name.startsWith('orders-v2-8080'));
    findObject(kept, 'NetworkAuthentication', 'orders-v2-8080-cluster').spec.networks = [{ cidr: '10.1.0.0/16' }];
    const plan = planDenyManifests(manifests([...objects, ...kept]), 'mesh-lab', {}, parseObservedEdges(JSON.stringify(EDGES)) as any);
    const plaintext = plan.alreadyRefused.find((c) => c.source === 'unauthenticated')!;
    expect(plaintext).toMatchObject({ target: 'mesh-lab/orders-v2:8080', uncertain: true });
    expect(plaintext.because).toMatch(/admits only part of the cluster networks/);
    expect(plan.alreadyRefused.filter((c) => c.source !== 'unauthenticated').every((c) => c.uncertain === undefined)).toBe(true);
    expect(formatDenyPlanText(plan, '')).toMatch(/^ {2}UNSURE observed: unauthenticated → mesh-lab\/orders-v2:8080 /m);
    expect(first.refused.some((c) => c.uncertain)).toBe(false);
  });

  test('observed edges are read as linkerd viz edges -o json prints them, and anything else is refused', () => {
    expect(parseObservedEdges(JSON.stringify(EDGES))).toHaveLength(2);
    expect(parseObservedEdges('{')).toMatch(/not JSON/);
    expect(parseObservedEdges('{"a":1}')).toMatch(/expected a JSON list/);
    expect(parseObservedEdges('[{"src":"a"}]')).toMatch(/entry 0 lacks/);
  });
});
