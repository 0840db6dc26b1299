/**
 * `npm run bench [-- --sizes 10,100,1000,5000] [--runs 5] [--e2e-max 1000] [--json FILE] [--services-per-chart N] [--no-docs]`
 * `[--docs-from FILE,FILE] [--main-job FILE] [--note TEXT]` (--docs-from rewrites the docs from saved --json runs; a
 * note of several words needs `npx ts-node -P bench/tsconfig.json bench/run.ts …`, as the task runner splits words)
 *
 * For each N: the library with all checks (A) against plain cdk8s ApiObjects holding the same JSON (B) and against
 * the same mesh as a user writes it without this library (B+: cdk8s-plus-28 workloads, plain ApiObjects for the
 * Linkerd and Gateway API objects); A0, the same constructs with the analysis switched off, splits A's cost into
 * constructs and checks. A user's synth end to end (E and E+, N ≤ --e2e-max): `cdk8s synth` running the app with
 * ts-node, from process start to files written, with the library and without it. The CLI's analyze (C) against
 * js-yaml's loadAll (P) over the same objects as cdk8s, kubectl, Helm and PyYAML (anchors and aliases) write them.
 * Each round runs the two sides of every ratio back to back, which one first alternating by round. Times are medians
 * of the rounds and ratios the medians of the rounds' own ratios (with their lowest and highest), each run a fresh
 * process (so peak RSS is its own). Prints every target as MET or MISSED.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { assertSameOutput } from './compare';
import { svgPlot } from './plot';
import { median, ProcessTime, timeCommand } from './process-time';
import { WRITERS, Writer, writeAs } from './yaml-writers';

interface Sample { readonly ms: number; readonly cpuMs: number; readonly rssMb: number; readonly objects: number }

/** analyze (C) against js-yaml loadAll (P) over one writer's text. */
interface AnalyzeResult {
  readonly analyzeMs: number;
  readonly parseMs: number;
  readonly ratio: number;
  readonly ratioRange: [number, number];
  /** The same ratio in CPU time (on a busy machine it moves less than wall time). */
  readonly cpuRatio: number;
}

/** A user's synth end to end: `cdk8s synth` of an app with the library (E) and without it (E+). */
interface EndToEnd {
  readonly libraryMs: number;
  readonly plusMs: number;
  readonly libraryCpuMs: number;
  readonly plusCpuMs: number;
  /** E / E+ (wall), the median of the rounds' own ratios, with the lowest and highest. */
  readonly ratio: number;
  readonly ratioRange: [number, number];
  readonly cpuRatio: number;
}

interface Result {
  readonly services: number;
  readonly objects: number;
  readonly libraryMs: number;
  readonly plainMs: number;
  readonly ratio: number;
  /** B+: the same mesh with cdk8s-plus-28 and plain ApiObjects, as users write it without this library. */
  readonly plusMs: number;
  /** A / B+, the median of the rounds' own ratios, with the lowest and highest. */
  readonly ratioToPlus: number;
  readonly ratioToPlusRange: [number, number];
  /** A / B+ in CPU time (A's includes the checks' thread). */
  readonly ratioToPlusCpu: number;
  /** A0: the same constructs with the analysis switched off. */
  readonly uncheckedMs: number;
  /** A0/B: what the constructs (ours and cdk8s-plus's) cost over plain ApiObjects, before any check runs. */
  readonly uncheckedRatio: number;
  /** A0/B+: the constructs' own cost against cdk8s-plus (must not grow). */
  readonly uncheckedToPlus: number;
  /** (A − A0)/B: what the checks add, in units of plain cdk8s. */
  readonly checksRatio: number;
  readonly checksRatioRange: [number, number];
  readonly endToEnd?: EndToEnd;
  /** C/P per writer of the YAML. */
  readonly analyze: Record<Writer, AnalyzeResult>;
  readonly peakRssLibraryMb: number;
  readonly peakRssPlainMb: number;
}

