/** MeshChecks and the cdk8s-cli plugin read the same .cdk8s-linkerd.yaml as the CLI (issue 37 item 1). */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import * as yaml from 'js-yaml';
import { removeDir, tempDir, writeText } from './cli-harness';
import { MeshChecks } from '../../src';
import { LinkerdValidation } from '../../src/frontends/plugin';
import { meshLab, pick } from '../support/mesh-fixture';

let dir: string;
beforeEach(() => {
  dir = tempDir('config-constructs');
});
afterEach(() => removeDir(dir));

function brokenApp(options: Record<string, unknown> = {}) {
  const app = Testing.app();
  const chart = new Chart(app, 'mesh');
  const objects = meshLab();
  delete pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
  for (const o of objects) new ApiObject(chart, `${o.kind}-${o.metadata.name}`, o);
  MeshChecks.of(app).configure(options);
  return app;
}

test('MeshChecks: configFile sets rule levels; configure() wins over the file', () => {
  writeText(dir, 'lkd.yaml', 'rules:\n  LKD-ROUTE-001: warning\nfailOn: warning\n');
  const file = path.join(dir, 'lkd.yaml');
  const checks = MeshChecks.of(brokenApp({ configFile: file, printWarnings: false }));
  const route = checks.analyze().find((f) => f.ruleId === 'LKD-ROUTE-001')!;
  expect(route.severity).toBe('warning');
  // failOn: warning from the file fails on the warning; failOnWarnings: false from configure() wins.
  expect(() => brokenApp({ configFile: file, printWarnings: false }).synth()).toThrow(/LKD-ROUTE-001/);
  expect(() => brokenApp({ configFile: file, printWarnings: false, failOnWarnings: false }).synth()).not.toThrow();
});

test('MeshChecks: a bad config file fails with the coded message', () => {
  writeText(dir, 'bad.yaml', 'bogus: 1\n');
  expect(() => MeshChecks.of(brokenApp({ configFile: path.join(dir, 'bad.yaml') })).analyze()).toThrow(/MeshChecks: LKD-INPUT-008: .*bogus/);
});

test('the plugin: the config property is read; a bad file is one coded violation', async () => {
  writeText(dir, 'lkd.yaml', 'rules:\n  LKD-ROUTE-001: "off"\n');
  const objects = meshLab();
  delete pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
  writeText(dir, 'm.yaml', objects.map((o: any) => yaml.dump(o)).join('---\n'));
  const run = async (props: Record<string, unknown>) => {
    const violations: any[] = [];
    let status = '';
    await new LinkerdValidation(props).validate({
      manifests: [path.join(dir, 'm.yaml')],
      report: { addViolation: (v: any) => violations.push(v), submit: (s: string) => { status = s; } },
    });
    return { status, violations };
  };
  expect((await run({})).status).toBe('failure');
  const off = await run({ config: path.join(dir, 'lkd.yaml') });
  expect(off.violations.map((v) => v.ruleName)).not.toContain('LKD-ROUTE-001');
  writeText(dir, 'bad.yaml', 'failOn: never\n');
  const bad = await run({ config: path.join(dir, 'bad.yaml') });
  expect(bad.violations[0].ruleName).toBe('LKD-INPUT-008');
  expect(fs.existsSync(dir)).toBe(true);
});
