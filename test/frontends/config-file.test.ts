/**
 * .cdk8s-linkerd.yaml (issue 37 item 1), the doc links (item 2), the junit/github formats and --output (item 3) and
 * synth folders (item 4), through the CLI's main() in process, and the schema file shipped in the package.
 */
import * as fs from 'fs';
import * as path from 'path';
import { removeDir, tempDir, writeText, writeYaml } from './cli-harness';
import { CONTEXT_OPTIONS } from '../../src/analysis/context-options';
import { escapeData as reportEscapeData, escapeProperty } from '../../src/analysis/report/github';
import { DOCUMENTED_RULES } from '../../src/analysis/rule-docs';
import { configSchemaDocument, configurableRuleIds, findConfigFile, globToRegExp } from '../../src/config';
import { main } from '../../src/frontends/cli/main';
import { knownRules } from '../../src/frontends/cli/rule-list';
import { meshLab, pick } from '../support/mesh-fixture';

let dir: string;
beforeEach(() => {
  dir = tempDir('config');
  fs.mkdirSync(path.join(dir, '.git'));
});
afterEach(() => removeDir(dir));

function run(cwd: string, ...argv: string[]): { status: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const status = main(argv, { cwd, stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; } });
  return { status, stdout, stderr };
}

/** mesh-lab with the HTTPRoute's Service parentRef missing its group: one LKD-ROUTE-001 error. */
function brokenMesh(): any[] {
  const objects = meshLab();
  delete pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
  return objects;
}