const ROOT = path.resolve(__dirname, '..');
const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');

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

/**
 * `cdk8s synth` of bench/user-app/SIDE.ts with ts-node type-checking the app, as `cdk8s init` sets an app up (the
 * library side loads the compiled package, as a user's app does): process start to files written.
 */
function synthApp(side: 'library' | 'plus', services: number, outdir: string): ProcessTime {
  const app = `npx ts-node -P bench/tsconfig.json bench/user-app/${side}.ts`;
  return timeCommand(`${CDK8S} synth --no-check-upgrade --app "${app}" --output ${outdir}`, ROOT, {
    CDK8S_CHECK_UPGRADE: 'false', BENCH_SERVICES: String(services), BENCH_SERVICES_PER_CHART: undefined,
  });
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

/** The lowest and highest of the rounds' ratios: how far one run of the bench can be from another. */
function range(values: number[]): [number, number] {
  return [round(Math.min(...values), 2), round(Math.max(...values), 2)];
}

function round(v: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

function benchSize(services: number, runs: number, e2eMax: number, work: string): Result {
  const jsonFile = prepare(services, work);
  const dir = (name: string) => path.join(work, `${name}-${services}`);
  const a: Sample[] = []; const a0: Sample[] = []; const b: Sample[] = []; const bPlus: Sample[] = [];
  const e: ProcessTime[] = []; const ePlus: ProcessTime[] = [];
  const c = new Map<Writer, Sample[]>(WRITERS.map((w) => [w, []]));
  const p = new Map<Writer, Sample[]>(WRITERS.map((w) => [w, []]));
  const texts = new Map<Writer, string>();
  const endToEnd = services <= e2eMax;
  for (let r = 0; r < runs; r++) {
    // Each ratio's two sides run back to back: the VM's speed drifts over minutes, and each ratio is the median of
    // the rounds' own ratios. Which side goes first alternates by round, so neither side is always the one that
    // follows a light process or a heavy one.
    const pair = (first: () => void, second: () => void): void => {
      for (const side of r % 2 === 0 ? [first, second] : [second, first]) side();
    };
    pair(() => a.push(measure(['library', String(services), dir('a')])), () => bPlus.push(measure(['plus', String(services), dir('bplus')])));
    pair(() => b.push(measure(['plain', jsonFile, dir('b')])), () => a0.push(measure(['unchecked', String(services), dir('a0')])));
    if (endToEnd) pair(() => e.push(synthApp('library', services, dir('e'))), () => ePlus.push(synthApp('plus', services, dir('eplus'))));
    if (r === 0) for (const w of WRITERS) texts.set(w, writeAs(w, dir('b'), dir(`yaml-${w}`)));
    for (const w of WRITERS) pair(() => c.get(w)!.push(measure(['analyze', texts.get(w)!])), () => p.get(w)!.push(measure(['parse', texts.get(w)!])));
  }
  assertSameOutput(dir('a'), dir('b'));
  assertSameOutput(dir('a'), dir('a0'));
  assertSameOutput(dir('a'), dir('bplus'), true);
  if (endToEnd) assertSameOutput(dir('a'), dir('e'), true);
  if (endToEnd) assertSameOutput(dir('a'), dir('eplus'), true);
  for (const w of WRITERS) {
    const found = c.get(w)![0].objects;
    if (found !== c.get('cdk8s')![0].objects) throw new Error(`analyze found ${found} findings in ${w}'s YAML, ${c.get('cdk8s')![0].objects} in cdk8s's`);
  }
  const rounds = (f: (r: number) => number): number[] => a.map((_, r) => f(r));
  const med = (samples: { ms: number }[]) => round(median(samples.map((s) => s.ms)));
  const checks = rounds((r) => (a[r].ms - a0[r].ms) / b[r].ms);
  const toPlus = rounds((r) => a[r].ms / bPlus[r].ms);
  const analyze = Object.fromEntries(WRITERS.map((w) => {
    const ratios = rounds((r) => c.get(w)![r].ms / p.get(w)![r].ms);
    const cpuRatio = round(median(rounds((r) => c.get(w)![r].cpuMs / p.get(w)![r].cpuMs)), 2);
    return [w, { analyzeMs: med(c.get(w)!), parseMs: med(p.get(w)!), ratio: round(median(ratios), 2), ratioRange: range(ratios), cpuRatio }];
  })) as Record<Writer, AnalyzeResult>;
  const e2eRatios = e.map((x, r) => x.wallMs / ePlus[r].wallMs);
  return {
    services,
    objects: b[0].objects,
    libraryMs: med(a),
    plainMs: med(b),
    ratio: round(median(rounds((r) => a[r].ms / b[r].ms)), 2),
    plusMs: med(bPlus),
    ratioToPlus: round(median(toPlus), 2),
    ratioToPlusRange: range(toPlus),
    ratioToPlusCpu: round(median(rounds((r) => a[r].cpuMs / bPlus[r].cpuMs)), 2),
    uncheckedMs: med(a0),
    uncheckedRatio: round(median(rounds((r) => a0[r].ms / b[r].ms)), 2),
    uncheckedToPlus: round(median(rounds((r) => a0[r].ms / bPlus[r].ms)), 2),
    checksRatio: round(median(checks), 2),
    checksRatioRange: range(checks),
    endToEnd: endToEnd ? {
      libraryMs: round(median(e.map((x) => x.wallMs))),
      plusMs: round(median(ePlus.map((x) => x.wallMs))),
      libraryCpuMs: round(median(e.map((x) => x.cpuMs))),
      plusCpuMs: round(median(ePlus.map((x) => x.cpuMs))),
      ratio: round(median(e2eRatios), 2),
      ratioRange: range(e2eRatios),
      cpuRatio: round(median(e.map((x, r) => x.cpuMs / ePlus[r].cpuMs)), 2),
    } : undefined,
    analyze,
    peakRssLibraryMb: round(median(a.map((s) => s.rssMb))),
    peakRssPlainMb: round(median(b.map((s) => s.rssMb))),
  };
}

function synthTable(results: Result[]): string {
  const head = '| N | objects | A library ms | A0 unchecked ms | B plain ms | B+ cdk8s-plus ms | A/B | A/B+ | A0/B | A0/B+ | (A−A0)/B | E user synth ms (CPU) | E+ without library ms (CPU) | E/E+ | RSS A MB | RSS B MB |';
  const rows = results.map((r) => {
    const e = r.endToEnd;
    const e2e = e ? `${e.libraryMs} (${e.libraryCpuMs}) | ${e.plusMs} (${e.plusCpuMs}) | ${e.ratio}` : '– | – | –';
    return `| ${r.services} | ${r.objects} | ${r.libraryMs} | ${r.uncheckedMs} | ${r.plainMs} | ${r.plusMs} | ${r.ratio} | ${r.ratioToPlus} | ${r.uncheckedRatio} | ${r.uncheckedToPlus} | ${r.checksRatio} | ${e2e} | ${r.peakRssLibraryMb} | ${r.peakRssPlainMb} |`;
  });
  return [head, `|${'---|'.repeat(16)}`, ...rows].join('\n');
}

function analyzeTable(results: Result[]): string {
  const head = `| N | ${WRITERS.map((w) => `C ${w} ms | P ${w} ms | C/P ${w}`).join(' | ')} |`;
  const rows = results.map((r) => `| ${r.services} | ${WRITERS.map((w) => `${r.analyze[w].analyzeMs} | ${r.analyze[w].parseMs} | ${r.analyze[w].ratio}`).join(' | ')} |`);
  return [head, `|${'---|'.repeat(1 + 3 * WRITERS.length)}`, ...rows].join('\n');
}

const verdict = (ok: boolean) => (ok ? 'MET' : 'MISSED');
const spread = (r: [number, number]) => ` (rounds ${r[0]}–${r[1]})`;
/** `, CPU 1.2`, or nothing for results saved before CPU time was kept. */
const cpu = (ratio?: number) => (ratio === undefined || Number.isNaN(ratio) ? '' : `, CPU ${ratio}`);

function targets(results: Result[]): string[] {
  const at = (n: number) => results.find((r) => r.services === n);
  const big = at(5000);
  const lines: string[] = [];
  for (const r of results) {
    const e = r.endToEnd;
    if (!e) continue;
    const limit = r.services <= 100 ? 1.3 : 1.4;
    lines.push(`a user's synth end to end ≤ ${limit} × without the library at N=${r.services}: E/E+ ${e.ratio}${spread(e.ratioRange)}, CPU ${e.cpuRatio} — ${verdict(e.ratio <= limit)}`);
  }
  if (big) {
    lines.push(`A ≤ 1.4 × B+ at N=5000: A/B+ ${big.ratioToPlus}${spread(big.ratioToPlusRange)}${cpu(big.ratioToPlusCpu)} (constructs alone A0/B+ ${big.uncheckedToPlus}) — ${verdict(big.ratioToPlus <= 1.4)}`);
    lines.push(`peak RSS A ≤ 2 × B at N=5000: ${big.peakRssLibraryMb} vs ${big.peakRssPlainMb} MB — ${verdict(big.peakRssLibraryMb <= 2 * big.peakRssPlainMb)}`);
  }
  for (const w of WRITERS) {
    for (const r of results) {
      const x = r.analyze[w];
      lines.push(`analyze ≤ 2 × js-yaml loadAll, YAML as ${w} writes it, N=${r.services}: C/P ${x.ratio}${spread(x.ratioRange)}${cpu(x.cpuRatio)} — ${verdict(x.ratio <= 2)}`);
    }
  }
  const small = at(1000);
  if (big && small) {
    const growth = round(big.libraryMs / small.libraryMs, 2);
    lines.push(`A grows linearly, A(5000)/A(1000) ≤ 5.5: ${growth} — ${verdict(growth <= 5.5)} (each rule alone: npm run bench:worst-cases)`);
  }
  return lines;
}

/** `npm run bench:main-job -- --json FILE`'s result, as the docs show it (nothing when no file is given). */
function mainJobSection(file: string): string[] {
  if (!file) return [];
  const m = JSON.parse(fs.readFileSync(file, 'utf8'));
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    '## The main job', '',
    `\`npm run bench:main-job\` (median of ${m.runs} rounds): \`npm run mesh-lab\` ${s(m.meshLabWallMs)} wall, ${s(m.meshLabCpuMs)} CPU;`,
    `the same objects in cdk8s-plus alone, synthesized by \`cdk8s synth\` with a type-checking ts-node, ${s(m.referenceWallMs)} wall,`,
    `${s(m.referenceCpuMs)} CPU.`, '',
    `- main job ≤ 1.5 × reference: ${m.ratio} (rounds ${m.ratioRange[0]}–${m.ratioRange[1]}, CPU ${m.cpuRatio}) — ${verdict(m.ratio <= 1.5)}`, '',
  ];
}

function writeDocs(results: Result[], verdicts: string[], note: string): void {
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
    series('C CLI analyze (cdk8s YAML)', '#2ca02c', (r) => r.analyze.cdk8s.analyzeMs),
    series('P js-yaml parse', '#7f7f7f', (r) => r.analyze.cdk8s.parseMs),
  ]));
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  fs.writeFileSync(path.join(docs, 'benchmarks.md'), [
    '# Benchmarks', '',
    'Written by `npm run bench` (bench/run.ts); the main job (`npm run mesh-lab` against the same objects without this',
    'library) is `npm run bench:main-job` (bench/main-job.ts), and each rule alone on inputs built to blow it up is',
    '`npm run bench:worst-cases`. Each time is the median of several rounds of fresh-process runs; the two sides of',
    'every ratio run back to back in each round, which one first alternating by round; each ratio is the median of the',
    'rounds\' own ratios, and the target lines give the lowest and highest round.', '',
    '- A = the library\'s constructs with all checks, synthesized to YAML, timed inside the process (App built to files',
    '  written); A0 = the same constructs with the analysis switched off (a diagnostic only the bench can do: it splits A',
    '  into what the constructs cost and what the checks add).',
    '- B = plain cdk8s ApiObjects holding the same JSON; B+ = the same mesh as a user writes it without this library',
    '  (cdk8s-plus-28 Deployments, Services, ServiceAccounts; plain ApiObjects for the Linkerd and Gateway API objects).',
    '- E = a user\'s synth end to end: `cdk8s synth` running an app that builds the mesh with the compiled library, the',
    '  app run by ts-node type-checking it (as `cdk8s init` sets an app up), from process start to files written; E+ =',
    '  the same for B+\'s app. Wall time, CPU time (all processes) in brackets.',
    '- C = `cdk8s-linkerd analyze` over the objects (parsing included); P = js-yaml `loadAll` of the same text alone; for',
    '  the text as cdk8s writes it (B\'s output), as `kubectl get -o yaml` writes it (one List, keys sorted, sequences not',
    '  indented), as `helm template` writes it (`# Source:` comments, double-quoted values) and as PyYAML writes shared',
    '  dicts (one List with anchors and aliases, `&id001` / `*id001`). bench/yaml-writers.ts generates the last three.', '',
    `Machine: ${machine}. ${note}A shared VM's speed drifts between runs, so a ratio near its target can read met in`,
    'one run and missed in the next: the rounds\' lowest and highest ratios show how far.', '',
    synthTable(results), '',
    analyzeTable(results), '',
    ...verdicts.map((v) => `- ${v}`), '',
    '![time against N, log–log](benchmarks.svg)', '',
    ...mainJobSection(flag('main-job', '')),
    'What was profiled and fixed, and why a missed target is missed: [performance-notes.md](performance-notes.md).', '',
  ].join('\n'));
}

