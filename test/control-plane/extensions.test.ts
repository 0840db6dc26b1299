import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as yaml from 'js-yaml';
import { analyze } from '../../src/analysis/engine';
import { MeshChecks } from '../../src/checks/mesh-checks';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';
import { helmReleaseProps } from '../../src/control-plane/delivery/helm';
import { ReleaseStage } from '../../src/control-plane/delivery/releases';
import { LinkerdViz, TapAccess, TapSubject, VizScrapeAccess, vizHighAvailabilityValues } from '../../src/control-plane/extensions';
import { LinkerdIdentity } from '../../src/control-plane/identity/identity';
import { LinkerdControlPlane } from '../../src/control-plane/install/control-plane';
import { leaves, valueAt } from '../../src/core/helm-values';
import { Props, indexOf, only } from '../delivery/fixtures';
import { conformanceIssues } from '../support/conformance';
import { CHART_DIR, describeWithShared } from '../support/shared';

function platform(props: Props = {}, delivery = LinkerdDelivery.argoCd()) {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  MeshChecks.of(chart).configure({ printWarnings: false });
  const cp = new LinkerdControlPlane(chart, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), delivery, ...props });
  return { app, chart, cp };
}

/** A meshed namespace moving to deny, with one workload (as its team deploys it). */
function shop(labels: Record<string, string> = {}): any[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels, annotations: { 'linkerd.io/inject': 'enabled', 'config.linkerd.io/default-inbound-policy': 'deny' } } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'orders', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'orders' } }, template: { metadata: { labels: { app: 'orders' } }, spec: { containers: [{ name: 'orders', image: 'hashicorp/http-echo:1.0.0' }] } } },
    },
  ];
}

