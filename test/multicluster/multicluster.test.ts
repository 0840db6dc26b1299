/**
 * The multicluster constructs (chart, Links, exports, credentials, fleet, fleet rotation) and the fleet rules on
 * manifests they synthesize: gateway versus pod-to-pod identities, Links to unknown or empty clusters, export labels.
 */
import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  ExportedService, ExternalSecretsApiVersion, FleetCluster, FleetTrustAnchorRotation, LinkerdDelivery, LinkerdFleet, LinkerdMulticluster,
  LinkerdVersion, MeshChecks, MeshedDeployment, MulticlusterCredentials, MulticlusterLink, MulticlusterMode, ProxyTrust, RotationStep,
} from '../../src';
import { analyze } from '../../src/analysis/engine';
import { Finding } from '../../src/analysis/finding';
import { analyzeFleet } from '../../src/analysis/fleet';
import { extensionHelmProps } from '../../src/control-plane/delivery/extension-chart';
import { certs } from '../support/certs';
import { conformanceIssues } from '../support/conformance';
import { NS, fleetFixture, manifestsOf } from '../support/fleet-fixture';


function chart(): Chart {
  return new Chart(Testing.app(), 'c', { disableResourceNameHashes: true });
}

function objectsOf(c: Chart): any[] {
  return c.toJson();
}

describe('LinkerdMulticluster', () => {
  test('gateway mode: pinned chart one wave after the core, gateway on, one controller per Link', () => {
    const c = chart();
    const mc = new LinkerdMulticluster(c, 'Mc', {
      delivery: LinkerdDelivery.argoCd(),
      trustDomain: 'east.example',
      links: [{ targetClusterName: 'west', gatewayAddress: '203.0.113.10', targetTrustDomain: 'west.example' }],
    });
    expect(mc.values()).toEqual({
      controllers: [{ gateway: { enabled: true }, link: { ref: { name: 'west' } } }],
      gateway: { enabled: true },
      identityTrustDomain: 'east.example',
      linkerdNamespace: 'linkerd',
    });
    const [app, link] = objectsOf(c);
    expect(app).toMatchObject({ kind: 'Application', spec: { source: { chart: 'linkerd-multicluster', targetRevision: LinkerdVersion.V2_20.chartVersion } } });
    expect(link.spec).toMatchObject({
      targetClusterName: 'west',
      gatewayAddress: '203.0.113.10',
      gatewayPort: '4143',
      clusterCredentialsSecret: 'cluster-credentials-west',
      gatewayIdentity: 'linkerd-gateway.linkerd-multicluster.serviceaccount.identity.linkerd.west.example',
      selector: { matchLabels: { 'mirror.linkerd.io/exported': 'true' } },
      remoteDiscoverySelector: { matchLabels: { 'mirror.linkerd.io/exported': 'remote-discovery' } },
      probeSpec: { path: '/ready', port: '4191', period: '3s' },
    });
  });

  test('every Link it writes passes the real Link CRD (v1alpha3)', () => {
    const c = chart();
    new LinkerdMulticluster(c, 'Mc', {
      delivery: LinkerdDelivery.flux(),
      mode: MulticlusterMode.FLAT_NETWORK,
      links: [{ targetClusterName: 'west' }, { targetClusterName: 'north', mode: MulticlusterMode.GATEWAY, gatewayAddress: 'gw.north.example' }],
    });
    const links = objectsOf(c).filter((o) => o.kind === 'Link');
    expect(links.map((l) => l.metadata.name)).toEqual(['west', 'north']);
    expect(conformanceIssues(links)).toEqual([]);
  });

  test('Flux: the HelmRelease depends on the control-plane release and uses its repository', () => {
    const c = chart();
    new LinkerdMulticluster(c, 'Mc', { delivery: LinkerdDelivery.flux(), mode: MulticlusterMode.FLAT_NETWORK });
    const [release] = objectsOf(c);
    expect(release.spec).toMatchObject({
      dependsOn: [{ name: 'linkerd-control-plane', namespace: 'flux-system' }],
      targetNamespace: 'linkerd-multicluster',
      chart: { spec: { chart: 'linkerd-multicluster', version: '2026.6.3', sourceRef: { kind: 'HelmRepository', name: 'linkerd' } } },
      values: { gateway: { enabled: false } },
    });
  });

  test('Helm: the props handed to cdk8s Helm (no helm binary needed to check them)', () => {
    const props = extensionHelmProps({
      chart: 'linkerd-multicluster',
      releaseName: 'linkerd-multicluster',
      namespace: 'linkerd-multicluster',
      version: LinkerdVersion.V2_20,
      kubernetesVersion: '1.31',
      values: { gateway: { enabled: true } },
    });
    expect(props).toMatchObject({
      chart: 'linkerd-multicluster',
      repo: 'https://helm.linkerd.io/edge',
      version: '2026.6.3',
      helmFlags: ['--kube-version', 'v1.31.0'],
      values: { gateway: { enabled: true } },
    });
  });

  test('refuses a floating image tag, a gateway Link without address, a flat Link with one, two Links to one cluster', () => {
    const make = (props: any) => () => new LinkerdMulticluster(chart(), 'Mc', { delivery: LinkerdDelivery.argoCd(), ...props });
    expect(make({ additionalValues: { controllerDefaults: { image: { version: 'latest' } } } })).toThrow(/LKD-VER-001: controllerDefaults.image.version/);
    expect(make({ links: [{ targetClusterName: 'west' }] })).toThrow(/\[c\/Mc\/Link-west\] LKD-INPUT-003: gateway mode needs gatewayAddress/);
    expect(make({ mode: MulticlusterMode.FLAT_NETWORK, links: [{ targetClusterName: 'west', gatewayAddress: '1.2.3.4' }] })).toThrow(/LKD-INPUT-004/);
    // cluster_watcher.go resolveGatewayAddress: split at commas, nothing trimmed, each item through net.LookupIP.
    for (const bad of ['1.2.3.4, 5.6.7.8', '1.2.3.4:4143', 'https://gw.example']) {
      expect(make({ links: [{ targetClusterName: 'west', gatewayAddress: bad }] })).toThrow(/LKD-INPUT-001: gatewayAddress item ".*" is neither an IP address nor a host name/);
    }
    expect(make({ links: [{ targetClusterName: 'west', gatewayAddress: '1.2.3.4,fd00::1,gw.west.example' }] })).not.toThrow();
    // A jsii caller may pass a null entry: a coded refusal, not a TypeError from inside the library.
    expect(make({ links: [undefined as any] })).toThrow(/\[c\/Mc\] LKD-INPUT-003: links\[0\] must be an object/);
    expect(make({ mode: MulticlusterMode.FLAT_NETWORK, links: [{ targetClusterName: 'west' }, { targetClusterName: 'west' }] }))
      .toThrow(/two Links target cluster west/);
  });
});