function main(): void {
  const note = flag('note', '');
  // Rewrites the docs from saved --json runs (comma-separated, sizes merged) without measuring again.
  const saved = flag('docs-from', '');
  if (saved) {
    const results = saved.split(',').flatMap((f) => (JSON.parse(fs.readFileSync(f, 'utf8')) as { results: Result[] }).results)
      .sort((x, y) => x.services - y.services);
    writeDocs(results, targets(results), note ? `${note} ` : '');
    return;
  }
  const perChart = flag('services-per-chart', '');
  if (perChart) process.env.BENCH_SERVICES_PER_CHART = perChart;
  const sizes = flag('sizes', '10,100,1000,5000').split(',').map(Number);
  const runs = Number(flag('runs', '5'));
  const e2eMax = Number(flag('e2e-max', '1000'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-linkerd-bench-'));
  const results = sizes.map((n) => {
    const r = benchSize(n, runs, e2eMax, work);
    const e2e = r.endToEnd ? `, E ${r.endToEnd.libraryMs} ms, E+ ${r.endToEnd.plusMs} ms` : '';
    process.stdout.write(`N=${n}: A ${r.libraryMs} ms, A0 ${r.uncheckedMs} ms, B ${r.plainMs} ms, B+ ${r.plusMs} ms${e2e}, C ${r.analyze.cdk8s.analyzeMs} ms, P ${r.analyze.cdk8s.parseMs} ms\n`);
    return r;
  });
  const verdicts = targets(results);
  process.stdout.write(`\n${synthTable(results)}\n\n${analyzeTable(results)}\n\n${verdicts.join('\n')}\n`);
  const jsonOut = flag('json', '');
  if (jsonOut) fs.writeFileSync(jsonOut, `${JSON.stringify({ results }, null, 2)}\n`);
  fs.rmSync(work, { recursive: true, force: true });
  if (!process.argv.includes('--no-docs')) writeDocs(results, verdicts, note ? `${note} ` : '');
}

main();
