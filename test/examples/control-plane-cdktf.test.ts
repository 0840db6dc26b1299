import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { PREREQUISITES_FILE, STACK_NAME, synthesize } from '../../examples/control-plane-cdktf/stack';
import { HighAvailabilityPreset } from '../../src/control-plane/install/high-availability';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('examples/control-plane-cdktf (cdktf App synth, no terraform binary)', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'control-plane-cdktf-'));
  const written = synthesize(outdir);
  const tf = JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', STACK_NAME, 'cdk.tf.json'), 'utf8'));
  const releases = Object.entries(tf.resource.helm_release).map(([id, r]: [string, any]) => ({ id, ...r }));

  test('writes the stack, the prerequisites and the runbooks', () => {
    expect(written.map((f) => path.relative(outdir, f))).toEqual([
      path.join('stacks', STACK_NAME, 'cdk.tf.json'), PREREQUISITES_FILE, path.join('runbooks', 'linkerd-upgrade.md'), path.join('runbooks', 'linkerd-exit.md'),
    ]);
  });

  test('two pinned helm_release resources, the control plane depending on the CRDs', () => {
    const crds = releases.find((r) => r.name === 'linkerd-crds');
    const cp = releases.find((r) => r.name === 'linkerd-control-plane');
    expect(releases).toHaveLength(2);
    for (const r of [crds, cp]) expect(r).toMatchObject({ repository: 'https://helm.linkerd.io/edge', version: '2026.6.3', namespace: 'linkerd', provider: 'helm' });
    expect(cp.depends_on).toEqual([`helm_release.${crds.id}`]);
    expect(JSON.parse(cp.values[0])).toMatchObject(HighAvailabilityPreset.values());
    expect(tf.provider.helm).toHaveLength(1);
  });

  test('the prerequisites are the labelled namespace and the cert-manager and trust-manager objects', () => {
    const objects = yaml.loadAll(fs.readFileSync(path.join(outdir, PREREQUISITES_FILE), 'utf8')) as any[];
    expect(objects[0]).toMatchObject({ kind: 'Namespace', metadata: { name: 'linkerd', labels: { 'linkerd.io/is-control-plane': 'true' } } });
    expect(objects.map((o) => o.kind).sort()).toEqual(['Bundle', 'Certificate', 'Certificate', 'ClusterIssuer', 'Issuer', 'Namespace']);
  });

  test('no output file contains a private key', () => {
    for (const file of filesUnder(outdir)) expect([file, fs.readFileSync(file, 'utf8').includes('PRIVATE KEY')]).toEqual([file, false]);
  });

  test('the runbooks use this stack\'s Terraform addresses', () => {
    const upgrade = fs.readFileSync(path.join(outdir, 'runbooks', 'linkerd-upgrade.md'), 'utf8');
    const crds = releases.find((r) => r.name === 'linkerd-crds');
    expect(upgrade).toContain(`apply -target=helm_release.${crds.id}`);
    expect(upgrade).toContain(`STACK_DIR="${path.join(outdir, 'stacks', STACK_NAME)}"`);
  });
});