describe('the config file', () => {
  test('is found in a parent folder up to the repository root, and not above it', () => {
    fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
    writeText(dir, '.cdk8s-linkerd.yaml', 'failOn: warning\n');
    expect(findConfigFile(path.join(dir, 'a', 'b'))).toBe(path.join(dir, '.cdk8s-linkerd.yaml'));
    const inner = path.join(dir, 'repo');
    fs.mkdirSync(path.join(inner, '.git'), { recursive: true });
    expect(findConfigFile(inner)).toBeUndefined();
  });

  test('rules: off drops a rule, a level changes its severity; failOn sets the exit threshold', () => {
    writeYaml(dir, 'dist/mesh.yaml', brokenMesh());
    expect(run(dir, 'analyze', 'dist').status).toBe(1);
    writeText(dir, '.cdk8s-linkerd.yaml', 'rules:\n  LKD-ROUTE-001: warning\n');
    const warned = run(dir, 'analyze', 'dist', '--format', 'json');
    expect(warned.status).toBe(0);
    expect(JSON.parse(warned.stdout).findings.find((f: any) => f.ruleId === 'LKD-ROUTE-001').severity).toBe('warning');
    writeText(dir, '.cdk8s-linkerd.yaml', 'rules:\n  LKD-ROUTE-001: warning\nfailOn: warning\n');
    expect(run(dir, 'analyze', 'dist').status).toBe(1);
    // A flag wins over the file.
    expect(run(dir, 'analyze', 'dist', '--fail-on', 'error').status).toBe(0);
    writeText(dir, '.cdk8s-linkerd.yaml', 'rules:\n  LKD-ROUTE-001: "off"\n');
    const off = run(dir, 'analyze', 'dist', '--format', 'json');
    expect(JSON.parse(off.stdout).findings.map((f: any) => f.ruleId)).not.toContain('LKD-ROUTE-001');
  });

  test('every context option under its CLI name; a flag wins over the file', () => {
    writeYaml(dir, 'm.yaml', [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } }]);
    writeText(dir, 'c.yaml', 'namespace: from-file\n');
    const fromFile = run(dir, 'analyze', 'm.yaml', '--config', 'c.yaml', '--format', 'json');
    expect(fromFile.status).toBe(0);
    // The schema has a property per option of the one table, under the CLI's flag name (unsuppressible included once it is one).
    const props = Object.keys((configSchemaDocument() as any).properties);
    for (const o of CONTEXT_OPTIONS) expect(props).toContain(o.flag);
    writeText(dir, 'bad-ns.yaml', 'namespace: Not_A_Namespace\n');
    const bad = run(dir, 'analyze', 'm.yaml', '--config', 'bad-ns.yaml');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/LKD-INPUT-008: bad-ns\.yaml:1: namespace must be a namespace name/);
    expect(run(dir, 'analyze', 'm.yaml', '--config', 'bad-ns.yaml', '--namespace', 'ok').status).toBe(2);
  });

  test.each([
    ['unknown key', 'bogus: 1\n', /bogus: unknown field "bogus"\. Fix: Use only the keys of the schema .*: rules, failOn, exclude, docsUrl, kubernetes-version, /],
    ['bad level', 'rules:\n  LKD-POL-011: loud\n', /rules\[LKD-POL-011\]: Unsupported value: "loud"/],
    ['unknown rule', 'rules:\n  LKD-NOPE-001: "off"\n', /"LKD-NOPE-001" is not a rule ID/],
    ['the suppression rule', 'rules:\n  LKD-META-001: "off"\n', /LKD-META-001 cannot be tuned/],
    ['bad failOn', 'failOn: info\n', /failOn: Unsupported value: "info"/],
    ['not YAML', 'rules: [\n', /not valid YAML/],
    ['not a mapping', '- a\n', /must be a mapping/],
  ])('a bad config (%s) is a coded error, exit 2, nothing on stdout', (_name, text, message) => {
    writeYaml(dir, 'm.yaml', meshLab());
    writeText(dir, '.cdk8s-linkerd.yaml', text);
    const r = run(dir, 'analyze', 'm.yaml');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^cdk8s-linkerd: error: LKD-INPUT-008: \.cdk8s-linkerd\.yaml:\d+: /);
    expect(r.stderr).toMatch(message);
  });

  test('--config naming a missing file is refused', () => {
    writeYaml(dir, 'm.yaml', meshLab());
    expect(run(dir, 'analyze', 'm.yaml', '--config', 'nope.yaml').stderr).toMatch(/LKD-INPUT-008: nope\.yaml: the config file does not exist/);
  });

  test('exclude: skipped files are named in a note; excluding everything is an error', () => {
    writeYaml(dir, 'dist/mesh.yaml', meshLab());
    writeYaml(dir, 'dist/vendor/broken.yaml', brokenMesh().filter((o) => o.kind === 'HTTPRoute'));
    writeText(dir, '.cdk8s-linkerd.yaml', 'exclude: ["dist/vendor"]\n');
    const r = run(dir, 'analyze', 'dist');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`note: skipped ${path.join('dist', 'vendor', 'broken.yaml')} (exclude in .cdk8s-linkerd.yaml)`);
    writeText(dir, '.cdk8s-linkerd.yaml', 'exclude: ["**/*.yaml"]\n');
    const none = run(dir, 'analyze', 'dist');
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/every file was skipped/);
  });

  test('globs: * stays in a segment, ** spans folders, a folder covers what is below it', () => {
    expect(globToRegExp('*.yaml').test('a.yaml')).toBe(true);
    expect(globToRegExp('*.yaml').test('x/a.yaml')).toBe(false);
    expect(globToRegExp('**/*.json').test('x/y/a.json')).toBe(true);
    expect(globToRegExp('dist').test('dist/a/b.yaml')).toBe(true);
    expect(globToRegExp('dist').test('distx/a.yaml')).toBe(false);
  });

  test('the shipped schema file is the one the loader validates with, and names every configurable rule level', () => {
    const file = path.resolve(__dirname, '..', '..', 'schemas', 'cdk8s-linkerd-config.schema.json');
    // After a change to the options table or the catalog: UPDATE_CONFIG_SCHEMA=1 writes the file the package ships.
    if (process.env.UPDATE_CONFIG_SCHEMA) fs.writeFileSync(file, `${JSON.stringify(configSchemaDocument(), null, 2)}\n`);
    const shipped = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(shipped).toEqual(configSchemaDocument());
    // The IDs a config may tune are the catalog's, less LKD-META-001.
    expect([...configurableRuleIds()].sort()).toEqual(knownRules().map((r) => r.id).filter((id) => id !== 'LKD-META-001'));
  });
});

