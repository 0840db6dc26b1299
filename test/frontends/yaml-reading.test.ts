/**
 * YAML is read as js-yaml reads it (with YAML 1.2's floats), depth limits included, and every unquoted scalar that a
 * YAML 1.1 reader (kubectl and Helm through go-yaml v2, PyYAML) reads as another value is an LKD-MESH-013 reading.
 */
import * as yaml from 'js-yaml';
import { assertBuilt, removeDir, runCli, tempDir, writeText } from './cli-harness';
import { Yaml11Reading } from '../../src/analysis/model/manifest';
import { InputError } from '../../src/core/input-error';
import { SCHEMA, parseManifests } from '../../src/frontends/cli/load-manifests';
import { LINKERD_CRDS, describeWithShared } from '../support/shared';

const HEAD = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: lab\nvalues:\n';

/** The readings of `v: TEXT` (in block style), and what this tool read. */
function readingOf(text: string): { value: unknown; reading?: Yaml11Reading } {
  const [manifest] = parseManifests(`${HEAD}  v: ${text}\n`, 'f.yaml');
  const readings = manifest.source?.yaml11Readings ?? [];
  expect(readings.length).toBeLessThanOrEqual(1);
  return { value: manifest.object.values.v, reading: readings[0] };
}

const KUBECTL = /^kubectl and Helm \(go-yaml v2\)$/;
const ALL = /^kubectl and Helm \(go-yaml v2\) and PyYAML$/;
const PYYAML = /^PyYAML and other YAML 1\.1 readers \(not kubectl\)$/;

describe('LKD-MESH-013: every YAML 1.1 reading that changes a value', () => {
  test.each([
    // [written, YAML 1.2 value here, YAML 1.1 value, who reads it so]
    ['1_0', '"1_0"', '10 (a number)', ALL],
    ['8_0', '"8_0"', '80 (a number)', ALL],
    ['1_000_000', '"1_000_000"', '1000000 (a number)', ALL],
    ['-1_5', '"-1_5"', '-15 (a number)', ALL],
    ['1_0.5', '"1_0.5"', '10.5 (a number)', ALL],
    ['010', '10', '8 (octal)', ALL],
    ['0443', '443', '291 (octal)', ALL],
    ['-010', '-10', '-8 (octal)', ALL],
    ['yes', '"yes"', 'true (a boolean)', ALL],
    ['Off', '"Off"', 'false (a boolean)', ALL],
    ['y', '"y"', 'true (a boolean)', KUBECTL],
    ['N', '"N"', 'false (a boolean)', KUBECTL],
    ['1:30', '"1:30"', '90 (base 60)', PYYAML],
    ['-1:30:00', '"-1:30:00"', '-5400 (base 60)', PYYAML],
    ['0o17', '15', '"0o17" (a string)', PYYAML],
    ['+.2', '0.2', '"+.2" (a string)', PYYAML],
    ['-.5', '-0.5', '"-.5" (a string)', PYYAML],
    ['1e3', '1000', '"1e3" (a string)', PYYAML],
    ['08', '8', '"08" (a string)', PYYAML],
  ] as [string, string, string, RegExp][])('%s', (text, yaml12, yaml11, readers) => {
    const { reading } = readingOf(text);
    expect(reading).toMatchObject({ text, yaml12, yaml11, line: 7 });
    expect(reading?.readers).toMatch(readers);
  });

  test.each(['8080', '0', '-1', '0.5', '.5', '1.5', '0x1F', '0b101', '.inf', '-.inf', '.nan', 'true', 'null', '~', 'web',
    '"yes"', "'0443'", '"1_0"', '100m', '128Mi', '25%', '-listen=:8080', '1_0m', '0x1G', '1.2.3', '2001:db8::1', '10.0.0.0/8', '2024-01-01', '!!str 010', 'x-1:30'])(
    '%s reads alike', (text) => {
      expect(readingOf(text).reading).toBeUndefined();
    });

  test('every reading of a document is kept, in order, under its first object', () => {
    const many = Array.from({ length: 300 }, (_, i) => `  k${i}: ${i % 2 ? 'yes' : '0_1'}`).join('\n');
    const [manifest] = parseManifests(`${HEAD}${many}\n`, 'f.yaml');
    expect(manifest.source?.yaml11Readings?.map((r) => r.line)).toEqual(Array.from({ length: 300 }, (_, i) => 7 + i));
  });
});

