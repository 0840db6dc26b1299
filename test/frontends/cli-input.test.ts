/**
 * Input that used to pass as "0 errors" without being analysed, and refusals that did not say what was wrong. Each
 * case runs the compiled CLI and asserts the coded verdict (a finding with its rule ID and file:line) or the refusal
 * (exit 2, a message saying what the input is and what to do, nothing on stdout).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { assertBuilt, removeDir, runCli, tempDir, writeText } from './cli-harness';
import { LINKERD_CRDS, describeWithShared } from '../support/shared';

interface JsonFinding {
  ruleId: string; severity: string; resource: { kind: string; name: string }; message: string; fix: string; file: string; line: number;
}

let dir: string;
beforeAll(() => assertBuilt());
beforeEach(() => { dir = tempDir('input'); });
afterEach(() => removeDir(dir));

function analyzeJson(args: string[], input?: string): { status: number | null; findings: JsonFinding[]; stderr: string } {
  const out = runCli(['analyze', '--format', 'json', ...args], { cwd: dir, input });
  return { status: out.status, findings: out.stdout ? JSON.parse(out.stdout).findings : [], stderr: out.stderr };
}

function refused(args: string[], message: RegExp): void {
  const out = runCli(['analyze', ...args], { cwd: dir });
  expect(out.status).toBe(2);
  expect(out.stdout).toBe('');
  expect(out.stderr).toMatch(message);
}

const SERVER = {
  apiVersion: 'policy.linkerd.io/v1beta3',
  kind: 'Server',
  metadata: { name: 'web-http', namespace: 'lab' },
  spec: { podSelector: { matchLabels: { app: 'web' } }, port: 8080 },
};

describe('objects of known groups with unknown kinds or versions: LKD-MESH-012', () => {
  const cases: [string, Record<string, any>, RegExp, RegExp][] = [
    ['kind: HttpRoute (the cdk8s class spelling)', { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HttpRoute' }, /kind "HttpRoute" is not a kind gateway\.networking\.k8s\.io serves/, /write kind: HTTPRoute/],
    ['kind: server', { apiVersion: 'policy.linkerd.io/v1beta3', kind: 'server' }, /kind "server" is not a kind policy\.linkerd\.io serves/, /write kind: Server/],
    ['apiVersion without a version', { apiVersion: 'policy.linkerd.io', kind: 'Server' }, /"policy\.linkerd\.io" is an API group without a version/, /apiVersion: policy\.linkerd\.io\/v1beta3/],
    ['an unserved version', { apiVersion: 'policy.linkerd.io/v1', kind: 'Server' }, /policy\.linkerd\.io\/v1 is not a version Linkerd 2\.20 serves for Server/, /v1beta3/],
    ['a ServerList without items', { apiVersion: 'policy.linkerd.io/v1beta3', kind: 'ServerList' }, /kind "ServerList" is not a kind/, /items/],
    ['a kind of another group', { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Server' }, /kind "Server" is not a kind gateway/, /policy\.linkerd\.io kind/],
    ['ServiceProfile with a typo', { apiVersion: 'linkerd.io/v1alpha2', kind: 'ServiceProfiles' }, /not a kind linkerd\.io serves/, /ServiceProfile/],
  ];
  test.each(cases)('%s is an error naming the file and line', (_name, head, message, fix) => {
    writeText(dir, 'in.yaml', `# leading comment\n${yaml.dump({ ...head, metadata: { name: 'x', namespace: 'lab' }, spec: {} })}`);
    const out = analyzeJson(['in.yaml']);
    expect(out.status).toBe(1);
    const f = out.findings.filter((x) => x.ruleId === 'LKD-MESH-012');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'error', file: 'in.yaml', line: 2 });
    expect(f[0].message).toMatch(message);
    expect(f[0].fix).toMatch(fix);
  });

  test('served kinds and versions, including legacy ones and other groups, are not reported', () => {
    const objects = [
      SERVER,
      { ...SERVER, apiVersion: 'policy.linkerd.io/v1beta1' },
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'g', namespace: 'lab' }, spec: {} },
      { apiVersion: 'gateway.networking.k8s.io/v1beta1', kind: 'ReferenceGrant', metadata: { name: 'r', namespace: 'lab' }, spec: {} },
      { apiVersion: 'multicluster.linkerd.io/v1alpha3', kind: 'Link', metadata: { name: 'east', namespace: 'linkerd-multicluster' }, spec: {} },
      { apiVersion: 'example.com/v9', kind: 'Anything', metadata: { name: 'a', namespace: 'lab' } },
      { apiVersion: 'tap.linkerd.io/v1alpha1', kind: 'Tap', metadata: { name: 't', namespace: 'lab' } },
    ];
    writeText(dir, 'ok.yaml', objects.map((o) => yaml.dump(o)).join('---\n'));
    expect(analyzeJson(['ok.yaml']).findings.filter((f) => f.ruleId === 'LKD-MESH-012')).toEqual([]);
  });
});

describe('Lists and JSON files are read as kubectl reads them', () => {
  test('a typed ServerList is unrolled: its Server is analysed (items inherit apiVersion and kind)', () => {
    const { apiVersion, kind, ...bare } = SERVER;
    writeText(dir, 'list.yaml', yaml.dump({ apiVersion: 'policy.linkerd.io/v1beta3', kind: 'ServerList', items: [bare] }));
    const out = analyzeJson(['list.yaml']);
    // A Server alone (no pod template of its namespace here) gets LKD-POL-006 as a warning: exit 0, and analysed.
    expect(out.status).toBe(0);
    expect(out.findings.map((f) => [f.ruleId, f.resource.kind, f.resource.name])).toContainEqual(['LKD-POL-006', 'Server', 'web-http']);
    expect(out.findings.filter((f) => f.ruleId === 'LKD-MESH-012')).toEqual([]);
  });

  test('an item of a v1 List without apiVersion and kind is refused (a List names no item kind)', () => {
    const { apiVersion, kind, ...bare } = SERVER;
    writeText(dir, 'bare.yaml', yaml.dump({ apiVersion: 'v1', kind: 'List', items: [bare] }));
    refused(['bare.yaml'], /bare\.yaml:1 \(items\[0\]\): not a Kubernetes object/);
  });

  test('a List inside a List is unrolled', () => {
    writeText(dir, 'nested.yaml', yaml.dump({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'List', items: [SERVER] }] }));
    const out = analyzeJson(['nested.yaml']);
    expect(out.findings.map((f) => f.resource.name)).toContain('web-http');
    expect(out.findings.every((f) => f.file === 'nested.yaml' && f.line === 1)).toBe(true);
  });

  test('.json files in a folder are read (tab-indented too)', () => {
    writeText(dir, 'manifests/server.json', JSON.stringify(SERVER, null, '\t'));
    writeText(dir, 'manifests/README.md', '# not a manifest');
    const out = analyzeJson(['manifests']);
    expect(out.status).toBe(0);
    expect(out.findings.find((f) => f.resource.name === 'web-http' && f.ruleId === 'LKD-POL-006'))
      .toMatchObject({ file: path.join('manifests', 'server.json'), line: 1 });
  });

  test('a folder of only .json files is not "no files"', () => {
    writeText(dir, 'only/cm.json', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'lab' } }));
    expect(analyzeJson(['only']).status).toBe(0);
  });
});

describe('refusals say what the input is and what to do', () => {
  test('analyze \'\' refuses the empty path instead of analysing the current folder', () => {
    writeText(dir, 'a.yaml', yaml.dump(SERVER));
    refused([''], /empty PATH/);
  });

  test('UTF-16 files (with and without BOM) are named as such', () => {
    fs.writeFileSync(path.join(dir, 'bom.yaml'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('apiVersion: v1\nkind: ConfigMap\n', 'utf16le')]));
    fs.writeFileSync(path.join(dir, 'be.yaml'), Buffer.from('apiVersion: v1\nkind: ConfigMap\n', 'utf16le').swap16());
    refused(['bom.yaml'], /bom\.yaml: the file is UTF-16 \(little-endian, with a byte order mark\), not UTF-8; save it as UTF-8/);
    refused(['be.yaml'], /be\.yaml: the file is UTF-16 \(big-endian\).*save it as UTF-8/);
  });

  test('Latin-1 text is refused as not UTF-8 (not silently replaced)', () => {
    fs.writeFileSync(path.join(dir, 'l1.yaml'), Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: caf\xe9, namespace: lab}\n', 'latin1'));
    refused(['l1.yaml'], /l1\.yaml: the file is not valid UTF-8.*save it as UTF-8/);
  });

  test('--crds pointing at a folder with no CRD is exit 2', () => {
    writeText(dir, 'crds/cm.yaml', yaml.dump({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }));
    writeText(dir, 'in.yaml', yaml.dump(SERVER));
    refused(['--crds', 'crds', 'in.yaml'], /--crds .*crds: no CustomResourceDefinition/);
  });
});

describeWithShared('--crds with CRDs still works', () => {
  test('the Linkerd CRDs load', () => {
    writeText(dir, 'in.yaml', yaml.dump(SERVER));
    const out = analyzeJson(['--crds', LINKERD_CRDS, 'in.yaml']);
    expect(out.status).toBe(0);
    expect(out.findings.map((f) => f.ruleId)).toContain('LKD-POL-006');
  });
});

describe('documents of concatenated files, and files reached twice', () => {
  test('a BOM at the start of a later document is dropped', () => {
    const cm = (name: string) => yaml.dump({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'lab' }, data: { a: 'b' } });
    writeText(dir, 'cat.yaml', `\uFEFF${cm('a')}---\n\uFEFF${cm('b')}`);
    const out = runCli(['analyze', 'cat.yaml'], { cwd: dir });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  });

  test('the same file given twice or through a symlink is read once (no duplicate-object finding)', () => {
    writeText(dir, 'a.yaml', yaml.dump(SERVER));
    fs.symlinkSync(path.join(dir, 'a.yaml'), path.join(dir, 'link.yaml'));
    const once = analyzeJson(['a.yaml']).findings;
    const twice = analyzeJson(['a.yaml', './a.yaml', 'link.yaml', '.']).findings;
    expect(twice).toEqual(once);
  });
});

describe('YAML 1.1 readings: LKD-MESH-013', () => {
  test('octal, booleans, sexagesimal and 0o are warned with file:line; quoted values are not', () => {
    writeText(dir, 'svc.yaml', [
      'apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', '  namespace: lab', '  annotations:', '    enabled: yes',
      '    quoted: "yes"', '    single: \'0443\'', 'spec:', '  ports:', '  - port: 0443', '    targetPort: 8080', '  - port: 0o17',
      '  selector: {app: web, window: 1:30, flag: on}', '',
    ].join('\n'));
    const out = analyzeJson(['svc.yaml', '--fail-on', 'error']);
    const f = out.findings.filter((x) => x.ruleId === 'LKD-MESH-013');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'warning', file: 'svc.yaml', line: 1 });
    expect(f[0].message).toContain('svc.yaml:12: 0443 is 443 here (YAML 1.2) but 291 (octal)');
    expect(f[0].message).toContain('svc.yaml:7: yes is "yes" here (YAML 1.2) but true (a boolean)');
    expect(f[0].message).toContain('svc.yaml:14: 0o17 is 15 here');
    expect(f[0].message).toContain('svc.yaml:15: 1:30 is "1:30" here (YAML 1.2) but 90 (base 60)');
    expect(f[0].message).toContain('svc.yaml:15: on is "on" here');
    expect(f[0].message).not.toMatch(/:8:|:9:|8080/);
  });

  test.each([
    ['block YAML', 'metadata:\n  name: w\n  namespace: lab\n'],
    ['YAML with a flow mapping', 'metadata: {name: w, namespace: lab}\n'],
  ])('a scalar in a block sequence is one reading, in %s', (_name, metadata) => {
    writeText(dir, 'args.yaml', `apiVersion: v1\nkind: Pod\n${metadata}spec:\n  containers:\n  - name: app\n    image: app:1\n    args:\n      - yes\n      - 0443\n`);
    const f = analyzeJson(['args.yaml']).findings.filter((x) => x.ruleId === 'LKD-MESH-013');
    expect(f).toHaveLength(1);
    expect(f[0].message.match(/: yes is "yes" here/g)).toHaveLength(1);
    expect(f[0].message.match(/: 0443 is 443 here/g)).toHaveLength(1);
  });

  test('YAML that reads alike in both versions gives no warning', () => {
    writeText(dir, 'plain.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: lab}\ndata: {a: "0443", b: "true", c: "443", d: "x-1:30"}\n');
    expect(analyzeJson(['plain.yaml']).findings).toEqual([]);
  });
});
