/**
 * `npx ts-node -P bench/tsconfig.json bench/worst-cases.ts [--sizes 1000,4000] [--runs 3] [--json]`
 * (npm run bench:worst-cases)
 *
 * Inputs built to make a careless rule blow up, each with its target:
 * - the overlap case: N Servers that each select all N pods on the same port (N-1 of them lose to the oldest,
 *   LKD-POL-008). Every rule must stay linear in objects plus findings: the whole analysis at N = 4,000 runs in a
 *   512 MiB heap (run this with `node --max-old-space-size=512`, as the npm task does), and its time grows at most 5×
 *   from N = 1,000 to N = 4,000 (4× the objects); so does each rule's own CPU time, for every rule that takes at
 *   least 20 ms at N = 4,000 (below that the timer's noise is the measurement);
 * - the secret scan (LKD-SEC-001) over a YAML alias bomb whose 9^9 paths lead to one credential: scanned once per
 *   shared node, within 2 s;
 * - the secret scan over one 20 MB base64-looking string: within 5 s;
 * - the YAML 1.1 readings (LKD-MESH-013) of one document holding 10,000 and then 40,000 values that YAML 1.1 reads
 *   differently (`1_0`, `0443`, `yes`, `+.2`): reading the text and collecting them grows at most 5× (4× the values).
 * Times are medians of fresh analyses in this process.
 */
import { performance } from 'perf_hooks';
import * as yaml from 'js-yaml';
import { analyze } from '../src/analysis/engine';
import { Manifest } from '../src/analysis/model/manifest';
import { MeshIndex } from '../src/analysis/model/mesh-index';
import { resolveContext } from '../src/analysis/options';
import { ALL_RULES } from '../src/analysis/rules';
import { secretsInOutput } from '../src/analysis/rules/secrets/secrets-in-output';
import { parseManifests } from '../src/frontends/cli/load-manifests';

/** The growth the bench exists to check, from the first size to the last. */
export const GROWTH_BUDGET = 5;
/** The secret scan's budgets, in ms. */
export const ALIAS_BOMB_BUDGET_MS = 2000;
export const LARGE_STRING_BUDGET_MS = 5000;

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** N Deployments labelled app=x and N Servers selecting app=x on port 8080. */
export function overlapManifests(n: number): Manifest[] {
  const objects: Record<string, any>[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'overlap', annotations: { 'linkerd.io/inject': 'enabled' } } },
  ];
  for (let i = 0; i < n; i++) {
    const labels = { app: 'x', instance: `i${i}` };
    objects.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `app-${i}`, namespace: 'overlap' },
      spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'app:1.0', ports: [{ name: 'http', containerPort: 8080 }] }] } } },
    });
  }
  for (let i = 0; i < n; i++) {
    objects.push({
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'Server',
      metadata: { name: `server-${i}`, namespace: 'overlap' },
      spec: { podSelector: { matchLabels: { app: 'x' } }, port: 8080, accessPolicy: 'all-authenticated' },
    });
  }
  return objects.map((object) => ({ object }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export interface OverlapPoint {
  readonly n: number;
  readonly ms: number;
  readonly findings: number;
  readonly heapUsedMb: number;
}

export function measureOverlap(n: number, runs: number): OverlapPoint {
  const manifests = overlapManifests(n);
  const times: number[] = [];
  let findings = 0;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    findings = analyze(manifests).findings.filter((f) => f.ruleId === 'LKD-POL-008').length;
    times.push(performance.now() - start);
  }
  return { n, ms: median(times), findings, heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1e6) };
}

/** A rule's growth is judged only above this CPU time at the largest size: below it, noise is the measurement. */
export const RULE_FLOOR_MS = 20;

/**
 * Each rule's CPU time on the overlap case of `n`: the second of two passes, each over a fresh index (compiled code,
 * cold memos, as one analysis has them).
 */
export function ruleTimes(n: number): Map<string, number> {
  const manifests = overlapManifests(n);
  const context = resolveContext({});
  const samples = new Map<string, number[]>();
  // A first pass warms the code up; each rule's time is then the median of three passes, so that one collector pause
  // landing in a rule does not read as growth.
  for (let pass = 0; pass < 4; pass++) {
    const index = new MeshIndex(manifests, context.inventory, context.controlPlaneNamespace);
    for (const rule of ALL_RULES) {
      const start = process.cpuUsage();
      rule.check({ index, context, report: () => undefined });
      const used = process.cpuUsage(start);
      if (pass > 0) samples.set(rule.id, [...(samples.get(rule.id) ?? []), (used.user + used.system) / 1000]);
    }
  }
  return new Map([...samples].map(([id, ms]) => [id, median(ms)]));
}

