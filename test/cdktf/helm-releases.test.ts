import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HelmProvider } from '@cdktf/provider-helm/lib/provider';
import { App as TfApp, TerraformStack, Testing } from 'cdktf';
import { LinkerdHelmReleases, LinkerdHelmReleasesProps } from '../../src/cdktf';
import { LinkerdIdentity } from '../../src/control-plane/identity/identity';
import { ZoneSpread } from '../../src/control-plane/install/fault-domains';
import { ImageDistribution } from '../../src/control-plane/install/image-distribution';
import { controlPlaneChart } from '../delivery/fixtures';

function stack(props: Partial<LinkerdHelmReleasesProps> = {}) {
  const app = Testing.app();
  const tfStack = new TerraformStack(app, 'linkerd');
  const provider = new HelmProvider(tfStack, 'helm', { kubernetes: { configPath: '~/.kube/config' } });
  const releases = new LinkerdHelmReleases(tfStack, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), provider, ...props });
  const synth = JSON.parse(Testing.synth(tfStack));
  return { tfStack, releases, synth };
}

function releasesByName(synth: any): Record<string, any> {
  return Object.fromEntries(Object.entries(synth.resource.helm_release).map(([id, r]: [string, any]) => [r.name, { id, ...r }]));
}

describe('CDKTF helm_release delivery', () => {
  const { releases, synth } = stack({ highAvailability: true });
  const byName = releasesByName(synth);

  test('synthesizes two pinned helm_release resources', () => {
    expect(Object.keys(byName).sort()).toEqual(['linkerd-control-plane', 'linkerd-crds']);
    for (const chart of ['linkerd-crds', 'linkerd-control-plane']) {
      expect(byName[chart]).toMatchObject({
        chart, repository: 'https://helm.linkerd.io/edge', version: '2026.6.3', namespace: 'linkerd', create_namespace: true, timeout: 600,
      });
    }
  });

  test('the control plane depends_on the CRDs release', () => {
    expect(byName['linkerd-control-plane'].depends_on).toEqual([`helm_release.${byName['linkerd-crds'].id}`]);
    expect(byName['linkerd-crds']).not.toHaveProperty('depends_on');
  });

  test('values are the JSON-encoded resolved values, identical to the cdk8s constructs\'', () => {
    const cdk8sValues = controlPlaneChart({ highAvailability: true }).cp.values();
    expect(byName['linkerd-crds'].values.map((v: string) => JSON.parse(v))).toEqual([cdk8sValues.crds]);
    expect(byName['linkerd-control-plane'].values.map((v: string) => JSON.parse(v))).toEqual([cdk8sValues.controlPlane]);
    expect(releases.values()).toEqual(cdk8sValues);
  });

  test('uses the given provider', () => {
    expect(byName['linkerd-crds'].provider).toBe('helm');
    expect(synth.provider.helm).toBeDefined();
  });

  test('returns the namespace and identity objects the helm provider cannot apply, in order', () => {
    const manifests = releases.prerequisiteManifests();
    expect(manifests[0]).toMatchObject({ kind: 'Namespace', metadata: { name: 'linkerd', labels: { 'linkerd.io/is-control-plane': 'true' } } });
    expect(manifests.map((m) => m.kind)).toEqual(expect.arrayContaining(['Certificate', 'ClusterIssuer', 'Bundle']));
    expect(releases.hasIdentityObjects).toBe(true);
    expect(JSON.stringify(manifests)).not.toMatch(/PRIVATE KEY/);
  });

  test('runbooks name this stack\'s resource addresses', () => {
    const upgrade = releases.upgradeRunbook();
    expect(upgrade).toContain(`terraform -chdir="$STACK_DIR" apply -target=helm_release.${byName['linkerd-crds'].id}`);
    expect(upgrade).toMatch(/STACK_DIR="\S+[\\/]stacks[\\/]linkerd"\n/);
    expect(upgrade).toContain('kubectl apply -f "$PREREQUISITES"');
    const exit = releases.exitRunbook();
    expect(exit.indexOf(`destroy -target=helm_release.${byName['linkerd-control-plane'].id}`))
      .toBeLessThan(exit.indexOf(`destroy -target=helm_release.${byName['linkerd-crds'].id}`));
  });

  test('options: timeout, namespace; coded errors', () => {
    const custom = releasesByName(stack({ timeoutSeconds: 900, namespace: 'mesh' }).synth);
    expect(custom['linkerd-control-plane']).toMatchObject({ timeout: 900, namespace: 'mesh' });
    expect(() => stack({ timeoutSeconds: 0 })).toThrow(/\[linkerd\/Linkerd\] LKD-INPUT-006: timeoutSeconds 0/);
    expect(() => stack({ kubernetesVersion: '1.28' })).toThrow(/\[linkerd\/Linkerd\] LKD-CP-004/);
    expect(() => stack({ identity: undefined as any })).toThrow(/LKD-INPUT-003: identity is required/);
  });

  test('synthesizes with the cdktf App into an outdir without a terraform binary', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-linkerd-'));
    const app = new TfApp({ outdir });
    const s = new TerraformStack(app, 'linkerd');
    new HelmProvider(s, 'helm', {});
    new LinkerdHelmReleases(s, 'Linkerd', { identity: LinkerdIdentity.fromCertManager() });
    app.synth();
    const json = JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', 'linkerd', 'cdk.tf.json'), 'utf8'));
    expect(Object.keys(json.resource.helm_release)).toHaveLength(2);
  });
});

describe('CDKTF: what the two core releases cannot carry is refused, not dropped', () => {
  test('cni and a required zone spread are coded errors; images and the troubleshooting runbook work', () => {
    expect(() => stack({ cni: {} })).toThrow(/LKD-INPUT-004: cni is not delivered by the CDKTF entry point/);
    expect(() => stack({ highAvailability: true, zoneSpread: ZoneSpread.REQUIRED })).toThrow(/LKD-CP-001: zoneSpread REQUIRED/);
    const { synth, releases } = stack({ images: ImageDistribution.mirror('registry.example/linkerd') });
    expect(JSON.parse(releasesByName(synth)['linkerd-control-plane'].values[0]).controllerImage).toBe('registry.example/linkerd/controller');
    expect(releases.troubleshootingRunbook()).toContain('## 1. Leaf');
  });
});
