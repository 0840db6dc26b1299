/**
 * The fuzzing property, shared by the CI test (fixed seed, ~1,000 cases) and scripts/fuzz-nightly.ts (any seed, many
 * cases). A failure message starts with the seed and the command that replays it; fast-check adds the shrunk
 * counterexample and its replay path.
 */
import * as fc from 'fast-check';
import { Hostility, meshes } from './arbitraries';
import { CaseReport, ConformanceCheck, runCase } from './oracle';
import { compareStrings } from '../../../src/util/compare';

export interface FuzzOptions {
  readonly runs: number;
  readonly seed: number;
  readonly conformance: ConformanceCheck;
}

export interface FuzzStats {
  readonly seed: number;
  cases: number;
  synthesized: number;
  rejected: number;
  /** How many rejections each rule ID caused (what the constructs and engine actually refuse). */
  readonly ruleIds: Map<string, number>;
  /** [synthesized, rejected] per hostility level (`values`/`tangled`, e.g. "1/tangled"). */
  readonly byHostility: Map<string, [number, number]>;
  ms: number;
}

export function levelName(h: Hostility): string {
  return `${h.values}/${h.tangled ? 'tangled' : 'coherent'}`;
}

function record(stats: FuzzStats, hostility: Hostility, report: CaseReport): void {
  stats.cases++;
  const level = levelName(hostility);
  const bucket = stats.byHostility.get(level) ?? [0, 0];
  if (report.outcome.kind === 'synthesized') {
    stats.synthesized++;
    bucket[0]++;
  } else {
    stats.rejected++;
    bucket[1]++;
    for (const id of new Set(report.outcome.ruleIds)) stats.ruleIds.set(id, (stats.ruleIds.get(id) ?? 0) + 1);
  }
  stats.byHostility.set(level, bucket);
}

export function replayCommand(seed: number, runs: number): string {
  return `npx ts-node -P scripts/tsconfig.json scripts/fuzz-nightly.ts --runs ${runs} --seed ${seed}`;
}

/** Runs the property; throws (with the seed first) on the first case that breaks the contract, after shrinking it. */
export function fuzzMeshes(options: FuzzOptions): FuzzStats {
  const stats: FuzzStats = { seed: options.seed, cases: 0, synthesized: 0, rejected: 0, ruleIds: new Map(), byHostility: new Map(), ms: 0 };
  let shrinking = false;
  const property = fc.property(meshes(), ({ hostility, spec }) => {
    const report = runCase(spec, options.conformance);
    if (!shrinking) record(stats, hostility, report);
    if (report.problems.length > 0) {
      shrinking = true;
      throw new Error(`contract broken (outcome: ${report.outcome.kind}):\n  ${report.problems.join('\n  ')}`);
    }
  });
  const start = Date.now();
  try {
    fc.assert(property, { numRuns: options.runs, seed: options.seed, includeErrorInReport: true });
  } catch (e) {
    throw new Error(`fuzz seed ${options.seed} (replay: ${replayCommand(options.seed, options.runs)})\n${(e as Error).message}`);
  } finally {
    stats.ms = Date.now() - start;
  }
  return stats;
}

/** A short human summary of a run. */
export function describeStats(stats: FuzzStats): string {
  const levels = [...stats.byHostility.entries()].sort(([a], [b]) => compareStrings(a, b))
    .map(([h, [s, r]]) => `hostility ${h}: ${s} synthesized / ${r} rejected`);
  const top = [...stats.ruleIds.entries()].sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0])).map(([id, n]) => `${id} ${n}`);
  return [
    `seed ${stats.seed}: ${stats.cases} cases in ${(stats.ms / 1000).toFixed(1)} s — ${stats.synthesized} synthesized, ${stats.rejected} rejected with a coded error`,
    ...levels,
    `rejections by rule: ${top.join(', ')}`,
  ].join('\n');
}
