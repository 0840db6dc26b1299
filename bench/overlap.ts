/**
 * `npx ts-node -P bench/tsconfig.json bench/overlap.ts [--sizes 1000,4000] [--runs 3]` (npm run bench:overlap)
 *
 * The overlap case: N Servers that each select all N pods on the same port (N-1 of them lose to the oldest, LKD-POL-008).
 * Every rule must stay linear in objects plus findings. Targets: the whole analysis at N = 4,000 runs in a 512 MiB heap
 * (run this with `node --max-old-space-size=512`, as the npm task does), and its time grows at most 5× from N = 1,000
 * to N = 4,000 (4× the objects). Times are medians of fresh analyses in this process.
 */
import { performance } from 'perf_hooks';
import { analyze } from '../src/analysis/engine';
import { Manifest } from '../src/analysis/model/manifest';

/** The growth the bench exists to check, from the first size to the last. */
export const GROWTH_BUDGET = 5;

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

function main(): void {
  const sizes = flag('sizes', '1000,4000').split(',').map(Number);
  const runs = Number(flag('runs', '3'));
  const points = sizes.map((n) => measureOverlap(n, runs));
  for (const p of points) process.stdout.write(`N=${p.n}: ${p.ms.toFixed(0)} ms, ${p.findings} LKD-POL-008 findings, heap ${p.heapUsedMb} MB\n`);
  const growth = points[points.length - 1].ms / points[0].ms;
  const met = growth <= GROWTH_BUDGET;
  process.stdout.write(`growth ${points[0].n} -> ${points[points.length - 1].n}: ${growth.toFixed(2)}x (target <= ${GROWTH_BUDGET}x): ${met ? 'met' : 'MISSED'}\n`);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ points, growth, met })}\n`);
}

if (require.main === module) main();
