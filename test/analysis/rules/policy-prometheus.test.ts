import { App, Chart } from 'cdk8s';
import { AnalyzeOptions, analyze } from '../../../src/analysis/engine';
import { MeshChecks } from '../../../src/checks/mesh-checks';
import { readProperties } from '../../../src/checks/plugin-settings';
import { main } from '../../../src/frontends/cli/main';
import { NS, asManifests, meshLab, pick } from '../../support/mesh-fixture';

const RULE = 'LKD-POL-021';
const POLICY = 'policy.linkerd.io';
const VIZ_PROMETHEUS_SA = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'prometheus', namespace: 'linkerd-viz' } };

function scrapeFindings(objects: any[], options: AnalyzeOptions = {}) {
  return analyze(asManifests(objects), options).findings.filter((f) => f.ruleId === RULE);
}

function withDefault(policy: string): any[] {
  const objects = meshLab();
  pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/default-inbound-policy'] = policy;
  return objects;
}

/** What `linkerd viz allow-scrapes` writes: a Server on the proxy's named admin port for every injected pod, and its authorization. */
function allowScrapes(identity = 'prometheus.linkerd-viz.serviceaccount.identity.linkerd.cluster.local'): any[] {
  return [
    {
      apiVersion: `${POLICY}/v1beta3`,
      kind: 'Server',
      metadata: { name: 'proxy-admin', namespace: NS },
      spec: { podSelector: { matchExpressions: [{ key: 'linkerd.io/workload-ns', operator: 'Exists' }] }, port: 'linkerd-admin', proxyProtocol: 'HTTP/1' },
    },
    { apiVersion: `${POLICY}/v1alpha1`, kind: 'MeshTLSAuthentication', metadata: { name: 'prometheus', namespace: NS }, spec: { identities: [identity] } },
    {
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'AuthorizationPolicy',
      metadata: { name: 'prometheus-scrape', namespace: NS },
      spec: {
        targetRef: { group: POLICY, kind: 'Server', name: 'proxy-admin' },
        requiredAuthenticationRefs: [{ group: POLICY, kind: 'MeshTLSAuthentication', name: 'prometheus' }],
      },
    },
  ];
}