describe('YAML 1.2 numbers are numbers', () => {
  test.each([['+.2', 0.2], ['-.5', -0.5], ['+.5e1', 5], ['.5', 0.5], ['+1.5', 1.5], ['-0.25', -0.25]] as [string, number][])(
    '%s reads as %d', (text, value) => {
      expect(readingOf(text).value).toBe(value);
    });

  test('the schema still writes floats as js-yaml does', () => {
    expect(yaml.dump({ a: 0.2, b: -0.5 }, { schema: SCHEMA })).toBe('a: 0.2\nb: -0.5\n');
  });
});

describe('depth limits are js-yaml\'s, in every style', () => {
  const blockNested = (depth: number) => `${HEAD}${Array.from({ length: depth }, (_, i) => `${'  '.repeat(i + 1)}k:`).join('\n')} x\n`;
  const flowNested = (depth: number) => `${HEAD}  k: ${'['.repeat(depth)}x${']'.repeat(depth)}\n`;

  test.each([['block', blockNested], ['flow', flowNested]] as [string, (n: number) => string][])(
    '%s style: 90 levels read, 150 and 3,000 levels refused as an input error', (_, nested) => {
      expect(parseManifests(nested(90), 'f.yaml')).toHaveLength(1);
      for (const depth of [150, 3000]) {
        let error: unknown;
        try {
          parseManifests(nested(depth), 'deep.yaml');
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(InputError);
        expect((error as Error).message).toMatch(/^deep\.yaml:\d+: invalid YAML: nesting exceeded maxDepth/);
      }
    });
});

describeWithShared('no false schema error for a YAML 1.2 number', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = tempDir('yaml12');
  });
  afterAll(() => removeDir(dir));

  test('retryRatio: +.2 in a ServiceProfile is the number 0.2 (no LKD-SCHEMA-001), with a PyYAML note (LKD-MESH-013)', () => {
    writeText(dir, 'sp.yaml', [
      'apiVersion: linkerd.io/v1alpha2', 'kind: ServiceProfile', 'metadata:', '  name: web.lab.svc.cluster.local', '  namespace: lab',
      'spec:', '  retryBudget:', '    retryRatio: +.2', '    minRetriesPerSecond: 10', '    ttl: 10s', '',
    ].join('\n'));
    const out = runCli(['analyze', '--format', 'json', '--crds', LINKERD_CRDS, 'sp.yaml'], { cwd: dir });
    const findings: { ruleId: string; message: string }[] = JSON.parse(out.stdout).findings;
    expect(findings.filter((f) => f.ruleId === 'LKD-SCHEMA-001')).toEqual([]);
    expect(findings.filter((f) => f.ruleId === 'LKD-MESH-013').map((f) => f.message)).toEqual([
      expect.stringContaining('sp.yaml:8: +.2 is 0.2 here (YAML 1.2) but "+.2" (a string) for PyYAML'),
    ]);
  });

  test('replicas: 1_0 and containerPort: 8_0 are warned (kubectl reads 10 and 80)', () => {
    writeText(dir, 'dep.yaml', [
      'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', '  namespace: lab', 'spec:', '  replicas: 1_0',
      '  selector:', '    matchLabels: {app: web}', '  template:', '    metadata:', '      labels: {app: web}', '    spec:',
      '      containers:', '      - name: web', '        image: web:1', '        ports:', '        - containerPort: 8_0', '',
    ].join('\n'));
    const out = runCli(['analyze', '--format', 'json', 'dep.yaml'], { cwd: dir });
    const [finding] = (JSON.parse(out.stdout).findings as { ruleId: string; message: string }[]).filter((f) => f.ruleId === 'LKD-MESH-013');
    expect(finding.message).toContain('dep.yaml:7: 1_0 is "1_0" here (YAML 1.2) but 10 (a number) for kubectl');
    expect(finding.message).toContain('dep.yaml:18: 8_0 is "8_0" here (YAML 1.2) but 80 (a number) for kubectl');
  });
});
