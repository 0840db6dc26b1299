/**
 * Synth output is written once, after the checks pass, straight into the output directory (cdk8s validates before it
 * writes): no staging directory exists at any point, so none can outlive a synth, whatever ends it (an error, SIGINT,
 * SIGTERM, an output path that is a file), and an output directory on another file system or behind a symlink is
 * written like any other. Each case runs an app on the compiled library in a child process, large enough (4,100
 * objects) that an earlier design handed its checks to a worker thread and staged its output.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { NODE_MODULES, REPO_ROOT, assertBuilt, childEnv, removeDir, tempDir } from './cli-harness';

const LIB = path.join(REPO_ROOT, 'lib');
const OBJECTS = 4100;

/**
 * The app: a meshed Deployment, its Service and a Server that denies everyone (one warning: LKD-POL-009), ConfigMaps,
 * and on demand an HTTPRoute whose Service parent lacks `group: core` (LKD-ROUTE-001, an error) or a validation that
 * signals the process.
 */
const APP = `
const { App, Chart, ApiObject } = require(${JSON.stringify(path.join(NODE_MODULES, 'cdk8s'))});
const lib = require(${JSON.stringify(LIB)});
const [mode, outdir, method] = process.argv.slice(2);
const app = new App({ outdir });
const chart = new Chart(app, 'demo', { namespace: 'demo' });
new lib.MeshedNamespace(chart, 'ns', { name: 'demo' });
new lib.MeshedDeployment(chart, 'web', { name: 'web', app: 'web', containers: [{ image: 'nginx:1.27', ports: [{ number: 8080 }] }] });
new ApiObject(chart, 'svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { 'app.kubernetes.io/name': 'web' }, ports: [{ port: 8080 }] } });
new ApiObject(chart, 'server', { apiVersion: 'policy.linkerd.io/v1beta3', kind: 'Server', metadata: { name: 'web-http' },
  spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'web' } }, port: 8080, proxyProtocol: 'HTTP/1' } });
if (mode === 'route') {
  new ApiObject(chart, 'route', { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'r' },
    spec: { parentRefs: [{ kind: 'Service', name: 'web', port: 8080 }], rules: [{ backendRefs: [{ name: 'web', port: 8080 }] }] } });
}
for (let i = 0; i < ${OBJECTS}; i++) new ApiObject(chart, 'cm' + i, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-' + i }, data: { k: 'v' } });
// Ends the process the way a user's Ctrl-C or a CI timeout does, in the middle of the synth (no handler: the default).
if (mode === 'SIGINT' || mode === 'SIGTERM') chart.node.addValidation({ validate: () => { process.kill(process.pid, mode); return []; } });
try {
  if (method === 'yaml') process.stdout.write(app.synthYaml().slice(0, 40)); else app.synth();
} catch (e) {
  process.stdout.write('THROWN ' + e.message.split('\\n').slice(0, 2).join('\\n'));
  process.exitCode = 1;
}
`;

interface Run {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What is in the parent of the output path besides the output path itself. */
  readonly beside: string[];
}

let work: string;
let script: string;

beforeAll(() => {
  assertBuilt();
  work = tempDir('synth-output');
  script = path.join(work, 'app.js');
  fs.writeFileSync(script, APP);
});

afterAll(() => removeDir(work));

function run(mode: string, outdir: string, method = 'synth'): Run {
  const result = spawnSync(process.execPath, [script, mode, outdir, method], { env: childEnv({}), encoding: 'utf8' });
  return {
    status: result.status,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    beside: fs.readdirSync(path.dirname(outdir)).filter((f) => f !== path.basename(outdir)),
  };
}

function fresh(name: string, base = work): string {
  const parent = fs.mkdtempSync(path.join(base, `${name}-`));
  return path.join(parent, 'dist');
}

test('a passing synth writes the manifests and nothing beside them', () => {
  const outdir = fresh('pass');
  const out = run('clean', outdir);
  expect(out.status).toBe(0);
  expect(out.stderr).toMatch(/^warning: LKD-POL-009 at demo\/server /);
  expect(fs.readdirSync(outdir)).toEqual(['demo.k8s.yaml']);
  expect(out.beside).toEqual([]);
});