describe('LinkerdViz: the same delivery forms, after the core', () => {
  test('Argo CD: an Application in wave 2, after the control plane\'s wave 1, pinned like the core, with the namespace in wave -1', () => {
    const { chart, cp } = platform();
    new LinkerdViz(chart, 'Viz', { controlPlane: cp });
    const objects = Testing.synth(chart);
    const viz = only(objects, 'Application', 'linkerd-viz');
    expect(viz.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('2');
    expect(viz.spec.source).toMatchObject({ chart: 'linkerd-viz', targetRevision: '2026.6.3', repoURL: 'https://helm.linkerd.io/edge' });
    expect(viz.spec.destination.namespace).toBe('linkerd-viz');
    expect(viz.spec.source.helm.valuesObject).toMatchObject({ linkerdNamespace: 'linkerd', identityTrustDomain: 'cluster.local' });
    expect(indexOf(objects, 'Application', 'linkerd-control-plane')).toBeLessThan(indexOf(objects, 'Application', 'linkerd-viz'));
    const ns = only(objects, 'Namespace', 'linkerd-viz');
    expect(ns.metadata.labels).toEqual({ 'linkerd.io/extension': 'viz', 'pod-security.kubernetes.io/enforce': 'privileged' });
  });

  test('Flux: a HelmRelease that dependsOn the control-plane release', () => {
    const { chart, cp } = platform({}, LinkerdDelivery.flux());
    new LinkerdViz(chart, 'Viz', { controlPlane: cp, namespace: 'viz' });
    const release = only(Testing.synth(chart), 'HelmRelease', 'linkerd-viz');
    expect(release.spec.dependsOn).toEqual([{ name: 'linkerd-control-plane', namespace: 'flux-system' }]);
    expect(release.spec).toMatchObject({ targetNamespace: 'viz', chart: { spec: { chart: 'linkerd-viz', version: '2026.6.3' } } });
  });

  test('Helm: the props handed to helm template name the chart, version, namespace and values', () => {
    // The Helm form needs the helm binary at construction; the props come from the install alone.
    const { cp } = platform();
    const props = helmReleaseProps(cp._install, {}, {
      id: 'Viz',
      chart: 'linkerd-viz',
      releaseName: 'linkerd-viz',
      namespace: 'linkerd-viz',
      values: { a: 1 },
      stage: ReleaseStage.AFTER_CONTROL_PLANE,
      selector: 'linkerd.io/extension=viz',
    });
    expect(props).toMatchObject({ chart: 'linkerd-viz', version: '2026.6.3', namespace: 'linkerd-viz', releaseName: 'linkerd-viz', values: { a: 1 } });
    expect(props.helmFlags).toEqual(['--kube-version', 'v1.31.0']);
  });

  test('the exit runbook removes viz with the delivery form\'s own command before the core', () => {
    const { chart, cp } = platform();
    new LinkerdViz(chart, 'Viz', { controlPlane: cp });
    const exit = cp.exitRunbook();
    const vizAt = exit.indexOf('argocd app delete linkerd-viz --cascade');
    expect(vizAt).toBeGreaterThan(0);
    expect(vizAt).toBeLessThan(exit.indexOf('argocd app delete linkerd-control-plane'));
    expect(exit).not.toContain('linkerd viz uninstall');
  });

  test('an external Prometheus turns the chart\'s off, and an invalid URL is refused', () => {
    const { chart, cp } = platform();
    const viz = new LinkerdViz(chart, 'Viz', { controlPlane: cp, externalPrometheusUrl: 'http://prometheus.monitoring.svc:9090' });
    expect(viz.values).toMatchObject({ prometheusUrl: 'http://prometheus.monitoring.svc:9090', prometheus: { enabled: false } });
    expect(viz.prometheusServiceAccount).toBeUndefined();
    expect(() => new LinkerdViz(chart, 'Viz2', { controlPlane: cp, externalPrometheusUrl: 'prometheus:9090' })).toThrow(/LKD-INPUT-006: externalPrometheusUrl/);
    expect(() => new VizScrapeAccess(chart, 'S', { namespace: 'shop', viz })).toThrow(/external Prometheus/);
  });
});

describeWithShared('viz HA preset against the chart\'s values-ha.yaml', () => {
  const fileLeaves = leaves(yaml.load(fs.readFileSync(path.join(CHART_DIR, 'linkerd-viz', 'values-ha.yaml'), 'utf8')) as any);
  test('the file has keys', () => expect(fileLeaves.length).toBeGreaterThan(10));
  test.each(fileLeaves)('preset %s equals the file', (key, value) => {
    expect(valueAt(vizHighAvailabilityValues(), key)).toEqual(value);
  });
  test('the preset has no key the file lacks', () => {
    const fileKeys = new Set(fileLeaves.map(([k]) => k));
    expect(leaves(vizHighAvailabilityValues()).map(([k]) => k).filter((k) => !fileKeys.has(k))).toEqual([]);
  });
});

describe('VizScrapeAccess: the objects of `linkerd viz allow-scrapes`, and LKD-POL-021 without a flag', () => {
  function withViz(scrapes: boolean) {
    const { chart, cp } = platform();
    MeshChecks.of(chart).configure({ printWarnings: false, inventory: shop() });
    const viz = new LinkerdViz(chart, 'Viz', { controlPlane: cp });
    if (scrapes) new VizScrapeAccess(chart, 'Scrapes', { namespace: 'shop', viz });
    return Testing.synth(chart);
  }
  const pol021 = (objects: any[]) => analyze([...objects, ...shop()].map((object) => ({ object }))).findings.filter((f) => f.ruleId === 'LKD-POL-021');

  test('writes the Server, the two routes and the two policies allow-scrapes writes', () => {
    const objects = withViz(true).filter((o) => o.metadata.namespace === 'shop');
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Server/proxy-admin', 'HTTPRoute/proxy-metrics', 'HTTPRoute/proxy-probes', 'AuthorizationPolicy/prometheus-scrape', 'AuthorizationPolicy/proxy-probes',
    ]);
    expect(only(objects, 'Server').spec).toEqual({ podSelector: { matchExpressions: [{ key: 'linkerd.io/control-plane-ns', operator: 'Exists' }] }, port: 'linkerd-admin', proxyProtocol: 'HTTP/1' });
    expect(only(objects, 'AuthorizationPolicy', 'prometheus-scrape').spec.requiredAuthenticationRefs).toEqual([{ kind: 'ServiceAccount', name: 'prometheus', namespace: 'linkerd-viz' }]);
    expect(only(objects, 'AuthorizationPolicy', 'proxy-probes').spec.requiredAuthenticationRefs[0]).toMatchObject({ kind: 'NetworkAuthentication', name: 'kubelet' });
  });

  test('the viz Application alone makes LKD-POL-021 check the scrapes (no prometheusServiceAccount flag): it fires under deny', () => {
    const findings = pol021(withViz(false));
    expect(findings.map((f) => f.message)).toEqual([expect.stringMatching(/Prometheus \(ServiceAccount linkerd-viz\/prometheus\) cannot scrape .*Deployment shop\/orders/)]);
  });

  test('with the allow-scrapes objects it passes, and no other rule objects to them', () => {
    const objects = withViz(true);
    expect(pol021(objects)).toEqual([]);
    const all = analyze([...objects, ...shop()].map((object) => ({ object }))).findings;
    expect(all.filter((f) => f.resource.namespace === 'shop' && f.severity !== 'info')).toEqual([]);
  });
});

