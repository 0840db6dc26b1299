/**
 * The cdk8s-linkerd CLI, run as users run it: the compiled bin in a child process, on YAML written to a temp folder.
 */
import * as path from 'path';
import { RunResult, assertBuilt, documentLine, removeDir, runCli, tempDir, writeText, writeYaml } from './cli-harness';
import { ALL_RULES } from '../../src/analysis/rules';
import { SUPPRESS_ANNOTATION } from '../../src/analysis/suppressions';
import { meshLab, pick } from '../support/mesh-fixture';
import { GATEWAY_API_CRDS, describeWithShared } from '../support/shared';

let dir: string;

beforeAll(() => assertBuilt());
beforeEach(() => {
  dir = tempDir('cli');
});
afterEach(() => removeDir(dir));

function cli(...args: string[]): RunResult {
  return runCli(args, { cwd: dir });
}

/** The baseline with the route's Service parentRef missing its group: exactly one LKD-ROUTE-001 error. */
function brokenMesh(): any[] {
  const objects = meshLab();
  delete pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
  return objects;
}

function routeIndex(objects: any[]): number {
  return objects.findIndex((o) => o.kind === 'HTTPRoute');
}

describe('exit codes and the text format', () => {
  test('a valid mesh in one multi-document file: exit 0', () => {
    writeYaml(dir, 'mesh.yaml', meshLab());
    const run = cli('analyze', 'mesh.yaml');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('0 errors, 0 warnings\n');
    expect(run.status).toBe(0);
  });

  // What kubectl version prints for a managed cluster reads as its release (core/versions.ts parseKubernetesVersion).
  test.each(['v1.33.1-eks-abc', '1.34.0-gke.1'])('--kubernetes-version %s is a Kubernetes version', (v) => {
    writeYaml(dir, 'mesh.yaml', meshLab());
    const run = cli('analyze', '--kubernetes-version', v, 'mesh.yaml');
    expect([run.status, run.stderr]).toEqual([0, '']);
  });

  test('an error: exit 1, one line with file:line of the offending document', () => {
    const objects = brokenMesh();
    const text = writeYaml(dir, 'mesh.yaml', objects);
    const run = cli('analyze', 'mesh.yaml');
    expect(run.status).toBe(1);
    const [first, summary] = run.stdout.trimEnd().split('\n');
    const line = documentLine(text, routeIndex(objects));
    expect(first).toMatch(new RegExp(`^mesh\\.yaml:${line}: error LKD-ROUTE-001 HTTPRoute mesh-lab/orders-split: .+ \\(fix: .+\\)$`));
    expect(summary).toBe('1 errors, 0 warnings');
  });

  test('a warning fails only with --fail-on warning', () => {
    const objects = meshLab();
    pick(objects, 'HTTPRoute', 'orders-split').spec.hostnames = ['orders.example.com'];
    writeYaml(dir, 'mesh.yaml', objects);
    const lenient = cli('analyze', 'mesh.yaml');
    expect(lenient.status).toBe(0);
    expect(lenient.stdout).toMatch(/: warning LKD-ROUTE-\d{3} HTTPRoute mesh-lab\/orders-split: /);
    expect(lenient.stdout).toMatch(/0 errors, [1-9]\d* warnings\n$/);
    expect(cli('analyze', '--fail-on', 'warning', 'mesh.yaml').status).toBe(1);
    expect(cli('analyze', '--fail-on=warning', 'mesh.yaml').status).toBe(1);
  });

  test('folders are read recursively in name order; other files are ignored; output is deterministic', () => {
    const objects = brokenMesh();
    const route = objects.splice(routeIndex(objects), 1);
    writeYaml(dir, 'manifests/b/route.yml', route);
    writeYaml(dir, 'manifests/a/base.yaml', objects.slice(0, 5));
    writeYaml(dir, 'manifests/a/rest.yaml', objects.slice(5));
    writeText(dir, 'manifests/notes.txt', 'not: [yaml');
    const run = cli('analyze', 'manifests');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^${['manifests', 'b', 'route.yml'].join('\\/')}:1: error LKD-ROUTE-001 `));
    expect(cli('analyze', 'manifests').stdout).toBe(run.stdout);
    // The same file given twice (folder and file) is read once.
    expect(cli('analyze', 'manifests', path.join('manifests', 'b', 'route.yml')).stdout).toBe(run.stdout);
  });

  test('empty documents are skipped, and v1 List items are objects of their own', () => {
    const [ns, ...rest] = meshLab();
    writeText(dir, 'mesh.yaml', `---\n---\n# only a comment\n---\n${JSON.stringify(ns)}\n---\n`);
    writeYaml(dir, 'list.yaml', [{ apiVersion: 'v1', kind: 'List', items: rest }]);
    const run = cli('analyze', 'mesh.yaml', 'list.yaml');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  test('"-" reads stdin', () => {
    const text = writeYaml(dir, 'unused.yaml', brokenMesh());
    const run = runCli(['analyze', '-'], { cwd: dir, input: text });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^<stdin>:\d+: error LKD-ROUTE-001 /);
  });
});

describe('bad input and usage: exit 2, a message naming the problem, nothing on stdout', () => {
  test('malformed YAML names file and line, even after a good file', () => {
    writeYaml(dir, 'a.yaml', meshLab());
    writeText(dir, 'b.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\napiVersion: v1\nkind: [ConfigMap\n');
    const run = cli('analyze', 'a.yaml', 'b.yaml');
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/b\.yaml:[78]: invalid YAML/);
  });

  test('a document that is not an object (scalar or list)', () => {
    writeText(dir, 'scalar.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\njust a string\n');
    writeText(dir, 'list.yaml', '- apiVersion: v1\n  kind: ConfigMap\n');
    for (const [file, line, what] of [['scalar.yaml', 6, 'a string'], ['list.yaml', 1, 'a list']] as const) {
      const run = cli('analyze', file);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`${file}:${line}: expected a Kubernetes object, got ${what}`);
    }
  });

  test('a mapping without apiVersion/kind is not a Kubernetes object', () => {
    writeText(dir, 'values.yaml', 'replicas: 3\n');
    const run = cli('analyze', 'values.yaml');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('values.yaml:1: not a Kubernetes object');
  });

  test('an unreadable or missing path, and a folder without YAML', () => {
    const missing = cli('analyze', 'missing.yaml');
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('missing.yaml: cannot read (no such file or directory)');
    writeText(dir, 'empty/readme.md', '# nothing');
    const empty = cli('analyze', 'empty');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('empty: no *.yaml, *.yml or *.json files');
  });

  test.each([
    [['analyze'], 'needs at least one PATH'],
    [['analyze', '--format', 'xml', 'x.yaml'], '--format must be one of text, json, sarif, mermaid'],
    [['analyze', '--fail-on', 'info', 'x.yaml'], '--fail-on must be one of error, warning'],
    [['analyze', '--bogus', 'x.yaml'], 'unknown option --bogus'],
    [['analyze', '--crds'], '--crds needs a value'],
    [['analyze', '--kubernetes-version', 'latest', 'x.yaml'], '--kubernetes-version must look like'],
    [['analyze', '--default-inbound-policy', 'open', 'x.yaml'], '--default-inbound-policy must be one of'],
    [['frobnicate'], 'unknown command'],
  ])('%j', (args, message) => {
    const run = cli(...args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });
});

