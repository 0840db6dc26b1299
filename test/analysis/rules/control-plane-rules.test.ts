import { generateKeyPairSync } from 'crypto';
import { Testing } from 'cdk8s';
import * as yaml from 'js-yaml';
import { analyze } from '../../../src/analysis/engine';
import { LinkerdDelivery } from '../../../src/control-plane/delivery/delivery';
import { fluxZoneSpreadPostRenderers } from '../../../src/control-plane/install/fault-domains';
import { HighAvailabilityPreset } from '../../../src/control-plane/install/high-availability';
import { ProxyLogHttpHeaders, WebhookFailurePolicy } from '../../../src/control-plane/install/options';
import { LOG_HTTP_HEADERS, WEBHOOK_FAILURE_POLICIES } from '../../../src/core/chart-values';
import { argoApp, controlPlaneChart, fluxRelease, manifests, workload } from '../../delivery/fixtures';

function findings(objects: any[], ruleId: string, options = {}) {
  return analyze(manifests(objects), options).findings.filter((f) => f.ruleId === ruleId);
}

const cp = (values: any) => argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', values);
const node = (name: string, zone?: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, ...(zone ? { labels: { 'topology.kubernetes.io/zone': zone } } : {}) } });
const NODES = [node('a', 'z1'), node('b', 'z2'), node('c', 'z3')];
const ZONE_SPREAD = { postRenderers: fluxZoneSpreadPostRenderers() };
const trustBundle = { apiVersion: 'trust.cert-manager.io/v1alpha1', kind: 'Bundle', metadata: { name: 'linkerd-identity-trust-roots' }, spec: {} };

