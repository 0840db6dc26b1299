/**
 * The cdk8s-cli validation plugin, loaded by the REAL cdk8s-cli from cdk8s.yaml (compiled plugin, absolute path), on
 * an app that synthesizes plain ApiObjects; plus in-process checks of what it hands to the report.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { NODE_MODULES, PLUGIN_ENTRY, assertBuilt, childEnv, removeDir, tempDir, writeYaml } from './cli-harness';
import { LinkerdValidation } from '../../src/frontends/plugin';
import { meshLab, pick } from '../support/mesh-fixture';
import { GATEWAY_API_CRDS, describeWithShared } from '../support/shared';

const CDK8S_CLI = fs.realpathSync(path.join(NODE_MODULES, '.bin', 'cdk8s'));

/** Builds one ApiObject per fixture object (construct id `<Kind>-<name>`) in a chart `mesh`, then synthesizes. */
const APP_JS = `
const { App, Chart, ApiObject } = require(${JSON.stringify(path.join(NODE_MODULES, 'cdk8s'))});
const objects = require('./objects.json');
const app = new App();
const chart = new Chart(app, 'mesh');
for (const object of objects) {
  new ApiObject(chart, object.kind + '-' + object.metadata.name, object);
}
app.synth();
`;

let dir: string;

beforeAll(() => assertBuilt());
beforeEach(() => {
  dir = tempDir('plugin');
});
afterEach(() => removeDir(dir));

