/**
 * `npm run bench [-- --sizes 100,500,1000,5000] [--runs 5] [--json FILE] [--services-per-chart N] [--no-docs] [--docs-from FILE]`
 *
 * For each N: the library with all checks (A) against plain cdk8s ApiObjects holding the same JSON (B) and against
 * the same mesh as a user writes it without this library (B+: cdk8s-plus-28 workloads, plain ApiObjects for the
 * Linkerd and Gateway API objects), and the CLI's analyze over B's YAML (C) against js-yaml parsing alone (P), also on
 * the same objects written as another tool writes YAML (C'/P': one List with anchors and aliases for repeated maps,
 * as PyYAML writes `&id001` / `*id001`). A0, the same constructs with the analysis switched off, splits A's cost into
 * constructs and checks. Each round runs A and B+, B and A0, A1, C and P, C' and P': the two sides of a ratio back to
 * back, which one first alternating by round. Times are medians of the rounds and ratios the medians of the rounds'
 * own ratios (with their lowest and highest), each run a fresh process (so peak RSS is its own).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { svgPlot } from './plot';

interface Sample { readonly ms: number; readonly rssMb: number; readonly objects: number }

interface Result {
  readonly services: number;
  readonly objects: number;
  readonly libraryMs: number;
  readonly plainMs: number;
  readonly ratio: number;
  /** B+: the same mesh with cdk8s-plus-28 and plain ApiObjects, as users write it without this library. */
  readonly plusMs: number;
  /** A / B+. */
  readonly ratioToPlus: number;
  /** The lowest and highest A/B+ of the rounds (every ratio is the median of the rounds' own ratios). */
  readonly ratioToPlusRange?: [number, number];
  /** A0: the same constructs with the analysis switched off. */
  readonly uncheckedMs: number;
  /** A0/B: what the constructs (ours and cdk8s-plus's) cost over plain ApiObjects, before any check runs. */
  readonly uncheckedRatio: number;
  /** (A − A0)/B: what the checks add, in units of plain cdk8s. */
  readonly checksRatio: number;
  readonly checksRatioRange?: [number, number];
  /** A1: A with the checks inline (CDK8S_LINKERD_CHECKS_THREAD=off), as on one core. */
  readonly inlineMs: number;
  /** (A1 − A0)/B: what the checks add when no second core takes them. */
  readonly inlineChecksRatio: number;
  readonly analyzeMs: number;
  readonly parseMs: number;
  readonly analyzeRatio: number;
  readonly analyzeRatioRange?: [number, number];
  /** C' and P': analyze and js-yaml loadAll of the same objects as one List with anchors and aliases. */
  readonly analyzeAliasedMs: number;
  readonly parseAliasedMs: number;
  readonly analyzeAliasedRatio: number;
  readonly analyzeAliasedRatioRange?: [number, number];
  readonly peakRssLibraryMb: number;
  readonly peakRssPlainMb: number;
}

const ROOT = path.resolve(__dirname, '..');

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

function measure(args: string[], env: Record<string, string> = {}): Sample {
  const out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(__dirname, 'measure.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, TS_NODE_PROJECT: path.join(__dirname, 'tsconfig.json'), ...env },
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Synthesizes the library's output once and turns it into B's input (charts with their objects). */
function prepare(services: number, work: string): string {
  const libraryOut = path.join(work, `prep-${services}`);
  measure(['library', String(services), libraryOut]);
  const charts = fs.readdirSync(libraryOut).filter((f) => f.endsWith('.k8s.yaml')).sort().map((f) => ({
    name: f.replace(/\.k8s\.yaml$/, ''),
    objects: yaml.loadAll(fs.readFileSync(path.join(libraryOut, f), 'utf8')).filter(Boolean),
  }));
  const jsonFile = path.join(work, `plain-${services}.json`);
  fs.writeFileSync(jsonFile, JSON.stringify(charts));
  return jsonFile;
}

/** Objects of a synth output, keys sorted (generated L1 classes keep schema order; plain ApiObjects sort keys). */
function canonicalObjects(dir: string): string[] {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  };
  return fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort()
    .flatMap((f) => yaml.loadAll(fs.readFileSync(path.join(dir, f), 'utf8')).filter(Boolean).map((o) => JSON.stringify(sorted(o))));
}

/** The label cdk8s derives from construct paths, which differ between the library's constructs and a user's. */
const ADDRESS_LABEL = /"cdk8s\.io\/metadata\.addr":"[^"]*"/g;

/** A, A0, B and B+ must write the same objects (B+ up to cdk8s's address label), or the comparison means nothing. */
function assertSameOutput(a: string, b: string, ignoreAddress = false): void {
  const strip = (objects: string[]) => (ignoreAddress ? objects.map((o) => o.replace(ADDRESS_LABEL, '"cdk8s.io/metadata.addr":""')) : objects);
  const left = strip(canonicalObjects(a));
  const right = strip(canonicalObjects(b));
  const differs = left.length !== right.length || left.some((o, i) => o !== right[i]);
  if (differs) throw new Error(`A (${a}) and B (${b}) synthesized different objects`);
}

