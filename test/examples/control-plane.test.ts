import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { CLUSTER_INVENTORY, DENY_NAMESPACE, MESHED_NAMESPACES, synthesize } from '../../examples/control-plane/control-plane';
import { analyze } from '../../src/analysis/engine';
import { HighAvailabilityPreset } from '../../src/control-plane/install/high-availability';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('examples/control-plane (HA, cert-manager identity, CNI, viz, Argo CD)', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'control-plane-example-'));
  const written = synthesize(outdir);
  const objects = yaml.loadAll(fs.readFileSync(path.join(outdir, 'linkerd.k8s.yaml'), 'utf8')) as any[];
  const ids = objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);

  test('writes the manifests and the three runbooks', () => {
    expect(written.map((f) => path.relative(outdir, f))).toEqual(['linkerd.k8s.yaml', path.join('runbooks', 'linkerd-upgrade.md'),
      path.join('runbooks', 'linkerd-exit.md'), path.join('runbooks', 'linkerd-identity-troubleshooting.md')]);
    for (const file of written) expect(fs.statSync(file).size).toBeGreaterThan(0);
  });

  test('has exactly the namespaces, the identity objects, four Applications, the allow-scrapes objects and the tap grant', () => {
    expect([...ids].sort()).toEqual([
      'Application/argocd/linkerd-control-plane',
      'Application/argocd/linkerd-crds',
      'Application/argocd/linkerd-viz',
      'Application/argocd/linkerd2-cni',
      `AuthorizationPolicy/${DENY_NAMESPACE}/prometheus-scrape`,
      `AuthorizationPolicy/${DENY_NAMESPACE}/proxy-probes`,
      'Bundle//linkerd-identity-trust-roots',
      'Certificate/cert-manager/linkerd-trust-anchor',
      'Certificate/linkerd/linkerd-identity-issuer',
      'ClusterIssuer//linkerd-identity-issuer',
      'ClusterRoleBinding//sre-linkerd-viz-tap',
      `HTTPRoute/${DENY_NAMESPACE}/proxy-metrics`,
      `HTTPRoute/${DENY_NAMESPACE}/proxy-probes`,
      'Issuer/cert-manager/linkerd-trust-root-issuer',
      'Namespace//linkerd',
      'Namespace//linkerd-cni',
      'Namespace//linkerd-viz',
      `Server/${DENY_NAMESPACE}/proxy-admin`,
    ]);
  });

  test('waves: namespaces -1, CRDs and CNI 0, control plane 1, viz 2; the control plane runs with cniEnabled', () => {
    const wave = (name: string) => objects.find((o) => o.kind === 'Application' && o.metadata.name === name).metadata.annotations['argocd.argoproj.io/sync-wave'];
    expect(['linkerd-crds', 'linkerd2-cni', 'linkerd-control-plane', 'linkerd-viz'].map(wave)).toEqual(['0', '0', '1', '2']);
    expect(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.annotations['argocd.argoproj.io/sync-wave'])).toEqual(['-1', '-1', '-1']);
    expect(objects.find((o) => o.metadata.name === 'linkerd-control-plane').spec.source.helm.valuesObject.cniEnabled).toBe(true);
  });

  test('the CRDs Application precedes the control plane\'s, with waves 0 and 1 and pinned charts', () => {
    const crds = objects.find((o) => o.metadata.name === 'linkerd-crds');
    const cp = objects.find((o) => o.metadata.name === 'linkerd-control-plane');
    expect(objects.indexOf(crds)).toBeLessThan(objects.indexOf(cp));
    expect([crds.metadata.annotations['argocd.argoproj.io/sync-wave'], cp.metadata.annotations['argocd.argoproj.io/sync-wave']]).toEqual(['0', '1']);
    expect([crds.spec.source.targetRevision, cp.spec.source.targetRevision]).toEqual(['2026.6.3', '2026.6.3']);
    expect(crds.spec.syncPolicy.syncOptions).toContain('ServerSideApply=true');
    expect(cp.spec.project).toBe('platform');
  });

  test('the control plane is HA with cert-manager identity', () => {
    const values = objects.find((o) => o.metadata.name === 'linkerd-control-plane').spec.source.helm.valuesObject;
    expect(values).toMatchObject(HighAvailabilityPreset.values());
    expect(values).toMatchObject({ identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls' } }, proxy: { defaultInboundPolicy: 'audit' } });
  });

  test('no output file contains a private key', () => {
    for (const file of filesUnder(outdir)) expect([file, fs.readFileSync(file, 'utf8').includes('PRIVATE KEY')]).toEqual([file, false]);
  });

  test('the checks find nothing at error or warning level; the one information says which fault domains HA survives', () => {
    const { findings } = analyze(objects.map((object) => ({ object })), { inventory: CLUSTER_INVENTORY });
    expect(findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(findings.map((f) => [f.ruleId, f.message])).toEqual([
      ['LKD-CP-001', expect.stringMatching(/a node failure leaves 2 of 3 replicas .*across the 3 zones the spread is only preferred/)],
    ]);
  });

  test('without the allow-scrapes objects, LKD-POL-021 would warn for the namespace that moved to deny (viz found with no flag)', () => {
    // The shop team's objects as part of the analysed output (inventory workloads are looked up, never reported on).
    const shop = CLUSTER_INVENTORY.filter((o) => o.kind !== 'Node');
    const withoutScrapes = [...objects.filter((o) => o.metadata.namespace !== DENY_NAMESPACE), ...shop];
    const { findings } = analyze(withoutScrapes.map((object) => ({ object })), { inventory: CLUSTER_INVENTORY });
    const withScrapes = analyze([...objects, ...shop].map((object) => ({ object })), { inventory: CLUSTER_INVENTORY }).findings;
    expect(withScrapes.filter((f) => f.ruleId === 'LKD-POL-021')).toEqual([]);
    expect(findings.filter((f) => f.ruleId === 'LKD-POL-021').map((f) => f.message)).toEqual([expect.stringMatching(/linkerd-viz\/prometheus\) cannot scrape .*orders/)]);
  });

  test('the exit runbook removes viz before the core and the CNI after the control plane', () => {
    const exit = fs.readFileSync(path.join(outdir, 'runbooks', 'linkerd-exit.md'), 'utf8');
    const at = (text: string) => exit.indexOf(text);
    expect(at('argocd app delete linkerd-viz')).toBeGreaterThan(0);
    expect(at('argocd app delete linkerd-viz')).toBeLessThan(at('argocd app delete linkerd-control-plane'));
    expect(at('argocd app delete linkerd-control-plane')).toBeLessThan(at('argocd app delete linkerd2-cni'));
  });

  test('the upgrade runbook restarts the example\'s cohorts and uses Argo CD commands', () => {
    const upgrade = fs.readFileSync(path.join(outdir, 'runbooks', 'linkerd-upgrade.md'), 'utf8');
    for (const ns of MESHED_NAMESPACES) expect(upgrade).toContain(`COHORT=${ns}`);
    expect(upgrade).toContain('argocd app wait linkerd-crds --sync --health');
  });

  test('synth is deterministic', () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'control-plane-example-'));
    synthesize(again);
    for (const rel of ['linkerd.k8s.yaml', 'runbooks/linkerd-upgrade.md', 'runbooks/linkerd-exit.md', 'runbooks/linkerd-identity-troubleshooting.md']) {
      expect(fs.readFileSync(path.join(again, rel), 'utf8')).toBe(fs.readFileSync(path.join(outdir, rel), 'utf8'));
    }
  });
});
