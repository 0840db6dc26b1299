/**
 * Every coded error prints once, without a stack trace: from `cdk8s synth` (the REAL cdk8s-cli running an app that
 * ends with runOrExit, mesh-lab included), from the validation plugin and from the CLI. Warnings print once when the
 * plugin runs too, and a missing inventory file is a coded error found before anything is written.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { NODE_MODULES, PLUGIN_ENTRY, REPO_ROOT, assertBuilt, childEnv, removeDir, runCli, tempDir } from './cli-harness';
import { codedErrorLines } from '../../src/frontends/run-or-exit';

const CDK8S_CLI = fs.realpathSync(path.join(NODE_MODULES, '.bin', 'cdk8s'));
const TS_NODE = path.join(NODE_MODULES, 'ts-node', 'dist', 'bin.js');
const MESH_LAB_MAIN = path.join(REPO_ROOT, 'examples', 'mesh-lab', 'main.ts');
const EXAMPLES_TSCONFIG = path.join(REPO_ROOT, 'examples', 'tsconfig.json');
/** A stack frame, as Node prints them. */
const STACK_FRAME = /^\s+at .+[:(]/m;

/** An app on the compiled library: a Service and routes; ROUTE=bad drops the parentRef group (LKD-ROUTE-001). */
const APP_JS = `
const { App, Chart, ApiObject } = require(${JSON.stringify(path.join(NODE_MODULES, 'cdk8s'))});
const { MeshChecks, runOrExit } = require(${JSON.stringify(path.join(REPO_ROOT, 'lib'))});
runOrExit(() => {
  const app = new App();
  MeshChecks.of(app);
  const chart = new Chart(app, 'mesh', { namespace: 'ns' });
  new ApiObject(chart, 'svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'orders' }, spec: { ports: [{ port: 80 }], selector: { app: 'orders' } } });
  const route = (name, parent, extra) => new ApiObject(chart, name, { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute',
    metadata: { name }, spec: { ...extra, parentRefs: [parent], rules: [{ backendRefs: [{ name: 'orders', port: 80 }] }] } });
  if (process.env.ROUTE === 'bad') route('bad', { kind: 'Service', name: 'orders', port: 80 }, {});
  if (process.env.ROUTE === 'warn') route('warn', { group: 'core', kind: 'Service', name: 'orders', port: 80 }, { hostnames: ['orders.example.com'] });
  app.synth();
});
`;

let dir: string;
beforeAll(() => assertBuilt());
beforeEach(() => {
  dir = tempDir('coded');
});
afterEach(() => removeDir(dir));

function cdk8sSynth(app: string, validations: unknown[] | undefined, env: Record<string, string> = {}) {
  fs.writeFileSync(path.join(dir, 'app.js'), APP_JS);
  fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), JSON.stringify({ app, output: 'out', ...(validations ? { validations } : {}) }));
  const run = spawnSync(process.execPath, [CDK8S_CLI, 'synth', '--no-check-upgrade'], {
    cwd: dir, env: childEnv(env), encoding: 'utf8', timeout: 180_000,
  });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}\n${run.stderr}`, written: fs.existsSync(path.join(dir, 'out')) };
}

const plugin = (properties: Record<string, unknown>) => [{ package: PLUGIN_ENTRY, version: '0.0.0', class: 'LinkerdValidation', properties }];
const count = (text: string, what: string) => text.split(what).length - 1;

describe('cdk8s synth of an app that ends with runOrExit', () => {
  test('a check that fails prints its coded line once: no stack, no "[]", nothing written, exit 1', () => {
    const run = cdk8sSynth('node app.js', undefined, { ROUTE: 'bad' });
    expect(run.status).toBe(1);
    expect(count(run.output, 'LKD-ROUTE-001')).toBe(1);
    expect(run.output).toMatch(/^error: LKD-ROUTE-001 at mesh\/bad \(HTTPRoute ns\/bad\): .* Fix: /m);
    expect(run.output).not.toMatch(STACK_FRAME);
    expect(run.output).not.toContain('[]');
    expect(run.written).toBe(false);
  });

  test('a warning prints once when the cdk8s-linkerd plugin runs after the app', () => {
    const run = cdk8sSynth('node app.js', plugin({}), { ROUTE: 'warn' });
    expect(run.status).toBe(0);
    const ids = run.output.match(/LKD-ROUTE-\d{3}/g) ?? [];
    expect(ids.length).toBe(1);
    expect(run.output).toMatch(/cdk8s-linkerd warning: LKD-ROUTE-\d{3} HTTPRoute ns\/warn/);
  });

  test('without the plugin, the app prints the warning itself', () => {
    const run = cdk8sSynth('node app.js', undefined, { ROUTE: 'warn' });
    expect(run.status).toBe(0);
    expect(run.output).toMatch(/^warning: LKD-ROUTE-\d{3} at mesh\/warn/m);
  });

  test('mesh-lab with the README plugin entry and no cluster.yaml: LKD-INPUT-007 before anything is written', () => {
    const app = `${JSON.stringify(process.execPath)} ${JSON.stringify(TS_NODE)} -T -P ${JSON.stringify(EXAMPLES_TSCONFIG)} ${JSON.stringify(MESH_LAB_MAIN)}`;
    const run = cdk8sSynth(app, plugin({ failOn: 'error', gatewayApiVersion: 'v1.2.1', inventory: ['cluster.yaml'] }));
    expect(run.status).toBe(1);
    expect(count(run.output, 'LKD-INPUT-007')).toBe(1);
    expect(run.output).toMatch(/^error: LKD-INPUT-007: cdk8s\.yaml: the cdk8s-linkerd validation plugin's inventory entry cluster\.yaml does not exist\. Fix: /m);
    expect(run.output).not.toMatch(STACK_FRAME);
    expect(run.output).not.toContain('[]');
    expect(run.written).toBe(false);
  });
});

describe('the same app run directly (not under cdk8s-cli)', () => {
  function runApp(env: Record<string, string>) {
    fs.writeFileSync(path.join(dir, 'app.js'), APP_JS);
    const base = childEnv(env);
    delete base.CDK8S_OUTDIR;
    delete base.CDK8S_RECORD_CONSTRUCT_METADATA;
    const run = spawnSync(process.execPath, ['app.js'], { cwd: dir, env: { ...base, ...env }, encoding: 'utf8', timeout: 60_000 });
    if (run.error) throw run.error;
    return run;
  }

  test('a coded error exits 1 with its one line: never 0 on input that was not synthesized', () => {
    const run = runApp({ ROUTE: 'bad' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: LKD-ROUTE-001 at mesh\/bad /)]);
  });

  test('with an output directory that already holds files, it is left alone and the exit code is 1', () => {
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'keep.txt'), 'x');
    const run = runApp({ ROUTE: 'bad', CDK8S_OUTDIR: out, CDK8S_RECORD_CONSTRUCT_METADATA: 'false' });
    expect(run.status).toBe(1);
    expect(fs.readdirSync(out)).toEqual(['keep.txt']);
  });
});

describe('the plugin alone (an app without MeshChecks)', () => {
  const PLAIN_APP_JS = `const { App, Chart, ApiObject } = require(${JSON.stringify(path.join(NODE_MODULES, 'cdk8s'))});
