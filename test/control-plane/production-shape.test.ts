import { ApiObject, Chart, Duration, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { MeshChecks } from '../../src/checks/mesh-checks';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';
import { FluxValuesKind } from '../../src/control-plane/delivery/flux';
import { addZoneSpread } from '../../src/control-plane/delivery/helm';
import { LinkerdViz } from '../../src/control-plane/extensions';
import { ExternalIssuerSecret, IssuerScheme, SecretStoreKind } from '../../src/control-plane/identity';
import { LinkerdIdentity } from '../../src/control-plane/identity/identity';
import { LinkerdControlPlane } from '../../src/control-plane/install/control-plane';
import { ZoneSpread } from '../../src/control-plane/install/fault-domains';
import { IMAGE_NAMES, ImageDistribution } from '../../src/control-plane/install/image-distribution';
import { MeshConfigError } from '../../src/core/errors';
import { IMAGE_DIGESTS_ANNOTATION, CHART_IMAGE_TABLE, imageValueProblems, imagesWithoutDigest } from '../../src/core/image-values';
import { Props, only } from '../delivery/fixtures';
import { certs } from '../support/certs';

const STATIC_IDENTITY = () => LinkerdIdentity.fromCertificates({ trustAnchorsPem: certs.root.certPem, issuerCertificatePem: certs.issuer.certPem });
const digest = (c: string) => `sha256:${c.repeat(64)}`;
const ALL_DIGESTS = Object.fromEntries(IMAGE_NAMES.map((name, i) => [name, digest('0123456789abcdef'[i % 16])]));

function platform(props: Props = {}, delivery = LinkerdDelivery.argoCd()) {
  const app = Testing.app();
  const chart = new Chart(app, 'platform');
  MeshChecks.of(chart).configure({ printWarnings: false });
  const cp = new LinkerdControlPlane(chart, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), delivery, ...props });
  return { chart, cp };
}

function errorOf(fn: () => unknown): MeshConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MeshConfigError);
    return e as MeshConfigError;
  }
  throw new Error('expected a MeshConfigError');
}

describe('ImageDistribution: every image of every chart, one setting', () => {
  const mirror = ImageDistribution.mirror('registry.example/linkerd', { digests: ALL_DIGESTS });

  test('the control plane: proxy (which proxy-init and the network validator run from), controller and debug images', () => {
    expect(mirror.valuesFor('linkerd-control-plane')).toEqual({
      proxy: { image: { name: 'registry.example/linkerd/proxy', version: `edge-26.6.3@${ALL_DIGESTS.proxy}` } },
      controllerImage: 'registry.example/linkerd/controller',
      controllerImageVersion: `edge-26.6.3@${ALL_DIGESTS.controller}`,
      debugContainer: { image: { name: 'registry.example/linkerd/debug', version: `edge-26.6.3@${ALL_DIGESTS.debug}` } },
    });
  });

  test('CNI, viz and multicluster keep their own tags', () => {
    expect(mirror.valuesFor('linkerd2-cni')).toEqual({ image: { name: 'registry.example/linkerd/cni-plugin', version: `v1.6.8@${ALL_DIGESTS['cni-plugin']}` } });
    expect(mirror.valuesFor('linkerd-viz').prometheus.image).toEqual({ registry: 'registry.example/linkerd', name: 'prometheus', tag: `v2.55.1@${ALL_DIGESTS.prometheus}` });
    expect(mirror.valuesFor('linkerd-viz').tapInjector.image.tag).toBe(`edge-26.6.3@${ALL_DIGESTS.tap}`);
    expect(mirror.valuesFor('linkerd-multicluster').gateway.pauseImage).toBe(`registry.example/linkerd/pause:3.2@${ALL_DIGESTS.pause}`);
  });

  test.each(Object.keys(CHART_IMAGE_TABLE))('%s: the values leave no image without a digest and no unpinned image', (chart) => {
    const values = mirror.valuesFor(chart);
    expect(imagesWithoutDigest(values, chart)).toEqual([]);
    expect(imageValueProblems(values, chart)).toEqual([]);
  });

  test('the upstream distribution without digests changes nothing; the sync list names source and target', () => {
    expect(ImageDistribution.upstream().valuesFor('linkerd-control-plane')).toEqual({});
    expect(ImageDistribution.upstream().requireDigests).toBe(false);
    expect(ImageDistribution.mirror('registry.example/linkerd').imagesOf('linkerd-viz').find((i) => i.image === 'tap'))
      .toEqual({ image: 'tap', reference: 'registry.example/linkerd/tap:edge-26.6.3', source: 'cr.l5d.io/linkerd/tap:edge-26.6.3' });
  });

  test('bad registries, unknown images and malformed digests are refused (LKD-VER-001)', () => {
    expect(errorOf(() => ImageDistribution.mirror('https://registry.example/')).message).toMatch(/LKD-VER-001: registry "https:\/\/registry.example\/"/);
    expect(errorOf(() => ImageDistribution.mirror('r.example', { digests: { proxyinit: digest('a') } })).message).toMatch(/unknown image "proxyinit"/);
    expect(errorOf(() => ImageDistribution.upstream({ digests: { proxy: 'sha256:abc' } })).message).toMatch(/digest of proxy "sha256:abc"/);
  });

  test('given to the control plane, it reaches the CNI and viz too, and the installs ask the checks for digests', () => {
    const { chart, cp } = platform({ images: mirror, cni: {} });
    new LinkerdViz(chart, 'Viz', { controlPlane: cp });
    const objects = Testing.synth(chart);
    for (const name of ['linkerd-control-plane', 'linkerd2-cni', 'linkerd-viz']) {
      const app = only(objects, 'Application', name);
      expect(app.metadata.annotations[IMAGE_DIGESTS_ANNOTATION]).toBe('required');
      expect(imagesWithoutDigest(app.spec.source.helm.valuesObject, name)).toEqual([]);
    }
  });

  test('a partial digest map synthesizes, and the checks warn for what is missing', () => {
    const { chart } = platform({ images: ImageDistribution.mirror('registry.example/linkerd', { digests: { proxy: digest('b') } }) });
    const findings = MeshChecks.of(chart).analyze().filter((f) => f.ruleId === 'LKD-VER-001');
    expect(findings.map((f) => [f.severity, f.message])).toEqual([['warning', expect.stringMatching(/controller \(controllerImageVersion\), debug \(debugContainer.image.version\) have none/)]]);
  });
});