/**
 * B's objects as one `kind: List` document in which every repeated map or list is written once with an anchor and
 * then as an alias, the way PyYAML (and tools built on it) writes Python objects that share dicts.
 */
function writeAliased(fromDir: string, toDir: string): void {
  const objects = canonicalObjects(fromDir).map((o) => JSON.parse(o));
  const shared = new Map<string, unknown>();
  const share = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const rebuilt = Array.isArray(v) ? v.map(share) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, share(x)]));
    const key = JSON.stringify(v);
    if (key.length < 24) return rebuilt; // small maps ({}, {port: 80}) stay inline, as anchors would cost more
    if (!shared.has(key)) shared.set(key, rebuilt);
    return shared.get(key);
  };
  fs.mkdirSync(toDir, { recursive: true });
  const list = { apiVersion: 'v1', kind: 'List', items: objects.map((o) => ({ ...(share(o) as object) })) };
  fs.writeFileSync(path.join(toDir, 'aliased.yaml'), yaml.dump(list, { lineWidth: -1 }));
}

function benchSize(services: number, runs: number, work: string): Result {
  const jsonFile = prepare(services, work);
  const a: Sample[] = []; const a0: Sample[] = []; const a1: Sample[] = []; const b: Sample[] = []; const bPlus: Sample[] = [];
  const c: Sample[] = []; const p: Sample[] = []; const cAliased: Sample[] = []; const pAliased: Sample[] = [];
  const aliasedDir = path.join(work, `aliased-${services}`);
  for (let r = 0; r < runs; r++) {
    // Each ratio's two sides run back to back (A and B+, B and A0, C and P, C' and P'): the VM's speed drifts over
    // minutes, and each ratio is the median of the rounds' own ratios. Which side goes first alternates by round, so
    // neither side is always the one that follows a light process or a heavy one.
    const pair = (first: () => void, second: () => void): void => {
      for (const side of r % 2 === 0 ? [first, second] : [second, first]) side();
    };
    pair(() => a.push(measure(['library', String(services), path.join(work, `a-${services}`)])),
      () => bPlus.push(measure(['plus', String(services), path.join(work, `bplus-${services}`)])));
    pair(() => b.push(measure(['plain', jsonFile, path.join(work, `b-${services}`)])),
      () => a0.push(measure(['unchecked', String(services), path.join(work, `a0-${services}`)])));
    a1.push(measure(['library', String(services), path.join(work, `a1-${services}`)], { CDK8S_LINKERD_CHECKS_THREAD: 'off' }));
    if (r === 0) writeAliased(path.join(work, `b-${services}`), aliasedDir);
    pair(() => c.push(measure(['analyze', path.join(work, `b-${services}`)])), () => p.push(measure(['parse', path.join(work, `b-${services}`)])));
    pair(() => cAliased.push(measure(['analyze', aliasedDir])), () => pAliased.push(measure(['parse', aliasedDir])));
  }
  assertSameOutput(path.join(work, `a-${services}`), path.join(work, `b-${services}`));
  assertSameOutput(path.join(work, `a-${services}`), path.join(work, `a0-${services}`));
  assertSameOutput(path.join(work, `a-${services}`), path.join(work, `a1-${services}`));
  assertSameOutput(path.join(work, `a-${services}`), path.join(work, `bplus-${services}`), true);
  if (cAliased[0].objects !== c[0].objects) throw new Error(`analyze found ${cAliased[0].objects} findings in the aliased YAML, ${c[0].objects} in B's`);
  const libraryMs = median(a.map((s) => s.ms));
  const plainMs = median(b.map((s) => s.ms));
  const uncheckedMs = median(a0.map((s) => s.ms));
  const inlineMs = median(a1.map((s) => s.ms));
  const analyzeMs = median(c.map((s) => s.ms));
  const parseMs = median(p.map((s) => s.ms));
  const plusMs = median(bPlus.map((s) => s.ms));
  const analyzeAliasedMs = median(cAliased.map((s) => s.ms));
  const parseAliasedMs = median(pAliased.map((s) => s.ms));
  const rounds = (f: (r: number) => number): number[] => a.map((_, r) => f(r));
  const checks = rounds((r) => (a[r].ms - a0[r].ms) / b[r].ms);
  const toPlus = rounds((r) => a[r].ms / bPlus[r].ms);
  const analyze = rounds((r) => c[r].ms / p[r].ms);
  const analyzeAliased = rounds((r) => cAliased[r].ms / pAliased[r].ms);
  return {
    services,
    objects: b[0].objects,
    libraryMs: round(libraryMs),
    plainMs: round(plainMs),
    ratio: round(median(rounds((r) => a[r].ms / b[r].ms)), 2),
    plusMs: round(plusMs),
    ratioToPlus: round(median(toPlus), 2),
    ratioToPlusRange: range(toPlus),
    uncheckedMs: round(uncheckedMs),
    uncheckedRatio: round(median(rounds((r) => a0[r].ms / b[r].ms)), 2),
    checksRatio: round(median(checks), 2),
    checksRatioRange: range(checks),
    inlineMs: round(inlineMs),
    inlineChecksRatio: round(median(rounds((r) => (a1[r].ms - a0[r].ms) / b[r].ms)), 2),
    analyzeMs: round(analyzeMs),
    parseMs: round(parseMs),
    analyzeRatio: round(median(analyze), 2),
    analyzeRatioRange: range(analyze),
    analyzeAliasedMs: round(analyzeAliasedMs),
    parseAliasedMs: round(parseAliasedMs),
    analyzeAliasedRatio: round(median(analyzeAliased), 2),
    analyzeAliasedRatioRange: range(analyzeAliased),
    peakRssLibraryMb: round(median(a.map((s) => s.rssMb))),
    peakRssPlainMb: round(median(b.map((s) => s.rssMb))),
  };
}