describe('other commands', () => {
  test('--help, analyze --help and --version', () => {
    const help = cli('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: cdk8s-linkerd <command>');
    expect(cli('analyze', '--help').stdout).toContain('--format FORMAT');
    expect(cli('--version').stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });

  test('rules lists every registered rule plus the schema and suppression rules', () => {
    const run = cli('rules');
    expect(run.status).toBe(0);
    const ids = run.stdout.trimEnd().split('\n').map((l) => l.split(/\s+/)[0]);
    expect(ids).toEqual(expect.arrayContaining([...ALL_RULES.map((r) => r.id), 'LKD-SCHEMA-001', 'LKD-META-001']));
    expect(run.stdout).toMatch(/^LKD-ROUTE-001\s+error\s+\S/m);
    const json = JSON.parse(cli('rules', '--format', 'json').stdout);
    expect(json.rules.map((r: any) => r.id)).toEqual(ids);
  });
});

describe('formats', () => {
  test('json: the documented shape, in a stable key order', () => {
    const objects = brokenMesh();
    const text = writeYaml(dir, 'mesh.yaml', objects);
    const run = cli('analyze', '--format', 'json', 'mesh.yaml');
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report)).toEqual(['findings', 'suppressed', 'summary']);
    expect(report.suppressed).toEqual([]);
    expect(report.summary).toEqual({ errors: 1, warnings: 0 });
    const [finding] = report.findings;
    expect(Object.keys(finding)).toEqual(['ruleId', 'severity', 'resource', 'message', 'file', 'line', 'fix', 'helpUri']);
    expect(finding).toMatchObject({
      ruleId: 'LKD-ROUTE-001',
      severity: 'error',
      resource: { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', namespace: 'mesh-lab', name: 'orders-split' },
      file: 'mesh.yaml',
      line: documentLine(text, routeIndex(objects)),
    });
    expect(Object.keys(finding.resource)).toEqual(['apiVersion', 'kind', 'namespace', 'name']);
  });

  test('sarif: a 2.1.0 log GitHub code scanning accepts', () => {
    // One warning (hostnames on the attached route) and one error (a second route whose parentRef lacks the group).
    const objects = meshLab();
    const route = pick(objects, 'HTTPRoute', 'orders-split');
    route.spec.hostnames = ['orders.example.com'];
    const broken = JSON.parse(JSON.stringify(route));
    broken.metadata.name = 'orders-broken';
    delete broken.spec.parentRefs[0].group;
    delete broken.spec.hostnames;
    objects.push(broken);
    const text = writeYaml(dir, 'deploy/mesh.yaml', objects);
    const run = cli('analyze', '--format', 'sarif', 'deploy');
    expect(run.status).toBe(1);
    const log = JSON.parse(run.stdout);
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const [{ tool, results }] = log.runs;
    expect(tool.driver).toMatchObject({ name: 'cdk8s-linkerd', informationUri: expect.stringMatching(/^https:\/\//), version: expect.any(String) });
    const rules: any[] = tool.driver.rules;
    expect(rules.map((r) => r.id)).toEqual(expect.arrayContaining([...ALL_RULES.map((r) => r.id), 'LKD-SCHEMA-001']));
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule).toMatchObject({
        id: expect.stringMatching(/^LKD-[A-Z]+-\d{3}$/),
        name: expect.stringMatching(/^[A-Za-z0-9]+$/),
        shortDescription: { text: expect.any(String) },
        fullDescription: { text: expect.any(String) },
        help: { text: expect.any(String) },
        defaultConfiguration: { level: expect.stringMatching(/^(error|warning|note)$/) },
      });
    }
    const levels = results.map((r: any) => r.level).sort();
    expect(levels).toEqual(expect.arrayContaining(['error', 'warning']));
    for (const result of results) {
      expect(rules[result.ruleIndex].id).toBe(result.ruleId);
      expect(['error', 'warning', 'note']).toContain(result.level);
      expect(result.message.text).toEqual(expect.any(String));
      const [location] = result.locations;
      expect(location.physicalLocation.artifactLocation.uri).toBe('deploy/mesh.yaml');
      expect(location.physicalLocation.region.startLine).toBeGreaterThanOrEqual(1);
    }
    const error = results.find((r: any) => r.ruleId === 'LKD-ROUTE-001');
    expect(error.level).toBe('error');
    expect(error.locations[0].physicalLocation.region.startLine).toBe(documentLine(text, objects.indexOf(broken)));
  });

  test('mermaid: one graph of callers, Service ports and workload ports, deterministic whatever the input order', () => {
    const objects = meshLab();
    writeYaml(dir, 'a.yaml', objects);
    writeYaml(dir, 'b.yaml', [...objects].reverse());
    const run = cli('analyze', '--format', 'mermaid', 'a.yaml');
    expect(run.status).toBe(0);
    const out = run.stdout;
    expect(out.split('\n')[0]).toBe('flowchart LR');
    const ids = new Map([...out.matchAll(/^ +(\S+?)[[({]+"([^"<]+)/gm)].map((m) => [m[2], m[1]]));
    for (const id of ids.values()) expect(id).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
    const orders = ids.get('Service mesh-lab/orders:8080');
    expect(out).toContain(`${orders} -->|"orders-split 90%"| ${ids.get('Service mesh-lab/orders-v1:8080')}`);
    expect(out).toContain(`${orders} -->|"orders-split 10%"| ${ids.get('Service mesh-lab/orders-v2:8080')}`);
    // Only the client's ServiceAccount is authorized on the orders ports, and the picture says so on the port.
    expect(out).toContain('mesh-lab/orders-v1:8080<br/>Server orders-http (deny)<br/>allows: mesh-lab/client');
    expect(cli('analyze', '--format', 'mermaid', 'b.yaml').stdout).toBe(out);
  });
});

describe('suppressions', () => {
  test('a suppressed finding does not fail, and text lists it with its reason', () => {
    const objects = brokenMesh();
    pick(objects, 'HTTPRoute', 'orders-split').metadata.annotations = {
      [SUPPRESS_ANNOTATION]: JSON.stringify([{ ruleId: 'LKD-ROUTE-001', reason: 'attached by a mutating webhook' }]),
    };
    writeYaml(dir, 'mesh.yaml', objects);
    const run = cli('analyze', 'mesh.yaml');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^0 errors, 0 warnings, 1 suppressed\nsuppressed:\n {2}mesh\.yaml:\d+: error LKD-ROUTE-001 HTTPRoute mesh-lab\/orders-split: .+\(reason: attached by a mutating webhook\)\n$/);
    expect(JSON.parse(cli('analyze', '--format', 'json', 'mesh.yaml').stdout).findings).toEqual([]);
    const sarif = JSON.parse(cli('analyze', '--format', 'sarif', 'mesh.yaml').stdout);
    expect(sarif.runs[0].results[0].suppressions).toEqual([{ kind: 'inSource', status: 'accepted', justification: 'attached by a mutating webhook' }]);
  });
});

describeWithShared('--crds: CRD schema validation (LKD-SCHEMA-001)', () => {
  test('a schema-invalid route gets LKD-SCHEMA-001 on its document', () => {
    const objects = meshLab();
    pick(objects, 'HTTPRoute', 'orders-split').spec.rules[0].matches = [{ path: { type: 'Bogus', value: '/orders' } }];
    const text = writeYaml(dir, 'mesh.yaml', objects);
    const without = cli('analyze', 'mesh.yaml');
    expect(without.stdout).not.toContain('LKD-SCHEMA-001');
    const run = cli('analyze', '--crds', GATEWAY_API_CRDS, 'mesh.yaml');
    expect(run.status).toBe(1);
    const line = documentLine(text, routeIndex(objects));
    expect(run.stdout).toContain(`mesh.yaml:${line}: error LKD-SCHEMA-001 HTTPRoute mesh-lab/orders-split: spec.rules[0].matches[0].path.type: `);
    expect(run.stdout).toContain('Bogus');
  });

  test('the valid mesh passes the CRDs and the built-in core schemas', () => {
    writeYaml(dir, 'mesh.yaml', meshLab());
    const run = cli('analyze', '--crds', GATEWAY_API_CRDS, 'mesh.yaml');
    expect(run.stdout).toBe('0 errors, 0 warnings\n');
    expect(run.status).toBe(0);
  });

  test('a --crds folder that does not exist is bad input', () => {
    writeYaml(dir, 'mesh.yaml', meshLab());
    const run = cli('analyze', '--crds', 'no-such-dir', 'mesh.yaml');
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('--crds');
  });
});