describe('LKD-CP-001 HA', () => {
  test('passes for the HA preset with a required zone spread on 3 nodes in 3 zones, and for a deliberate single replica', () => {
    const flux = fluxRelease('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', HighAvailabilityPreset.values(), ZONE_SPREAD);
    expect(findings([flux], 'LKD-CP-001', { inventory: NODES })).toEqual([]);
    expect(findings([cp({ controllerReplicas: 1 })], 'LKD-CP-001')).toEqual([]);
  });

  test('fires on partial HA, naming each gap', () => {
    const [finding] = findings([cp({ controllerReplicas: 2 })], 'LKD-CP-001');
    expect(finding.severity).toBe('warning');
    expect(finding.message).toMatch(/asks for HA but controllerReplicas is 2 \(HA needs 3\); enablePodDisruptionBudget is off.*; enablePodAntiAffinity is off/);
  });

  test('names the 3-node requirement: information when the node count is unknown, a warning when it is too small', () => {
    const unknown = findings([cp(HighAvailabilityPreset.values())], 'LKD-CP-001');
    expect(unknown.map((f) => [f.severity, f.message])).toEqual([['info', expect.stringMatching(/needs 3 schedulable nodes.*cannot be known here/)]]);
    const tooFew = findings([cp(HighAvailabilityPreset.values())], 'LKD-CP-001', { inventory: [node('a'), node('b')] });
    expect(tooFew.map((f) => [f.severity, f.message])).toEqual([['warning', expect.stringMatching(/at least 3 schedulable nodes; the inventory's Nodes give only 2/)]]);
  });

  test('reads values from a rendered linkerd-config ConfigMap too', () => {
    const config = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'linkerd-config', namespace: 'linkerd' },
      data: { values: yaml.dump({ controllerReplicas: 2, enablePodAntiAffinity: true, enablePodDisruptionBudget: true, webhookFailurePolicy: 'Fail' }) },
    };
    expect(findings([config], 'LKD-CP-001', { inventory: NODES }).map((f) => f.message)).toEqual([
      expect.stringMatching(/linkerd-config ConfigMap asks for HA but controllerReplicas is 2/),
      expect.stringMatching(/a node failure leaves 1 of 2 replicas .*the spread is only preferred/),
    ]);
  });
});

describe('LKD-CP-002 webhookFailurePolicy Ignore', () => {
  test('passes with Fail', () => {
    expect(findings([cp({ webhookFailurePolicy: 'Fail' })], 'LKD-CP-002')).toEqual([]);
  });

  test.each([
    ['explicit Ignore', { webhookFailurePolicy: 'Ignore' }, /leaves webhookFailurePolicy at Ignore: /],
    ['the chart default', {}, /at Ignore \(the chart default\)/],
  ])('fires on %s', (_what, values, message) => {
    const [finding] = findings([fluxRelease('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', values)], 'LKD-CP-002');
    expect(finding.severity).toBe('warning');
    expect(finding.message).toMatch(message);
    expect(finding.message).toMatch(/admitted without validation/);
  });
  // charts/linkerd-control-plane/values-ha.yaml sets webhookFailurePolicy: Fail and the HA values; Argo CD's valueFiles
  // and Flux's spec.chart.spec.valuesFiles read it from the chart, where the analysis cannot see it.
  test('says nothing when values files the analysis cannot read (the chart\'s values-ha.yaml) may set it; values.yaml alone is the defaults', () => {
    const argo = argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { highAvailability: true }, { valueFiles: ['values-ha.yaml'] });
    const flux = fluxRelease('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { highAvailability: true });
    flux.spec.chart.spec.valuesFiles = ['values.yaml', 'values-ha.yaml'];
    for (const install of [argo, flux]) {
      expect(findings([install], 'LKD-CP-002')).toEqual([]);
      expect(findings([install], 'LKD-CP-001')).toEqual([]);
    }
    flux.spec.chart.spec.valuesFiles = ['values.yaml'];
    expect(findings([flux], 'LKD-CP-002').map((f) => f.ruleId)).toEqual(['LKD-CP-002']);
    expect(findings([flux], 'LKD-CP-001').map((f) => f.fix)).toEqual([expect.stringMatching(/^highAvailability: true is only a flag for linkerd check/)]);
  });
});

// charts/linkerd-control-plane/templates/identity.yaml: the issuer Secret `required`s crtPEM and keyPEM under the
// linkerd.io/tls scheme; the trust-roots ConfigMap (unless externalCA) is written from identityTrustAnchorsPEM, and
// controller/cmd/identity/main.go exits on a bundle without certificates.
describe('LKD-CP-008 identity values the chart requires', () => {
  const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
  // A throwaway key made at run time: no key material is kept in the repository.
  const keyPEM = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const issuer = { issuer: { tls: { crtPEM: PEM, keyPEM } } };
  const cp008 = (install: any) => findings([install], 'LKD-CP-008').map((f) => [f.severity, f.message]);
  test('passes with the PEMs inline, or cert-manager and trust-manager doing the work', () => {
    expect(cp008(cp({ identityTrustAnchorsPEM: PEM, identity: issuer }))).toEqual([]);
    expect(cp008(cp({ identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls' } } }))).toEqual([]);
  });
  test('externalCA with the issuer scheme left at linkerd.io/tls: the chart does not render', () => {
    expect(cp008(cp({ identity: { externalCA: true } }))).toEqual([['error',
      expect.stringMatching(/leaves identity\.issuer\.scheme at linkerd\.io\/tls \(with identity\.externalCA\) without identity\.issuer\.tls\.crtPEM and identity\.issuer\.tls\.keyPEM: .*does not render/)]]);
  });
  test('no trust anchors without externalCA: linkerd-identity cannot start', () => {
    expect(cp008(cp({ identity: { ...issuer } }))).toEqual([['error', expect.stringMatching(/gives no identityTrustAnchorsPEM and leaves identity\.externalCA off/)]]);
    expect(cp008(cp({ identityTrustAnchorsPEM: '  ', identity: { ...issuer } }))).toHaveLength(1);
  });
  test('not judged where values the analysis cannot read may give them (value files, file parameters, a valuesFrom Secret)', () => {
    expect(cp008(argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', {}, { valueFiles: ['values-prod.yaml'] }))).toEqual([]);
    expect(cp008(argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', {}, { fileParameters: [{ name: 'identityTrustAnchorsPEM', path: 'ca.crt' }] }))).toEqual([]);
    expect(cp008(fluxRelease('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', {}, { valuesFrom: [{ kind: 'Secret', name: 'linkerd-identity' }] }))).toEqual([]);
  });
});

describe('LKD-CP-003 externalCA without trust roots', () => {
  const external = cp({ identity: { externalCA: true } });

  test('passes with a trust-manager Bundle or the ConfigMap, in the output or the inventory', () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-identity-trust-roots', namespace: 'linkerd' }, data: { 'ca-bundle.crt': 'x' } };
    expect(findings([external, trustBundle], 'LKD-CP-003')).toEqual([]);
    expect(findings([external, configMap], 'LKD-CP-003')).toEqual([]);
    expect(findings([external], 'LKD-CP-003', { inventory: [trustBundle] })).toEqual([]);
    expect(findings([cp({ identity: { externalCA: false } })], 'LKD-CP-003')).toEqual([]);
  });

  test('fires when nothing provides linkerd-identity-trust-roots', () => {
    const wrongNamespace = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-identity-trust-roots', namespace: 'default' } };
    const [finding] = findings([external, wrongNamespace], 'LKD-CP-003');
    expect(finding.severity).toBe('error');
    expect(finding.message).toMatch(/identity\.externalCA: true, but neither ConfigMap linkerd\/linkerd-identity-trust-roots nor a trust-manager Bundle/);
  });

  // The chart tests `if .Values.identity.externalCA`: any non-empty string is true in a Go template.
  test('a string, even "false", is true to the chart', () => {
    for (const value of ['true', 'false']) {
      const [finding] = findings([cp({ identity: { externalCA: value } })], 'LKD-CP-003');
      expect(finding.message).toMatch(new RegExp(`identity\\.externalCA to the string "${value}", which the chart reads as true, but neither`));
    }
    expect(findings([cp({ identity: { externalCA: '' } })], 'LKD-CP-003')).toEqual([]);
  });
});

describe('LKD-CP-004 Kubernetes version', () => {
  test('passes on 1.31 and later', () => {
    expect(findings([cp({})], 'LKD-CP-004', { kubernetesVersion: '1.31' })).toEqual([]);
    expect(findings([cp({})], 'LKD-CP-004', { kubernetesVersion: 'v1.33.1' })).toEqual([]);
  });

  test('fires once below 1.31, on the Linkerd install when there is one, else on the first object', () => {
    const [onInstall, ...rest] = findings([workload('web', ['nginx:1.27']), cp({})], 'LKD-CP-004', { kubernetesVersion: '1.30' });
    expect(rest).toEqual([]);
    expect(onInstall.severity).toBe('error');
    expect(onInstall.resource).toMatchObject({ kind: 'Application', name: 'linkerd-control-plane' });
    expect(onInstall.message).toMatch(/Kubernetes version is "1\.30", but Linkerd edge-26\.6\.3 .* needs 1\.31 or later/);
    const [onWorkload] = findings([workload('web', ['nginx:1.27'])], 'LKD-CP-004', { kubernetesVersion: '1.29' });
    expect(onWorkload.resource).toMatchObject({ kind: 'Deployment', name: 'web' });
  });
});

describe('LKD-CP-005 Gateway API version', () => {
  const route = {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'r', namespace: 'shop' },
    spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'web', port: 80 }], rules: [] },
  };

  test('passes in range', () => {
    expect(findings([cp({})], 'LKD-CP-005', { gatewayApiVersion: 'v1.5.1' })).toEqual([]);
  });

  test('fires on an install outside v1.2.1-v1.5.1', () => {
    const [finding] = findings([cp({})], 'LKD-CP-005', { gatewayApiVersion: 'v1.1.1' });
    expect(finding.severity).toBe('error');
    expect(finding.message).toMatch(/Gateway API bundle is "v1\.1\.1", outside the v1\.2\.1–v1\.5\.1 range/);
  });

  test('leaves outputs with routes to LKD-ROUTE-016, so the problem is reported once', () => {
    const all = analyze(manifests([cp({}), route]), { gatewayApiVersion: 'v1.1.1' }).findings;
    expect(all.filter((f) => f.ruleId === 'LKD-CP-005')).toEqual([]);
    expect(all.filter((f) => f.ruleId === 'LKD-ROUTE-016').length).toBeGreaterThan(0);
  });

  test('says nothing when the output installs no Linkerd', () => {
    expect(findings([workload('web', ['nginx:1.27'])], 'LKD-CP-005', { gatewayApiVersion: 'v1.0.0' })).toEqual([]);
  });
});

describe('the constructs\' own output', () => {
  test.each([['Argo CD', LinkerdDelivery.argoCd()], ['Flux', LinkerdDelivery.flux()]])(
    'an HA %s install with cert-manager identity has no version or control-plane findings once the nodes are known', (_form, delivery) => {
      const { chart } = controlPlaneChart({ highAvailability: true, delivery });
      const result = analyze(manifests(Testing.synth(chart)), { inventory: NODES });
      expect(result.findings.filter((f) => /^LKD-(VER|CP)-/.test(f.ruleId) && f.severity !== 'info')).toEqual([]);
    });

  test('HA across zones: Flux post-renders the required spread (nothing to say); Argo CD keeps the chart\'s preferred one (said as information)', () => {
    const synthesized = (delivery: LinkerdDelivery) => manifests(Testing.synth(controlPlaneChart({ highAvailability: true, delivery }).chart));
    const cp001 = (delivery: LinkerdDelivery) => analyze(synthesized(delivery), { inventory: NODES })
      .findings.filter((f) => f.ruleId === 'LKD-CP-001');
    expect(cp001(LinkerdDelivery.flux())).toEqual([]);
    expect(cp001(LinkerdDelivery.argoCd()).map((f) => [f.severity, f.message])).toEqual([['info', expect.stringMatching(/the spread is only preferred/)]]);
  });

  test('a default (non-HA) install is warned about its Ignore webhooks only', () => {
    const { chart } = controlPlaneChart();
    const ids = analyze(manifests(Testing.synth(chart))).findings.filter((f) => /^LKD-(VER|CP)-/.test(f.ruleId)).map((f) => f.ruleId);
    expect(ids).toEqual(['LKD-CP-002']);
  });
});

describe('LKD-CP-007 control-plane values the chart or its components cannot use', () => {
  const cpFindings = (values: any) => findings([fluxRelease('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', { webhookFailurePolicy: 'Fail', ...values })], 'LKD-CP-007');
  test('passes on the chart\'s own kinds of values', () => {
    expect(cpFindings({ clusterNetworks: '10.0.0.0/8,fd00::/8', proxy: { logHTTPHeaders: 'off', defaultInboundPolicy: 'deny', image: { pullPolicy: 'IfNotPresent' } }, cniEnabled: true })).toEqual([]);
  });
  // _proxy.tpl takes (list "insecure" "off" ""); GetPortRanges and parse_portset drop a trailing comma.
  test('an empty logHTTPHeaders and a trailing comma in opaquePorts work; an empty item inside the list does not', () => {
    expect(cpFindings({ proxy: { logHTTPHeaders: '', opaquePorts: '25,587,3306,' } })).toEqual([]);
    expect(cpFindings({ proxy: { opaquePorts: '25,,3306' } }).map((f) => f.severity)).toEqual(['error']);
  });
  // charts/linkerd-control-plane: --default-policy and _proxy.tpl read .Values.proxy.defaultInboundPolicy only; values.yaml
  // has no top-level defaultInboundPolicy, no policyController.defaultAllowPolicy, no proxyInit.image, no global.
  test('keys the 2.20 chart never reads: an error where a security setting is lost, a warning otherwise', () => {
    expect(cpFindings({ defaultInboundPolicy: 'deny' }).map((f) => [f.severity, f.message])).toEqual([
      ['error', expect.stringMatching(/defaultInboundPolicy is set, but the chart reads .* from proxy\.defaultInboundPolicy only.*the default stays all-unauthenticated/)],
    ]);
    expect(cpFindings({ policyController: { defaultAllowPolicy: 'deny' } }).map((f) => f.severity)).toEqual(['error']);
    expect(cpFindings({ proxyInit: { image: { name: 'registry.example.com/proxy-init' } }, global: { proxy: {} } }).map((f) => f.severity)).toEqual(['warning', 'warning']);
    expect(cpFindings({ proxy: { defaultInboundPolicy: 'deny' } })).toEqual([]);
  });
  // GetPortRanges, parse_portset and the proxy's parse_port_range_set trim each item.
  test('spaces after the commas of opaquePorts work', () => {
    expect(cpFindings({ proxy: { opaquePorts: '25, 587, 3306, 4444, 5432, 6379, 9300, 11211, 27017' } })).toEqual([]);
  });
  // pkg/chartutil/coalesce.go coalesceValues deletes a null key; the templates then render nothing, or an empty flag that
  // the component reads as its default (controller/cmd/identity/main.go), or an empty field the API server defaults.
  test('a null deletes the key: nothing to say where nil renders as the default, a warning where it turns a default of true off', () => {
    expect(cpFindings({
      identity: { issuer: { issuanceLifetime: null, clockSkewAllowance: '' } },
      proxy: { opaquePorts: null, resources: { cpu: { limit: null }, memory: { limit: null } }, image: { pullPolicy: null } },
      controllerReplicas: null,
      cniEnabled: null,
    })).toEqual([]);
    expect(cpFindings({ proxy: { nativeSidecar: null } }).map((f) => [f.severity, f.message])).toEqual([
      ['warning', expect.stringMatching(/proxy\.nativeSidecar is null.*Helm deletes the key and the chart's default \(true\) with it/)],
    ]);
    // _proxy.tpl tests has .Values.proxy.logHTTPHeaders (list "insecure" "off" ""): nil is in none, and the chart fails.
    expect(cpFindings({ proxy: { logHTTPHeaders: null } }).map((f) => f.severity)).toEqual(['error']);
  });
  // _proxy.tpl / _proxy-init.tpl fail; inject.go GetPodPatch net.ParseCIDR; defaults.rs DefaultPolicy::from_str.
  test.each([
    ['a space in clusterNetworks', { clusterNetworks: '10.0.0.0/8, 192.168.0.0/16' }, /clusterNetworks .* \(" 192\.168\.0\.0\/16"\); the injector reads each item with net\.ParseCIDR/],
    ['an unknown default inbound policy', { proxy: { defaultInboundPolicy: 'allow' } }, /proxy\.defaultInboundPolicy the string "allow" is not one of Linkerd's six policies/],
    ['logHTTPHeaders on', { proxy: { logHTTPHeaders: 'on' } }, /proxy\.logHTTPHeaders the string "on" is not one of off, insecure: the proxy template fails/],
    ['tracing without a collector', { proxy: { tracing: { enabled: true } } }, /proxy\.tracing\.enabled is true but proxy\.tracing\.collector\.endpoint/],
    ['iptablesMode nftables', { proxyInit: { iptablesMode: 'nftables' } }, /proxyInit\.iptablesMode the string "nftables" is not one of nft, legacy/],
    ['close-wait without runAsRoot', { proxyInit: { closeWaitTimeoutSecs: 30 } }, /proxyInit\.closeWaitTimeoutSecs is the number 30 without proxyInit\.runAsRoot: true/],
    ['a lowercase pull policy', { proxy: { image: { pullPolicy: 'always' } } }, /proxy\.image\.pullPolicy the string "always" is not Always, IfNotPresent or Never/],
  ])('%s is an error', (_what, values, message) => {
    expect(cpFindings(values).map((f) => [f.severity, f.message])).toEqual([['error', expect.stringMatching(message)]]);
  });
  test('a string "true" where the chart tests a boolean is a warning (it is truthy, as meant); "false" is an error', () => {
    expect(cpFindings({ cniEnabled: 'true' }).map((f) => f.severity)).toEqual(['warning']);
    expect(cpFindings({ cniEnabled: 'false' }).map((f) => f.severity)).toEqual(['error']);
  });
  test('the allowed lists agree with the typed options', () => {
    expect(Object.values(ProxyLogHttpHeaders).sort()).toEqual([...LOG_HTTP_HEADERS].sort());
    expect(Object.values(WebhookFailurePolicy).sort()).toEqual([...WEBHOOK_FAILURE_POLICIES].sort());
  });
});
