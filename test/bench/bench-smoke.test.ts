/**
 * Keeps `npm run bench` working: a tiny run (N=3, one run each) must produce the JSON fields with sane values.
 * It asserts nothing about speed — targets belong to the benchmark, never to a timed test.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const REQUIRED = ['services', 'objects', 'libraryMs', 'plainMs', 'ratio', 'peakRssLibraryMb', 'peakRssPlainMb'];
/** The A0 split (same constructs, checks off) and B+ (cdk8s-plus-28 without this library). */
const SPLIT_AND_PLUS = ['uncheckedMs', 'uncheckedRatio', 'uncheckedToPlus', 'checksRatio', 'plusMs', 'ratioToPlus'];
/** Who writes the YAML that analyze reads: each gets analyze (C) against js-yaml loadAll (P). */
const WRITERS = ['cdk8s', 'kubectl', 'helm', 'pyyaml'];

test('a tiny bench run writes every result field for every size, the end-to-end synth where asked', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
  const jsonFile = path.join(dir, 'bench.json');
  const stdout = execFileSync(process.execPath, [
    '-r', 'ts-node/register/transpile-only', path.join(ROOT, 'bench', 'run.ts'),
    '--sizes', '2,3', '--runs', '1', '--e2e-max', '2', '--json', jsonFile, '--no-docs',
  ], { cwd: ROOT, env: { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'bench', 'tsconfig.json') }, encoding: 'utf8' });

  const { results } = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  expect(results.map((r: any) => r.services)).toEqual([2, 3]);
  for (const r of results) {
    for (const field of [...REQUIRED, ...SPLIT_AND_PLUS]) expect(typeof r[field]).toBe('number');
    // 10 objects per service plus the namespace; both sides synthesize the same objects.
    expect(r.objects).toBe(r.services * 10 + 1);
    expect(r.libraryMs).toBeGreaterThan(0);
    expect(r.ratio).toBeGreaterThan(0);
    expect(r.plusMs).toBeGreaterThan(0);
    // The targets' ratios come with the lowest and highest round, around their median.
    const ranged = [[r.ratioToPlus, r.ratioToPlusRange], [r.checksRatio, r.checksRatioRange],
      ...WRITERS.map((w) => [r.analyze[w].ratio, r.analyze[w].ratioRange])];
    for (const [ratio, [low, high]] of ranged) {
      expect(low).toBeLessThanOrEqual(ratio);
      expect(high).toBeGreaterThanOrEqual(ratio);
    }
    for (const w of WRITERS) expect(r.analyze[w].analyzeMs).toBeGreaterThan(0);
    // CPU time beside wall time: a busy machine moves it less.
    for (const ratio of [r.ratioToPlusCpu, ...WRITERS.map((w) => r.analyze[w].cpuRatio)]) expect(ratio).toBeGreaterThan(0);
  }
  // The end-to-end synth (cdk8s synth running the app, process start to files written) only up to --e2e-max.
  const [withE2e, withoutE2e] = results;
  for (const field of ['libraryMs', 'plusMs', 'libraryCpuMs', 'plusCpuMs', 'ratio', 'cpuRatio']) expect(withE2e.endToEnd[field]).toBeGreaterThan(0);
  expect(withoutE2e.endToEnd).toBeUndefined();
  expect(stdout).toMatch(/a user's synth end to end ≤ 1\.3 × without the library at N=2: E\/E\+ [\d.]+ \(rounds [\d.]+–[\d.]+\), CPU [\d.]+ — (MET|MISSED)/);
  for (const w of WRITERS) {
    expect(stdout).toMatch(new RegExp(`analyze ≤ 2 × js-yaml loadAll, YAML as ${w} writes it, N=3: C/P [\\d.]+ \\(rounds [\\d.]+–[\\d.]+\\), CPU [\\d.]+ — (MET|MISSED)`));
  }
  expect(stdout).toMatch(/\| B\+ cdk8s-plus ms \|.*\| A\/B\+ \|/);
  fs.rmSync(dir, { recursive: true, force: true });
}, 240_000);

test('a tiny reachability bench run reports explain and diff against analyze', () => {
  const stdout = execFileSync(process.execPath, [
    '-r', 'ts-node/register/transpile-only', path.join(ROOT, 'bench', 'reachability.ts'), '--sizes', '3', '--runs', '1',
  ], { cwd: ROOT, env: { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'bench', 'tsconfig.json') }, encoding: 'utf8' });
  const [row] = JSON.parse(stdout);
  expect(row).toMatchObject({ services: 3, objects: 31, changes: 2 });
  for (const field of ['analyzeMs', 'diffMs', 'explainMs', 'diffRatio', 'explainRatio']) expect(typeof row[field]).toBe('number');
}, 120_000);

test('the overlap bench builds its case and reports the losing Servers (no timing asserted)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { measureOverlap, overlapManifests } = require('../../bench/worst-cases') as typeof import('../../bench/worst-cases');
  expect(overlapManifests(3).map((m) => m.object.kind)).toEqual(['Namespace', 'Deployment', 'Deployment', 'Deployment', 'Server', 'Server', 'Server']);
  const point = measureOverlap(20, 1);
  expect(point).toMatchObject({ n: 20, findings: 19 });
});

test('the worst-case bench builds its secret-scan cases and finds the one credential (no timing asserted)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { aliasBombManifest, measureScan } = require('../../bench/worst-cases') as typeof import('../../bench/worst-cases');
  expect(measureScan('bomb', aliasBombManifest(), 1, 1)).toMatchObject({ name: 'bomb', findings: 1, budgetMs: 1 });
});

test('the worst-case bench builds its YAML 1.1 case and collects one reading per value (no timing asserted)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { measureYaml11 } = require('../../bench/worst-cases') as typeof import('../../bench/worst-cases');
  expect(measureYaml11(60, 1)).toMatchObject({ values: 60, readings: 60 });
});