describe('zone spread: the HA preset spreads across zones where the form can post-render', () => {
  test('Flux: HA adds a kustomize post-renderer with topologySpreadConstraints on the zone for every controller', () => {
    const { chart } = platform({ highAvailability: true }, LinkerdDelivery.flux());
    const release = only(Testing.synth(chart), 'HelmRelease', 'linkerd-control-plane');
    const patches = release.spec.postRenderers[0].kustomize.patches;
    expect(patches.map((p: any) => p.target)).toEqual(['linkerd-destination', 'linkerd-identity', 'linkerd-proxy-injector'].map((name) => ({ kind: 'Deployment', name })));
    expect(patches[0].patch).toMatch(/topologyKey: topology.kubernetes.io\/zone\n\s+whenUnsatisfiable: DoNotSchedule/);
    expect(patches[0].patch).toMatch(/linkerd.io\/control-plane-component: destination/);
  });

  test('Flux without HA, or with ZoneSpread.PREFERRED, adds none', () => {
    expect(only(Testing.synth(platform({}, LinkerdDelivery.flux()).chart), 'HelmRelease', 'linkerd-control-plane').spec.postRenderers).toBeUndefined();
    const preferred = platform({ highAvailability: true, zoneSpread: ZoneSpread.PREFERRED }, LinkerdDelivery.flux()).chart;
    expect(only(Testing.synth(preferred), 'HelmRelease', 'linkerd-control-plane').spec.postRenderers).toBeUndefined();
  });

  test('Argo CD: HA keeps the chart\'s preferred spread, and REQUIRED is refused with the reason', () => {
    expect(only(Testing.synth(platform({ highAvailability: true }).chart), 'Application', 'linkerd-control-plane').spec.source.helm.valuesObject.enablePodAntiAffinity).toBe(true);
    expect(errorOf(() => platform({ highAvailability: true, zoneSpread: ZoneSpread.REQUIRED })).message)
      .toMatch(/LKD-CP-001: zoneSpread REQUIRED needs topologySpreadConstraints the chart does not render/);
  });

  test('Helm: the rendered controller Deployments get the constraint, others are left alone', () => {
    const chart = new Chart(Testing.app(), 'rendered');
    const rendered = new Construct(chart, 'ControlPlane');
    for (const name of ['linkerd-destination', 'linkerd-identity', 'linkerd-proxy-injector', 'linkerd-heartbeat-like']) {
      new ApiObject(rendered, name, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { template: { spec: { containers: [] } } } } as any);
    }
    expect(addZoneSpread(rendered)).toBe(3);
    const objects = Testing.synth(chart);
    expect(only(objects, 'Deployment', 'linkerd-identity').spec.template.spec.topologySpreadConstraints).toEqual([{
      maxSkew: 1,
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { 'linkerd.io/control-plane-component': 'identity' } },
    }]);
    expect(only(objects, 'Deployment', 'linkerd-heartbeat-like').spec.template.spec.topologySpreadConstraints).toBeUndefined();
  });
});

