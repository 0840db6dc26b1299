/**
 * Per-rule cost, for whoever optimizes the engine: `npx ts-node -P bench/tsconfig.json bench/rules.ts DIR [--rounds 3] [--top 25]`
 * loads the YAML in DIR once, then indexes and runs every rule `rounds` times in this process, printing the index
 * time and the slowest rules of the first (cold: what a CI run pays) and last (warm) rounds. Runs the sources.
 * Times are CPU time of this process (all its threads, so GC included), which stays comparable on a busy machine.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { MeshIndex } from '../src/analysis/model/mesh-index';
import { resolveContext } from '../src/analysis/options';
import { ALL_RULES } from '../src/analysis/rules';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

function load(dir: string): { object: any; source: { file: string } }[] {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
  return files.flatMap((f) => yaml.loadAll(fs.readFileSync(path.join(dir, f), 'utf8')).filter(Boolean).map((object) => ({ object, source: { file: f } })));
}

function ms(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function main(): void {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: bench/rules.ts DIR [--rounds N] [--top N]');
  const manifests = load(dir);
  const rounds = flag('rounds', 3);
  const top = flag('top', 25);
  for (let round = 0; round < rounds; round++) {
    const start = process.cpuUsage();
    const context = resolveContext({});
    const index = new MeshIndex(manifests, context.inventory, context.controlPlaneNamespace);
    const indexMs = ms(start);
    const times: [string, number][] = [];
    let findings = 0;
    for (const rule of ALL_RULES) {
      const t = process.cpuUsage();
      rule.check({ index, context, report: () => { findings++; } });
      times.push([rule.id, ms(t)]);
    }
    const rulesMs = times.reduce((s, [, t]) => s + t, 0);
    process.stdout.write(`round ${round}: ${manifests.length} objects, index ${indexMs.toFixed(0)} ms, rules ${rulesMs.toFixed(0)} ms, ${findings} findings\n`);
    if (round === 0 || round === rounds - 1) {
      for (const [id, t] of times.sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${id.padEnd(14)} ${t.toFixed(1)} ms\n`);
    }
  }
}

main();