test('a failing synth throws the coded error and writes no manifest', () => {
  const outdir = fresh('fail');
  const out = run('route', outdir);
  expect(out.status).toBe(1);
  expect(out.stdout).toMatch(/^THROWN Validation failed with the following errors:\n {2}\[\] LKD-ROUTE-001 at demo\/route /);
  expect(fs.existsSync(outdir) ? fs.readdirSync(outdir) : []).toEqual([]);
  expect(out.beside).toEqual([]);
});

test.each(['SIGINT', 'SIGTERM'])('a synth ended by %s leaves nothing beside the output directory', (signal) => {
  const outdir = fresh(signal.toLowerCase());
  const out = run(signal, outdir);
  expect(out.signal).toBe(signal);
  expect(fs.existsSync(outdir) ? fs.readdirSync(outdir) : []).toEqual([]);
  expect(out.beside).toEqual([]);
});

test('an output path that is a file fails the synth and leaves nothing behind', () => {
  const outdir = fresh('file');
  fs.writeFileSync(outdir, 'not a folder');
  const out = run('clean', outdir);
  expect(out.status).toBe(1);
  expect(out.stdout).toMatch(/^THROWN .*EEXIST/);
  expect(fs.readFileSync(outdir, 'utf8')).toBe('not a folder');
  expect(out.beside).toEqual([]);
});

test('an output directory behind a symlink is written through it, nothing beside either', () => {
  const real = fresh('real');
  fs.mkdirSync(real);
  const link = fresh('link');
  fs.symlinkSync(real, link);
  const out = run('clean', link);
  expect(out.status).toBe(0);
  expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  expect(fs.readdirSync(real)).toEqual(['demo.k8s.yaml']);
  expect([out.beside, fs.readdirSync(path.dirname(real)).filter((f) => f !== 'dist')]).toEqual([[], []]);
});

/** /dev/shm is a tmpfs on Linux, another file system than the temp folder's disk (a rename across them is EXDEV). */
const otherFs = fs.existsSync('/dev/shm') && fs.statSync('/dev/shm').dev !== fs.statSync(os.tmpdir()).dev ? test : test.skip;

otherFs('an output directory on another file system is written (no rename across file systems)', () => {
  const base = fs.mkdtempSync(path.join('/dev/shm', 'cdk8s-linkerd-'));
  try {
    // The output directory's parent on tmpfs, the app and its working directory on the disk.
    const outdir = fresh('shm', base);
    const out = run('clean', outdir);
    expect(out.stdout).toBe('');
    expect(out.status).toBe(0);
    expect(fs.readdirSync(outdir)).toEqual(['demo.k8s.yaml']);
    expect(out.beside).toEqual([]);
    // A symlink on the disk to a directory on tmpfs.
    const target = fresh('shm-target', base);
    fs.mkdirSync(target);
    const link = fresh('to-shm');
    fs.symlinkSync(target, link);
    expect(run('clean', link).status).toBe(0);
    expect(fs.readdirSync(target)).toEqual(['demo.k8s.yaml']);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});

test('synthYaml() checks once and writes nothing', () => {
  const outdir = fresh('yaml');
  const out = run('clean', outdir, 'yaml');
  expect(out.status).toBe(0);
  expect(out.stdout).toMatch(/^apiVersion: v1/);
  expect(out.stderr.match(/LKD-POL-009/g)).toHaveLength(1);
  expect(out.beside).toEqual([]);
});

test('a construct loads the check engine only when the App is validated', () => {
  const probe = path.join(work, 'lazy.js');
  fs.writeFileSync(probe, `
const path = require('path');
const LIB = ${JSON.stringify(LIB)};
const modules = () => Object.keys(require.cache).filter((k) => k.startsWith(LIB + path.sep));
const engineLoaded = () => modules().includes(path.join(LIB, 'analysis', 'engine.js'));
const { App, Chart } = require(${JSON.stringify(path.join(NODE_MODULES, 'cdk8s'))});
const { MeshedNamespace } = require(path.join(LIB, 'workloads', 'meshed-namespace'));
const app = new App();
new MeshedNamespace(new Chart(app, 'c'), 'ns', { name: 'demo' });
const before = { engine: engineLoaded(), modules: modules().length };
app.synthYaml();
process.stdout.write(JSON.stringify({ before, after: { engine: engineLoaded(), modules: modules().length } }));
`);
  const out = spawnSync(process.execPath, [probe], { env: childEnv({}), encoding: 'utf8' });
  const { before, after } = JSON.parse(out.stdout);
  expect(before.engine).toBe(false);
  expect(before.modules).toBeLessThan(20);
  expect(after.engine).toBe(true);
});