describe('LinkerdMulticluster in a FleetCluster', () => {
  test('takes the cluster\'s trust domain and control-plane namespace, and refuses a different trust domain', () => {
    const fleet = new LinkerdFleet(new App(), { trustAnchorsPem: certs.root.certPem });
    const east = fleet.addCluster('east', { issuerCertificatePem: certs.issuer.certPem, trustDomain: 'east.example', controlPlaneNamespace: 'mesh' });
    const mc = new LinkerdMulticluster(east, 'Mc', { delivery: LinkerdDelivery.argoCd(), mode: MulticlusterMode.FLAT_NETWORK });
    expect(mc.values()).toMatchObject({ identityTrustDomain: 'east.example', linkerdNamespace: 'mesh' });
    expect(() => new LinkerdMulticluster(east, 'Other', { delivery: LinkerdDelivery.argoCd(), trustDomain: 'cluster.local' }))
      .toThrow(/\[east\/Other\] LKD-INPUT-004: trustDomain "cluster.local" differs from cluster east's trust domain "east.example"/);
  });
});

describe('credentials, exports and mirrored names', () => {
  test('credentials from External Secrets: an ExternalSecret writing the link-gen Secret type, never a Secret', () => {
    const c = chart();
    new MulticlusterLink(c, 'Link', {
      targetClusterName: 'west',
      mode: MulticlusterMode.FLAT_NETWORK,
      credentials: MulticlusterCredentials.fromExternalSecret({ secretStoreName: 'vault', remoteKey: 'linkerd/west/kubeconfig' }),
    });
    const objects = objectsOf(c);
    expect(objects.map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'ExternalSecret linkerd-multicluster/cluster-credentials-west', 'ExternalSecret linkerd/cluster-credentials-west', 'Link linkerd-multicluster/west',
    ]);
    // The copy the destination controller reads for remote discovery, labelled as link-gen labels it.
    expect(objects[1].spec.target.template.metadata).toEqual({
      labels: { 'multicluster.linkerd.io/cluster-name': 'west' },
      annotations: { 'multicluster.linkerd.io/trust-domain': 'cluster.local', 'multicluster.linkerd.io/cluster-domain': 'cluster.local' },
    });
    expect(objects[0].spec).toMatchObject({
      target: { name: 'cluster-credentials-west', template: { type: 'mirror.linkerd.io/remote-kubeconfig' } },
      data: [{ secretKey: 'kubeconfig', remoteRef: { key: 'linkerd/west/kubeconfig' } }],
    });
    expect(objects[2].spec.clusterCredentialsSecret).toBe('cluster-credentials-west');
    // External Secrets Operator 0.17 stopped serving v1beta1: v1 by default, v1beta1 on request; refreshInterval is a Go duration.
    expect(objects.filter((o) => o.kind === 'ExternalSecret').map((o) => o.apiVersion)).toEqual(['external-secrets.io/v1', 'external-secrets.io/v1']);
    const old = chart();
    new MulticlusterLink(old, 'Link', {
      targetClusterName: 'west',
      mode: MulticlusterMode.FLAT_NETWORK,
      credentials: MulticlusterCredentials.fromExternalSecret({ secretStoreName: 'vault', remoteKey: 'k', apiVersion: ExternalSecretsApiVersion.V1BETA1 }),
    });
    expect(objectsOf(old)[0].apiVersion).toBe('external-secrets.io/v1beta1');
    expect(() => new MulticlusterLink(chart(), 'Link', {
      targetClusterName: 'west',
      mode: MulticlusterMode.FLAT_NETWORK,
      credentials: MulticlusterCredentials.fromExternalSecret({ secretStoreName: 'vault', remoteKey: 'k', refreshInterval: '1 hour' }),
    }))
      .toThrow(/LKD-INPUT-005: refreshInterval "1 hour" is not a positive Go duration/);
    // External Secrets reads 0 as "fetch once": valid there, but a Link's rotated kubeconfig would never arrive.
    expect(() => new MulticlusterLink(chart(), 'Link', {
      targetClusterName: 'west',
      mode: MulticlusterMode.FLAT_NETWORK,
      credentials: MulticlusterCredentials.fromExternalSecret({ secretStoreName: 'vault', remoteKey: 'k', refreshInterval: '0s' }),
    }))
      .toThrow(/LKD-INPUT-005: refreshInterval "0s" makes External Secrets fetch the kubeconfig once and never again/);
  });

  test('ExportedService labels the Service per mode and names the mirror <service>-<cluster>', () => {
    const c = chart();
    const svc = new kplus.Service(c, 'Orders', { metadata: { name: 'orders', namespace: NS }, ports: [{ port: 8080 }] });
    const exported = ExportedService.export(svc);
    expect(svc.metadata.getLabel('mirror.linkerd.io/exported')).toBe('true');
    expect(exported.mirroredNameIn('west')).toBe('orders-west');
    expect(exported.mirrorReference('west').name).toBe('orders-west');
    const flat = new kplus.Service(c, 'Flat', { metadata: { name: 'flat' }, ports: [{ port: 80 }] });
    ExportedService.export(flat, MulticlusterMode.FLAT_NETWORK);
    expect(flat.metadata.getLabel('mirror.linkerd.io/exported')).toBe('remote-discovery');
    expect(() => ExportedService.mirroredName('a'.repeat(60), 'west')).toThrow(/LKD-INPUT-001: the mirrored name/);
  });
});