const app = new App();
new ApiObject(new Chart(app, 'c'), 'sa', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } });
app.synth();
`;
  const PLAIN_APP = 'node plain.js';
  beforeEach(() => fs.writeFileSync(path.join(dir, 'plain.js'), PLAIN_APP_JS));

  test('a missing inventory file is one coded violation, not an InputError stack', () => {
    const run = cdk8sSynth(PLAIN_APP, plugin({ inventory: ['cluster.yaml'] }));
    expect(run.status).toBe(2);
    expect(count(run.output, 'LKD-INPUT-007')).toBe(1);
    expect(run.output).toContain('inventory entry cluster.yaml does not exist');
    expect(run.output).not.toMatch(STACK_FRAME);
    expect(run.output).not.toContain('InputError');
  });

  test('a bad property is one coded violation (LKD-INPUT-008), not a stack from cdk8s-cli', () => {
    const run = cdk8sSynth(PLAIN_APP, plugin({ failon: 'error' }));
    expect(run.status).toBe(2);
    expect(run.output).toContain('LKD-INPUT-008');
    expect(run.output).toContain('unknown properties failon');
    expect(run.output).not.toMatch(STACK_FRAME);
  });
});

describe('the CLI', () => {
  test('a missing file is one coded line on stderr, without a stack', () => {
    const run = runCli(['analyze', 'missing.yaml'], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^cdk8s-linkerd: error: LKD-INPUT-007: missing\.yaml: cannot read \(no such file or directory\) Fix: /),
    ]);
    expect(run.stdout).toBe('');
  });
});

describe('codedErrorLines', () => {
  test('cdk8s\'s validation error becomes one line per error, "[]" dropped and construct paths kept', () => {
    const e = new Error('Validation failed with the following errors:\n  [] LKD-ROUTE-001 at a/b (HTTPRoute x): p Fix: f\n  [a/r] LKD-INPUT-003: HTTPRoute r has no rules. Fix: add');
    expect(codedErrorLines(e)).toEqual(['LKD-ROUTE-001 at a/b (HTTPRoute x): p Fix: f', '[a/r] LKD-INPUT-003: HTTPRoute r has no rules. Fix: add']);
  });

  test('errors without a rule ID are not coded (they keep their stack)', () => {
    expect(codedErrorLines(new Error('boom'))).toBeUndefined();
    expect(codedErrorLines('LKD-ROUTE-001')).toBeUndefined();
  });
});

test('MESH_LAB_NEGATIVE=1 keeps mesh-lab.k8s.yaml (the README\'s kubectl apply) and adds mesh-lab-negative.k8s.yaml and the verification Jobs', () => {
  const out = path.join(dir, 'out');
  const run = spawnSync(process.execPath, [TS_NODE, '-T', '-P', EXAMPLES_TSCONFIG, MESH_LAB_MAIN], {
    cwd: REPO_ROOT, env: childEnv({ CDK8S_OUTDIR: out, MESH_LAB_NEGATIVE: '1' }), encoding: 'utf8', timeout: 180_000,
  });
  expect(run.stderr).not.toMatch(/^error:/m);
  expect(run.status).toBe(0);
  expect(fs.readdirSync(out).sort()).toEqual(['mesh-lab-negative.k8s.yaml', 'mesh-lab-verify.k8s.yaml', 'mesh-lab.k8s.yaml']);
  // client allowed; wrong-client and plain-client refused (test/evidence runs their scripts).
  expect(fs.readFileSync(path.join(out, 'mesh-lab-verify.k8s.yaml'), 'utf8').match(/^  name: verify-.*$/gm)).toEqual([
    '  name: verify-client-call-1', '  name: verify-wrong-client-refused-1', '  name: verify-plain-client-refused-1',
  ]);
});
