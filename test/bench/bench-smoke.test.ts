/**
 * Keeps `npm run bench` working: a tiny run (N=3, one run each) must produce the JSON fields with sane values.
 * It asserts nothing about speed — targets belong to the benchmark, never to a timed test.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const REQUIRED = ['services', 'objects', 'libraryMs', 'plainMs', 'ratio', 'analyzeMs', 'parseMs', 'analyzeRatio', 'peakRssLibraryMb', 'peakRssPlainMb'];
/** The A0 split (same constructs, checks off) the bench adds to the fields. */
const SPLIT = ['uncheckedMs', 'uncheckedRatio', 'checksRatio'];
/** B+ (cdk8s-plus-28 without this library) and C'/P' (YAML with anchors and aliases, as PyYAML writes it). */
const PLUS_AND_ALIASED = ['plusMs', 'ratioToPlus', 'analyzeAliasedMs', 'parseAliasedMs', 'analyzeAliasedRatio'];

test('a tiny bench run writes every result field for every size', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
  const jsonFile = path.join(dir, 'bench.json');
  const stdout = execFileSync(process.execPath, [
    '-r', 'ts-node/register/transpile-only', path.join(ROOT, 'bench', 'run.ts'),
    '--sizes', '2,3', '--runs', '1', '--json', jsonFile, '--no-docs',
  ], { cwd: ROOT, env: { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'bench', 'tsconfig.json') }, encoding: 'utf8' });

  const { results } = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  expect(results.map((r: any) => r.services)).toEqual([2, 3]);
  for (const r of results) {
    for (const field of [...REQUIRED, ...SPLIT, ...PLUS_AND_ALIASED]) expect(typeof r[field]).toBe('number');
    // 10 objects per service plus the namespace; both sides synthesize the same objects.
    expect(r.objects).toBe(r.services * 10 + 1);
    expect(r.libraryMs).toBeGreaterThan(0);
    expect(r.ratio).toBeGreaterThan(0);
    expect(r.plusMs).toBeGreaterThan(0);
    expect(r.ratioToPlus).toBeGreaterThan(0);
    expect(r.analyzeAliasedRatio).toBeGreaterThan(0);
    // The targets' ratios come with the lowest and highest round, around their median.
    for (const field of ['ratioToPlus', 'checksRatio', 'analyzeRatio', 'analyzeAliasedRatio']) {
      const [low, high] = r[`${field}Range`];
      expect(low).toBeLessThanOrEqual(r[field]);
      expect(high).toBeGreaterThanOrEqual(r[field]);
    }
  }
  expect(stdout).toMatch(/C\/P ≤ 1\.5 at N=3: [\d.]+ \(rounds [\d.]+–[\d.]+\) — (met|MISSED)/);
  expect(stdout).toMatch(/C'\/P' ≤ 1\.5 \(anchors and aliases\) at N=3: [\d.]+ \(rounds [\d.]+–[\d.]+\) — (met|MISSED)/);
  expect(stdout).toMatch(/\| B\+ cdk8s-plus ms \|.*\| A\/B\+ \|/);
  fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

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