function gatewayFleet(mode: MulticlusterMode, allowed: (east: FleetCluster, west: FleetCluster) => string, exportLabel?: string) {
  return fleetFixture({ mode, allowed, exportLabel });
}

function fleetFindings(app: App): Finding[] {
  return MeshChecks.of(app).analyze().filter((f) => f.ruleId.startsWith('LKD-MC-') || f.ruleId === 'LKD-POL-013' || f.ruleId === 'LKD-POL-004');
}

const ids = (findings: Finding[]) => findings.map((f) => `${f.cluster} ${f.ruleId} ${f.severity}`);

describe('fleet rules on synthesized clusters', () => {
  test('pod to pod: east\'s identity in west\'s policy admits the call; no trust-domain warning for the peer\'s domain', () => {
    const { app } = gatewayFleet(MulticlusterMode.FLAT_NETWORK, (east) => east.identityOf('client', NS));
    expect(ids(fleetFindings(app))).toEqual([]);
  });

  test('through the gateway: east\'s identity never arrives (LKD-MC-003), and the call is refused (LKD-MC-004)', () => {
    const { app } = gatewayFleet(MulticlusterMode.GATEWAY, (east) => east.identityOf('client', NS));
    const findings = fleetFindings(app);
    expect(ids(findings)).toEqual(['east LKD-MC-004 error', 'west LKD-MC-003 warning']);
    expect(findings[0].message).toMatch(/west's multicluster gateway \(identity linkerd-gateway\.linkerd-multicluster\.serviceaccount\.identity\.linkerd\.west\.example\)/);
    expect(findings[1].message).toMatch(/only through the gateway/);
  });

  test('through the gateway: authorizing west\'s gateway identity admits the call', () => {
    const { app } = gatewayFleet(MulticlusterMode.GATEWAY, (_east, west) => west.identityOf('linkerd-gateway', 'linkerd-multicluster'));
    expect(ids(fleetFindings(app))).toEqual([]);
  });

  test('an export label no Link selects (LKD-MC-006), so the Link mirrors nothing (LKD-MC-005) and the call has no mirror (LKD-MC-004)', () => {
    const { app } = gatewayFleet(MulticlusterMode.FLAT_NETWORK, (east) => east.identityOf('client', NS), 'yes');
    expect(ids(fleetFindings(app)).sort()).toEqual(['east LKD-MC-004 error', 'east LKD-MC-005 warning', 'east LKD-POL-013 warning', 'west LKD-MC-006 warning']);
  });

  test('a fleet finding is suppressed with a reason like any other', () => {
    const { app, east } = gatewayFleet(MulticlusterMode.GATEWAY, (e) => e.identityOf('client', NS));
    MeshChecks.suppress(east.node.findChild('Client'), 'LKD-MC-004', 'the call goes through an egress proxy in this test');
    expect(ids(fleetFindings(app))).toEqual(['west LKD-MC-003 warning']);
    expect(MeshChecks.of(app).suppressed.map((s) => `${s.finding.cluster} ${s.finding.ruleId}`)).toContain('east LKD-MC-004');
  });

  test('a Link to a cluster outside the fleet is LKD-MC-005; a Link to itself is an error (findings sorted by cluster first)', () => {
    const manifests = (target: string) => [{ object: { apiVersion: 'multicluster.linkerd.io/v1alpha3', kind: 'Link', metadata: { name: target, namespace: 'linkerd-multicluster' }, spec: { targetClusterName: target } } }];
    const result = analyzeFleet([{ name: 'east', manifests: manifests('north') }, { name: 'west', manifests: manifests('west') }]);
    expect(result.findings.filter((f) => f.ruleId === 'LKD-MC-005').map((f) => `${f.cluster} ${f.severity} ${f.message}`)).toEqual([
      'east warning Link north of cluster east targets cluster "north", which is not part of the analysed fleet (east, west): its anchors and policies cannot be checked.',
      'west error Link west of cluster west targets west itself.',
    ]);
  });
});

describe('LKD-MC-001 beyond identical bundles', () => {
  const clusters = (eastAnchors: string) => {
    const { east, west } = fleetFixture({ mode: MulticlusterMode.FLAT_NETWORK, allowed: (e) => e.identityOf('client', NS) });
    const eastObjects = objectsOf(east).map((o) => {
      if (o.kind === 'Application' && o.metadata.name === 'linkerd-control-plane') o.spec.source.helm.valuesObject.identityTrustAnchorsPEM = eastAnchors;
      return o;
    });
    return [{ name: 'east', manifests: eastObjects.map((object) => ({ object })) }, { name: 'west', manifests: objectsOf(west).map((object) => ({ object })) }];
  };
  const mc001 = (input: any) => analyzeFleet(input).findings.filter((f) => f.ruleId === 'LKD-MC-001').map((f) => `${f.cluster} ${f.severity}`);

  test('mid-rotation (east trusts new and old, west only old, issuers on the old anchor): a warning, not an error', () => {
    expect(mc001(clusters(certs.newRoot.certPem + certs.root.certPem))).toEqual(['east warning']);
  });

  /** The clusters with their issuers left to cert-manager: not in the manifests. */
  const withoutIssuers = (eastAnchors: string) => {
    const input = clusters(eastAnchors);
    const dropIssuer = (m: any) => !(m.object.kind === 'Secret' && m.object.metadata?.name === 'linkerd-identity-issuer');
    for (const cluster of input) {
      cluster.manifests = cluster.manifests.filter(dropIssuer).map((m: any) => {
        const o = m.object;
        if (o.kind === 'Application' && o.metadata.name === 'linkerd-control-plane') delete o.spec.source.helm.valuesObject.identity?.issuer?.tls;
        return m;
      });
    }
    return input;
  };

  test('bundles that share an anchor, the issuers not in the manifests (cert-manager): a warning, not a certain failure', () => {
    expect(mc001(withoutIssuers(certs.newRoot.certPem + certs.root.certPem))).toEqual(['east warning']);
  });

  // rustls/webpki finds an issuer by subject and checks the signature with its key: a renewal that keeps both is the same signer.
  test('an anchor renewed with its key, the issuers not in the manifests: a warning; a different anchor: an error', () => {
    expect(certs.renewedRoot.certPem).not.toEqual(certs.root.certPem);
    expect(mc001(withoutIssuers(certs.renewedRoot.certPem))).toEqual(['east warning']);
    expect(mc001(withoutIssuers(certs.newRoot.certPem))).toEqual(['east error']);
  });

  test('no common anchor: an error', () => {
    expect(mc001(clusters(certs.newRoot.certPem))).toEqual(['east error']);
  });

  test('anchors not in the manifests (cert-manager): information that they cannot be compared', () => {
    const link = { apiVersion: 'multicluster.linkerd.io/v1alpha3', kind: 'Link', metadata: { name: 'west', namespace: 'linkerd-multicluster' }, spec: { targetClusterName: 'west' } };
    expect(mc001([{ name: 'east', manifests: [{ object: link }] }, { name: 'west', manifests: [] }])).toEqual(['east info']);
  });

  test('objects outside the fleet\'s clusters are analysed on their own, without a cluster', () => {
    const { app } = fleetFixture({ mode: MulticlusterMode.FLAT_NETWORK, allowed: (e) => e.identityOf('client', NS) });
    const other = new Chart(app, 'tools', { namespace: 'tools' });
    new MeshedDeployment(other, 'Tool', { name: 'tool', app: 'tool', containers: [{ image: 'busybox', securityContext: { user: 100 } }] });
    const findings = MeshChecks.of(app).analyze();
    expect(findings.filter((f) => f.resource.namespace === 'tools').map((f) => f.cluster)).toContain(undefined);
    expect(findings.filter((f) => f.resource.namespace === 'shop').every((f) => f.cluster === 'east' || f.cluster === 'west')).toBe(true);
  });
});

describe('fleet model details (multicluster/service-mirror/cluster_watcher.go)', () => {
  const fleetOf = (mutateEast: (o: any) => void = () => undefined) => {
    const { east, west } = fleetFixture({ mode: MulticlusterMode.FLAT_NETWORK, allowed: (e) => e.identityOf('client', NS) });
    const eastObjects = objectsOf(east);
    eastObjects.forEach(mutateEast);
    return [{ name: 'east', manifests: eastObjects.map((object) => ({ object })) }, { name: 'west', manifests: manifestsOf(west) }];
  };
  const errors = (input: any) => analyzeFleet(input).findings.filter((f) => f.severity === 'error').map((f) => `${f.ruleId} ${f.message}`);

  test('a call to a Service of the calling cluster whose name ends in a linked cluster\'s is no call to a mirror', () => {
    const input = fleetOf();
    const objects = input[0].manifests.map((m: any) => m.object);
    const client = objects.find((o: any) => o.kind === 'Deployment' && o.metadata.name === 'client');
    client.metadata.annotations = { ...client.metadata.annotations, 'analysis.cdk8s-linkerd.io/calls': 'cache-west:6379' };
    const local = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'cache-west', namespace: NS }, spec: { selector: { app: 'cache' }, ports: [{ port: 6379 }] } };
    expect(errors(input).filter((e) => e.startsWith('LKD-MC-004'))).toEqual([expect.stringMatching(/cluster west has no Service shop\/cache to mirror/)]);
    input[0].manifests.push({ object: local });
    expect(errors(input).filter((e) => e.startsWith('LKD-MC-004'))).toEqual([]);
  });

  test('a ServiceAccount of a cluster with the same identities (trust domain, control-plane namespace) is one a policy can name', () => {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'client', namespace: NS } };
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } };
    const authn = { apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'MeshTLSAuthentication', metadata: { name: 'callers', namespace: NS }, spec: { identityRefs: [{ kind: 'ServiceAccount', name: 'client' }] } };
    const pol003 = (eastOptions = {}) => analyzeFleet([
      { name: 'east', manifests: [{ object: sa }], options: eastOptions },
      { name: 'west', manifests: [{ object: ns }, { object: authn }] },
    ], { trustDomain: 'cluster.local' }).findings.filter((f) => f.ruleId === 'LKD-POL-003').map((f) => `${f.cluster} ${f.severity}`);
    expect(pol003()).toEqual([]);
    // Another trust domain: east's client presents another identity, and west has no such ServiceAccount.
    expect(pol003({ trustDomain: 'east.example' })).toEqual(['west error']);
  });

  test('a federated Service member (federatedServiceSelector) joins <service>-federated, reached pod to pod', () => {
    const { east, west } = fleetFixture({ mode: MulticlusterMode.FLAT_NETWORK, allowed: (e) => e.identityOf('client', NS) });
    const eastObjects = objectsOf(east).map((o) => {
      if (o.kind === 'Link') {
        delete o.spec.remoteDiscoverySelector;
        o.spec.federatedServiceSelector = { matchLabels: { 'mirror.linkerd.io/federated': 'member' } };
      }
      if (o.kind === 'Deployment' && o.metadata.name === 'client') o.metadata.annotations['analysis.cdk8s-linkerd.io/calls'] = 'orders-federated:8080';
      return o;
    });
    const westObjects = objectsOf(west).map((o) => {
      if (o.kind === 'Service' && o.metadata.name === 'orders') {
        delete o.metadata.labels['mirror.linkerd.io/exported'];
        o.metadata.labels['mirror.linkerd.io/federated'] = 'member';
      }
      return o;
    });
    const result = analyzeFleet([{ name: 'east', manifests: eastObjects.map((object) => ({ object })) }, { name: 'west', manifests: westObjects.map((object) => ({ object })) }]);
    expect(result.findings.filter((f) => f.severity !== 'info' && /orders-federated|mirrors nothing/.test(f.message)).map((f) => `${f.ruleId} ${f.message}`)).toEqual([]);
  });

  test('a Service both selectors of a Link match is mirrored for remote discovery (pod to pod), not through the gateway', () => {
    const input = fleetOf((o) => {
      if (o.kind === 'Link') o.spec.selector = { matchExpressions: [{ key: 'mirror.linkerd.io/exported', operator: 'Exists' }] };
    });
    expect(errors(input)).toEqual([]);
  });
});