describe('secrets by reference: private values reach the cluster through the delivery form, never the output', () => {
  test('Flux valuesFrom reads the issuer values from a Secret at reconcile time; no private key is written anywhere', () => {
    const { chart, cp } = platform({
      identity: LinkerdIdentity.fromCertificates({ trustAnchorsPem: certs.root.certPem, issuerCertificatePem: certs.issuer.certPem }),
      cni: {},
    }, LinkerdDelivery.flux({ valuesFrom: [{ release: 'linkerd-control-plane', name: 'linkerd-private-values' }] }));
    new LinkerdViz(chart, 'Viz', { controlPlane: cp });
    const objects = Testing.synth(chart);
    expect(only(objects, 'HelmRelease', 'linkerd-control-plane').spec.valuesFrom).toEqual([
      { kind: 'Secret', name: 'linkerd-private-values' },
    ]);
    expect(only(objects, 'HelmRelease', 'linkerd-viz').spec.valuesFrom).toBeUndefined();
    const text = JSON.stringify(objects) + cp.upgradeRunbook() + cp.exitRunbook() + cp.troubleshootingRunbook();
    expect(text).not.toMatch(/PRIVATE KEY/);
    expect(text).not.toContain(certs.issuer.keyPem.trim().split('\n')[1]);
  });

  // charts/linkerd-control-plane/templates/identity.yaml reads identity.issuer.tls.keyPEM from the values Helm gets at reconcile.
  test('a linkerd.io/tls issuer whose key Flux supplies at reconcile time (valuesFrom targetPath keyPEM) needs no key in the output', () => {
    const keyFrom = { release: 'linkerd-control-plane', name: 'linkerd-issuer-key', valuesKey: 'tls.key', targetPath: 'identity.issuer.tls.keyPEM' };
    const identity = () => LinkerdIdentity.fromCertificates({
      trustAnchorsPem: certs.root.certPem, issuerCertificatePem: certs.issuer.certPem, scheme: IssuerScheme.LINKERD_TLS,
    });
    const objects = Testing.synth(platform({ identity: identity() }, LinkerdDelivery.flux({ valuesFrom: [keyFrom] })).chart);
    const release = only(objects, 'HelmRelease', 'linkerd-control-plane');
    expect(release.spec.valuesFrom).toEqual([{ kind: 'Secret', name: 'linkerd-issuer-key', valuesKey: 'tls.key', targetPath: 'identity.issuer.tls.keyPEM' }]);
    expect(release.spec.values.identity.issuer).toMatchObject({ scheme: 'linkerd.io/tls', tls: { crtPEM: expect.any(String) } });
    expect(JSON.stringify(objects)).not.toMatch(/PRIVATE KEY/);
    // Without the entry the key would have to be in the output: refused as before.
    expect(() => platform({ identity: identity() }, LinkerdDelivery.flux())).toThrow(/LKD-CERT-005.*supply the key at deploy time/);
  });

  test('a valuesFrom entry naming a release the delivery never delivers fails the synth instead of being dropped', () => {
    const { chart } = platform({}, LinkerdDelivery.flux({ valuesFrom: [{ release: 'linkerd-controlplane', name: 'linkerd-private-values' }] }));
    expect(() => Testing.synth(chart)).toThrow(/LKD-INPUT-003: valuesFrom entry "linkerd-private-values" names release "linkerd-controlplane", which this delivery does not deliver \(it delivers linkerd-control-plane, linkerd-crds\)/);
  });

  test('a valuesFrom entry with a bad name or kind is refused', () => {
    expect(() => platform({}, LinkerdDelivery.flux({ valuesFrom: [{ release: 'linkerd-control-plane', name: 'Bad_Name' }] }))).toThrow(/LKD-INPUT-001/);
    expect(() => platform({}, LinkerdDelivery.flux({ valuesFrom: [{ release: 'linkerd-control-plane', name: 'x', kind: 'Vault' as FluxValuesKind }] })))
      .toThrow(/valuesFrom kind "Vault"/);
  });
});

