/**
 * `npm run bench:main-job [-- --runs 5]`: the main job, `npm run mesh-lab` (`cdk8s synth` of examples/mesh-lab with
 * the app command cdk8s.yaml gives it), against the reference: the same 13 objects written with cdk8s-plus-28 and
 * plain ApiObjects (bench/main-job/reference.ts), synthesized the same way by `cdk8s synth` with ts-node type-checking the app, as
 * `cdk8s init` sets an app up. Each round runs both, which one first alternating by round; times are the medians of
 * the rounds and the ratio the median of the rounds' own ratios. Wall and CPU time (children included) are both
 * printed: on a shared machine CPU time moves less. Target: main job ≤ 1.5 × the reference.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { assertSameOutput } from './compare';
import { median, ProcessTime, timeCommand } from './process-time';

const ROOT = path.resolve(__dirname, '..');
const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');
const TARGET = 1.5;

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/**
 * The main job exactly as the README runs it: `npm run mesh-lab` (the projen task, `cdk8s synth` with cdk8s.yaml's
 * app command) into cdk8s.out/. npm's and projen's start-up count on this side only, so the ratio errs against us.
 */
function mainJob(): ProcessTime {
  return timeCommand('npm run mesh-lab', ROOT, { CDK8S_CHECK_UPGRADE: 'false', MESH_LAB_NEGATIVE: undefined });
}

function reference(outdir: string): ProcessTime {
  const app = 'npx ts-node -P bench/tsconfig.json bench/main-job/reference.ts';
  return timeCommand(`${CDK8S} synth --no-check-upgrade --app "${app}" --output ${outdir}`, ROOT, { CDK8S_CHECK_UPGRADE: 'false' });
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function main(): void {
  const runs = Number(flag('runs', '5'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-linkerd-main-job-'));
  const ours: ProcessTime[] = [];
  const ref: ProcessTime[] = [];
  for (let r = 0; r < runs; r++) {
    const sides = [() => ours.push(mainJob()), () => ref.push(reference(path.join(work, 'reference')))];
    for (const side of r % 2 === 0 ? sides : sides.reverse()) side();
    process.stdout.write(`round ${r + 1}: mesh-lab ${seconds(ours[r].wallMs)} (CPU ${seconds(ours[r].cpuMs)}), reference ${seconds(ref[r].wallMs)} (CPU ${seconds(ref[r].cpuMs)})\n`);
  }
  assertSameOutput(path.join(ROOT, 'cdk8s.out'), path.join(work, 'reference'), true);
  fs.rmSync(work, { recursive: true, force: true });
  const wallRatios = ours.map((o, r) => o.wallMs / ref[r].wallMs);
  const cpuRatios = ours.map((o, r) => o.cpuMs / ref[r].cpuMs);
  const ratio = round2(median(wallRatios));
  const result = {
    runs,
    meshLabWallMs: Math.round(median(ours.map((s) => s.wallMs))),
    meshLabCpuMs: Math.round(median(ours.map((s) => s.cpuMs))),
    referenceWallMs: Math.round(median(ref.map((s) => s.wallMs))),
    referenceCpuMs: Math.round(median(ref.map((s) => s.cpuMs))),
    ratio,
    ratioRange: [round2(Math.min(...wallRatios)), round2(Math.max(...wallRatios))],
    cpuRatio: round2(median(cpuRatios)),
  };
  process.stdout.write([
    '',
    `main job (npm run mesh-lab): ${seconds(result.meshLabWallMs)} wall, ${seconds(result.meshLabCpuMs)} CPU (median of ${runs})`,
    `reference (cdk8s-plus + ApiObjects, ts-node type-checking): ${seconds(result.referenceWallMs)} wall, ${seconds(result.referenceCpuMs)} CPU`,
    `main job ≤ ${TARGET} × reference: ${ratio} (rounds ${result.ratioRange[0]}–${result.ratioRange[1]}; CPU ratio ${result.cpuRatio}) — ${ratio <= TARGET ? 'MET' : 'MISSED'}`,
    '',
  ].join('\n'));
  const jsonOut = flag('json', '');
  if (jsonOut) fs.writeFileSync(jsonOut, `${JSON.stringify(result, null, 2)}\n`);
}

main();
