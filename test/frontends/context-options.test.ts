/**
 * One table of context options serves every front-end: each option of analysis/context-options.ts is a MeshChecks
 * option (in the jsii assembly, so every language has it), a CLI flag (in the help, parsed and validated) and a plugin
 * property (accepted and validated), with the same validation message.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { assertBuilt, runCli, tempDir, removeDir, writeYaml } from './cli-harness';
import { CONTEXT_OPTIONS } from '../../src/analysis/context-options';
import { MeshChecks } from '../../src/checks/mesh-checks';
import { readProperties } from '../../src/checks/plugin-settings';
import { ANALYZE_USAGE } from '../../src/frontends/cli/usage';
import { meshLab } from '../support/mesh-fixture';

const assembly = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '.jsii'), 'utf8'));
const meshChecksOptions = new Set<string>((assembly.types['cdk8s-linkerd.MeshChecksOptions'].properties ?? []).map((p: any) => p.name));

describe('context options: one table for MeshChecks, the CLI and the plugin', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = tempDir('context-options');
    writeYaml(dir, 'mesh.yaml', meshLab());
  });
  afterAll(() => removeDir(dir));

  test.each(CONTEXT_OPTIONS.map((o) => [o.key, o] as const))('%s is a MeshChecks option, a CLI flag and a plugin property', (_key, option) => {
    expect(meshChecksOptions.has(option.key)).toBe(true);
    expect(ANALYZE_USAGE).toContain(`--${option.flag} `);
    // A bad value is refused by all three with the table's reason.
    const bad = option.kind === 'boolean' ? 'maybe' : option.kind === 'number' ? 'soon' : 'not a valid/value!';
    expect(() => readProperties({ [option.key]: bad })).toThrow(new RegExp(`property ${option.key} must`));
    const cli = runCli(['analyze', `--${option.flag}`, bad, 'mesh.yaml'], { cwd: dir });
    expect([cli.status, cli.stderr]).toEqual([2, expect.stringContaining(`--${option.flag} must`)]);
    const app = Testing.app();
    expect(() => MeshChecks.of(app).configure({ [option.key]: option.kind === 'list' ? bad : bad } as any)).toThrow(new RegExp(`option ${option.key} must`));
  });

  test('every help line keeps the flag apart from its text, however long the flag', () => {
    for (const option of CONTEXT_OPTIONS) {
      const line = ANALYZE_USAGE.split('\n').find((l) => l.includes(`--${option.flag} ${option.placeholder}`))!;
      expect(line).toMatch(new RegExp(`--${option.flag} ${option.placeholder.replace(/[|]/g, '\\|')}(  |$)`));
    }
  });

  test('-n is --namespace, as in kubectl: objects without a namespace land there (default: "default")', () => {
    writeYaml(dir, 'no-ns.yaml', [{
      apiVersion: 'policy.linkerd.io/v1alpha1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'p' },
      spec: { targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'missing' }, requiredAuthenticationRefs: [] },
    }]);
    const namespaces = (args: string[]) => new Set(JSON.parse(runCli(['analyze', '--format', 'json', ...args, 'no-ns.yaml'], { cwd: dir }).stdout)
      .findings.map((f: any) => f.resource.namespace));
    expect([...namespaces([])]).toEqual(['default']);
    expect([...namespaces(['-n', 'shop'])]).toEqual(['shop']);
    expect([...namespaces(['--namespace=shop'])]).toEqual(['shop']);
  });

  test('a Namespace is cluster-scoped even when cdk8s stamps a namespace on it', () => {
    writeYaml(dir, 'stamped.yaml', [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', namespace: 'shop', annotations: { 'linkerd.io/inject': 'enabled' } } },
      {
        apiVersion: 'policy.linkerd.io/v1alpha1',
        kind: 'AuthorizationPolicy',
        metadata: { name: 'p', namespace: 'shop' },
        spec: { targetRef: { kind: 'Namespace', name: 'shop' }, requiredAuthenticationRefs: [] },
      },
    ]);
    const findings = JSON.parse(runCli(['analyze', '--format', 'json', 'stamped.yaml'], { cwd: dir }).stdout).findings;
    expect(findings.filter((f: any) => f.ruleId === 'LKD-POL-001')).toEqual([]);
    expect(findings.filter((f: any) => f.resource.kind === 'Namespace').map((f: any) => f.resource.namespace ?? null)).not.toContain('shop');
  });
});
