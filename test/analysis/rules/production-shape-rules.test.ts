import * as yaml from 'js-yaml';
import { analyze } from '../../../src/analysis/engine';
import { fluxZoneSpreadPostRenderers } from '../../../src/control-plane/install/fault-domains';
import { HighAvailabilityPreset } from '../../../src/control-plane/install/high-availability';
import { IMAGE_DIGESTS_ANNOTATION } from '../../../src/core/image-values';
import { argoApp, fluxRelease, manifests } from '../../delivery/fixtures';

function findings(objects: any[], ruleId: string, options = {}) {
  return analyze(manifests(objects), options).findings.filter((f) => f.ruleId === ruleId);
}

const cp = (values: any) => argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', values);
const node = (name: string, zone?: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, ...(zone ? { labels: { 'topology.kubernetes.io/zone': zone } } : {}) } });
const HA = HighAvailabilityPreset.values();

describe('LKD-CP-001 fault domains', () => {
  test('highAvailability: true with no node facts gives only information, never a warning, and never says "set highAvailability"', () => {
    const found = findings([cp(HA)], 'LKD-CP-001');
    expect(found.map((f) => f.severity)).toEqual(['info']);
    expect(found[0].message).toMatch(/needs 3 schedulable nodes, and its zone spread is preferred; no node facts were given, so whether the cluster has those nodes, and how many zones, cannot be known here/);
    expect(found[0].fix).toMatch(/nodeCount and zoneCount/);
    expect(found[0].fix).not.toMatch(/highAvailability/);
    // An info finding never fails: the default CLI and synth thresholds are error (and warning at most).
    expect(analyze(manifests([cp(HA)])).findings.filter((f) => f.severity !== 'info' && f.ruleId === 'LKD-CP-001')).toEqual([]);
  });

  test('an override that undoes highAvailability: true gets a fix about the override, not about turning HA on', () => {
    const [gap] = findings([cp({ ...HA, controllerReplicas: 2 })], 'LKD-CP-001', { nodeCount: 3, zoneCount: 3 });
    expect(gap.severity).toBe('warning');
    expect(gap.message).toMatch(/asks for HA but controllerReplicas is 2/);
    expect(gap.fix).toMatch(/the chart reads the HA values themselves .* remove any override .* that undoes them/);
    const [partial] = findings([cp({ controllerReplicas: 2 })], 'LKD-CP-001');
    expect(partial.fix).toMatch(/^Use highAvailability: true/);
  });

  test('too few nodes is a warning, from the inventory or the declared count', () => {
    expect(findings([cp(HA)], 'LKD-CP-001', { inventory: [node('a'), node('b')] }).map((f) => [f.severity, f.message]))
      .toEqual([['warning', expect.stringMatching(/needs at least 3 schedulable nodes; the inventory's Nodes give only 2/)]]);
    expect(findings([cp(HA)], 'LKD-CP-001', { nodeCount: 2 }).map((f) => f.message)).toEqual([expect.stringMatching(/the declared nodeCount\/zoneCount give only 2/)]);
  });

  test('enough nodes: says the node guarantee holds and what is known about zones', () => {
    const unlabelled = findings([cp(HA)], 'LKD-CP-001', { inventory: [node('a'), node('b'), node('c')] });
    expect(unlabelled.map((f) => [f.severity, f.message])).toEqual([['info', expect.stringMatching(/a node failure leaves 2 of 3 replicas .*whether a zone failure does is not known/)]]);
    const oneZone = findings([cp(HA)], 'LKD-CP-001', { inventory: [node('a', 'z1'), node('b', 'z1'), node('c', 'z1')] });
    expect(oneZone.map((f) => f.message)).toEqual([expect.stringMatching(/every node is in one zone .* a zone failure takes the whole control plane down/)]);
    const preferred = findings([cp(HA)], 'LKD-CP-001', { nodeCount: 3, zoneCount: 3 });
    expect(preferred.map((f) => [f.severity, f.message])).toEqual([['info', expect.stringMatching(/across the 3 zones the spread is only preferred/)]]);
  });

  test('passes when both guarantees hold: a Flux post-renderer (or rendered controllers) requiring the zone spread, on nodes in 3 zones', () => {
    const flux = fluxRelease('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', HA, { postRenderers: fluxZoneSpreadPostRenderers() });
    const zones = [node('a', 'z1'), node('b', 'z2'), node('c', 'z3')];
    expect(findings([flux], 'LKD-CP-001', { inventory: zones })).toEqual([]);
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-config', namespace: 'linkerd' }, data: { values: yaml.dump(HA) } };
    const controller = (component: string, spread: boolean) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `linkerd-${component}`, namespace: 'linkerd' },
      spec: {
        selector: { matchLabels: { 'linkerd.io/control-plane-component': component } },
        template: {
          metadata: { labels: { 'linkerd.io/control-plane-component': component } },
          spec: {
            containers: [{ name: 'c', image: 'cr.l5d.io/linkerd/controller:edge-26.6.3' }],
            ...(spread ? { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule' }] } : {}),
          },
        },
      },
    });
    expect(findings([config, controller('destination', true), controller('identity', true)], 'LKD-CP-001', { inventory: zones })).toEqual([]);
    expect(findings([config, controller('destination', true), controller('identity', false)], 'LKD-CP-001', { inventory: zones })
      .map((f) => f.message)).toEqual([expect.stringMatching(/spread is only preferred/)]);
  });
});

describe('LKD-MESH-011 Pod Security admission refuses linkerd-init', () => {
  const ns = (level?: string) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: 'shop',
      annotations: { 'linkerd.io/inject': 'enabled' },
      ...(level ? { labels: { 'pod-security.kubernetes.io/enforce': level } } : {}),
    },
  });
  const app = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'orders', namespace: 'shop' },
    spec: { selector: { matchLabels: { app: 'orders' } }, template: { metadata: { labels: { app: 'orders' } }, spec: { containers: [{ name: 'o', image: 'a:1' }] } } },
  };

  test.each(['baseline', 'restricted'])('fires for a meshed workload in a namespace enforcing %s without the CNI', (level) => {
    const [finding] = findings([ns(level), app, cp({ cniEnabled: false })], 'LKD-MESH-011');
    expect(finding.severity).toBe('error');
    expect(finding.resource).toMatchObject({ kind: 'Deployment', name: 'orders' });
    expect(finding.message).toMatch(new RegExp(`linkerd-init .*NET_ADMIN and NET_RAW.*enforces Pod Security "${level}"`));
    expect(findings([ns(level), app], 'LKD-MESH-011', { cniEnabled: false })[0].severity).toBe('error');
  });

  test('with no control-plane install and nothing declared, the chart default is assumed: a warning that says how to declare the CNI', () => {
    const [finding] = findings([ns('restricted'), app], 'LKD-MESH-011');
    expect(finding.severity).toBe('warning');
    expect(finding.message).toMatch(/assuming the chart default, cniEnabled: false/);
    expect(finding.fix).toMatch(/declare it \(cniEnabled: true, --cni true\)/);
  });

  test('reads cniEnabled from the control-plane install it sees', () => {
    expect(findings([ns('restricted'), app, cp({ cniEnabled: false })], 'LKD-MESH-011').map((f) => f.message))
      .toEqual([expect.stringMatching(/cniEnabled in the Argo CD Application/)]);
    expect(findings([ns('restricted'), app, cp({ cniEnabled: true })], 'LKD-MESH-011')).toEqual([]);
  });

  test('Argo CD parameters are --set values, typed as Helm types them: cniEnabled "true" is true; forceString keeps the text', () => {
    const withParameters = (parameters: any[]) => {
      const install = cp({});
      install.spec.source.helm = { parameters };
      return install;
    };
    expect(findings([ns('restricted'), app, withParameters([{ name: 'cniEnabled', value: 'true' }])], 'LKD-MESH-011')).toEqual([]);
    expect(findings([ns('restricted'), app, withParameters([{ name: 'cniEnabled', value: 'True' }])], 'LKD-MESH-011')).toEqual([]);
    // And "false" is false: the init container stays, and the namespace refuses it.
    expect(findings([ns('restricted'), app, withParameters([{ name: 'cniEnabled', value: 'false' }])], 'LKD-MESH-011').map((f) => f.severity)).toEqual(['error']);
  });

  test('values the analysis cannot see (Argo CD valueFiles, a Flux valuesFrom Secret) leave cniEnabled unknown: a warning', () => {
    const argo = cp({});
    argo.spec.source.helm = { valueFiles: ['values-prod.yaml'] };
    const [finding] = findings([ns('restricted'), app, argo], 'LKD-MESH-011');
    expect(finding.severity).toBe('warning');
    expect(finding.message).toMatch(/also reads spec.source.helm.valueFiles \(values-prod.yaml\), which this analysis cannot see/);
    // Set in the values it does see, it is known.
    argo.spec.source.helm.valuesObject = { cniEnabled: false };
    expect(findings([ns('restricted'), app, argo], 'LKD-MESH-011').map((f) => f.severity)).toEqual(['error']);
    const flux = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'linkerd-control-plane', namespace: 'linkerd' },
      spec: { chart: { spec: { chart: 'linkerd-control-plane', version: '2026.6.3' } }, valuesFrom: [{ kind: 'Secret', name: 'linkerd-values' }] },
    };
    expect(findings([ns('restricted'), app, flux], 'LKD-MESH-011')[0].message).toMatch(/spec.valuesFrom Secret linkerd-values, which this analysis cannot see/);
  });

  test('passes with the CNI declared, a privileged or unlabelled namespace, or an uninjected workload', () => {
    expect(findings([ns('restricted'), app], 'LKD-MESH-011', { cniEnabled: true })).toEqual([]);
    expect(findings([ns('privileged'), app], 'LKD-MESH-011')).toEqual([]);
    expect(findings([ns(), app], 'LKD-MESH-011')).toEqual([]);
    const plain = { ...ns('restricted'), metadata: { name: 'shop', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } };
    expect(findings([plain, app], 'LKD-MESH-011')).toEqual([]);
  });

  test('a namespace known only from the inventory counts too', () => {
    expect(findings([app, cp({})], 'LKD-MESH-011', { inventory: [ns('baseline')] }).map((f) => f.severity)).toEqual(['error']);
  });
});

