import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Testing } from 'cdk8s';
import { MeshLab, NegativeExperiment } from '../../examples/mesh-lab/mesh-lab';
import { MeshChecks, Severity } from '../../src';
import { conformanceIssues } from '../support/conformance';
import { describeWithShared } from '../support/shared';
import { find, synthChecked } from '../support/synth';

function meshLab(props = {}) {
  const app = Testing.app();
  const chart = new MeshLab(app, 'mesh-lab', props);
  return { app, chart, objects: synthChecked(chart) };
}

describe('mesh-lab, object for object', () => {
  const { objects } = meshLab();

  test('has exactly the seed\'s objects', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'AuthorizationPolicy/client-to-orders',
      'Deployment/client', 'Deployment/orders-v1', 'Deployment/orders-v2',
      'HTTPRoute/orders-split',
      'MeshTLSAuthentication/client-sa',
      'Namespace/mesh-lab',
      'Server/orders-http',
      'Service/orders', 'Service/orders-v1', 'Service/orders-v2',
      'ServiceAccount/client', 'ServiceAccount/orders',
    ]);
    for (const o of objects.filter((x) => x.kind !== 'Namespace')) expect(o.metadata.namespace).toBe('mesh-lab');
  });

  test('the namespace is injected', () => {
    expect(find(objects, 'Namespace', 'mesh-lab').metadata.annotations).toEqual({ 'linkerd.io/inject': 'enabled' });
  });

  test.each(['v1', 'v2'])('orders-%s runs http-echo under the orders identity with its version labels', (version) => {
    const d = find(objects, 'Deployment', `orders-${version}`);
    const labels = { 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': version };
    expect(d.spec.selector.matchLabels).toEqual(labels);
    expect(d.spec.template.metadata.labels).toMatchObject(labels);
    expect(d.spec.template.spec.serviceAccountName).toBe('orders');
    const [c] = d.spec.template.spec.containers;
    expect(c.image).toBe('hashicorp/http-echo:1.0.0');
    expect(c.args).toEqual(['-listen=:8080', `-text=${version}`]);
    expect(c.ports).toEqual([{ containerPort: 8080, name: 'http' }]);
    // Runs non-root with a numeric UID (the image has no USER); probes reach http-echo's own /health over HTTP, so the
    // probe route Linkerd generates opens only that path (not "/") to unauthenticated callers.
    expect(c.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532 });
    expect(c.startupProbe.httpGet).toMatchObject({ path: '/health', port: 8080 });
    expect(c.readinessProbe.httpGet).toMatchObject({ path: '/health', port: 8080 });
  });

  test('client runs curl idle under the client identity', () => {
    const d = find(objects, 'Deployment', 'client');
    expect(d.spec.template.spec.serviceAccountName).toBe('client');
    expect(d.spec.template.spec.containers[0]).toMatchObject({ image: 'curlimages/curl:8.14.1', command: ['sleep', 'infinity'] });
    expect(d.spec.template.spec.containers[0].securityContext).toMatchObject({ runAsUser: 100, runAsNonRoot: true });
  });

  test('each versioned Service selects only its own version; orders selects both', () => {
    expect(find(objects, 'Service', 'orders-v1').spec.selector).toEqual({ 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': 'v1' });
    expect(find(objects, 'Service', 'orders-v2').spec.selector).toEqual({ 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': 'v2' });
    expect(find(objects, 'Service', 'orders').spec.selector).toEqual({ 'app.kubernetes.io/name': 'orders' });
    for (const name of ['orders', 'orders-v1', 'orders-v2']) {
      expect(find(objects, 'Service', name).spec.ports).toEqual([{ name: 'http', port: 8080, targetPort: 8080 }]);
    }
  });

  test('Server, MeshTLSAuthentication and AuthorizationPolicy allow only the client identity on orders:8080', () => {
    expect(find(objects, 'Server', 'orders-http').spec).toEqual({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } }, port: 8080, proxyProtocol: 'HTTP/1' });
    expect(find(objects, 'MeshTLSAuthentication', 'client-sa').spec).toEqual({ identityRefs: [{ kind: 'ServiceAccount', name: 'client' }] });
    expect(find(objects, 'AuthorizationPolicy', 'client-to-orders').spec).toEqual({
      targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' },
      requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', name: 'client-sa' }],
    });
  });

  test('orders-split sends 90% to v1 and 10% to v2 through a core Service parent', () => {
    const route = find(objects, 'HTTPRoute', 'orders-split');
    expect(route.spec.parentRefs).toEqual([{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }]);
    expect(route.spec.rules[0].backendRefs).toEqual([{ name: 'orders-v1', port: 8080, weight: 90 }, { name: 'orders-v2', port: 8080, weight: 10 }]);
  });

  test('the negative experiment adds wrong-client (default identity) and plain-client (not injected)', () => {
    const app = Testing.app();
    new MeshLab(app, 'mesh-lab');
    const negative = synthChecked(new NegativeExperiment(app, 'negative'));
    expect(find(negative, 'Deployment', 'wrong-client').spec.template.spec.serviceAccountName).toBe('default');
    expect(find(negative, 'Deployment', 'plain-client').spec.template.metadata.annotations).toEqual({ 'linkerd.io/inject': 'disabled' });
  });
});

describe('mesh-lab checks', () => {
  test('synthesizes with zero errors from the check engine', () => {
    const { chart } = meshLab();
    const errors = MeshChecks.of(chart).analyze().filter((f) => f.severity === Severity.ERROR);
    expect(errors).toEqual([]);
  });
});

describeWithShared('mesh-lab against the real CRDs', () => {
  test('every object passes the conformance harness (schema, defaults and CEL)', () => {
    const app = Testing.app();
    const objects = [...synthChecked(new MeshLab(app, 'mesh-lab')), ...synthChecked(new NegativeExperiment(app, 'negative'))];
    expect(conformanceIssues(objects)).toEqual([]);
  });
});

describe('mesh-lab output', () => {
  function synthToDir(): string {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesh-lab-'));
    const app = new App({ outdir });
    new MeshLab(app, 'mesh-lab');
    app.synth();
    return fs.readFileSync(path.join(outdir, 'mesh-lab.k8s.yaml'), 'utf8');
  }

  test('two synths are byte-identical', () => {
    expect(synthToDir()).toEqual(synthToDir());
  });

  test('matches the reviewed manifest', () => {
    expect(synthToDir()).toMatchSnapshot();
  });
});