describe('analyzeFleet input', () => {
  test('refuses no cluster, a name that is not a DNS label, a name given twice', () => {
    expect(() => analyzeFleet([])).toThrow(/a fleet needs at least one cluster/);
    expect(() => analyzeFleet([{ name: 'East', manifests: [] }])).toThrow(/cluster name "East" is not a DNS label/);
    expect(() => analyzeFleet([{ name: 'east', manifests: [] }, { name: 'east', manifests: [] }])).toThrow(/cluster east is given twice/);
  });

  test('a cluster\'s trust domain: its own option, else its control-plane values, else the fleet-wide option', () => {
    const { east, west } = fleetFixture({ mode: MulticlusterMode.FLAT_NETWORK, allowed: (e) => e.identityOf('client', NS) });
    const input = [{ name: 'east', manifests: manifestsOf(east) }, { name: 'west', manifests: manifestsOf(west), options: { trustDomain: 'override.example' } }];
    const result = analyzeFleet(input, { trustDomain: 'fleet.example' });
    expect(result.clusters.map((c) => `${c.name} ${c.result.context.trustDomain}`)).toEqual(['east east.example', 'west override.example']);
    const bare = analyzeFleet([{ name: 'north', manifests: [] }], { trustDomain: 'fleet.example' });
    expect(bare.clusters[0].result.context.trustDomain).toBe('fleet.example');
    // `linkerd install` output: the linkerd-config ConfigMap's values (identityTrustDomain, else clusterDomain), as for one cluster.
    const config = (values: any) => ({ object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-config', namespace: 'linkerd' }, data: { values: JSON.stringify(values) } } });
    const installed = analyzeFleet([{ name: 'east', manifests: [config({ identityTrustDomain: 'east.example' })] }, { name: 'west', manifests: [config({ clusterDomain: 'west.example' })] }]);
    expect(installed.clusters.map((c) => `${c.name} ${c.result.context.trustDomain}`)).toEqual(['east east.example', 'west west.example']);
  });
});

describe('single-cluster rules on multicluster objects', () => {
  test('the gateway\'s config.linkerd.io/enable-gateway annotation is a known proxy annotation (pkg/k8s/labels.go)', () => {
    const gateway = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'linkerd-gateway', namespace: 'linkerd-multicluster' },
      spec: {
        selector: { matchLabels: { app: 'linkerd-gateway' } },
        template: {
          metadata: { labels: { app: 'linkerd-gateway' }, annotations: { 'linkerd.io/inject': 'enabled', 'config.linkerd.io/enable-gateway': 'true' } },
          spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.2' }] },
        },
      },
    };
    expect(analyze([{ object: gateway }]).findings.filter((f) => f.ruleId === 'LKD-MESH-003')).toEqual([]);
  });
});