describe('LKD-VER-001 floating tags and requested digests', () => {
  const digest = `sha256:${'a'.repeat(64)}`;
  test.each(['stable', 'edge', 'main'])('refuses the channel tag %s on a chart image and on a container', (tag) => {
    expect(findings([cp({ proxy: { image: { version: tag } } })], 'LKD-VER-001').map((f) => f.message))
      .toEqual([expect.stringMatching(new RegExp(`proxy.image.version: the tag "${tag}" is a channel`))]);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' }, spec: { containers: [{ name: 'c', image: `nginx:${tag}` }] } };
    expect(findings([pod], 'LKD-VER-001')).toHaveLength(1);
  });

  test('checks each chart\'s own image keys (viz registry/name/tag)', () => {
    const viz = argoApp('linkerd-viz', 'linkerd-viz', '2026.6.3', { tap: { image: { tag: 'latest' } } });
    expect(findings([viz], 'LKD-VER-001').map((f) => f.message)).toEqual([expect.stringMatching(/tap.image.tag: the tag "latest"/)]);
  });

  test('warns where a digest is missing when the install asks for digests, and passes when every image has one', () => {
    const asked = (values: any) => argoApp('linkerd2-cni', 'linkerd2-cni', '2026.6.3', values);
    const annotate = (o: any) => ({ ...o, metadata: { ...o.metadata, annotations: { [IMAGE_DIGESTS_ANNOTATION]: 'required' } } });
    const [missing] = findings([annotate(asked({}))], 'LKD-VER-001');
    expect(missing.severity).toBe('warning');
    expect(missing.message).toMatch(/asks for images pinned by digest .*but cni-plugin \(image.version\) has none/);
    expect(findings([annotate(asked({ image: { version: `v1.6.8@${digest}` } }))], 'LKD-VER-001')).toEqual([]);
    // Without the annotation, a tag-pinned image is fine.
    expect(findings([asked({})], 'LKD-VER-001')).toEqual([]);
  });
});

describe('LKD-SEC-001 and External Secrets objects', () => {
  const externalSecret = (extra: any = {}) => ({
    apiVersion: 'external-secrets.io/v1',
    kind: 'ExternalSecret',
    metadata: { name: 'linkerd-identity-issuer', namespace: 'linkerd' },
    spec: {
      secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' },
      target: { name: 'linkerd-identity-issuer', ...extra },
      data: [{ secretKey: 'tls.key', remoteRef: { key: 'platform/linkerd/issuer', property: 'tls.key' } }],
    },
  });

  test('secretKey names where the secret goes, so an ExternalSecret is not a leak', () => {
    expect(findings([externalSecret()], 'LKD-SEC-001')).toEqual([]);
  });

  test('the same field in another kind, and a real token inside an ExternalSecret template, are still found', () => {
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 's3', namespace: 'shop' }, data: { secretKey: 'wJalrXUtnFEMIK7MDENG' } };
    expect(findings([config], 'LKD-SEC-001')).toHaveLength(1);
    const leaky = externalSecret({ template: { data: { token: `ghp_${'a'.repeat(36)}` } } });
    expect(findings([leaky], 'LKD-SEC-001').map((f) => f.message)).toEqual([expect.stringMatching(/a GitHub token/)]);
  });
});
