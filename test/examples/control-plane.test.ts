import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { MESHED_NAMESPACES, synthesize } from '../../examples/control-plane/control-plane';
import { analyze } from '../../src/analysis/engine';
import { HighAvailabilityPreset } from '../../src/control-plane/install/high-availability';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('examples/control-plane (HA, cert-manager identity, Argo CD)', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'control-plane-example-'));
  const written = synthesize(outdir);
  const objects = yaml.loadAll(fs.readFileSync(path.join(outdir, 'linkerd.k8s.yaml'), 'utf8')) as any[];
  const ids = objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);

  test('writes the manifests and both runbooks', () => {
    expect(written.map((f) => path.relative(outdir, f))).toEqual(['linkerd.k8s.yaml', path.join('runbooks', 'linkerd-upgrade.md'), path.join('runbooks', 'linkerd-exit.md')]);
    for (const file of written) expect(fs.statSync(file).size).toBeGreaterThan(0);
  });

  test('has exactly the namespace, the identity objects and the two Applications', () => {
    expect([...ids].sort()).toEqual([
      'Application/argocd/linkerd-control-plane',
      'Application/argocd/linkerd-crds',
      'Bundle//linkerd-identity-trust-roots',
      'Certificate/cert-manager/linkerd-trust-anchor',
      'Certificate/linkerd/linkerd-identity-issuer',
      'ClusterIssuer//linkerd-identity-issuer',
      'Issuer/cert-manager/linkerd-trust-root-issuer',
      'Namespace//linkerd',
    ]);
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

  test('the checks find nothing at error level, and nothing about versions or the control plane', () => {
    const nodes = ['a', 'b', 'c'].map((name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } }));
    const { findings } = analyze(objects.map((object) => ({ object })), { inventory: nodes });
    expect(findings.filter((f) => f.severity === 'error' || /^LKD-(VER|CP)-/.test(f.ruleId))).toEqual([]);
  });

  test('the upgrade runbook restarts the example\'s cohorts and uses Argo CD commands', () => {
    const upgrade = fs.readFileSync(path.join(outdir, 'runbooks', 'linkerd-upgrade.md'), 'utf8');
    for (const ns of MESHED_NAMESPACES) expect(upgrade).toContain(`COHORT=${ns}`);
    expect(upgrade).toContain('argocd app wait linkerd-crds --sync --health');
  });

  test('synth is deterministic', () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'control-plane-example-'));
    synthesize(again);
    for (const rel of ['linkerd.k8s.yaml', 'runbooks/linkerd-upgrade.md', 'runbooks/linkerd-exit.md']) {
      expect(fs.readFileSync(path.join(again, rel), 'utf8')).toBe(fs.readFileSync(path.join(outdir, rel), 'utf8'));
    }
  });
});
