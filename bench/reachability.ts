/**
 * `npx ts-node -P bench/tsconfig.json bench/reachability.ts [--sizes 5000] [--runs 3]`
 *
 * explain and diff at N services (about 10 objects each: N = 5,000 is the 50k-object mesh), against one analyze of
 * the same manifests. The target: a diff of two N-service meshes costs at most 3 × one analyze (it analyses both
 * sides and compares the models), and explaining one port costs about one analyze. Times are medians of the runs.
 */
import { performance } from 'perf_hooks';
import { ApiObject, App } from 'cdk8s';
import { buildMesh } from './mesh';
import { analyze } from '../src/analysis/engine';
import { Manifest } from '../src/analysis/model/manifest';
import { diffManifests, explainModel, explainPort, findPort } from '../src/analysis/reachability';

/** The limits the bench exists to check: the diff of two meshes, and explaining one port, against one analyze. */
export const DIFF_BUDGET = 3;
export const EXPLAIN_BUDGET = 1;
/** The smallest N the budget is checked at. */
export const BUDGET_FROM = 1000;

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

function manifestsOf(services: number): Manifest[] {
  const app = new App();
  buildMesh(app, services);
  // The App-level checks would run at synth; the bench takes the objects as they are and times the engine alone.
  return app.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c)).map((o) => ({ object: o.toJson() }));
}

/** HEAD: every tenth split goes 50/50, so the diff has real changes to find. */
function mutated(base: Manifest[]): Manifest[] {
  let routes = 0;
  return base.map((m) => {
    if (m.object.kind !== 'HTTPRoute' || routes++ % 10 !== 0) return m;
    const object = JSON.parse(JSON.stringify(m.object));
    for (const rule of object.spec?.rules ?? []) for (const b of rule.backendRefs ?? []) b.weight = 50;
    return { object };
  });
}

function time(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function main(): void {
  const sizes = flag('sizes', '5000').split(',').map(Number);
  const runs = Number(flag('runs', '3'));
  const rows = [];
  for (const n of sizes) {
    const base = manifestsOf(n);
    const head = mutated(base);
    const analyzeMs: number[] = [];
    const diffMs: number[] = [];
    const explainMs: number[] = [];
    let changes = 0;
    for (let r = 0; r < runs; r++) {
      analyzeMs.push(time(() => analyze(base)));
      diffMs.push(time(() => {
        changes = diffManifests(base, head).changes.length;
      }));
      explainMs.push(time(() => {
        const model = explainModel(base);
        const port = findPort(model, model.ports[0].target);
        if (typeof port !== 'string') explainPort(model, port);
      }));
    }
    const row = {
      services: n,
      objects: base.length,
      changes,
      analyzeMs: Math.round(median(analyzeMs)),
      diffMs: Math.round(median(diffMs)),
      explainMs: Math.round(median(explainMs)),
    };
    const ratio = (ms: number) => Math.round((ms / row.analyzeMs) * 100) / 100;
    rows.push({ ...row, diffRatio: ratio(row.diffMs), explainRatio: ratio(row.explainMs) });
  }
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  // Fixed costs dominate small meshes: the budgets are about large ones (the point is N = 5,000).
  let missed = false;
  for (const r of rows.filter((x) => x.services >= BUDGET_FROM)) {
    for (const [what, ratio, budget] of [['diff', r.diffRatio, DIFF_BUDGET], ['explain', r.explainRatio, EXPLAIN_BUDGET]] as const) {
      const met = ratio <= budget;
      missed ||= !met;
      process.stdout.write(`N = ${r.services}: ${what} ${ratio} × analyze, budget ${budget} × — ${met ? 'met' : 'MISSED'}\n`);
    }
  }
  if (missed) process.exitCode = 1;
}

main();