function synth(objects: any[], properties: Record<string, unknown>): { status: number | null; output: string } {
  fs.writeFileSync(path.join(dir, 'objects.json'), JSON.stringify(objects));
  fs.writeFileSync(path.join(dir, 'app.js'), APP_JS);
  // JSON is YAML, and spares the test from quoting paths.
  fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), JSON.stringify({
    app: 'node app.js',
    output: 'dist',
    validations: [{ package: PLUGIN_ENTRY, version: '0.0.0', class: 'LinkerdValidation', properties }],
  }));
  const run = spawnSync(process.execPath, [CDK8S_CLI, 'synth', '--no-check-upgrade'], {
    cwd: dir, env: childEnv(), encoding: 'utf8', timeout: 120_000,
  });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe('cdk8s synth with the plugin in cdk8s.yaml', () => {
  test('a valid mesh passes', () => {
    const run = synth(meshLab(), { failOn: 'error' });
    expect(run.output).toContain('Validations ended succesfully');
    expect(run.status).toBe(0);
    expect(fs.readdirSync(path.join(dir, 'dist'))).not.toHaveLength(0);
  });

  test('a Service parentRef without group fails synth with LKD-ROUTE-001 at its construct path', () => {
    const objects = meshLab();
    delete pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
    const run = synth(objects, {});
    expect(run.status).toBe(2);
    expect(run.output).toContain('LKD-ROUTE-001');
    expect(run.output).toContain('mesh/HTTPRoute-orders-split');
    expect(run.output).toContain('Validation failed');
  });

  test('objects that exist in the cluster are given as an inventory file (relative to cdk8s.yaml)', () => {
    const objects = meshLab();
    const services = objects.filter((o) => o.kind === 'Service');
    fs.writeFileSync(path.join(dir, 'cluster.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: services }));
    const app = objects.filter((o) => o.kind !== 'Service');
    expect(synth(app, {}).status).toBe(2);
    const run = synth(app, { inventory: ['cluster.json'] });
    expect(run.output).toContain('Validations ended succesfully');
    expect(run.status).toBe(0);
  });

  test('a warning is logged by default and fails with failOn: warning', () => {
    const objects = meshLab();
    pick(objects, 'HTTPRoute', 'orders-split').spec.hostnames = ['orders.example.com'];
    const lenient = synth(objects, {});
    expect(lenient.status).toBe(0);
    expect(lenient.output).toMatch(/cdk8s-linkerd warning: LKD-ROUTE-\d{3} HTTPRoute mesh-lab\/orders-split/);
    removeDir(path.join(dir, 'dist'));
    const strict = synth(objects, { failOn: 'warning' });
    expect(strict.status).toBe(2);
    expect(strict.output).toMatch(/LKD-ROUTE-\d{3}/);
  });
});

describeWithShared('cdk8s synth with crds', () => {
  test('a schema-invalid route fails with LKD-SCHEMA-001', () => {
    const objects = meshLab();
    pick(objects, 'HTTPRoute', 'orders-split').spec.rules[0].matches = [{ path: { type: 'Bogus', value: '/orders' } }];
    const run = synth(objects, { crds: [GATEWAY_API_CRDS] });
    expect(run.status).toBe(2);
    expect(run.output).toContain('LKD-SCHEMA-001');
  });
});

describe('LinkerdValidation in process', () => {
  function fakeContext(manifests: string[], metadata: Record<string, { path: string }> = {}) {
    const violations: any[] = [];
    const logs: string[] = [];
    let status: string | undefined;
    return {
      context: {
        manifests,
        metadata,
        report: { addViolation: (v: any) => violations.push(v), submit: (s: string) => { status = s; } },
        logger: { log: (m: string) => logs.push(m) },
      },
      violations,
      logs,
      status: () => status,
    };
  }

  test('each failing finding becomes a violation with resource name, construct path and manifest path', async () => {
    const objects = meshLab();
    delete pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
    writeYaml(dir, 'mesh.k8s.yaml', objects);
    const manifest = path.join(dir, 'mesh.k8s.yaml');
    const fake = fakeContext([manifest], { 'orders-split': { path: 'mesh/route' } });
    await new LinkerdValidation({}).validate(fake.context);
    expect(fake.status()).toBe('failure');
    expect(fake.violations).toEqual([{
      ruleName: 'LKD-ROUTE-001',
      recommendation: expect.stringContaining('HTTPRoute mesh-lab/orders-split: parentRefs[0]'),
      fix: expect.any(String),
      violatingResources: [{ resourceName: 'orders-split', locations: ['mesh/route'], manifestPath: manifest }],
    }]);
  });

  test('without construct metadata (or with an ambiguous name) the location is file:line', async () => {
    const objects = meshLab();
    delete pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
    writeYaml(dir, 'mesh.k8s.yaml', objects);
    const fake = fakeContext([path.join(dir, 'mesh.k8s.yaml')]);
    await new LinkerdValidation({}).validate(fake.context);
    expect(fake.violations[0].violatingResources[0].locations[0]).toMatch(/mesh\.k8s\.yaml:\d+$/);
  });

  test('a valid mesh submits success', async () => {
    writeYaml(dir, 'mesh.k8s.yaml', meshLab());
    const fake = fakeContext([path.join(dir, 'mesh.k8s.yaml')]);
    await new LinkerdValidation({ kubernetesVersion: 1.31, trustDomain: 'cluster.local' }).validate(fake.context);
    expect(fake.status()).toBe('success');
    expect(fake.violations).toEqual([]);
  });

  test.each([
    [{ failOn: 'info' }, 'failOn must be "error" or "warning"'],
    [{ failon: 'error' }, 'unknown properties failon'],
    [{ defaultInboundPolicy: 'open' }, 'defaultInboundPolicy must be one of'],
    [{ crds: [1] }, 'crds must be a string or a list of strings'],
  ])('bad properties %j are one coded violation (LKD-INPUT-008), reported instead of thrown at cdk8s-cli', async (properties, message) => {
    writeYaml(dir, 'mesh.k8s.yaml', meshLab());
    const fake = fakeContext([path.join(dir, 'mesh.k8s.yaml')]);
    await new LinkerdValidation(properties).validate(fake.context);
    expect(fake.status()).toBe('failure');
    expect(fake.violations).toEqual([expect.objectContaining({ ruleName: 'LKD-INPUT-008', recommendation: expect.stringContaining(message) })]);
  });

  test('an inventory file that does not exist is one coded violation (LKD-INPUT-007), nothing analysed', async () => {
    writeYaml(dir, 'mesh.k8s.yaml', meshLab());
    const fake = fakeContext([path.join(dir, 'mesh.k8s.yaml')]);
    await new LinkerdValidation({ inventory: [path.join(dir, 'cluster.yaml')] }).validate(fake.context);
    expect(fake.status()).toBe('failure');
    expect(fake.violations).toEqual([expect.objectContaining({ ruleName: 'LKD-INPUT-007', recommendation: expect.stringContaining('cluster.yaml does not exist') })]);
  });

  test("the config file's exclude skips synthesized files, as in the CLI, and logs each one", async () => {
    const broken = meshLab();
    delete pick(broken, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
    writeYaml(dir, 'vendor.k8s.yaml', broken);
    writeYaml(dir, 'mesh.k8s.yaml', meshLab());
    fs.writeFileSync(path.join(dir, '.cdk8s-linkerd.yaml'), 'exclude: ["vendor.k8s.yaml"]\n');
    const fake = fakeContext([path.join(dir, 'vendor.k8s.yaml'), path.join(dir, 'mesh.k8s.yaml')]);
    await new LinkerdValidation({ config: path.join(dir, '.cdk8s-linkerd.yaml') }).validate(fake.context);
    expect(fake.violations).toEqual([]);
    expect(fake.status()).toBe('success');
    expect(fake.logs).toContain(`cdk8s-linkerd note: skipped ${path.join(dir, 'vendor.k8s.yaml')} (exclude in ${path.join(dir, '.cdk8s-linkerd.yaml')})`);
  });

  test('an exclude that leaves no synthesized file is one coded violation (LKD-INPUT-007), not a pass', async () => {
    writeYaml(dir, 'mesh.k8s.yaml', meshLab());
    fs.writeFileSync(path.join(dir, '.cdk8s-linkerd.yaml'), 'exclude: ["*.k8s.yaml"]\n');
    const fake = fakeContext([path.join(dir, 'mesh.k8s.yaml')]);
    await new LinkerdValidation({ config: path.join(dir, '.cdk8s-linkerd.yaml') }).validate(fake.context);
    expect(fake.status()).toBe('failure');
    expect(fake.violations).toEqual([expect.objectContaining({ ruleName: 'LKD-INPUT-007', recommendation: expect.stringContaining('nothing was analysed') })]);
  });

  test('an unreadable manifest is one coded violation (LKD-INPUT-007)', async () => {
    fs.writeFileSync(path.join(dir, 'bad.k8s.yaml'), 'kind: [unclosed');
    const fake = fakeContext([path.join(dir, 'bad.k8s.yaml')]);
    await new LinkerdValidation({}).validate(fake.context);
    expect(fake.violations).toEqual([expect.objectContaining({ ruleName: 'LKD-INPUT-007', recommendation: expect.stringContaining('invalid YAML') })]);
  });
});
