/**
 * MeshVerification: a Job per declared call and refusal, running as the caller; the Jobs' own scripts (as
 * synthesized) run with sh and curl against a local server answering as the target's proxy would.
 */
import { execFile } from 'child_process';
import * as http from 'http';
import { AddressInfo } from 'net';
import { Testing } from 'cdk8s';
import { MeshLab, NegativeExperiment, Verification } from '../../examples/mesh-lab/mesh-lab';
import { MeshVerification, MeshedDeployment, ServiceReference, VerificationProtocol } from '../../src/index';
import { labChart, synth, synthChecked } from '../support/synth';

const container = { image: 'curlimages/curl:8.14.1', securityContext: { user: 100 } };
const jobs = (objects: any[]) => objects.filter((o) => o.kind === 'Job');
const env = (job: any): Record<string, string> => Object.fromEntries(job.spec.template.spec.containers[0].env.map((e: any) => [e.name, e.value]));

function meshLabWithVerification() {
  const app = Testing.app();
  const lab = new MeshLab(app, 'mesh-lab');
  const negative = new NegativeExperiment(app, 'negative');
  const verify = new Verification(app, 'verify');
  return { lab, negative, verify, objects: synthChecked(verify) };
}

describe('MeshVerification', () => {
  test('mesh-lab with its negative experiment: client allowed, wrong-client and plain-client refused, each as itself', () => {
    const { objects, verify } = meshLabWithVerification();
    expect(jobs(objects).map((j) => [j.metadata.name, j.metadata.namespace, j.spec.template.spec.serviceAccountName, env(j).VERIFY_EXPECT,
      j.spec.template.metadata.annotations])).toEqual([
      ['verify-client-call-1', 'mesh-lab', 'client', 'allowed', { 'linkerd.io/inject': 'enabled', 'config.linkerd.io/proxy-enable-native-sidecar': 'true' }],
      ['verify-wrong-client-refused-1', 'mesh-lab', 'default', 'refused', { 'linkerd.io/inject': 'enabled', 'config.linkerd.io/proxy-enable-native-sidecar': 'true' }],
      ['verify-plain-client-refused-1', 'mesh-lab', 'plain-client', 'refused', { 'linkerd.io/inject': 'disabled' }],
    ]);
    for (const job of jobs(objects)) {
      expect(env(job)).toMatchObject({ VERIFY_URL: 'http://orders.mesh-lab.svc.cluster.local:8080/', VERIFY_METHOD: 'GET', VERIFY_PROTOCOL: 'http' });
      expect(job.spec).toMatchObject({ backoffLimit: 0, template: { spec: { restartPolicy: 'Never', automountServiceAccountToken: false } } });
      expect(job.spec.template.spec.containers[0].image).toBe('curlimages/curl:8.14.1');
    }
    const runbook = verify.verification.runbook('cdk8s.out/mesh-lab-verify.k8s.yaml');
    expect(runbook).toContain('kubectl apply -f cdk8s.out/mesh-lab-verify.k8s.yaml');
    expect(runbook).toContain('kubectl -n mesh-lab logs -l app.kubernetes.io/component=mesh-verification -c verify --prefix --tail=1');
    expect(runbook).toContain('kubectl delete -f cdk8s.out/mesh-lab-verify.k8s.yaml');
  });

  test('given workloads only; gRPC posts to the declared path; another namespace and cluster domain', () => {
    const chart = labChart();
    const a = new MeshedDeployment(chart, 'A', { name: 'a', app: 'a', containers: [container] });
    const b = new MeshedDeployment(chart, 'B', { name: 'b', app: 'b', containers: [container] });
    a.addCall(ServiceReference.fromName('orders', 'shop'), 9090, { path: '/orders.Orders/Get' });
    b.addRefusedCall(ServiceReference.fromName('orders', 'shop'), 9090);
    const objects = synth(chart);
    new MeshVerification(chart, 'V', { workloads: [a], protocol: VerificationProtocol.GRPC, clusterDomain: 'example.internal' });
    const [job, ...rest] = jobs(synth(chart)).filter((j) => !objects.includes(j));
    expect(rest).toEqual([]);
    expect(env(job)).toMatchObject({ VERIFY_URL: 'http://orders.shop.svc.example.internal:9090/orders.Orders/Get', VERIFY_METHOD: 'POST', VERIFY_PROTOCOL: 'grpc', VERIFY_EXPECT: 'allowed' });
  });

  test('a call declared after the MeshVerification fails synth instead of going unverified', () => {
    const chart = labChart();
    const a = new MeshedDeployment(chart, 'A', { name: 'a', app: 'a', containers: [container] });
    a.addCall(ServiceReference.fromName('orders'), 8080);
    new MeshVerification(chart, 'V', { workloads: [a] });
    a.addRefusedCall(ServiceReference.fromName('orders'), 9090);
    expect(() => synthChecked(chart)).toThrow(/LKD-INPUT-\d{3}: MeshVerification lab\/V has no Job for calls or refusals that a declared after it was created/);
  });

  test('nothing declared, or bad input: a coded error naming the construct', () => {
    const chart = labChart();
    expect(() => new MeshVerification(chart, 'V')).toThrow(/\[lab\/V\] LKD-INPUT-\d{3}: MeshVerification found no declared call or refusal/);
    const a = new MeshedDeployment(chart, 'A', { name: 'a', app: 'a', containers: [container] });
    a.addCall(ServiceReference.fromName('orders'), 8080);
    expect(() => new MeshVerification(chart, 'W', { clusterDomain: 'Not A Domain' })).toThrow(/\[lab\/W\] LKD-INPUT-\d{3}: clusterDomain "Not A Domain"/);
    expect(() => new MeshVerification(chart, 'X', { timeoutSeconds: 0 })).toThrow(/\[lab\/X\] LKD-INPUT-\d{3}/);
  });
});

/** Runs a synthesized Job's container command with its env, the URL pointed at a local server. */
function runJob(job: any, url: string): Promise<{ code: number; stdout: string }> {
  const c = job.spec.template.spec.containers[0];
  return new Promise((resolve) => {
    execFile(c.command[0], c.command.slice(1), { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env(job), VERIFY_URL: url } },
      (error, stdout) => resolve({ code: error ? Number((error as any).code) : 0, stdout }));
  });
}

describe('mesh-lab\'s Jobs, run against a local server answering as orders\' proxy would', () => {
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/as-proxy-refuses') {
        res.writeHead(403, { 'content-length': '0' });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('v1\n');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('each Job passes when the proxy answers as declared and fails when the request reaches the app wrongly', async () => {
    const all = jobs(meshLabWithVerification().objects);
    const results = [];
    for (const job of all) {
      const refused = env(job).VERIFY_EXPECT === 'refused';
      const asDeclared = await runJob(job, `${base}${refused ? '/as-proxy-refuses' : '/'}`);
      const otherwise = await runJob(job, `${base}${refused ? '/' : '/as-proxy-refuses'}`);
      results.push([job.metadata.name, asDeclared.code, asDeclared.stdout.trim().split(':')[0], otherwise.code, otherwise.stdout.trim().split(':')[0]]);
    }
    expect(results).toEqual([
      ['verify-client-call-1', 0, 'PASS expected allowed', 1, 'FAIL expected allowed'],
      ['verify-wrong-client-refused-1', 0, 'PASS expected refused', 1, 'FAIL expected refused'],
      ['verify-plain-client-refused-1', 0, 'PASS expected refused', 1, 'FAIL expected refused'],
    ]);
  });
});
