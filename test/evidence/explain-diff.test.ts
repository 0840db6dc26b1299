/**
 * explain and diff show the evidence (additive to their own output): declared refusals and their verdicts, the retry
 * factor per request class of a Service port, and the cluster-wide capacity of local rate limits.
 */
import { REFUSED_CALLS_ANNOTATION } from '../../src/core/vocabulary';
import { assertBuilt, removeDir, runCli, tempDir, writeYaml } from '../frontends/cli-harness';
import { meshLab, pick } from '../support/mesh-fixture';

function withEvidence(open: boolean): any[] {
  const objects = meshLab();
  const wrong = JSON.parse(JSON.stringify(pick(objects, 'Deployment', 'client')));
  wrong.metadata = { name: 'wrong-client', namespace: 'mesh-lab', annotations: { [REFUSED_CALLS_ANNOTATION]: 'orders:8080 GET /' } };
  wrong.spec.selector.matchLabels = { 'app.kubernetes.io/name': 'wrong-client' };
  wrong.spec.template.metadata.labels = { 'app.kubernetes.io/name': 'wrong-client' };
  wrong.spec.template.spec.serviceAccountName = 'default';
  pick(objects, 'Service', 'orders').metadata.annotations = { 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/limit': '2' };
  objects.push(wrong, {
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'HTTPLocalRateLimitPolicy',
    metadata: { name: 'orders-limit', namespace: 'mesh-lab' },
    spec: { targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }, total: { requestsPerSecond: 100 } },
  });
  if (open) pick(objects, 'Server', 'orders-http').spec.accessPolicy = 'all-unauthenticated';
  return objects;
}

describe('explain and diff show declared refusals, retry factors and rate-limit capacity', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = tempDir('evidence-explain');
    writeYaml(dir, 'base/mesh.yaml', withEvidence(false));
    writeYaml(dir, 'head/mesh.yaml', withEvidence(true));
  });
  afterAll(() => removeDir(dir));

  test('explain --to-service: the factor per request class, the rate limit\'s capacity, the refusal proven', () => {
    const text = runCli(['explain', 'base', '--to-service', 'mesh-lab/orders:8080'], { cwd: dir }).stdout;
    expect(text).toContain('  retry amplification (attempts per request, by request class; LKD-CAP-001 multiplies them along declared calls):');
    expect(text).toMatch(/ {4}HTTPRoute mesh-lab\/orders-split: ×3 \(retry\.linkerd\.io\/http="5xx", retry\.linkerd\.io\/limit="2" on Service mesh-lab\/orders\)/);
    expect(text).toContain('    HTTPLocalRateLimitPolicy mesh-lab/orders-limit on Server mesh-lab/orders-http, served by Deployment mesh-lab/orders-v1 (1 replica), '
      + 'Deployment mesh-lab/orders-v2 (1 replica): cluster-wide total 100 rps × 2 proxies = 200 rps');
    expect(text).toMatch(/ {4}REFUSED mesh-lab\/wrong-client → orders\.mesh-lab:8080 \(GET \/\): every workload behind it refuses it/);
    const json = JSON.parse(runCli(['explain', 'base', '--to-service', 'mesh-lab/orders:8080', '--format', 'json'], { cwd: dir }).stdout);
    expect(json.evidence.retryClasses).toEqual([{ name: 'HTTPRoute mesh-lab/orders-split', factor: 3, source: expect.stringContaining('Service mesh-lab/orders') }]);
  });

  test('explain --to a workload port: the refusals that land on it', () => {
    const run = runCli(['explain', 'head', '--to', 'mesh-lab/orders-v1:8080'], { cwd: dir });
    expect(run.stdout).toMatch(/ {4}ALLOWED mesh-lab\/wrong-client → orders\.mesh-lab:8080 \(GET \/\): Deployment mesh-lab\/orders-v1 lets it in: /);
  });

  test('diff lists a refusal the head allows, and --fail-on denied-to-allowed exits 1 for it', () => {
    const run = runCli(['diff', 'base', 'head', '--fail-on', 'denied-to-allowed'], { cwd: dir });
    expect(run.stdout).toMatch(/Declared refusals \(LKD-POL-026\):\n {2}! mesh-lab\/wrong-client → orders\.mesh-lab:8080 \(GET \/\): proven → allowed: /);
    expect(run.status).toBe(1);
    expect(runCli(['diff', 'base', 'base'], { cwd: dir }).stdout).not.toContain('Declared refusals');
  });
});
