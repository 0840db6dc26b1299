/**
 * One measurement in a fresh process (so peak RSS belongs to that measurement alone). Prints one JSON line:
 * {"ms": wall time of the measured part, "cpuMs": its CPU time (every thread of the process), "rssMb": peak RSS of
 * the process, "objects": count}.
 *
 *   measure library N OUTDIR     constructs + all checks, synthesized to YAML
 *   measure unchecked N OUTDIR   the same constructs with the synth-time analysis switched off (diagnostic only:
 *                                it splits A's cost into what the constructs and cdk8s-plus cost and what the checks cost)
 *   measure plain JSONFILE OUTDIR plain cdk8s ApiObjects holding the same JSON, synthesized to YAML
 *   measure plus N OUTDIR        the same mesh as a user writes it without this library (cdk8s-plus-28 workloads,
 *                                plain ApiObjects for the Linkerd and Gateway API objects), synthesized to YAML
 *   measure analyze DIR          the CLI's analyze over YAML (parsing included)
 *   measure parse DIR            js-yaml loadAll of the same YAML, nothing else
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart } from 'cdk8s';
import * as yaml from 'js-yaml';
import { buildMesh } from './mesh';
import { buildPlusMesh } from './plus-mesh';

interface Measured { readonly ms: number; readonly cpuMs: number; readonly objects: number }

function timed(fn: () => number): Measured {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const objects = fn();
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: (used.user + used.system) / 1000, objects };
}

function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().map((f) => path.join(dir, f));
}

/**
 * Not a user option (the checks cannot be switched off): the bench replaces the App-level validation with one that
 * finds nothing, so the analysis and its rendering never run and cdk8s renders the objects itself, as in B.
 */
function switchChecksOff(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { MeshChecks } = require('../lib/checks/mesh-checks');
  // If the hook were renamed, A0 would silently measure A: refuse instead.
  if (typeof MeshChecks.prototype._validateOncePerSynth !== 'function') throw new Error('MeshChecks._validateOncePerSynth is gone: update the bench');
  MeshChecks.prototype._validateOncePerSynth = () => [];
}

/**
 * The library's index loads its modules on first use; B+ has cdk8s-plus loaded before its clock starts, so the
 * library's modules are loaded before A's clock too (a synth is measured, not `require`).
 */
function loadLibrary(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require('../lib');
  for (const key of Object.keys(lib)) void lib[key];
}

function library(services: number, outdir: string): Measured {
  const perChart = Number(process.env.BENCH_SERVICES_PER_CHART) || services;
  loadLibrary();
  return timed(() => {
    const app = new App({ outdir });
    buildMesh(app, services, perChart);
    app.synth();
    return app.node.findAll().filter((c) => ApiObject.isApiObject(c)).length;
  });
}

function plus(services: number, outdir: string): Measured {
  const perChart = Number(process.env.BENCH_SERVICES_PER_CHART) || services;
  return timed(() => {
    const app = new App({ outdir });
    buildPlusMesh(app, services, perChart);
    app.synth();
    return app.node.findAll().filter((c) => ApiObject.isApiObject(c)).length;
  });
}

/** Charts and their objects as the library wrote them; loaded before the clock starts. */
function plain(jsonFile: string, outdir: string): Measured {
  const charts = JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as { name: string; objects: any[] }[];
  return timed(() => {
    const app = new App({ outdir });
    let count = 0;
    for (const c of charts) {
      const chart = new Chart(app, c.name);
      for (const obj of c.objects) new ApiObject(chart, `${obj.kind}-${obj.metadata.namespace ?? ''}-${obj.metadata.name}`, obj);
      count += c.objects.length;
    }
    app.synth();
    return count;
  });
}

function analyzeCli(dir: string): Measured {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cli = require('../lib/frontends/cli/main');
  return timed(() => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { cwd: process.cwd(), stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) };
    const code = cli.main(['analyze', '--format', 'json', dir], io);
    if (code === 2) throw new Error(`analyze failed: ${err.join('').slice(0, 500)}`);
    return JSON.parse(out.join('')).findings.length;
  });
}

function parse(dir: string): Measured {
  return timed(() => yamlFiles(dir).reduce((n, f) => n + yaml.loadAll(fs.readFileSync(f, 'utf8')).length, 0));
}

function run(): Measured {
  const [mode, a, b] = process.argv.slice(2);
  switch (mode) {
    case 'library': return library(Number(a), b);
    case 'unchecked': switchChecksOff(); return library(Number(a), b);
    case 'plain': return plain(a, b);
    case 'plus': return plus(Number(a), b);
    case 'analyze': return analyzeCli(a);
    case 'parse': return parse(a);
    default: throw new Error(`unknown mode ${mode}`);
  }
}

const result = run();
process.stdout.write(`${JSON.stringify({ ...result, rssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
