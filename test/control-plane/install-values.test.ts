import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as yaml from 'js-yaml';
import { IssuerScheme, StaticIdentityProps } from '../../src/control-plane/identity';
import { bindStaticIdentity } from '../../src/control-plane/identity/static-identity';
import { HighAvailabilityPreset } from '../../src/control-plane/install/high-availability';
import { LinkerdInstallOptions, ProxyLogHttpHeaders, WebhookFailurePolicy } from '../../src/control-plane/install/options';
import { resolveInstall } from '../../src/control-plane/install/values';
import { DefaultInboundPolicy } from '../../src/core/default-inbound-policy';
import { leaves, valueAt } from '../../src/core/helm-values';
import { LinkerdVersion } from '../../src/core/versions';
import { certs } from '../support/certs';
import { CHART_DIR, describeWithShared } from '../support/shared';

const IDENTITY = { values: { identityTrustDomain: 'cluster.local', identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls' } } }, writesPrivateKey: false };

function resolve(options: LinkerdInstallOptions = {}, identity: Parameters<typeof resolveInstall>[2] = IDENTITY) {
  const chart = new Chart(Testing.app(), 'cp');
  return resolveInstall(chart, options, identity);
}

function readChartYaml(...parts: string[]): any {
  return yaml.load(fs.readFileSync(path.join(CHART_DIR, ...parts), 'utf8'));
}

describe('resolved values: defaults', () => {
  const install = resolve();

  test('state every typed decision explicitly, at the chart defaults, plus the identity', () => {
    expect(install.controlPlaneValues).toEqual({
      cniEnabled: false,
      clusterNetworks: '10.0.0.0/8,100.64.0.0/10,172.16.0.0/12,192.168.0.0/16,fd00::/8',
      controllerReplicas: 1,
      identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls' } },
      identityTrustDomain: 'cluster.local',
      proxy: { defaultInboundPolicy: 'all-unauthenticated', logHTTPHeaders: 'off', nativeSidecar: true, opaquePorts: '25,587,3306,4444,5432,6379,9300,11211' },
      webhookFailurePolicy: 'Ignore',
    });
    expect(install.crdsValues).toEqual({ installGatewayAPI: false });
  });

  test('pin the 2.20 release, namespace linkerd and the declared cluster', () => {
    expect(install.version).toBe(LinkerdVersion.V2_20);
    expect([install.namespace, install.kubernetesVersion, install.gatewayApiVersion, install.highAvailability]).toEqual(['linkerd', '1.31', 'v1.2.1', false]);
    expect([install.crdsReleaseName, install.controlPlaneReleaseName]).toEqual(['linkerd-crds', 'linkerd-control-plane']);
  });

  test('sort keys at every level, so output is identical on every synth', () => {
    const keysSorted = (v: any): boolean => (v && typeof v === 'object' && !Array.isArray(v))
      ? Object.keys(v).join() === Object.keys(v).sort().join() && Object.values(v).every(keysSorted) : true;
    const noisy = resolve({ additionalValues: { zeta: 1, alpha: { z: 1, a: 2 }, proxy: { logLevel: 'warn' } } });
    expect(keysSorted(noisy.controlPlaneValues)).toBe(true);
    expect(JSON.stringify(noisy.controlPlaneValues)).toBe(JSON.stringify(resolve({ additionalValues: { proxy: { logLevel: 'warn' }, alpha: { a: 2, z: 1 }, zeta: 1 } }).controlPlaneValues));
  });
});

describe('resolved values: typed options', () => {
  test('map each option onto its chart key', () => {
    const v = resolve({
      namespace: 'mesh-system',
      cniEnabled: true,
      clusterNetworks: ['10.96.0.0/12', '10.244.0.0/16'],
      controllerReplicas: 2,
      webhookFailurePolicy: WebhookFailurePolicy.FAIL,
      proxy: {
        defaultInboundPolicy: DefaultInboundPolicy.ALL_AUTHENTICATED,
        nativeSidecar: false,
        opaquePorts: [5432, 25, 5432, 4222],
        logHttpHeaders: ProxyLogHttpHeaders.INSECURE,
        resources: { cpuRequest: '50m', memoryLimit: '128Mi' },
      },
    });
    expect(v.namespace).toBe('mesh-system');
    expect(v.cniEnabled).toBe(true);
    expect(v.controlPlaneValues).toMatchObject({
      cniEnabled: true,
      clusterNetworks: '10.96.0.0/12,10.244.0.0/16',
      controllerReplicas: 2,
      webhookFailurePolicy: 'Fail',
      proxy: {
        defaultInboundPolicy: 'all-authenticated',
        nativeSidecar: false,
        opaquePorts: '25,4222,5432',
        logHTTPHeaders: 'insecure',
        resources: { cpu: { request: '50m' }, memory: { limit: '128Mi' } },
      },
    });
  });

  test('additionalValues are deep-merged last: maps merge, scalars and lists replace, null removes', () => {
    const v = resolve({
      controllerReplicas: 2,
      proxy: { nativeSidecar: false },
      additionalValues: {
        controllerReplicas: 4,
        proxy: { logLevel: 'warn,linkerd=debug', nativeSidecar: true },
        identity: { issuer: { issuanceLifetime: '12h0m0s' } },
        policyController: { probeNetworks: ['10.0.0.0/8'] },
        webhookFailurePolicy: null,
      },
    }).controlPlaneValues;
    expect(v.controllerReplicas).toBe(4);
    expect(v.proxy).toMatchObject({ logLevel: 'warn,linkerd=debug', nativeSidecar: true, defaultInboundPolicy: 'all-unauthenticated' });
    expect(v.identity).toEqual({ externalCA: true, issuer: { scheme: 'kubernetes.io/tls', issuanceLifetime: '12h0m0s' } });
    expect(v.policyController).toEqual({ probeNetworks: ['10.0.0.0/8'] });
    expect(v).not.toHaveProperty('webhookFailurePolicy');
  });

  test('additionalCrdsValues merge over installGatewayAPI: false', () => {
    expect(resolve({ additionalCrdsValues: { enableTlsRoutes: true } }).crdsValues).toEqual({ enableTlsRoutes: true, installGatewayAPI: false });
  });

  test('an identity that writes its key is flagged for the delivery forms', () => {
    expect(resolve({}, { ...IDENTITY, writesPrivateKey: true }).writesPrivateKey).toBe(true);
  });
});

describe('resolved values: coded errors name the construct, the rule and the fix', () => {
  test.each<[string, LinkerdInstallOptions, RegExp]>([
    ['Kubernetes below 1.31', { kubernetesVersion: '1.30' }, /\[cp\] LKD-CP-004: kubernetesVersion "1\.30" is below the chart's minimum 1\.31.*Fix: Upgrade the cluster/],
    ['an unparsable Kubernetes version', { kubernetesVersion: 'latest' }, /LKD-CP-004/],
    ['Gateway API below v1.2.1', { gatewayApiVersion: 'v1.1.1' }, /\[cp\] LKD-CP-005: gatewayApiVersion "v1\.1\.1" is outside .*v1\.2\.1–v1\.5\.1.*Fix: Install Gateway API v1\.2\.1/],
    ['Gateway API above v1.5.1', { gatewayApiVersion: 'v1.6.0' }, /LKD-CP-005/],
    ['the chart\'s bundled Gateway API CRDs', { additionalCrdsValues: { installGatewayAPI: true } }, /LKD-CP-005: linkerd-crds value installGatewayAPI installs .*v1\.1\.1/],
    ['enableHttpRoutes', { additionalCrdsValues: { enableHttpRoutes: true } }, /LKD-CP-005: linkerd-crds value enableHttpRoutes/],
    ['a latest proxy image', { additionalValues: { proxy: { image: { version: 'latest' } } } }, /LKD-VER-001: proxy\.image\.version: the tag "latest".*Fix: Leave proxy\.image\.version unset/],
    ['a latest controller image', { additionalValues: { controllerImageVersion: 'LATEST' } }, /LKD-VER-001: controllerImageVersion/],
    ['a tag hidden in an image name', { additionalValues: { proxy: { image: { name: 'my.registry/linkerd/proxy:latest' } } } }, /LKD-VER-001: proxy\.image\.name .* carries a tag/],
    ['a floating linkerdVersion', { additionalValues: { linkerdVersion: 'latest' } }, /LKD-VER-001: linkerdVersion/],
    ['a version that is not a LinkerdVersion', { version: { chartVersion: 'latest' } as any }, /LKD-VER-001: version is not a LinkerdVersion/],
    ['an unknown failure policy', { webhookFailurePolicy: 'Sometimes' as any }, /LKD-INPUT-006: webhookFailurePolicy "Sometimes" is not one of Ignore, Fail/],
    ['an unknown header logging mode', { proxy: { logHttpHeaders: 'on' as any } }, /LKD-INPUT-006: proxy\.logHttpHeaders "on"/],
    ['an unknown inbound policy', { proxy: { defaultInboundPolicy: 'allow' as any } }, /LKD-POL-012/],
    ['a bad CIDR', { clusterNetworks: ['10.0.0.0/33'] }, /LKD-INPUT-006: clusterNetworks entry "10\.0\.0\.0\/33"/],
    ['empty cluster networks', { clusterNetworks: [] }, /LKD-INPUT-003: clusterNetworks is empty/],
    // pkg/inject GetPodPatch reads the joined list with net.ParseCIDR: a bare address or a space makes every injection fail.
    ['a bare address as a cluster network', { clusterNetworks: ['10.1.2.3'] }, /LKD-INPUT-006: clusterNetworks entry "10\.1\.2\.3" is not a CIDR as Go's net\.ParseCIDR reads it.*Fix: Use CIDRs/],
    ['a cluster network with a space', { clusterNetworks: [' 192.168.0.0/16'] }, /LKD-INPUT-006: clusterNetworks entry " 192\.168\.0\.0\/16"/],
    ['an opaque port out of range', { proxy: { opaquePorts: [0] } }, /LKD-INPUT-002/],
    ['a bad quantity', { proxy: { resources: { memoryLimit: '1 gig' } } }, /LKD-INPUT-006: proxy\.resources\.memoryLimit "1 gig"/],
    ['zero replicas', { controllerReplicas: 0 }, /LKD-INPUT-006: controllerReplicas 0/],
    ['fractional replicas', { controllerReplicas: 1.5 }, /LKD-INPUT-006/],
    ['a bad namespace', { namespace: 'Linkerd' }, /LKD-INPUT-001: namespace "Linkerd"/],
    ['a non-boolean HA flag', { highAvailability: 'yes' as any }, /LKD-INPUT-003: highAvailability must be true or false/],
    ['values that are not an object', { additionalValues: 'proxy.logLevel=warn' as any }, /LKD-INPUT-003: additionalValues is not an object/],
  ])('refuses %s', (_what, options, message) => {
    expect(() => resolve(options)).toThrow(message);
  });

  test('accepts a pinned image override and an empty (chart-pinned) version', () => {
    expect(() => resolve({ additionalValues: { proxy: { image: { name: 'my.registry/linkerd/proxy', version: 'edge-26.6.3' } }, controllerImageVersion: '' } })).not.toThrow();
  });
});

describe('HA preset', () => {
  test('HA sets 3 replicas, PDBs, anti-affinity and Fail; typed options and additionalValues still win', () => {
    const ha = resolve({ highAvailability: true }).controlPlaneValues;
    expect(ha).toMatchObject({ highAvailability: true, controllerReplicas: 3, enablePodDisruptionBudget: true, enablePodAntiAffinity: true, webhookFailurePolicy: 'Fail' });
    const overridden = resolve({
      highAvailability: true,
      controllerReplicas: 5,
      webhookFailurePolicy: WebhookFailurePolicy.IGNORE,
      proxy: { resources: { memoryLimit: '512Mi' } },
      additionalValues: { enablePodDisruptionBudget: false },
    }).controlPlaneValues;
    expect(overridden).toMatchObject({ controllerReplicas: 5, webhookFailurePolicy: 'Ignore', enablePodDisruptionBudget: false });
    expect(overridden.proxy.resources).toEqual({ cpu: { request: '100m' }, memory: { limit: '512Mi', request: '20Mi' } });
  });

  test('every call returns a fresh copy', () => {
    const a = HighAvailabilityPreset.values();
    a.controllerResources.cpu.request = '1';
    expect(HighAvailabilityPreset.values().controllerResources.cpu.request).toBe('100m');
  });
});

describeWithShared('HA preset against the chart\'s values-ha.yaml (read from ../shared at test time)', () => {
  const fileValues = readChartYaml('linkerd-control-plane', 'values-ha.yaml');
  const fileLeaves = leaves(fileValues);
  const resolved = resolve({ highAvailability: true }).controlPlaneValues;

  test('the file has the keys this comparison relies on', () => {
    expect(fileLeaves.length).toBeGreaterThan(20);
  });

  test.each(fileLeaves)('preset %s equals the file', (key, value) => {
    expect(valueAt(HighAvailabilityPreset.values(), key)).toEqual(value);
  });

  test.each(fileLeaves)('resolved HA values carry %s from the file', (key, value) => {
    expect(valueAt(resolved, key)).toEqual(value);
  });

  test('the preset has no key the file lacks', () => {
    expect(leaves(HighAvailabilityPreset.values()).map(([k]) => k).sort()).toEqual(fileLeaves.map(([k]) => k).sort());
  });

  test('the typed defaults equal the chart\'s values.yaml defaults', () => {
    const defaults = readChartYaml('linkerd-control-plane', 'values.yaml');
    const typed = resolve().controlPlaneValues;
    for (const key of ['cniEnabled', 'clusterNetworks', 'controllerReplicas', 'webhookFailurePolicy', 'proxy.defaultInboundPolicy',
      'proxy.nativeSidecar', 'proxy.opaquePorts', 'proxy.logHTTPHeaders']) {
      expect([key, valueAt(typed, key)]).toEqual([key, valueAt(defaults, key)]);
    }
    expect(readChartYaml('linkerd-crds', 'values.yaml')).toEqual(resolve().crdsValues);
  });
});

describe('additionalValues cannot bypass a refusal of the typed options (the MERGED values are checked)', () => {
  const staticIdentity = (extra: Record<string, any> = {}, writesPrivateKey = false) => {
    const { values } = bindStaticIdentity(new Chart(Testing.app(), 'id'), {
      trustAnchorsPem: certs.root.certPem, issuerCertificatePem: certs.issuer.certPem, ...extra,
    } as StaticIdentityProps, { namespace: 'linkerd', trustDomain: 'cluster.local' });
    return { values, writesPrivateKey };
  };

  test.each<[string, LinkerdInstallOptions, () => { values: Record<string, any>; writesPrivateKey: boolean }, RegExp]>([
    ['a linkerd.io/tls scheme without the issuer key', { additionalValues: { identity: { issuer: { scheme: 'linkerd.io/tls' } } } }, () => staticIdentity(),
      /^\[cp\] LKD-CERT-005: identity\.issuer\.scheme is linkerd\.io\/tls in the merged values, .*keyPEM is missing.* Fix: Use scheme KUBERNETES_TLS/],
    ['an issuer scheme removed (the chart default linkerd.io/tls applies)', { additionalValues: { identity: { issuer: { scheme: null } } } }, () => staticIdentity(),
      /LKD-CERT-005: identity\.issuer\.scheme is linkerd\.io\/tls/],
    ['an unknown issuer scheme', { additionalValues: { identity: { issuer: { scheme: 'kubernetes.io/TLS' } } } }, () => staticIdentity(),
      /\[cp\] LKD-INPUT-006: identity\.issuer\.scheme the string "kubernetes\.io\/TLS" \(merged values\) is not linkerd\.io\/tls or kubernetes\.io\/tls\. Fix: /],
    ['an issuer key smuggled in without writePrivateKey', { additionalValues: { identity: { issuer: { tls: { keyPEM: certs.issuer.keyPem } } } } }, () => staticIdentity(),
      /^\[cp\] LKD-CERT-005: the merged chart values carry a private key at identity\.issuer\.tls\.keyPEM without writePrivateKey: true.* Fix: /],
    ['a webhook key smuggled in', { additionalValues: { policyValidator: { externalSecret: false, keyPEM: certs.leaf.keyPem } } }, () => staticIdentity(),
      /LKD-CERT-005: .*private key at policyValidator\.keyPEM/],
    ['empty trust anchors', { additionalValues: { identityTrustAnchorsPEM: '' } }, () => staticIdentity(),
      /^\[cp\] LKD-INPUT-003: the merged values have no identityTrustAnchorsPEM .* Fix: Pass the anchors/],
    ['trust anchors that are not certificates', { additionalValues: { identityTrustAnchorsPEM: 'not a pem' } }, () => staticIdentity(),
      /LKD-CERT-001: identityTrustAnchorsPEM \(merged values\)/],
    ['trust anchors that did not sign the issuer', { additionalValues: { identityTrustAnchorsPEM: certs.newRoot.certPem } }, () => staticIdentity(),
      /LKD-CERT-001: /],
    ['externalCA switched off under cert-manager (no anchors then)', { additionalValues: { identity: { externalCA: false } } }, () => IDENTITY,
      /LKD-INPUT-003: the merged values have no identityTrustAnchorsPEM/],
    ['an unknown defaultInboundPolicy', { additionalValues: { proxy: { defaultInboundPolicy: 'allow-all' } } }, () => IDENTITY,
      /^\[cp\] LKD-POL-012: proxy\.defaultInboundPolicy the string "allow-all" \(merged values\) is not one of Linkerd's six policies.* Fix: /],
    ['a floating image tag', { additionalValues: { debugContainer: { image: { version: 'latest' } } } }, () => IDENTITY, /LKD-VER-001: debugContainer\.image\.version/],
    ['a string where the chart tests a boolean', { additionalValues: { cniEnabled: 'false' } }, () => IDENTITY,
      /LKD-INPUT-003: cniEnabled is the string "false" \(merged values\); the chart tests it with "if"/],
    ['an unknown header logging mode', { additionalValues: { proxy: { logHTTPHeaders: 'on' } } }, () => IDENTITY, /LKD-INPUT-006: proxy\.logHTTPHeaders/],
    ['an unknown webhook failure policy', { additionalValues: { webhookFailurePolicy: 'fail' } }, () => IDENTITY, /LKD-INPUT-006: webhookFailurePolicy the string "fail"/],
    ['an unknown iptables mode', { additionalValues: { proxyInit: { iptablesMode: 'iptables' } } }, () => IDENTITY, /LKD-INPUT-006: proxyInit\.iptablesMode/],
    ['zero replicas', { additionalValues: { controllerReplicas: 0 } }, () => IDENTITY, /LKD-INPUT-006: controllerReplicas the number 0 \(merged values\)/],
    ['replicas as a string', { additionalValues: { controllerReplicas: '3' } }, () => IDENTITY, /LKD-INPUT-006: controllerReplicas the string "3"/],
    ['cluster networks with a bad CIDR', { additionalValues: { clusterNetworks: '10.0.0.0/8, 192.168.0.0/16' } }, () => IDENTITY,
      /LKD-INPUT-006: clusterNetworks .* \(" 192\.168\.0\.0\/16"\)/],
    ['cluster networks as a list', { additionalValues: { clusterNetworks: ['10.0.0.0/8'] } }, () => IDENTITY, /LKD-INPUT-006: clusterNetworks a list/],
    ['opaque ports with a bad entry', { additionalValues: { proxy: { opaquePorts: '3306,http' } } }, () => IDENTITY, /LKD-INPUT-002: proxy\.opaquePorts/],
    ['a bad quantity', { additionalValues: { proxy: { resources: { memory: { limit: '1 gig' } } } } }, () => IDENTITY, /LKD-INPUT-006: proxy\.resources\.memory\.limit/],
    ['a bad Go duration', { additionalValues: { identity: { issuer: { issuanceLifetime: '1 day' } } } }, () => IDENTITY, /LKD-INPUT-005: identity\.issuer\.issuanceLifetime/],
    ['a trust domain that is not a DNS name', { additionalValues: { identityTrustDomain: 'Cluster Local' } }, () => IDENTITY, /LKD-INPUT-001: identityTrustDomain/],
  ])('refuses %s', (_what, options, identity, message) => {
    expect(() => resolve(options, identity())).toThrow(message);
  });

  test('an opted-in key may be written, but not replaced by a key of another issuer', () => {
    const opted = () => staticIdentity({ scheme: IssuerScheme.LINKERD_TLS, issuerPrivateKeyPem: certs.issuer.keyPem, writePrivateKey: true }, true);
    expect(() => resolve({}, opted())).not.toThrow();
    expect(() => resolve({ additionalValues: { identity: { issuer: { tls: { keyPEM: certs.newIssuer.keyPem } } } } }, opted()))
      .toThrow(/^\[cp\] LKD-CERT-001: the private key does not belong to issuer .*\(merged values\)\. Fix: /);
  });

  test('values the chart accepts still pass: port ranges, empty quantities, the typed anchors unchanged', () => {
    expect(() => resolve({ additionalValues: { proxy: { opaquePorts: '3306,4000-4100' } } })).not.toThrow();
    expect(() => resolve({ additionalValues: { identity: { issuer: { issuanceLifetime: '12h0m0s' } } } }, staticIdentity())).not.toThrow();
    expect(() => resolve({ additionalValues: { proxy: { logLevel: 'warn' }, enablePodAntiAffinity: true } }, staticIdentity())).not.toThrow();
  });
});
