/**
 * Manifests nobody here wrote (../shared/realworld: Linkerd's docs, demo apps, `linkerd viz install` output), run
 * through the built CLI with their labelled verdicts (expected.json). Every error on a manifest that works on
 * Linkerd 2.20 is a false error: none of the `mustNotReport` rules may fire, and every `mustReport` rule must.
 * The data is read in place; nothing is copied into the repository.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assertBuilt, runCli, tempDir, removeDir } from './cli-harness';
import { GATEWAY_API_CRDS, LINKERD_CRDS, describeWithShared, sharedPath } from '../support/shared';

interface Verdict {
  readonly file: string | string[];
  readonly inventory?: string[];
  readonly withCrds?: boolean;
  readonly mustReport: string[];
  readonly mustNotReport: string[];
  readonly mustNotReportMessages?: Array<{ rule: string; contains: string }>;
  readonly note: string;
}

const REALWORLD = sharedPath('realworld');

describeWithShared('real-world manifests (../shared/realworld/expected.json)', () => {
  const verdicts: Verdict[] = JSON.parse(fs.readFileSync(path.join(REALWORLD, 'expected.json'), 'utf8'));
  let linkerdCrds: string;

  beforeAll(() => {
    assertBuilt();
    // --crds reads every CRD of a folder; the Linkerd folder also holds Gateway API CRDs of another bundle, so the
    // policy.linkerd.io ones (and the rest of Linkerd's groups) are linked into a folder of their own.
    linkerdCrds = tempDir('realworld-crds');
    for (const f of fs.readdirSync(LINKERD_CRDS).filter((n) => n.endsWith('linkerd.io.yaml'))) {
      fs.symlinkSync(path.join(LINKERD_CRDS, f), path.join(linkerdCrds, f));
    }
  });
  afterAll(() => removeDir(linkerdCrds));

  test('the labelled set is there', () => {
    expect(verdicts.length).toBeGreaterThanOrEqual(10);
  });

  test.each(verdicts.map((v) => [[v.file].flat().join(' + ') + (v.withCrds ? ' [crds]' : ''), v] as [string, Verdict]))('%s', (_name, v) => {
    const args = ['analyze', '--format', 'json'];
    if (v.withCrds) args.push('--crds', linkerdCrds, '--crds', GATEWAY_API_CRDS);
    for (const i of v.inventory ?? []) args.push('--inventory', path.join(REALWORLD, i));
    args.push(...[v.file].flat().map((f) => path.join(REALWORLD, f)));
    const result = runCli(args, { cwd: REALWORLD });
    expect([result.status, result.stderr]).toEqual([expect.any(Number), '']);
    expect(result.status).not.toBe(2);
    const findings: Array<{ ruleId: string; severity: string; message: string }> = JSON.parse(result.stdout).findings;
    const ids = new Set(findings.map((f) => f.ruleId));
    expect(v.mustReport.filter((r) => !ids.has(r))).toEqual([]);
    expect(v.mustNotReport.filter((r) => ids.has(r))).toEqual([]);
    for (const m of v.mustNotReportMessages ?? []) {
      expect(findings.filter((f) => f.ruleId === m.rule && f.message.includes(m.contains)).map((f) => f.message)).toEqual([]);
    }
  });

  // Each set is one guide's manifests as the guide applies them together (guides of one app redefine the same objects).
  test.each([
    [['derived/01-emojivoto-app.injected.yaml', '02-emojivoto-policy.yaml']],
    [['derived/01-emojivoto-app.injected.yaml', '06-emojivoto-rate-limiting.yaml']],
    [['derived/03-booksapp-app.injected.yaml', '04-booksapp-per-route-policy.yaml']],
    [['derived/03-booksapp-app.injected.yaml', 'derived/05-booksapp-fault-injection.injected.yaml']],
    [['12b-timeouts-reference.yaml']],
    [['16-linkerd-viz-install.yaml', '18-linkerd2-grafana-authzpolicy.yaml']],
  ])('no errors and no warnings on manifests that work on Linkerd 2.20: %j', (files) => {
    // A warning on a manifest that works as its authors intend is a false warning: it blocks a team using --fail-on warning.
    const result = runCli(['analyze', '--format', 'json', ...files.map((f) => path.join(REALWORLD, f))], { cwd: REALWORLD });
    const loud = JSON.parse(result.stdout).findings.filter((f: any) => f.severity !== 'info');
    expect(loud.map((f: any) => `${f.severity} ${f.ruleId} ${f.message}`)).toEqual([]);
  });
});