describe('doc links', () => {
  test('every SARIF rule and every JSON finding has a helpUri; anchors exist in docs/rules.md', () => {
    writeYaml(dir, 'm.yaml', brokenMesh());
    const sarif = JSON.parse(run(dir, 'analyze', 'm.yaml', '--format', 'sarif').stdout);
    const rules = sarif.runs[0].tool.driver.rules;
    expect(rules.every((r: any) => typeof r.helpUri === 'string')).toBe(true);
    const anchors = new Set([...fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8').matchAll(/^## (LKD-[A-Z]+-\d{3})$/gm)].map((m) => m[1].toLowerCase()));
    for (const r of rules) {
      const anchor = /#(.+)$/.exec(r.helpUri)?.[1];
      if (anchor) expect(anchors).toContain(anchor);
    }
    expect(DOCUMENTED_RULES.length).toBe(anchors.size);
    const json = JSON.parse(run(dir, 'analyze', 'm.yaml', '--format', 'json').stdout);
    expect(json.findings[0].helpUri).toBe('https://github.com/maintainers/cdk8s-linkerd/blob/main/docs/rules.md#lkd-route-001');
  });

  test('text prints links with --verbose only; --docs-url and docsUrl override the base', () => {
    writeYaml(dir, 'm.yaml', brokenMesh());
    expect(run(dir, 'analyze', 'm.yaml').stdout).not.toContain('see https://');
    expect(run(dir, 'analyze', 'm.yaml', '--verbose').stdout).toContain('  see https://github.com/maintainers/cdk8s-linkerd/blob/main/docs/rules.md#lkd-route-001');
    writeText(dir, '.cdk8s-linkerd.yaml', 'docsUrl: https://docs.example/rules.html\n');
    expect(run(dir, 'analyze', 'm.yaml', '--verbose').stdout).toContain('see https://docs.example/rules.html#lkd-route-001');
    expect(run(dir, 'analyze', 'm.yaml', '--verbose', '--docs-url', 'https://mine.example/r').stdout).toContain('see https://mine.example/r#lkd-route-001');
  });
});

describe('formats', () => {
  test('junit: a suite per rule, a case per object, failures at or above failOn', () => {
    writeYaml(dir, 'm.yaml', brokenMesh());
    const xml = run(dir, 'analyze', 'm.yaml', '--format', 'junit').stdout;
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="cdk8s-linkerd" tests="\d+" failures="1" /);
    expect(xml).toContain('<testsuite name="LKD-ROUTE-001" tests="1" failures="1"');
    expect(xml).toMatch(/<testcase classname="LKD-ROUTE-001" name="HTTPRoute mesh-lab\/orders-split" file="m.yaml" line="\d+">\n\s+<failure type="error"/);
    expect(xml.match(/<testsuite /g)!.length).toBe(knownRules().length);
  });

  test('github: workflow commands with escaped data and properties', () => {
    writeYaml(dir, 'a,b:c.yaml', brokenMesh());
    const out = run(dir, 'analyze', 'a,b:c.yaml', '--format', 'github').stdout;
    expect(out).toMatch(/^::error file=a%2Cb%3Ac\.yaml,line=\d+,title=LKD-ROUTE-001::HTTPRoute mesh-lab\/orders-split: .*%0AFix: /m);
    expect(out.trim().split('\n').pop()).toBe('cdk8s-linkerd: 1 errors, 0 warnings, 0 info, 0 suppressed');
    expect(escapeProperty('100%\r\n:,')).toBe('100%25%0D%0A%3A%2C');
    expect(reportEscapeData('a%b\nc:d,e')).toBe('a%25b%0Ac:d,e');
  });

  test('--output FORMAT=FILE writes several reports in one run; stdout keeps --format', () => {
    writeYaml(dir, 'm.yaml', brokenMesh());
    const r = run(dir, 'analyze', 'm.yaml', '--output', 'sarif=out/r.sarif', '--output', 'junit=out/r.xml', '--output', 'text=out/r.txt');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^m\.yaml:\d+: error LKD-ROUTE-001/);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'out', 'r.sarif'), 'utf8')).version).toBe('2.1.0');
    expect(fs.readFileSync(path.join(dir, 'out', 'r.xml'), 'utf8')).toContain('<testsuites');
    expect(fs.readFileSync(path.join(dir, 'out', 'r.txt'), 'utf8')).toBe(r.stdout);
    const bad = run(dir, 'analyze', 'm.yaml', '--output', 'pdf=x.pdf');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--output must be FORMAT=FILE/);
  });

  test('diff takes --output and the config file', () => {
    writeYaml(dir, 'base/m.yaml', meshLab());
    writeYaml(dir, 'head/m.yaml', brokenMesh());
    const r = run(dir, 'diff', 'base', 'head', '--output', 'json=d.json');
    expect(r.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'd.json'), 'utf8'))).toBeDefined();
  });
});

describe('a cdk8s synth folder', () => {
  test('construct-metadata.json and a validation report are skipped with a note, not refused', () => {
    writeYaml(dir, 'dist/mesh-lab.k8s.yaml', meshLab());
    writeText(dir, 'dist/construct-metadata.json', JSON.stringify({ version: '1.0.0', resources: { orders: { path: 'lab/Orders' } } }));
    writeText(dir, 'dist/reports.json', JSON.stringify({ reports: [] }));
    const r = run(dir, 'analyze', 'dist');
    expect(r.stderr).toContain(`note: skipped ${path.join('dist', 'construct-metadata.json')} (the construct metadata cdk8s writes for validation plugins, not a manifest)`);
    expect(r.stderr).toContain(`note: skipped ${path.join('dist', 'reports.json')} (a cdk8s-cli validation report, not a manifest)`);
    expect(r.status).toBe(0);
    // Any other JSON that is not a Kubernetes object is still refused.
    writeText(dir, 'dist/other.json', JSON.stringify({ hello: 1 }));
    expect(run(dir, 'analyze', 'dist').status).toBe(2);
  });

  test('the config file inside the analysed folder is not read as a manifest', () => {
    writeYaml(dir, 'mesh.yaml', meshLab());
    writeText(dir, '.cdk8s-linkerd.yaml', 'failOn: error\n');
    const r = run(dir, 'analyze', '.');
    expect(r.status).toBe(0);
  });
});
