/**
 * examples/multicluster: synthesized for real, then the same manifests through the CLI's multi-cluster mode with a
 * shared anchor (clean) and with west on another anchor (LKD-MC-001 naming the cluster). Certificates are generated
 * at test time (test/support/certs.ts); no private key reaches any output.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, JsonPatch } from 'cdk8s';
import * as yaml from 'js-yaml';
import { FleetCertificates } from '../../examples/multicluster/certs';
import { buildFleet } from '../../examples/multicluster/multicluster';
import { analyzeFleet } from '../../src/analysis/fleet';
import { MeshChecks } from '../../src/checks/mesh-checks';
import { readProperties } from '../../src/checks/plugin-settings';
import { LinkerdValidation } from '../../src/frontends/plugin';
import { assertBuilt, runCli } from '../frontends/cli-harness';
import { certs, issue } from '../support/certs';

const PRIVATE_KEY = /PRIVATE KEY|LS0tLS1CRUdJTiBFQyBQUklWQVRF|LS0tLS1CRUdJTiBQUklWQVRF/;

function fleetCerts(): FleetCertificates {
  const west = issue({ cn: 'identity.linkerd.west.example', signer: certs.root, days: 180 });
  return { anchorPem: certs.root.certPem, eastIssuerPem: certs.issuer.certPem, westIssuerPem: west.certPem };
}

function synth(outdir: string, c: FleetCertificates): void {
  const app = new App({ outdir });
  buildFleet(app, c);
  app.synth();
}

function objectsOf(file: string): any[] {
  return yaml.loadAll(fs.readFileSync(file, 'utf8')) as any[];
}

describe('examples/multicluster (east and west on one anchor, pod to pod)', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'multicluster-example-'));
  const c = fleetCerts();
  synth(outdir, c);
  const east = path.join(outdir, 'east.k8s.yaml');
  const west = path.join(outdir, 'west.k8s.yaml');

  test('writes one file per cluster with its control plane, multicluster chart and workloads', () => {
    const ids = (file: string) => objectsOf(file).map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort();
    expect(ids(east)).toEqual(expect.arrayContaining([
      'Application/argocd/linkerd-control-plane', 'Application/argocd/linkerd-multicluster', 'Link/linkerd-multicluster/west',
      'Deployment/shop/client',
    ]));
    expect(ids(west)).toEqual(expect.arrayContaining(['Application/argocd/linkerd-multicluster', 'Service/shop/orders', 'MeshTLSAuthentication/shop/east-client']));
    expect(ids(west).filter((i) => i.startsWith('Link/'))).toEqual([]);
  });

  test('the chart is pinned to the release, flat network (no gateway), one controller per Link', () => {
    const app = objectsOf(east).find((o) => o.kind === 'Application' && o.metadata.name === 'linkerd-multicluster');
    expect(app.spec.source).toMatchObject({ chart: 'linkerd-multicluster', targetRevision: '2026.6.3', repoURL: 'https://helm.linkerd.io/edge' });
    expect(app.spec.source.helm.valuesObject).toMatchObject({
      gateway: { enabled: false }, identityTrustDomain: 'east.example', controllers: [{ link: { ref: { name: 'west' } }, gateway: { enabled: false } }],
    });
    expect(app.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('2');
  });

  test('west exports orders pod to pod and admits east\'s client identity; east calls orders-west', () => {
    const orders = objectsOf(west).find((o) => o.kind === 'Service' && o.metadata.name === 'orders');
    expect(orders.metadata.labels['mirror.linkerd.io/exported']).toBe('remote-discovery');
    const authn = objectsOf(west).find((o) => o.kind === 'MeshTLSAuthentication');
    expect(authn.spec.identities).toEqual(['client.shop.serviceaccount.identity.linkerd.east.example']);
    const client = objectsOf(east).find((o) => o.kind === 'Deployment' && o.metadata.name === 'client');
    expect(client.metadata.annotations['analysis.cdk8s-linkerd.io/calls']).toBe('orders-west:8080');
    const link = objectsOf(east).find((o) => o.kind === 'Link');
    expect(link.spec).toMatchObject({
      targetClusterName: 'west',
      clusterCredentialsSecret: 'cluster-credentials-west',
      remoteDiscoverySelector: { matchLabels: { 'mirror.linkerd.io/exported': 'remote-discovery' } },
    });
    expect(link.spec.gatewayAddress).toBeUndefined();
  });

  test('both clusters carry the same anchor and their own issuer, and no private key', () => {
    for (const file of [east, west]) expect(fs.readFileSync(file, 'utf8')).not.toMatch(PRIVATE_KEY);
    const values = (file: string) => objectsOf(file).find((o) => o.metadata.name === 'linkerd-control-plane').spec.source.helm.valuesObject;
    expect(values(east).identityTrustAnchorsPEM).toEqual(values(west).identityTrustAnchorsPEM);
    expect(values(east).identity.issuer.tls.crtPEM).not.toEqual(values(west).identity.issuer.tls.crtPEM);
  });

  test('a policy in west that admits only west\'s own client fails the synth with LKD-MC-004 naming east', () => {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'multicluster-bad-')) });
    const { west: westChart } = buildFleet(app, c);
    const authn = westChart.node.findChild('EastClient').node.defaultChild as any;
    authn.addJsonPatch(JsonPatch.replace('/spec/identities/0', 'client.shop.serviceaccount.identity.linkerd.west.example'));
    expect(() => app.synth()).toThrow(/LKD-MC-004 at east\/ClientApp \[cluster east\].*west's inbound policy would refuse it/);
  });

  describe('CLI analyze --cluster', () => {
    beforeAll(assertBuilt);

    test('matching anchors: exit 0, every finding names its cluster', () => {
      const r = runCli(['analyze', '--cluster', `east=${east}`, '--cluster', `west=${west}`, '--format', 'json'], { cwd: outdir });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.summary.errors).toBe(0);
      for (const f of report.findings) expect(['east', 'west']).toContain(f.cluster);
    });

    test('west on another anchor: exit 1 with LKD-MC-001 on east\'s Link, in text, json and sarif', () => {
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'multicluster-other-'));
      synth(other, { anchorPem: certs.newRoot.certPem, eastIssuerPem: certs.newIssuer.certPem, westIssuerPem: certs.newIssuer.certPem });
      const westOther = path.join(other, 'west.k8s.yaml');
      const args = ['analyze', '--cluster', `east=${east}`, '--cluster', `west=${westOther}`];
      const text = runCli(args, { cwd: outdir });
      expect(text.status).toBe(1);
      expect(text.stdout).toMatch(/^\[cluster east\] .*east\.k8s\.yaml:\d+: error LKD-MC-001 Link linkerd-multicluster\/west: links east to west, but their trust-anchor bundles differ/m);
      const json = JSON.parse(runCli([...args, '--format', 'json'], { cwd: outdir }).stdout);
      expect(json.findings.find((f: any) => f.ruleId === 'LKD-MC-001')).toMatchObject({ cluster: 'east', severity: 'error' });
      const sarif = JSON.parse(runCli([...args, '--format', 'sarif'], { cwd: outdir }).stdout);
      const result = sarif.runs[0].results.find((res: any) => res.ruleId === 'LKD-MC-001');
      expect(result.properties).toEqual({ cluster: 'east' });
      expect(sarif.runs[0].tool.driver.rules.map((rule: any) => rule.id)).toContain('LKD-MC-006');
      for (const out of [text.stdout, JSON.stringify(json), JSON.stringify(sarif)]) expect(out).not.toMatch(PRIVATE_KEY);
    });

    test('bad usage exits 2: no NAME, a duplicate cluster, a bare PATH beside --cluster, mermaid', () => {
      for (const args of [['--cluster', east], ['--cluster', `east=${east}`, '--cluster', `East=${west}`], ['--cluster', `east=${east}`, west],
        ['--cluster', `east=${east}`, '--format', 'mermaid']]) {
        const r = runCli(['analyze', ...args], { cwd: outdir });
        expect({ args, status: r.status, stdout: r.stdout }).toEqual({ args, status: 2, stdout: '' });
      }
    });
  });

  describe('the cdk8s-cli plugin with clusters: [east, west]', () => {
    function fakeContext(manifests: string[]) {
      const violations: any[] = [];
      let status: string | undefined;
      return {
        context: { manifests, metadata: {}, report: { addViolation: (v: any) => violations.push(v), submit: (st: string) => { status = st; } } },
        violations,
        status: () => status,
      };
    }

    test('analyses each <cluster>.k8s.yaml as its cluster: the example passes', async () => {
      const fake = fakeContext([east, west]);
      await new LinkerdValidation({ clusters: ['east', 'west'] }).validate(fake.context);
      expect(fake.violations.map((v) => v.recommendation)).toEqual([]);
      expect(fake.status()).toBe('success');
    });

    test('west on another anchor is a violation naming the cluster', async () => {
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'multicluster-plugin-'));
      synth(other, { anchorPem: certs.newRoot.certPem, eastIssuerPem: certs.newIssuer.certPem, westIssuerPem: certs.newIssuer.certPem });
      const fake = fakeContext([east, path.join(other, 'west.k8s.yaml')]);
      await new LinkerdValidation({ clusters: ['east', 'west'] }).validate(fake.context);
      expect(fake.status()).toBe('failure');
      expect(fake.violations.find((v) => v.ruleName === 'LKD-MC-001').recommendation).toMatch(/^\[cluster east\] Link linkerd-multicluster\/west: links east to west/);
    });

    test('refuses a cluster name that is not a DNS label', () => {
      expect(() => readProperties({ clusters: ['East'] })).toThrow(/property clusters: "East" is not a cluster name/);
    });
  });

  test('the engine entry point: the same issuer in two clusters is LKD-MC-002', () => {
    const app = new App();
    MeshChecks.of(app).configure({ printWarnings: false });
    const { east: e, west: w } = buildFleet(app, { ...c, westIssuerPem: c.eastIssuerPem });
    const result = analyzeFleet([e, w].map((chart: Chart & { clusterName?: string }) => ({
      name: (chart as any).clusterName, manifests: chart.toJson().map((object: any) => ({ object })),
    })));
    const shared = result.findings.filter((f) => f.ruleId === 'LKD-MC-002');
    expect(shared).toHaveLength(1);
    expect(shared[0]).toMatchObject({ cluster: 'west', severity: 'warning' });
    expect(shared[0].message).toMatch(/copying the issuer Secret does not create trust/);
  });
});