/** A ConfigMap whose nine levels of aliases (9 entries each) all lead to one GitHub-token-shaped string. */
export function aliasBombManifest(): Manifest {
  const token = ['gh', 'p_', 'A1b2C3d4E5f6G7h8J9k0L1m2N3p4Q5r6S7t8'].join('');
  const names = 'abcdefghi';
  const levels = [`a: &a ["${token}","x","x","x","x","x","x","x","x"]`];
  for (let i = 1; i < names.length; i++) levels.push(`${names[i]}: &${names[i]} [${new Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
  const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol, namespace: bench}\ndata:\n${levels.map((l) => `  ${l}`).join('\n')}\n`;
  return { object: yaml.load(text) as Record<string, any> };
}

/** A ConfigMap holding one 20 MB string that looks like base64 everywhere and decodes to nothing secret. */
export function largeStringManifest(): Manifest {
  return { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', namespace: 'bench' }, data: { blob: 'ab0/'.repeat(5 * 1024 * 1024) } } };
}

export interface ScanPoint {
  readonly name: string;
  readonly ms: number;
  readonly findings: number;
  readonly budgetMs: number;
}

export function measureScan(name: string, manifest: Manifest, budgetMs: number, runs: number): ScanPoint {
  const times: number[] = [];
  let findings = 0;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    findings = analyze([manifest], { rules: [secretsInOutput] }).findings.length;
    times.push(performance.now() - start);
  }
  return { name, ms: median(times), findings, budgetMs };
}

/** One ConfigMap-like document whose `values` hold `n` scalars that YAML 1.1 reads differently. */
export function yaml11Text(n: number): string {
  const spellings = ['1_0', '0443', 'yes', '+.2', '1:30', 'off'];
  const lines = Array.from({ length: n }, (_, i) => `  k${i}: ${spellings[i % spellings.length]}`);
  return `apiVersion: example.com/v1\nkind: Values\nmetadata:\n  name: v\n  namespace: bench\nvalues:\n${lines.join('\n')}\n`;
}

export interface Yaml11Point {
  readonly values: number;
  readonly ms: number;
  readonly readings: number;
}

export function measureYaml11(n: number, runs: number): Yaml11Point {
  const text = yaml11Text(n);
  const times: number[] = [];
  let readings = 0;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    readings = parseManifests(text, 'values.yaml')[0].source?.yaml11Readings?.length ?? 0;
    times.push(performance.now() - start);
  }
  return { values: n, ms: median(times), readings };
}

const verdict = (met: boolean) => (met ? 'MET' : 'MISSED');

function main(): void {
  const sizes = flag('sizes', '1000,4000').split(',').map(Number);
  const runs = Number(flag('runs', '3'));
  const points = sizes.map((n) => measureOverlap(n, runs));
  for (const p of points) process.stdout.write(`overlap N=${p.n}: ${p.ms.toFixed(0)} ms, ${p.findings} LKD-POL-008 findings, heap ${p.heapUsedMb} MB\n`);
  const growth = points[points.length - 1].ms / points[0].ms;
  const met = growth <= GROWTH_BUDGET;
  process.stdout.write(`overlap growth ${points[0].n} -> ${points[points.length - 1].n}: ${growth.toFixed(2)}x (target <= ${GROWTH_BUDGET}x): ${verdict(met)}\n`);
  const small = ruleTimes(sizes[0]);
  const large = ruleTimes(sizes[sizes.length - 1]);
  const judged = [...large].filter(([, ms]) => ms >= RULE_FLOOR_MS)
    .map(([id, ms]) => ({ id, ms, growth: ms / Math.max(small.get(id) ?? 0, 1) }))
    .sort((a, b) => b.growth - a.growth);
  const worst = judged[0];
  const rulesMet = judged.every((r) => r.growth <= GROWTH_BUDGET);
  process.stdout.write(`every rule linear, each rule's CPU time ${sizes[0]} -> ${sizes[sizes.length - 1]} <= ${GROWTH_BUDGET}x `
    + `(${judged.length} of ${large.size} rules over ${RULE_FLOOR_MS} ms): `
    + `${worst ? `worst ${worst.id} ${worst.growth.toFixed(2)}x (${worst.ms.toFixed(0)} ms)` : 'none that slow'}: ${verdict(rulesMet)}\n`);
  for (const r of judged.filter((x) => x.growth > GROWTH_BUDGET)) process.stdout.write(`  ${r.id}: ${r.growth.toFixed(2)}x, ${r.ms.toFixed(0)} ms\n`);
  const scans = [
    measureScan('secret scan, alias bomb (9^9 paths)', aliasBombManifest(), ALIAS_BOMB_BUDGET_MS, runs),
    measureScan('secret scan, one 20 MB string', largeStringManifest(), LARGE_STRING_BUDGET_MS, runs),
  ];
  for (const s of scans) {
    process.stdout.write(`${s.name}: ${s.ms.toFixed(0)} ms, ${s.findings} findings (target <= ${s.budgetMs} ms): ${verdict(s.ms <= s.budgetMs)}\n`);
  }
  measureYaml11(2_000, 1); // warm: the first parse of a process compiles js-yaml's reader
  const yaml11 = [measureYaml11(10_000, runs), measureYaml11(40_000, runs)];
  for (const y of yaml11) process.stdout.write(`YAML 1.1 readings, ${y.values} values: ${y.ms.toFixed(0)} ms, ${y.readings} readings\n`);
  const yaml11Growth = yaml11[1].ms / yaml11[0].ms;
  process.stdout.write(`YAML 1.1 readings growth 10000 -> 40000: ${yaml11Growth.toFixed(2)}x (target <= ${GROWTH_BUDGET}x): ${verdict(yaml11Growth <= GROWTH_BUDGET)}\n`);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ points, growth, met, rulesMet, scans, yaml11, yaml11Growth })}\n`);
}

if (require.main === module) main();