describe('TapAccess: tap only for a subject granted on purpose', () => {
  test('a ClusterRoleBinding to viz\'s tap-admin ClusterRole, or a RoleBinding in one namespace', () => {
    const { chart, cp } = platform();
    const viz = new LinkerdViz(chart, 'Viz', { controlPlane: cp });
    new TapAccess(chart, 'Sre', { viz, subject: TapSubject.group('sre'), bindingName: 'sre-tap' });
    new TapAccess(chart, 'Dev', { viz, subject: TapSubject.serviceAccount('tools', 'debugger'), namespace: 'shop', bindingName: 'debugger-tap' });
    const objects = Testing.synth(chart);
    expect(only(objects, 'ClusterRoleBinding', 'sre-tap')).toMatchObject({ roleRef: { kind: 'ClusterRole', name: 'linkerd-linkerd-viz-tap-admin' }, subjects: [{ kind: 'Group', name: 'sre', apiGroup: 'rbac.authorization.k8s.io' }] });
    expect(only(objects, 'ClusterRoleBinding', 'sre-tap').metadata.namespace).toBeUndefined();
    expect(only(objects, 'RoleBinding', 'debugger-tap')).toMatchObject({ metadata: { namespace: 'shop' }, subjects: [{ kind: 'ServiceAccount', name: 'debugger', namespace: 'tools' }] });
  });
});

describe('CNI: linkerd2-cni before the control plane, cniEnabled to match', () => {
  test('Argo CD: the CNI Application in wave 0 precedes the control plane, whose values say cniEnabled: true', () => {
    const { chart } = platform({ cni: {} });
    const objects = Testing.synth(chart);
    const cni = only(objects, 'Application', 'linkerd2-cni');
    expect(cni.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('0');
    expect(cni.spec).toMatchObject({ source: { chart: 'linkerd2-cni', targetRevision: '2026.6.3' }, destination: { namespace: 'linkerd-cni' } });
    expect(indexOf(objects, 'Application', 'linkerd2-cni')).toBeLessThan(indexOf(objects, 'Application', 'linkerd-control-plane'));
    expect(only(objects, 'Application', 'linkerd-control-plane').spec.source.helm.valuesObject.cniEnabled).toBe(true);
    expect(only(objects, 'Namespace', 'linkerd-cni').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });

  test('Flux: the control plane dependsOn the CRDs and the CNI release', () => {
    const { chart } = platform({ cni: { namespace: 'cni' } }, LinkerdDelivery.flux());
    const objects = Testing.synth(chart);
    expect(only(objects, 'HelmRelease', 'linkerd-control-plane').spec.dependsOn.map((d: any) => d.name)).toEqual(['linkerd-crds', 'linkerd2-cni']);
    expect(only(objects, 'HelmRelease', 'linkerd2-cni').spec.targetNamespace).toBe('cni');
  });

  test('cniEnabled: false beside cni is refused; viz\'s namespace becomes restricted with the CNI', () => {
    expect(() => platform({ cni: {}, cniEnabled: false })).toThrow(/LKD-INPUT-004: cni installs linkerd2-cni but cniEnabled is false/);
    const { chart, cp } = platform({ cni: {} });
    new LinkerdViz(chart, 'Viz', { controlPlane: cp });
    expect(only(Testing.synth(chart), 'Namespace', 'linkerd-viz').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  test('the exit runbook removes the CNI after the control plane', () => {
    const { cp } = platform({ cni: {} });
    const exit = cp.exitRunbook();
    expect(exit.indexOf('argocd app delete linkerd2-cni')).toBeGreaterThan(exit.indexOf('argocd app delete linkerd-control-plane'));
  });
});

describeWithShared('the allow-scrapes objects against the real Linkerd 2.20 CRDs', () => {
  test('Server, HTTPRoutes and AuthorizationPolicies conform (structural schema, defaults, CEL)', () => {
    const { chart, cp } = platform();
    MeshChecks.of(chart).configure({ printWarnings: false, inventory: shop() });
    new VizScrapeAccess(chart, 'Scrapes', { namespace: 'shop', viz: new LinkerdViz(chart, 'Viz', { controlPlane: cp }) });
    const policy = Testing.synth(chart).filter((o) => o.apiVersion.startsWith('policy.linkerd.io/'));
    expect(policy).toHaveLength(5);
    expect(conformanceIssues(policy)).toEqual([]);
  });
});