describe('LKD-POL-021 Prometheus scrapes of the proxy admin port', () => {
  test('is not checked when no Prometheus is known', () => {
    expect(scrapeFindings(withDefault('deny'))).toEqual([]);
  });

  test('passes under an authenticated default: linkerd-viz\'s Prometheus is meshed', () => {
    expect(scrapeFindings(meshLab(), { inventory: [VIZ_PROMETHEUS_SA] })).toEqual([]);
  });

  test('warns for every meshed workload when the namespace default is deny', () => {
    const found = scrapeFindings(withDefault('deny'), { inventory: [VIZ_PROMETHEUS_SA] });
    expect(found.map((f) => f.resource.name).sort()).toEqual(['client', 'orders-v1', 'orders-v2']);
    expect(found[0].severity).toBe('warning');
    expect(found[0].message).toMatch(/Prometheus \(ServiceAccount linkerd-viz\/prometheus\) cannot scrape .* admin port 4191: .*deny/);
  });

  test('allow-scrapes objects (a Server on the injected port linkerd-admin, selected by an injected label) fix it', () => {
    expect(scrapeFindings([...withDefault('deny'), ...allowScrapes()], { inventory: [VIZ_PROMETHEUS_SA] })).toEqual([]);
  });

  test('an allow-scrapes Server authorizing another identity leaves the scrapes denied', () => {
    const objects = [...withDefault('deny'), ...allowScrapes('grafana.linkerd-viz.serviceaccount.identity.linkerd.cluster.local')];
    const found = scrapeFindings(objects, { inventory: [VIZ_PROMETHEUS_SA] });
    expect(found).toHaveLength(3);
    expect(found[0].message).toMatch(/Server proxy-admin/);
  });

  test('a Server that selects the admin port without authorizing Prometheus denies it even under an open default (linkerd2#13013)', () => {
    const objects = meshLab();
    objects.push({
      apiVersion: `${POLICY}/v1beta3`,
      kind: 'Server',
      metadata: { name: 'orders-admin', namespace: NS },
      spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } }, port: 4191, proxyProtocol: 'HTTP/1' },
    });
    const found = scrapeFindings(objects, { inventory: [VIZ_PROMETHEUS_SA] });
    expect(found.map((f) => f.resource.name).sort()).toEqual(['orders-v1', 'orders-v2']);
  });

  test('a configured Prometheus is checked without linkerd-viz, on the admin port the pod configures', () => {
    const objects = withDefault('deny');
    pick(objects, 'Deployment', 'client').spec.template.metadata.annotations = { 'config.linkerd.io/admin-port': '9991' };
    const found = scrapeFindings(objects, { prometheusServiceAccount: 'monitoring/prometheus' });
    expect(found).toHaveLength(3);
    expect(found.find((f) => f.resource.name === 'client')!.message).toMatch(/monitoring\/prometheus\) cannot scrape .* admin port 9991/);
    const authorized = [...objects, ...allowScrapes('prometheus.monitoring.serviceaccount.identity.linkerd.cluster.local')];
    expect(scrapeFindings(authorized, { prometheusServiceAccount: 'monitoring/prometheus' })).toEqual([]);
  });

  test('injected pods carry the control plane\'s namespace as the injector writes it', () => {
    const objects = [...withDefault('deny'), ...allowScrapes('prometheus.linkerd-viz.serviceaccount.identity.linkerd-prod.cluster.local')];
    pick(objects, 'Server', 'proxy-admin').spec.podSelector = { matchLabels: { 'linkerd.io/control-plane-ns': 'linkerd-prod' } };
    expect(scrapeFindings(objects, { inventory: [VIZ_PROMETHEUS_SA], controlPlaneNamespace: 'linkerd-prod' })).toEqual([]);
    // Under the default namespace the same selector selects nothing, so the deny default applies again.
    expect(scrapeFindings(objects, { inventory: [VIZ_PROMETHEUS_SA] })).toHaveLength(3);
  });

  test('uninjected workloads are not scraped through a proxy and are not reported', () => {
    const objects = withDefault('deny');
    pick(objects, 'Deployment', 'client').spec.template.metadata.annotations = { 'linkerd.io/inject': 'disabled' };
    const found = scrapeFindings(objects, { inventory: [VIZ_PROMETHEUS_SA] });
    expect(found.map((f) => f.resource.name).sort()).toEqual(['orders-v1', 'orders-v2']);
  });
});

describe('the Prometheus option in every front-end', () => {
  test('MeshChecks.configure refuses a value that is not namespace/name', () => {
    const app = new App();
    new Chart(app, 'c');
    expect(() => MeshChecks.of(app).configure({ prometheusServiceAccount: 'prometheus' })).toThrow(/LKD-INPUT-\d+.*prometheusServiceAccount must be NAMESPACE\/SERVICEACCOUNT/);
    expect(() => MeshChecks.of(app).configure({ prometheusServiceAccount: 'monitoring/prometheus' })).not.toThrow();
  });

  test('the CLI flag is a usage error when malformed', () => {
    const err: string[] = [];
    const code = main(['analyze', '--prometheus', 'Monitoring', '.'], { cwd: process.cwd(), stdout: () => undefined, stderr: (s) => err.push(s) });
    expect(code).toBe(2);
    expect(err.join('')).toMatch(/--prometheus must be NAMESPACE\/SERVICEACCOUNT/);
  });

  test('the plugin property is read and checked', () => {
    expect(readProperties({ prometheusServiceAccount: 'monitoring/prometheus' }).context.prometheusServiceAccount).toBe('monitoring/prometheus');
    expect(() => readProperties({ prometheusServiceAccount: 'nope' })).toThrow(/prometheusServiceAccount must be NAMESPACE\/SERVICEACCOUNT/);
  });
});