describe('cert-manager path: a fresh install depends on nothing nobody creates, and the anchor does not re-key itself', () => {
  test('the Bundle reads only the anchor Secret on a fresh install; the previous anchor joins only when it exists', () => {
    const bundleSources = (props = {}) => only(Testing.synth(platform({ identity: LinkerdIdentity.fromCertManager(props) }).chart), 'Bundle').spec.sources;
    expect(bundleSources()).toEqual([{ secret: { name: 'linkerd-trust-anchor', key: 'tls.crt' } }]);
    expect(bundleSources({ previousAnchorPem: certs.root.certPem })).toHaveLength(2);
    expect(bundleSources({ previousAnchorSecretName: 'old-anchor' })[1]).toEqual({ secret: { name: 'old-anchor', key: 'tls.crt' } });
  });

  test('the anchor lives ten years, renews nine years in, and keeps its key on renewal unless asked', () => {
    const anchor = (props = {}) => only(Testing.synth(platform({ identity: LinkerdIdentity.fromCertManager(props) }).chart), 'Certificate', 'linkerd-trust-anchor').spec;
    expect(anchor()).toMatchObject({ duration: '87600h0m0s', renewBefore: '8760h0m0s', privateKey: { rotationPolicy: 'Never' } });
    expect(anchor({ rotateTrustAnchorKey: true }).privateKey.rotationPolicy).toBe('Always');
    const issuer = only(Testing.synth(platform().chart), 'Certificate', 'linkerd-identity-issuer').spec;
    expect(issuer.privateKey.rotationPolicy).toBe('Always');
  });
});

describe('the identity troubleshooting runbook', () => {
  test('goes leaf, issuer, anchor, clock skew, then single versus federated, with the exact commands', () => {
    const text = platform().cp.troubleshootingRunbook();
    const order = ['1. Leaf', '2. Issuer', '3. Anchor', '4. Clock skew', '5. Single cluster or federated'].map((h) => text.indexOf(`## ${h}`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const command of ['linkerd check --proxy --namespace "$APP_NS"', 'linkerd identity --namespace "$APP_NS" "$POD"',
      "kubectl -n linkerd get secret linkerd-identity-issuer -o jsonpath='{.data.tls\\.crt}'", 'openssl x509 -in issuer.crt -noout',
      'openssl verify -CAfile anchors.pem issuer.crt', 'kubectl -n linkerd get certificate linkerd-identity-issuer', 'multicluster check']) {
      expect(text).toContain(command);
    }
  });

  test('a static identity (kubernetes.io/tls) reads tls.crt and has no cert-manager commands', () => {
    const { cp } = platform({ identity: STATIC_IDENTITY() });
    expect(cp.troubleshootingRunbook()).toContain('{.data.tls\\.crt}');
    expect(cp.troubleshootingRunbook()).not.toContain('get certificate linkerd-identity-issuer');
  });
});

describe('ExternalIssuerSecret: the issuer key from a secret store, for every delivery form', () => {
  test('an ExternalSecret creates linkerd-identity-issuer (kubernetes.io/tls) in the cluster; the output holds references only', () => {
    const { chart } = platform({ identity: STATIC_IDENTITY() });
    new ExternalIssuerSecret(chart, 'Issuer', { secretStoreName: 'vault', remoteKey: 'platform/linkerd/issuer' });
    const objects = Testing.synth(chart);
    expect(only(objects, 'ExternalSecret')).toEqual({
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      metadata: { name: 'linkerd-identity-issuer', namespace: 'linkerd' },
      spec: {
        refreshInterval: '1h',
        secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' },
        target: { name: 'linkerd-identity-issuer', creationPolicy: 'Owner', template: { type: 'kubernetes.io/tls' } },
        data: ['tls.crt', 'tls.key', 'ca.crt'].map((key) => ({ secretKey: key, remoteRef: { key: 'platform/linkerd/issuer', property: key } })),
      },
    });
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(JSON.stringify(objects)).not.toMatch(/PRIVATE KEY/);
    expect(MeshChecks.of(chart).analyze().filter((f) => f.severity === 'error')).toEqual([]);
  });

  test('bad input is refused', () => {
    const { chart } = platform();
    expect(() => new ExternalIssuerSecret(chart, 'A', { secretStoreName: 'vault', remoteKey: '' })).toThrow(/LKD-INPUT-003: remoteKey is empty/);
    expect(() => new ExternalIssuerSecret(chart, 'B', { secretStoreName: 'vault', remoteKey: 'k', secretStoreKind: 'Vault' as SecretStoreKind })).toThrow(/secretStoreKind "Vault"/);
    expect(() => new ExternalIssuerSecret(chart, 'C', { secretStoreName: 'vault', remoteKey: 'k', refreshInterval: Duration.millis(90500) }))
      .toThrow(/\[platform\/C\] LKD-INPUT-005: refreshInterval of 90.5s is not a whole number of seconds/);
  });
});

describe('information at synth: printed on request, never failing', () => {
  test('failOnWarnings does not fail on information; printInfo prints it as "info:"', () => {
    const { chart } = platform({ highAvailability: true });
    MeshChecks.of(chart).configure({ printWarnings: false, failOnWarnings: true, printInfo: true });
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => Testing.synth(chart)).not.toThrow();
      const printed = spy.mock.calls.map((c) => String(c[0])).join('');
      expect(printed).toMatch(/^info: .*LKD-CP-001/m);
    } finally {
      spy.mockRestore();
    }
  });
});
