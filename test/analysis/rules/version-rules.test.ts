import { analyze } from '../../../src/analysis/engine';
import { argoApp, fluxRelease, manifests, workload } from '../../delivery/fixtures';

function findings(objects: any[], ruleId: string, options = {}) {
  return analyze(manifests(objects), options).findings.filter((f) => f.ruleId === ruleId);
}

const PINNED_VALUES = { webhookFailurePolicy: 'Fail' };

describe('LKD-VER-001 pinned charts and images', () => {
  test('passes for exact chart versions, pinned value images and tagged workload images', () => {
    expect(findings([
      argoApp('linkerd-crds', 'linkerd-crds', '2026.6.3', {}),
      argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { ...PINNED_VALUES, proxy: { image: { version: 'edge-26.6.3' } } }),
      fluxRelease('linkerd-viz', 'linkerd-viz', '2026.6.3'),
      workload('web', ['nginx:1.27', 'registry.example/app@sha256:' + 'a'.repeat(64)]),
    ], 'LKD-VER-001')).toEqual([]);
  });

  test.each([
    ['Argo CD latest', argoApp('linkerd-control-plane', 'linkerd-control-plane', 'latest'), /Argo CD Application installs chart linkerd-control-plane with spec\.source\.targetRevision "latest": .*floats/],
    ['Argo CD range', argoApp('linkerd-crds', 'linkerd-crds', '>=2026.6.0'), /targetRevision ">=2026\.6\.0": .*range/],
    ['Argo CD without a revision', argoApp('linkerd-crds', 'linkerd-crds', undefined), /no chart version is set/],
    ['Flux range', fluxRelease('linkerd-control-plane', 'linkerd-control-plane', '^2026.6.0'), /Flux HelmRelease installs chart linkerd-control-plane with spec\.chart\.spec\.version "\^2026\.6\.0"/],
    ['Flux without a version', fluxRelease('linkerd-crds', 'linkerd-crds', undefined), /no chart version/],
    ['a latest proxy image value', argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { proxy: { image: { version: 'latest' } } }), /proxy\.image\.version: the tag "latest"/],
    ['a latest image in YAML values', argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', undefined, { values: 'controllerImageVersion: latest\n' }), /controllerImageVersion/],
    ['an untagged Linkerd image in a workload', workload('web', ['cr.l5d.io/linkerd/proxy']), /container "c0": image "cr.l5d.io\/linkerd\/proxy" has no tag/],
  ])('fires on %s', (_what, object, message) => {
    const [finding, ...rest] = findings([object], 'LKD-VER-001');
    expect(rest).toEqual([]);
    expect(finding.message).toMatch(message);
    // What a floating version installs depends on what is published when it is next resolved: a warning.
    expect(finding.severity).toBe('warning');
  });

  // An application image that floats still runs on Linkerd, as in Linkerd's own test manifests: supply-chain advice (info).
  test.each([
    ['an untagged workload image', workload('web', ['nginx']), /container "c0": image "nginx" has no tag/],
    ['a latest workload image', workload('web', ['busybox:1.36', 'nginx:latest']), /container "c1": image "nginx:latest": the tag "latest"/],
  ])('advises on %s', (_what, object, message) => {
    const [finding, ...rest] = findings([object], 'LKD-VER-001');
    expect(rest).toEqual([]);
    expect(finding.message).toMatch(message);
    expect(finding.severity).toBe('info');
  });

  test('reads Flux chartRef OCIRepositories and follows valuesFrom ConfigMaps', () => {
    const oci = {
      apiVersion: 'source.toolkit.fluxcd.io/v1beta2',
      kind: 'OCIRepository',
      metadata: { name: 'linkerd-cp', namespace: 'flux-system' },
      spec: { url: 'oci://ghcr.io/example/charts/linkerd-control-plane', ref: { semver: '>=2026.6.0' } },
    };
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-values', namespace: 'flux-system' }, data: { 'values.yaml': 'proxy:\n  image:\n    version: latest\n' } };
    const release = fluxRelease('linkerd-control-plane', 'unused', undefined, undefined, { valuesFrom: [{ kind: 'ConfigMap', name: 'linkerd-values' }] });
    delete release.spec.chart;
    release.spec.chartRef = { kind: 'OCIRepository', name: 'linkerd-cp' };
    const messages = findings([oci, cm, release], 'LKD-VER-001').map((f) => f.message);
    expect(messages).toHaveLength(2);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/OCIRepository linkerd-cp spec\.ref ">=2026\.6\.0"/),
      expect.stringMatching(/proxy\.image\.version/),
    ]));
  });

  test('an OCIRepository pinned by ref.digest is pinned (Flux prefers the digest to any tag or semver)', () => {
    const oci = {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'OCIRepository',
      metadata: { name: 'linkerd-cp', namespace: 'flux-system' },
      spec: { url: 'oci://ghcr.io/linkerd/charts/linkerd-control-plane', ref: { digest: `sha256:${'2c'.repeat(32)}`, semver: '>=2026.6.0' } },
    };
    const release = fluxRelease('linkerd-control-plane', 'unused', undefined);
    delete release.spec.chart;
    release.spec.chartRef = { kind: 'OCIRepository', name: 'linkerd-cp' };
    expect(findings([oci, release], 'LKD-VER-001')).toEqual([]);
    // A ref.digest that is no digest pins nothing.
    oci.spec.ref = { digest: 'latest', semver: '>=2026.6.0' };
    expect(findings([oci, release], 'LKD-VER-001')).toHaveLength(1);
  });

  // Flux HelmChartTemplateSpec: version is ignored for charts from a GitRepository or a Bucket; the source's ref pins.
  test('a chart from a GitRepository is pinned by the repository\'s ref, not by spec.chart.spec.version', () => {
    const git = (ref: any) => ({ apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'GitRepository', metadata: { name: 'linkerd2', namespace: 'flux-system' }, spec: { url: 'https://github.com/linkerd/linkerd2', ref } });
    const release = fluxRelease('linkerd-control-plane', './charts/linkerd-control-plane', undefined);
    release.spec.chart.spec.sourceRef = { kind: 'GitRepository', name: 'linkerd2' };
    const verdict = (ref: any) => findings(ref === undefined ? [release] : [git(ref), release], 'LKD-VER-001').map((f) => f.message);
    expect(verdict({ tag: 'version-2.20' })).toEqual([]);
    expect(verdict({ commit: 'a'.repeat(40), branch: 'main' })).toEqual([]);
    expect(verdict({ name: 'refs/tags/version-2.20' })).toEqual([]);
    expect(verdict({ semver: '2026.6.3' })).toEqual([]);
    expect(verdict(undefined)).toEqual([]); // the GitRepository is not here: nothing says how it is pinned
    expect(verdict({ branch: 'main' })).toEqual([expect.stringMatching(/from GitRepository linkerd2 spec.ref follows branch "main", so the control plane can change/)]);
    expect(verdict({})).toEqual([expect.stringMatching(/follows branch "master"/)]);
    expect(verdict({ semver: '>=2026.6.0' })).toEqual([expect.stringMatching(/GitRepository linkerd2 spec.ref.semver ">=2026.6.0": .*range/)]);
  });

  test('ignores non-Linkerd charts and inventory workloads', () => {
    expect(findings([argoApp('podinfo', 'podinfo', 'latest')], 'LKD-VER-001')).toEqual([]);
    expect(findings([], 'LKD-VER-001', { inventory: [workload('legacy', ['nginx'])] })).toEqual([]);
  });
});