describe('FleetTrustAnchorRotation', () => {
  const base = { currentAnchorPem: certs.root.certPem, newAnchorPem: certs.newRoot.certPem };
  const cluster = (name: string, step: RotationStep, issuer: string, runningProxiesTrust?: ProxyTrust) =>
    ({ name, step, issuerCertificatePem: issuer, runningProxiesTrust });

  test('no cluster issues from the new anchor before every linked cluster trusts it', () => {
    expect(() => new FleetTrustAnchorRotation(chart(), 'R', {
      ...base,
      clusters: [
        cluster('east', RotationStep.SWITCH_ISSUER, certs.newIssuer.certPem), cluster('west', RotationStep.RESTART_AFTER_BUNDLE, certs.issuer.certPem),
      ],
    })).toThrow(/\[c\/R\] LKD-CERT-004: cluster east is at step switch-issuer, but its workloads get certificates from the new anchor while west's proxies/);
    // Once west declares its restart done, east may switch.
    expect(() => new FleetTrustAnchorRotation(chart(), 'R', {
      ...base,
      clusters: [
        cluster('east', RotationStep.SWITCH_ISSUER, certs.newIssuer.certPem),
        cluster('west', RotationStep.RESTART_AFTER_BUNDLE, certs.issuer.certPem, ProxyTrust.BOTH_ANCHORS_OLD_ISSUER),
      ],
    })).not.toThrow();
  });

  test('no cluster removes the old anchor while a linked cluster\'s issuer still chains to it', () => {
    expect(() => new FleetTrustAnchorRotation(chart(), 'R', {
      ...base,
      clusters: [
        cluster('east', RotationStep.REMOVE_OLD_ANCHOR, certs.newIssuer.certPem), cluster('west', RotationStep.SWITCH_ISSUER, certs.newIssuer.certPem),
      ],
    })).toThrow(/cluster east is at step remove-old-anchor, but it drops the old anchor while west's issuer or running proxies/);
  });

  test('each cluster still gets the single-cluster checks, and the runbook orders the phases per cluster', () => {
    expect(() => new FleetTrustAnchorRotation(chart(), 'R', { ...base, clusters: [cluster('east', RotationStep.SWITCH_ISSUER, certs.issuer.certPem)] }))
      .toThrow(/\[c\/R\/Cluster-east\] LKD-CERT-004: step switch-issuer needs an issuer signed by the new anchor/);
    const rotation = new FleetTrustAnchorRotation(chart(), 'R', {
      ...base,
      clusters: [
        cluster('east', RotationStep.RESTART_AFTER_BUNDLE, certs.issuer.certPem), cluster('west', RotationStep.BUNDLE_NEW_AND_OLD, certs.issuer.certPem),
      ],
    });
    const runbook = rotation.runbook();
    expect(runbook).toMatch(/## Phase 1: Trust both anchors everywhere[\s\S]*- east: now at `restart-after-bundle`\n- west: now at `bundle-new-and-old`/);
    expect(runbook).toMatch(/### east\n\nRun with `kubectl config use-context east`[\s\S]*It waits here until the linked clusters catch up/);
    expect(runbook).toMatch(/### west[\s\S]*It may go on to its next step/);
    expect(runbook).not.toMatch(/PRIVATE KEY/);
  });
});
