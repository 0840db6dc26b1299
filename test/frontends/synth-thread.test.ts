/**
 * The synth-time analysis on a worker thread (src/checks/analysis-thread.ts). The thread exists only in the compiled
 * library, so each case runs an app on lib/ in a child process, once with the thread and once inline
 * (CDK8S_LINKERD_CHECKS_THREAD=off), and the two must agree: the same error, the same warnings, the same bytes
 * written — and on failure nothing in the output directory and no staging directory left beside it.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { NODE_MODULES, REPO_ROOT, assertBuilt, childEnv, removeDir, tempDir } from './cli-harness';
import { THREAD_MIN_OBJECTS } from '../../src/checks/analysis-thread';

const LIB = path.join(REPO_ROOT, 'lib');

/**
 * The app: a meshed Deployment, its Service and a Server that denies everyone (one warning: LKD-POL-009), plus on demand an HTTPRoute whose
 * Service parent lacks `group: core` (LKD-ROUTE-001, an error) and a construct whose own validation fails. ConfigMaps
 * make it large enough for the thread (smaller apps are analysed inline).
 */
const APP = `
const { App, Chart, ApiObject } = require(${JSON.stringify(path.join(NODE_MODULES, 'cdk8s'))});
const lib = require(${JSON.stringify(LIB)});
const [mode, outdir, method] = process.argv.slice(2);
{
  // Counts the threads started, in a file the test reads (stdout and stderr must stay those of the app).
  const wt = require('worker_threads');
  const Real = wt.Worker;
  let started = 0;
  wt.Worker = class extends Real { constructor(...args) { super(...args); started++; } };
  process.on('exit', () => require('fs').writeFileSync(process.env.THREAD_COUNT_FILE, String(started)));
}
if (process.env.BREAK_THREAD) {
  const wt = require('worker_threads');
  const Real = wt.Worker;
  // A thread that ends without answering (and perhaps throws then), or that cannot start.
  const silent = 'const { workerData } = require("worker_threads"); Atomics.store(workerData.done, 0, 1); Atomics.notify(workerData.done, 0);';
  const script = process.env.BREAK_THREAD === 'throw' ? silent + ' throw new Error("late");' : silent;
  wt.Worker = process.env.BREAK_THREAD === 'refuse'
    ? class { constructor() { throw new Error('no threads here'); } }
    : class extends Real { constructor(_file, options) { super(script, { ...options, eval: true }); } };
}
const app = new App({ outdir });
const chart = new Chart(app, 'demo', { namespace: 'demo' });
new lib.MeshedNamespace(chart, 'ns', { name: 'demo' });
new lib.MeshedDeployment(chart, 'web', { name: 'web', app: 'web', containers: [{ image: 'nginx:1.27', ports: [{ number: 8080 }] }] });
new ApiObject(chart, 'svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { 'app.kubernetes.io/name': 'web' }, ports: [{ port: 8080 }] } });
new ApiObject(chart, 'server', { apiVersion: 'policy.linkerd.io/v1beta3', kind: 'Server', metadata: { name: 'web-http' },
  spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'web' } }, port: 8080, proxyProtocol: 'HTTP/1' } });
if (mode.includes('route')) {
  new ApiObject(chart, 'route', { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'r' },
    spec: { parentRefs: [{ kind: 'Service', name: 'web', port: 8080 }], rules: [{ backendRefs: [{ name: 'web', port: 8080 }] }] } });
}
if (!mode.includes('small')) for (let i = 0; i < ${THREAD_MIN_OBJECTS}; i++) new ApiObject(chart, 'cm' + i, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-' + i }, data: { k: 'v' } });
if (mode.includes('nan')) {
  new ApiObject(chart, 'nan', { apiVersion: 'policy.linkerd.io/v1beta3', kind: 'Server', metadata: { name: 'nan' },
    spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'web' } }, port: NaN, proxyProtocol: 'HTTP/1' } });
}
if (mode.includes('other')) chart.node.addValidation({ validate: () => ['the chart refuses'] });
try {
  if (method === 'yaml') process.stdout.write(app.synthYaml()); else app.synth();
} catch (e) {
  process.stdout.write('THROWN ' + e.message);
  process.exitCode = 1;
}
`;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly files: Record<string, string>;
  readonly leftovers: string[];
  /** Threads the app started. */
  readonly threads: number;
}

let work: string;
let script: string;

beforeAll(() => {
  assertBuilt();
  work = tempDir('synth-thread');
  script = path.join(work, 'app.js');
  fs.writeFileSync(script, APP);
});

afterAll(() => removeDir(work));

function filesUnder(dir: string): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) for (const [k, v] of Object.entries(filesUnder(full))) out[`${entry.name}/${k}`] = v;
    else out[entry.name] = fs.readFileSync(full, 'utf8');
  }
  return out;
}