describe('LKD-VER-002 proxy version overrides', () => {
  test('passes without overrides, and with overrides equal to the control plane', () => {
    expect(findings([
      argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { proxy: { image: { version: 'edge-26.6.3' } } }),
      workload('web', ['nginx:1.27'], { 'config.linkerd.io/proxy-version': 'edge-26.6.3' }),
      workload('api', ['nginx:1.27']),
    ], 'LKD-VER-002')).toEqual([]);
  });

  test('fires on a pod annotation that differs from the control plane in the output', () => {
    const [finding] = findings([
      fluxRelease('linkerd-control-plane', 'linkerd-control-plane', '2026.7.1', {}),
      workload('web', ['nginx:1.27'], { 'config.linkerd.io/proxy-version': 'edge-26.6.3' }),
    ], 'LKD-VER-002');
    expect(finding.severity).toBe('warning');
    expect(finding.resource).toMatchObject({ kind: 'Deployment', name: 'web' });
    expect(finding.message).toMatch(/proxy-version: edge-26\.6\.3 differs from the control plane \(edge-26\.7\.1, from Flux HelmRelease linkerd-control-plane\)/);
  });

  test('without a control plane in the output, compares with Linkerd 2.20; namespaces count too', () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', annotations: { 'config.linkerd.io/proxy-version': 'edge-25.1.1' } } };
    const result = findings([ns, workload('web', ['nginx:1.27'], { 'config.linkerd.io/proxy-version': 'edge-25.1.1' })], 'LKD-VER-002');
    expect(result.map((f) => f.resource.kind).sort()).toEqual(['Deployment', 'Namespace']);
    expect(result[0].message).toMatch(/edge-26\.6\.3, from Linkerd 2\.20/);
  });

  // charts/partials/templates/_proxy-init.tpl runs linkerd-init from the proxy image, which carries proxy-init since edge-25.11.3.
  test('a proxy version from before the combined proxy image breaks the pods without the CNI plugin', () => {
    const pinned = (cniEnabled: boolean) => findings([
      argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { cniEnabled }),
      workload('web', ['nginx:1.27'], { 'config.linkerd.io/proxy-version': 'stable-2.19.2' }),
    ], 'LKD-VER-002');
    expect(pinned(false).map((f) => [f.severity, f.message])).toEqual([
      ['error', expect.stringMatching(/stable-2\.19\.2 differs .*runs linkerd-init from the proxy image .*before edge-25\.11\.3 do not have: without the CNI plugin \(cniEnabled in the/)],
    ]);
    expect(pinned(true).map((f) => [f.severity, f.message.includes('linkerd-init')])).toEqual([['warning', false]]);
    const newer = findings([argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { cniEnabled: false }),
      workload('web', ['nginx:1.27'], { 'config.linkerd.io/proxy-version': 'edge-25.11.3' })], 'LKD-VER-002');
    expect(newer.map((f) => f.severity)).toEqual(['warning']);
  });

  test('fires on a proxy.image.version value that differs from the chart\'s version', () => {
    const [finding] = findings([argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { proxy: { image: { version: 'edge-26.5.1' } } })], 'LKD-VER-002');
    expect(finding.message).toMatch(/sets proxy\.image\.version: edge-26\.5\.1, but the control plane runs edge-26\.6\.3/);
  });

  test('an explicit linkerdVersion value is the control plane\'s version', () => {
    expect(findings([
      argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { linkerdVersion: 'edge-26.6.3-hotfix', proxy: { image: { version: 'edge-26.6.3-hotfix' } } }),
    ], 'LKD-VER-002')).toEqual([]);
  });
});
