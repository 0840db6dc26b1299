/**
 * In-process checks of the pieces the CLI is made of: report formatters, the argument parser and the YAML loader
 * (document lines and speed on a large input).
 */
import * as yaml from 'js-yaml';
import { Finding, Severity } from '../../src/analysis/finding';
import { MermaidIds, mermaidLabel } from '../../src/analysis/reachability/mermaid-text';
import { artifactUri, formatText } from '../../src/analysis/report';
import { parseArgs } from '../../src/frontends/cli/args';
import { UsageError } from '../../src/frontends/cli/errors';
import { parseManifests } from '../../src/frontends/cli/load-manifests';
import { meshLab } from '../support/mesh-fixture';

function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    ruleId: 'LKD-ROUTE-001',
    severity: Severity.ERROR,
    resource: { apiVersion: 'v1', kind: 'Namespace', name: 'shop' },
    message: 'something is wrong.',
    fix: 'Fix it.',
    ...overrides,
  };
}

describe('formatText', () => {
  test('cluster-scoped objects have no namespace prefix; without a file the construct path is the location', () => {
    const out = formatText([
      finding({ constructPath: 'app/ns', severity: Severity.WARNING }),
      finding({ severity: Severity.INFO, file: 'a.yaml' }),
    ]);
    expect(out).toBe([
      'app/ns: warning LKD-ROUTE-001 Namespace shop: something is wrong. (fix: Fix it.)',
      'a.yaml: info LKD-ROUTE-001 Namespace shop: something is wrong. (fix: Fix it.)',
      '0 errors, 1 warnings, 1 info',
      '',
    ].join('\n'));
  });
});

describe('artifactUri (SARIF)', () => {
  test.each([
    ['deploy/mesh.yaml', 'deploy/mesh.yaml'],
    ['./deploy/mesh.yaml', 'deploy/mesh.yaml'],
    ['deploy\\win\\mesh.yaml', 'deploy/win/mesh.yaml'],
    ['my dir/a b.yaml', 'my%20dir/a%20b.yaml'],
    ['/abs/path/m.yaml', 'file:///abs/path/m.yaml'],
    ['C:\\work\\m.yaml', 'file:///C:/work/m.yaml'],
  ])('%s → %s', (file, uri) => {
    expect(artifactUri(file)).toBe(uri);
  });
});

describe('Mermaid ids and labels', () => {
  test('IDs are sanitized and kept unique when two keys sanitize alike; quotes and markup in labels are escaped', () => {
    const ids = new MermaidIds();
    expect(ids.id('svc/ns/a-b')).toBe('n_svc_ns_a_b');
    expect(ids.id('svc/ns/a_b')).toBe('n_svc_ns_a_b_2');
    expect(ids.id('9/x')).toBe('n_9_x');
    expect(ids.id('svc/ns/a-b')).toBe('n_svc_ns_a_b');
    expect(mermaidLabel('Service "a-b" <x> | #1\nnext')).toBe('"Service #quot;a-b#quot; #lt;x#gt; #124; #35;1<br/>next"');
  });
});

describe('parseArgs', () => {
  const specs = { crds: { value: true, repeat: true }, format: { value: true, choices: ['text', 'json'] }, help: { value: false } };

  test('values inline or separate, repeats in order, flags, positionals, -- and -', () => {
    const args = parseArgs(['a', '--crds', 'x', '--crds=y', '--format=json', '--help', '-', '--', '--not-an-option'], specs);
    expect(args.options.get('crds')).toEqual(['x', 'y']);
    expect(args.options.get('format')).toEqual(['json']);
    expect(args.flags.has('help')).toBe(true);
    expect(args.positionals).toEqual(['a', '-', '--not-an-option']);
  });

  test.each([
    [['--format', 'text', '--format', 'json'], '--format may be given only once'],
    [['--help=yes'], '--help takes no value'],
    [['--format', '--help'], '--format needs a value'],
    [['-x'], 'unknown option -x'],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseArgs(argv, specs)).toThrow(UsageError);
    expect(() => parseArgs(argv, specs)).toThrow(message);
  });
});

describe('parseManifests', () => {
  test('each document keeps the line it starts on (after comments and separators)', () => {
    const text = '# header\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\n\n# note\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n';
    expect(parseManifests(text, 'f.yaml').map((m) => [m.object.metadata.name, m.source?.line])).toEqual([['a', 3], ['b', 10]]);
  });

  test('timestamps stay strings and merge keys work, as the API server sees them', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  creationTimestamp: 2024-01-01T00:00:00Z\n'
      + 'base: &b {x: "1"}\ndata:\n  <<: *b\n  y: "2"\n';
    const [m] = parseManifests(text, 'f.yaml');
    expect(m.object.metadata.creationTimestamp).toBe('2024-01-01T00:00:00Z');
    expect(m.object.data).toEqual({ x: '1', y: '2' });
  });

  // Speed is the benchmark's job (npm run bench); this test holds only what a large input must still get right.
  test('50k objects parse with correct lines', () => {
    // Dump the baseline once and vary the namespace textually: generating the input should not dominate the test.
    const baseline = meshLab().map((o) => yaml.dump(o));
    const docs: string[] = [];
    for (let i = 0; docs.length < 50_000; i++) docs.push(...baseline.map((d) => d.split('mesh-lab').join(`ns-${i}`)));
    const text = docs.join('---\n');
    const manifests = parseManifests(text, 'big.yaml');
    expect(manifests).toHaveLength(docs.length);
    const lastStart = text.split('\n').length - docs[docs.length - 1].split('\n').length + 1;
    expect(manifests[manifests.length - 1].source?.line).toBe(lastStart);
  });
});
