/**
 * Refusals as code (LKD-POL-026): a workload declares the requests the mesh must refuse it; the build proves each
 * against the inbound-policy evaluation, on constructs and on plain YAML through the CLI.
 */
import { Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { MeshLab, NegativeExperiment } from '../../examples/mesh-lab/mesh-lab';
import { analyze } from '../../src/analysis/engine';
import { REFUSED_CALLS_ANNOTATION } from '../../src/core/vocabulary';
import { DefaultInboundPolicy, MeshedDeployment, MeshedNamespace, ServiceReference } from '../../src/index';
import { assertBuilt, removeDir, runCli, tempDir, writeYaml } from '../frontends/cli-harness';
import { asManifests, meshLab, pick } from '../support/mesh-fixture';
import { find, labChart, synth, synthChecked } from '../support/synth';

/** mesh-lab plus a caller running as `serviceAccountName` that declares `refusals`; `meshed: false` disables injection. */
function withRefusingCaller(name: string, serviceAccountName: string, refusals: string, meshed = true): any[] {
  const objects = meshLab();
  const caller = JSON.parse(JSON.stringify(pick(objects, 'Deployment', 'client')));
  caller.metadata = { name, namespace: 'mesh-lab', annotations: { [REFUSED_CALLS_ANNOTATION]: refusals } };
  caller.spec.selector.matchLabels = { 'app.kubernetes.io/name': name };
  caller.spec.template.metadata = { labels: { 'app.kubernetes.io/name': name }, ...(meshed ? {} : { annotations: { 'linkerd.io/inject': 'disabled' } }) };
  caller.spec.template.spec.serviceAccountName = serviceAccountName;
  return [...objects, caller];
}

const findings = (objects: any[], options = {}) => analyze(asManifests(objects), options).findings.filter((f) => f.ruleId === 'LKD-POL-026');

describe('LKD-POL-026 declared refusals on plain YAML', () => {
  test('the wrong identity and a plaintext client refused on orders: proven, no finding', () => {
    expect(findings(withRefusingCaller('wrong-client', 'default', 'orders:8080 GET /'))).toEqual([]);
    expect(findings(withRefusingCaller('plain-client', 'default', 'orders:8080 GET /', false))).toEqual([]);
  });

  test('a refusal the policy allows is an error naming caller, target, request and the allowing objects', () => {
    const [f] = findings(withRefusingCaller('client-2', 'client', 'orders.mesh-lab:8080 GET /orders'));
    expect(f).toMatchObject({ severity: 'error', resource: { kind: 'Deployment', name: 'client-2' } });
    expect(f.message).toMatch(/refuses its requests to orders\.mesh-lab:8080 \(GET \/orders\), but the inbound policy allows them: /);
    // Both versions behind the Service let it in, each through the AuthorizationPolicy that admits SA client.
    expect(f.message).toMatch(/Deployment mesh-lab\/orders-v1 lets it in: .*client-to-orders/);
    expect(f.message).toMatch(/Deployment mesh-lab\/orders-v2 lets it in: .*client-to-orders/);
  });

  // The generated probe route opens GET of a probe path to everyone: a refusal of that request is broken.
  test('a probe path is open to the plaintext client: the refusal of it is an error', () => {
    const objects = withRefusingCaller('plain-client', 'default', 'orders:8080 GET /health', false);
    for (const name of ['orders-v1', 'orders-v2']) {
      pick(objects, 'Deployment', name).spec.template.spec.containers[0].readinessProbe = { httpGet: { path: '/health', port: 8080 } };
    }
    expect(findings(objects).map((f) => [f.severity, f.message])).toEqual([['error', expect.stringMatching(/GET \/health.*probe/)]]);
  });

  test('one workload behind the Service that lets the request in breaks the refusal', () => {
    const objects = withRefusingCaller('wrong-client', 'default', 'orders:8080');
    // orders-v2 gets its own, open Server (all-unauthenticated) on 8080.
    pick(objects, 'Server', 'orders-http').spec.podSelector.matchLabels['app.kubernetes.io/version'] = 'v1';
    objects.push({
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'Server',
      metadata: { name: 'orders-v2-open', namespace: 'mesh-lab' },
      spec: { podSelector: { matchLabels: { 'app.kubernetes.io/version': 'v2' } }, port: 8080, accessPolicy: 'all-unauthenticated' },
    });
    const [f] = findings(objects);
    expect(f.message).toMatch(/orders-v2 lets it in/);
    expect(f.message).not.toMatch(/orders-v1 lets it in/);
  });

  test('a refusal into a namespace the analysis does not see is a warning; an unreadable entry an error', () => {
    expect(findings(withRefusingCaller('wrong-client', 'default', 'payments.billing:8080')).map((f) => [f.severity, f.message])).toEqual([
      ['warning', expect.stringMatching(/refuses its requests to payments\.billing:8080, which this analysis cannot prove: /)],
    ]);
    expect(findings(withRefusingCaller('wrong-client', 'default', 'orders:8080 get')).map((f) => f.message)).toEqual([
      `${REFUSED_CALLS_ANNOTATION} entry "orders:8080 get" is not service[.namespace]:port [METHOD] [/path].`,
    ]);
  });

  test('through the CLI: exit 1 and the finding on a broken refusal, exit 0 on proven ones', () => {
    assertBuilt();
    const dir = tempDir('refusals');
    try {
      writeYaml(dir, 'broken/mesh.yaml', withRefusingCaller('client-2', 'client', 'orders:8080 GET /'));
      writeYaml(dir, 'proven/mesh.yaml', withRefusingCaller('plain-client', 'default', 'orders:8080 GET /', false));
      const broken = runCli(['analyze', 'broken'], { cwd: dir });
      expect(broken.status).toBe(1);
      expect(broken.stdout + broken.stderr).toMatch(/LKD-POL-026.*client-2.*orders\.mesh-lab:8080 \(GET \/\), but the inbound policy allows them/s);
      const proven = runCli(['analyze', 'proven'], { cwd: dir });
      expect([proven.status, proven.stdout]).toEqual([0, expect.not.stringMatching(/LKD-POL-026/)]);
    } finally {
      removeDir(dir);
    }
  });
});

describe('MeshedDeployment.addRefusedCall', () => {
  const container = { image: 'curlimages/curl:8.14.1', securityContext: { user: 100 } };

  test('writes the refused-calls annotation in the calls grammar (sorted, unique) and validates as addCall', () => {
    const chart = labChart();
    const d = new MeshedDeployment(chart, 'C', { name: 'wrong-client', app: 'wrong-client', containers: [container] });
    d.addRefusedCall(ServiceReference.fromName('orders'), 8080, { method: 'GET', path: '/' });
    d.addRefusedCall(ServiceReference.fromName('billing', 'finance'), 443);
    d.addRefusedCall(ServiceReference.fromName('orders'), 8080, { method: 'GET', path: '/' });
    expect(find(synth(chart), 'Deployment', 'wrong-client').metadata.annotations).toEqual({ [REFUSED_CALLS_ANNOTATION]: 'billing.finance:443,orders:8080 GET /' });
    expect(() => d.addRefusedCall(ServiceReference.fromName('orders'), 8080, { method: 'get' })).toThrow(/\[lab\/C\] LKD-INPUT-.*addRefusedCall: method "get"/);
  });

  test('a refusal the policy allows fails synth; under deny it passes', () => {
    const build = (policy: DefaultInboundPolicy) => {
      const chart = labChart();
      new MeshedNamespace(chart, 'Ns', { name: 'mesh-lab', defaultInboundPolicy: policy });
      const server = new MeshedDeployment(chart, 'S', { name: 'orders', app: 'orders', containers: [{ ...container, ports: [{ number: 8080 }] }] });
      const svc = new kplus.Service(chart, 'Svc', { metadata: { name: 'orders' }, ports: [{ port: 8080 }] });
      for (const [k, v] of Object.entries(server.selectorLabels)) svc.selectLabel(k, v);
      new MeshedDeployment(chart, 'C', { name: 'wrong-client', app: 'wrong-client', containers: [container], refusedCalls: [{ service: ServiceReference.fromService(svc), port: 8080 }] });
      return chart;
    };
    expect(() => synthChecked(build(DefaultInboundPolicy.ALL_UNAUTHENTICATED))).toThrow(/LKD-POL-026 at lab\/C .*refuses its requests to orders\.mesh-lab:8080, but the inbound policy allows them/);
    expect(() => synthChecked(build(DefaultInboundPolicy.DENY))).not.toThrow();
  });

  test('mesh-lab\'s negative experiment declares its refusals and they are proven (no policy: broken)', () => {
    const run = (withPolicy: boolean) => {
      const app = Testing.app();
      const objects = [...synth(new MeshLab(app, 'mesh-lab', { withPolicy }) as any), ...synth(new NegativeExperiment(app, 'negative') as any)];
      return { objects, findings: findings(objects) };
    };
    const proven = run(true);
    expect(find(proven.objects, 'Deployment', 'wrong-client').metadata.annotations[REFUSED_CALLS_ANNOTATION]).toBe('orders:8080 GET /');
    expect(find(proven.objects, 'Deployment', 'plain-client').metadata.annotations[REFUSED_CALLS_ANNOTATION]).toBe('orders:8080 GET /');
    expect(proven.findings).toEqual([]);
    expect(run(false).findings.map((f) => [f.resource.name, f.severity]).sort()).toEqual([['plain-client', 'error'], ['wrong-client', 'error']]);
  });
});