/** The lowest and highest of the rounds' ratios: how far one run of the bench can be from another. */
function range(values: number[]): [number, number] {
  return [round(Math.min(...values), 2), round(Math.max(...values), 2)];
}

/** ` (rounds 1.08–1.31)`, or nothing for results saved before ranges were kept. */
function spread(r?: [number, number]): string {
  return r ? ` (rounds ${r[0]}–${r[1]})` : '';
}

function round(v: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

function table(results: Result[]): string {
  const head = '| N | objects | A library ms | A0 unchecked ms | A1 inline checks ms | B plain ms | B+ cdk8s-plus ms | A/B | A/B+ | A0/B | (A−A0)/B | (A1−A0)/B | C analyze ms | P parse ms | C/P | C\' aliased ms | P\' aliased ms | C\'/P\' | RSS A MB | RSS B MB |';
  const rows = results.map((r) => `| ${r.services} | ${r.objects} | ${r.libraryMs} | ${r.uncheckedMs} | ${r.inlineMs ?? '–'} | ${r.plainMs} | ${r.plusMs} | ${r.ratio} | ${r.ratioToPlus} | ${r.uncheckedRatio} | ${r.checksRatio} | ${r.inlineChecksRatio ?? '–'} | ${r.analyzeMs} | ${r.parseMs} | ${r.analyzeRatio} | ${r.analyzeAliasedMs} | ${r.parseAliasedMs} | ${r.analyzeAliasedRatio} | ${r.peakRssLibraryMb} | ${r.peakRssPlainMb} |`);
  return [head, `|${'---|'.repeat(20)}`, ...rows].join('\n');
}

function targets(results: Result[]): string[] {
  const at = (n: number) => results.find((r) => r.services === n);
  const big = at(5000);
  const small = at(500);
  const lines: string[] = [];
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  if (big) {
    lines.push(`A/B at N=5000 ≤ 1.5: ${big.ratio} — ${verdict(big.ratio <= 1.5)} (constructs alone A0/B ${big.uncheckedRatio}, checks (A−A0)/B ${big.checksRatio})`);
    lines.push(`A ≤ 1.15 × B+ at N=5000: A/B+ ${big.ratioToPlus}${spread(big.ratioToPlusRange)} — ${verdict(big.ratioToPlus <= 1.15)}`);
    lines.push(`checks ≤ 0.1 × B at N=5000: (A−A0)/B ${big.checksRatio}${spread(big.checksRatioRange)} — ${verdict(big.checksRatio <= 0.1)} (on a thread beside cdk8s's YAML writing; inline, as on one core, (A1−A0)/B ${big.inlineChecksRatio}: no target, shown for what one core pays)`);
    lines.push(`peak RSS A ≤ 2 × B at N=5000: ${big.peakRssLibraryMb} vs ${big.peakRssPlainMb} MB — ${verdict(big.peakRssLibraryMb <= 2 * big.peakRssPlainMb)}`);
  }
  if (big && small) {
    const growth = round(big.libraryMs / small.libraryMs, 2);
    lines.push(`checks linear, A(5000)/A(500) ≤ 11: ${growth} — ${verdict(growth <= 11)}`);
  }
  for (const r of results) lines.push(`C/P ≤ 1.5 at N=${r.services}: ${r.analyzeRatio}${spread(r.analyzeRatioRange)} — ${verdict(r.analyzeRatio <= 1.5)}`);
  for (const r of results) {
    lines.push(`C'/P' ≤ 1.5 (anchors and aliases) at N=${r.services}: ${r.analyzeAliasedRatio}${spread(r.analyzeAliasedRatioRange)} — ${verdict(r.analyzeAliasedRatio <= 1.5)}`);
  }
  return lines;
}

function writeDocs(results: Result[], verdicts: string[]): void {
  const docs = path.join(ROOT, 'docs');
  fs.mkdirSync(docs, { recursive: true });
  const series = (label: string, color: string, pick: (r: Result) => number) => ({
    label, color, points: results.map((r) => ({ x: r.services, y: pick(r) })),
  });
  fs.writeFileSync(path.join(docs, 'benchmarks.svg'), svgPlot('Synthesis and analysis time against mesh size', [
    series('A library + checks', '#d62728', (r) => r.libraryMs),
    series('A0 checks off', '#ff9896', (r) => r.uncheckedMs),
    series('B plain cdk8s', '#1f77b4', (r) => r.plainMs),
    series('B+ cdk8s-plus, no library', '#9467bd', (r) => r.plusMs),
    series('C CLI analyze', '#2ca02c', (r) => r.analyzeMs),
    series('P js-yaml parse', '#7f7f7f', (r) => r.parseMs),
  ]));
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  fs.writeFileSync(path.join(docs, 'benchmarks.md'), [
    '# Benchmarks', '',
    'Written by `npm run bench` (bench/run.ts). Each time is the median of several rounds of fresh-process runs, each',
    'round A and B+, B and A0, A1, C and P, C\' and P\' (the two sides of a ratio back to back, which one first alternating by',
    'round); each ratio is the median of the rounds\' own ratios, and the target lines give the lowest and highest round.',
    'A = the library\'s constructs with all checks, synthesized to YAML (the checks on',
    'a worker thread while cdk8s writes the YAML, as on any machine with two or more cores); A0 = the same constructs',
    'with the analysis switched off (a diagnostic only the bench can do: it splits A into what the constructs cost and',
    'what the checks add); A1 = A with the checks inline (`CDK8S_LINKERD_CHECKS_THREAD=off`, what one core pays); B = plain cdk8s ApiObjects holding the same JSON, synthesized to YAML; B+ = the same',
    'mesh as a user writes it without this library (cdk8s-plus-28 Deployments, Services, ServiceAccounts; plain ApiObjects',
    'for the Linkerd and Gateway API objects), synthesized to YAML; C = `cdk8s-linkerd analyze` over B\'s YAML (parsing',
    'included); P = js-yaml `loadAll` of that YAML alone; C\' and P\' = the same over the same objects written as one',
    '`kind: List` with anchors and aliases for every repeated map, as PyYAML writes them (`&id001` / `*id001`).', '',
    `Machine: ${machine}. A shared VM's speed drifts between runs (B+ at N=5000 has measured 10.5 to 15.6 s in five`,
    'runs of the same code), so a ratio near its target can read met in one run and missed in the next: the rounds\'',
    'lowest and highest ratios show how far, and the spread over several runs is in',
    '[performance-notes.md](performance-notes.md).', '',
    table(results), '',
    ...verdicts.map((v) => `- ${v}`), '',
    '![time against N, log–log](benchmarks.svg)', '',
    'What was profiled and fixed, and why the missed targets are missed: [performance-notes.md](performance-notes.md).', '',
  ].join('\n'));
}

function main(): void {
  // Rewrites the docs from a saved --json run without measuring again (e.g. after changing the plot).
  const saved = flag('docs-from', '');
  if (saved) {
    const { results } = JSON.parse(fs.readFileSync(saved, 'utf8')) as { results: Result[] };
    writeDocs(results, targets(results));
    return;
  }
  const perChart = flag('services-per-chart', '');
  if (perChart) process.env.BENCH_SERVICES_PER_CHART = perChart;
  const sizes = flag('sizes', '100,500,1000,5000').split(',').map(Number);
  const runs = Number(flag('runs', '5'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-linkerd-bench-'));
  const results = sizes.map((n) => {
    const r = benchSize(n, runs, work);
    process.stdout.write(`N=${n}: A ${r.libraryMs} ms, A0 ${r.uncheckedMs} ms, A1 ${r.inlineMs} ms, B ${r.plainMs} ms, B+ ${r.plusMs} ms, C ${r.analyzeMs} ms, P ${r.parseMs} ms\n`);
    return r;
  });
  const verdicts = targets(results);
  process.stdout.write(`\n${table(results)}\n\n${verdicts.join('\n')}\n`);
  const jsonOut = flag('json', '');
  if (jsonOut) fs.writeFileSync(jsonOut, `${JSON.stringify({ results }, null, 2)}\n`);
  fs.rmSync(work, { recursive: true, force: true });
  if (!process.argv.includes('--no-docs')) writeDocs(results, verdicts);
}

main();