function run(name: string, mode: string, thread: 'on' | 'off', extra: Record<string, string> = {}, method = 'synth'): Run {
  const parent = path.join(work, `${name}-${thread}`);
  fs.mkdirSync(parent, { recursive: true });
  const outdir = path.join(parent, 'dist');
  const result = spawnSync(process.execPath, [script, mode, outdir, method], {
    env: childEnv({ CDK8S_LINKERD_CHECKS_THREAD: thread, THREAD_COUNT_FILE: path.join(parent, 'threads'), ...extra }),
    encoding: 'utf8',
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    files: filesUnder(outdir),
    leftovers: fs.readdirSync(parent).filter((f) => f !== 'dist' && f !== 'threads'),
    threads: Number(fs.readFileSync(path.join(parent, 'threads'), 'utf8')),
  };
}

function expectSameVerdict(threaded: Run, inline: Run): void {
  expect(threaded.stdout).toBe(inline.stdout);
  expect(threaded.stderr).toBe(inline.stderr);
  expect(threaded.status).toBe(inline.status);
  expect(threaded.files).toEqual(inline.files);
  expect(threaded.leftovers).toEqual([]);
}

test('a passing synth writes the same bytes and prints the same warnings with the thread as inline', () => {
  const threaded = run('pass', 'clean', 'on');
  const inline = run('pass', 'clean', 'off');
  expectSameVerdict(threaded, inline);
  expect([threaded.threads, inline.threads]).toEqual([1, 0]);
  expect(threaded.status).toBe(0);
  expect(Object.keys(threaded.files)).toEqual(['demo.k8s.yaml']);
  expect(threaded.stderr).toMatch(/^warning: LKD-POL-009 at demo\/server /);
});

test('a failing synth throws the same coded error and writes no manifest', () => {
  const threaded = run('fail', 'route', 'on');
  const inline = run('fail', 'route', 'off');
  expectSameVerdict(threaded, inline);
  expect([threaded.threads, inline.threads]).toEqual([1, 0]);
  expect(threaded.stdout).toMatch(/^THROWN Validation failed with the following errors:\n {2}\[\] LKD-ROUTE-001 at demo\/route /);
  expect(threaded.files).toEqual({});
});

test('objects whose JSON would not read back as they are (NaN) reach the thread exactly', () => {
  const threaded = run('nan', 'nan', 'on');
  const inline = run('nan', 'nan', 'off');
  expectSameVerdict(threaded, inline);
  expect([threaded.threads, inline.threads]).toEqual([1, 0]);
  expect(threaded.stdout).toMatch(/LKD-[A-Z]+-\d{3} at demo\/nan /);
});

test(`an app under ${THREAD_MIN_OBJECTS} objects is analysed inline (a thread would cost more than it saves)`, () => {
  const small = run('small', 'route+small', 'on');
  expect(small.threads).toBe(0);
  expect(small.stdout).toContain('LKD-ROUTE-001');
  expectSameVerdict(small, run('small', 'route+small', 'off'));
  // Written as cdk8s writes it: the output directory exists (empty), no staging directory beside it.
  expect(fs.existsSync(path.join(work, 'small-on', 'dist'))).toBe(true);
});

test("another construct's failed validation still lists the checks' errors first, as inline", () => {
  const threaded = run('both', 'route+other', 'on');
  const inline = run('both', 'route+other', 'off');
  expectSameVerdict(threaded, inline);
  expect(threaded.stdout.split('\n').map((l) => l.slice(0, 30))).toEqual([
    'THROWN Validation failed with ',
    '  [] LKD-ROUTE-001 at demo/rou',
    '  [demo] the chart refuses',
  ]);
});

test('synthYaml() returns the same YAML, or throws the same error, with the thread as inline', () => {
  expectSameVerdict(run('yaml-pass', 'clean', 'on', {}, 'yaml'), run('yaml-pass', 'clean', 'off', {}, 'yaml'));
  const failed = run('yaml-fail', 'route', 'on', {}, 'yaml');
  expectSameVerdict(failed, run('yaml-fail', 'route', 'off', {}, 'yaml'));
  expect(failed.stdout).toContain('LKD-ROUTE-001');
});

test.each([['ends without an answer', 'end'], ['fails after it signals', 'throw'], ['cannot start', 'refuse']])('a thread that %s leaves the verdict to an inline analysis (the checks always run)', (_what, how) => {
  const inline = run(`broken-${how}`, 'route', 'off');
  const threaded = run(`broken-${how}`, 'route', 'on', { BREAK_THREAD: how });
  expectSameVerdict(threaded, inline);
  expect(threaded.stdout).toContain('LKD-ROUTE-001');
});
