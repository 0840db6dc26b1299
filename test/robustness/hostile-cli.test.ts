/**
 * Hostile input to the compiled CLI (`cdk8s-linkerd analyze --format json`), each run in a child process capped at
 * 512 MiB of V8 heap and a wall-clock limit. For every case the decision is written down:
 *
 * - exit 2 for input that is not Kubernetes YAML the tool can read (malformed, alias bombs, non-objects, duplicate
 *   keys, binary, unreadable or looping paths): one message on stderr naming the file (and line), nothing on stdout;
 * - exit 0/1 for input that is readable but weird (wrong field types, empty files, symlink loops, huge files): a
 *   complete report on stdout, exactly as for normal input;
 * - never a crash: no "internal error", stack trace, out-of-memory abort or timeout.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { BoundedRun, runCliBounded } from './cli-process';
import { meshLabObjects } from './mutation-corpus';
import { analyze } from '../../src/analysis/engine';
import { formatJson, formatMermaid, formatSarif, formatText } from '../../src/analysis/report';
import { assertBuilt, removeDir, tempDir, writeText } from '../frontends/cli-harness';
import { GATEWAY_API_CRDS, LINKERD_CRDS, describeWithShared } from '../support/shared';

type Exit = 0 | 1 | 2;

interface HostileCase {
  readonly name: string;
  /** Why this exit code is the right one. */
  readonly decision: string;
  readonly exit: Exit | readonly Exit[];
  /** What stderr must say (exit 2): the file, and the line where there is one. */
  readonly message?: RegExp;
  readonly maxMs?: number;
  readonly extraArgs?: string[];
  /** Writes the input into `dir` and returns the PATH arguments. */
  setup(dir: string): string[];
}

const CRASH = /internal error|\n\s+at |heap out of memory|FATAL ERROR|Maximum call stack/i;
const DEFAULT_MAX_MS = 20_000;

const OBJECT_HEAD = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: weird\n  namespace: lab\n';

function yamlOf(objects: any[]): string {
  return objects.map((o) => yaml.dump(o, { noRefs: true, lineWidth: -1 })).join('---\n');
}

/** Billion laughs: 9 levels of 9 aliases, ~4e8 values once expanded from a 1 KB file. */
function aliasBomb(): string {
  const names = 'abcdefghi';
  const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < names.length; i++) levels.push(`${names[i]}: &${names[i]} [${new Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
  return `${OBJECT_HEAD}data:\n${levels.map((l) => `  ${l}`).join('\n')}\n`;
}

/** The same bomb in block style, as PyYAML writes anchors. */
function blockAliasBomb(): string {
  const names = 'abcdefghi';
  const levels = ['  a: &a', ...new Array(9).fill('  - lol')];
  for (let i = 1; i < names.length; i++) levels.push(`  ${names[i]}: &${names[i]}`, ...new Array(9).fill(`  - *${names[i - 1]}`));
  return `${OBJECT_HEAD}data:\n${levels.join('\n')}\n`;
}

/** A name bomb in one document: anchors under an annotation map, the alias as metadata.name. */
function nameBomb(): string {
  const names = 'abcdefghi';
  const levels = ['      a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < names.length; i++) levels.push(`      ${names[i]}: &${names[i]} [${new Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
  return ['apiVersion: v1', 'kind: Service', 'spec:', '  selector:', '    anchors:', ...levels, 'metadata:', '  namespace: lab', '  name: *i', ''].join('\n');
}

/** ~20 MB of valid YAML: mesh-lab copied into numbered namespaces. */
function largeMesh(targetBytes: number): string {
  const base = meshLabObjects();
  const one = yamlOf(base);
  const copies = Math.ceil(targetBytes / one.length);
  const parts: string[] = [];
  for (let i = 0; i < copies; i++) {
    const ns = `lab-${i}`;
    parts.push(yamlOf(base.map((o) => (o.kind === 'Namespace'
      ? { ...o, metadata: { ...o.metadata, name: ns } }
      : { ...o, metadata: { ...o.metadata, namespace: ns } }))));
  }
  return parts.join('---\n');
}

function binary(bytes: number): Buffer {
  const buf = Buffer.alloc(bytes);
  // Deterministic noise with NULs and high bytes (no randomness, so a failure replays).
  for (let i = 0; i < bytes; i++) buf[i] = Math.floor((i * 2654435761) / 2 ** 24) % 256;
  return buf;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

const CASES: HostileCase[] = [
  {
    name: 'malformed YAML (unclosed flow sequence)',
    decision: 'unparseable: exit 2 with file:line',
    setup: (d) => { writeText(d, 'bad.yaml', `${OBJECT_HEAD}data:\n  x: [1, 2\n`); return ['bad.yaml']; },
    exit: 2,
    message: /bad\.yaml:\d+: invalid YAML/,
  },
  {
    name: 'malformed YAML (bad indentation, tabs)',
    decision: 'unparseable: exit 2 with file:line',
    setup: (d) => { writeText(d, 'tabs.yaml', `${OBJECT_HEAD}data:\n\tx: y\n`); return ['tabs.yaml']; },
    exit: 2,
    message: /tabs\.yaml:7: invalid YAML/,
  },
  {
    name: 'YAML alias bomb ("billion laughs") in data',
    decision: 'refused at load: expanding it would take minutes and gigabytes; exit 2 naming the document',
    setup: (d) => { writeText(d, 'bomb.yaml', aliasBomb()); return ['bomb.yaml']; },
    exit: 2,
    message: /bomb\.yaml:1: .*alias/i,
    maxMs: 10_000,
  },
  {
    name: 'YAML alias bomb in block style',
    decision: 'refused at load (the expansion is counted with each shared node walked once): exit 2 naming the document',
    setup: (d) => { writeText(d, 'block-bomb.yaml', blockAliasBomb()); return ['block-bomb.yaml']; },
    exit: 2,
    message: /block-bomb\.yaml:1: .*alias/i,
    maxMs: 10_000,
  },
  {
    name: 'YAML alias bomb as metadata.name',
    decision: 'refused at load (a name that expands to 4e8 strings would be stringified by every report): exit 2',
    setup: (d) => { writeText(d, 'name-bomb.yaml', nameBomb()); return ['name-bomb.yaml']; },
    exit: 2,
    message: /name-bomb\.yaml:1: .*alias/i,
    maxMs: 10_000,
  },
  {
    name: 'a bomb after a good file',
    decision: 'all input is read before anything is written: exit 2 and no partial report',
    setup: (d) => { writeText(d, 'a-good.yaml', yamlOf(meshLabObjects())); writeText(d, 'b-bomb.yaml', aliasBomb()); return ['.']; },
    exit: 2,
    message: /b-bomb\.yaml:1: .*alias/i,
    maxMs: 10_000,
  },
  {
    name: 'modest anchors and merge keys',
    decision: 'legitimate YAML reuse: analysed normally',
    setup: (d) => {
      writeText(d, 'anchors.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: lab\n  labels: &labels {app: x, team: y}\n'
        + '  annotations:\n    <<: *labels\n    note: merged\ndata: {k: v}\n');
      return ['anchors.yaml'];
    },
    exit: 0,
  },
  {
    name: 'non-object documents (number, string, list) after a valid one',
    decision: 'not a Kubernetes object: exit 2 naming the document\'s line',
    setup: (d) => { writeText(d, 'scalars.yaml', `${OBJECT_HEAD}---\n42\n---\n- a\n- b\n`); return ['scalars.yaml']; },
    exit: 2,
    message: /scalars\.yaml:7: expected a Kubernetes object, got a number/,
  },
  {
    name: 'a bare string document',
    decision: 'not a Kubernetes object: exit 2',
    setup: (d) => { writeText(d, 'string.yaml', 'just some text\n'); return ['string.yaml']; },
    exit: 2,
    message: /string\.yaml:1: expected a Kubernetes object, got a string/,
  },
  {
    name: 'a mapping without apiVersion/kind',
    decision: 'not a Kubernetes object: exit 2',
    setup: (d) => { writeText(d, 'nokind.yaml', 'metadata: {name: x}\nspec: {}\n'); return ['nokind.yaml']; },
    exit: 2,
    message: /nokind\.yaml:1: not a Kubernetes object/,
  },
  {
    name: 'duplicate keys',
    decision: 'kubectl refuses duplicate keys too (yaml.v3 "already defined"), so the file is not valid input: exit 2 with line',
    setup: (d) => { writeText(d, 'dup.yaml', `${OBJECT_HEAD}data:\n  k: a\n  k: b\n`); return ['dup.yaml']; },
    exit: 2,
    message: /dup\.yaml:8: invalid YAML: duplicated mapping key/,
  },
  {
    name: 'binary file with a .yaml name',
    decision: 'not text (not UTF-8): exit 2 naming the file and what to do',
    setup: (d) => { fs.writeFileSync(path.join(d, 'blob.yaml'), binary(4096)); return ['blob.yaml']; },
    exit: 2,
    message: /blob\.yaml: the file is not valid UTF-8.*save it as UTF-8/,
  },
  {
    name: 'binary file given explicitly (image.png)',
    decision: 'explicit files are read whatever their extension; binary is not YAML: exit 2',
    setup: (d) => { fs.writeFileSync(path.join(d, 'image.png'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), binary(1024)])); return ['image.png']; },
    exit: 2,
    message: /image\.png: the file is not valid UTF-8/,
  },
  {
    name: 'a NUL byte inside otherwise valid YAML',
    decision: 'YAML forbids NUL: exit 2 with file:line',
    setup: (d) => { writeText(d, 'nul.yaml', `${OBJECT_HEAD}data:\n  k: "a\u0000b"\n`); return ['nul.yaml']; },
    exit: 2,
    message: /nul\.yaml:\d+: invalid YAML/,
  },
  {
    name: 'deeply nested flow sequences (20k levels)',
    decision: 'refused by the parser\'s depth limit, not a stack overflow: exit 2 with file:line',
    setup: (d) => { writeText(d, 'deep.yaml', `${OBJECT_HEAD}data:\n  x: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`); return ['deep.yaml']; },
    exit: 2,
    message: /deep\.yaml:\d+: invalid YAML/,
  },
  {
    name: 'a file made unreadable with chmod 000',
    decision: isRoot
      ? 'tests run as root (CI), and root reads it anyway: analysed normally (exit 0); without root this is exit 2 "permission denied"'
      : 'exit 2 "permission denied" naming the file',
    setup: (d) => {
      writeText(d, 'secret.yaml', OBJECT_HEAD);
      fs.chmodSync(path.join(d, 'secret.yaml'), 0o000);
      return ['secret.yaml'];
    },
    exit: isRoot ? 0 : 2,
    message: /secret\.yaml: cannot read \(permission denied\)/,
  },
  {
    name: 'a dangling symlink inside a folder',
    decision: 'a YAML-looking entry that cannot be read is an error, not silently skipped: exit 2 naming it',
    setup: (d) => {
      writeText(d, 'm/ok.yaml', yamlOf(meshLabObjects()));
      fs.symlinkSync(path.join(d, 'm', 'gone.yaml'), path.join(d, 'm', 'link.yaml'));
      return ['m'];
    },
    exit: 2,
    message: /link\.yaml: cannot read \(no such file or directory\)/,
  },
  {
    name: 'a path through a file (file where a directory is expected)',
    decision: 'exit 2 naming the path',
    setup: (d) => { writeText(d, 'mesh.yaml', OBJECT_HEAD); return [path.join('mesh.yaml', 'child.yaml')]; },
    exit: 2,
    message: /mesh\.yaml\/child\.yaml: cannot read \(a parent is not a directory\)/,
  },
  {
    name: 'a YAML file where the --crds directory is expected',
    decision: 'bad usage of --crds: exit 2 naming the option and path',
    setup: (d) => { writeText(d, 'mesh.yaml', OBJECT_HEAD); return ['mesh.yaml']; },
    extraArgs: ['--crds', 'mesh.yaml'],
    exit: 2,
    message: /--crds .*mesh\.yaml/,
  },
  {
    name: 'a symlink loop between folders',
    decision: 'each real folder is read once: analysed normally (exit 0)',
    setup: (d) => {
      writeText(d, 'loop/a/mesh.yaml', OBJECT_HEAD);
      fs.symlinkSync(path.join(d, 'loop'), path.join(d, 'loop', 'a', 'back'));
      return ['loop'];
    },
    exit: 0,
  },
  {
    name: 'a symlink to itself',
    decision: 'cannot be resolved: exit 2 "too many symbolic links"',
    setup: (d) => { fs.symlinkSync('self.yaml', path.join(d, 'self.yaml')); return ['self.yaml']; },
    exit: 2,
    message: /self\.yaml: cannot read \(too many symbolic links\)/,
  },
  {
    name: 'an empty file and a comments-only file',
    decision: 'valid YAML with no objects: nothing to report, exit 0 (a pipeline that rendered nothing is not broken YAML)',
    setup: (d) => { writeText(d, 'empty.yaml', ''); writeText(d, 'comments.yaml', '# nothing here\n---\n# still nothing\n'); return ['empty.yaml', 'comments.yaml']; },
    exit: 0,
  },
  {
    name: '__proto__ and constructor keys',
    decision: 'plain keys to YAML and Kubernetes: analysed normally, nothing polluted (exit 0)',
    setup: (d) => {
      writeText(d, 'proto.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  namespace: lab\n  labels: {constructor: x, __proto__: {polluted: yes}}\n'
        + '  annotations: {__proto__: x, toString: y, hasOwnProperty: z}\nspec:\n  selector: {constructor: x, toString: x}\n  ports: [{port: 80}]\n');
      return ['proto.yaml'];
    },
    exit: [0, 1],
  },
  {
    name: 'a ~20 MB file of valid manifests',
    decision: 'large but valid: a complete report within the time and memory bounds (exit 0: only info findings)',
    setup: (d) => { writeText(d, 'large.yaml', largeMesh(20 * 1024 * 1024)); return ['large.yaml']; },
    exit: 0,
    maxMs: 120_000,
  },
  {
    name: 'a ~20 MB single string value',
    decision: 'large but valid: scanners over strings stay linear (exit 0)',
    setup: (d) => { writeText(d, 'long.yaml', `${OBJECT_HEAD}data:\n  blob: "${'ab0/'.repeat(5 * 1024 * 1024)}"\n`); return ['long.yaml']; },
    exit: 0,
    maxMs: 60_000,
  },
  {
    name: 'a UTF-16 file (Windows "Unicode")',
    decision: 'not UTF-8: exit 2 saying the file is UTF-16 and to save it as UTF-8',
    setup: (d) => { fs.writeFileSync(path.join(d, 'u16.yaml'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(OBJECT_HEAD, 'utf16le')])); return ['u16.yaml']; },
    exit: 2,
    message: /u16\.yaml: the file is UTF-16.*save it as UTF-8/,
  },
  {
    name: 'byte order marks at the start of later documents (concatenated files)',
    decision: 'each BOM is dropped: analysed normally',
    setup: (d) => { writeText(d, 'cat.yaml', `\uFEFF${OBJECT_HEAD}---\n\uFEFF${OBJECT_HEAD.replace('weird', 'weird-2')}`); return ['cat.yaml']; },
    exit: 0,
  },
  {
    name: 'an empty PATH argument',
    decision: 'refused (it would mean the current folder): exit 2',
    setup: () => [''],
    exit: 2,
    message: /empty PATH/,
  },
  {
    name: 'Lists nested 40 deep',
    decision: 'refused beyond 16 levels: exit 2 naming the document',
    setup: (d) => {
      let doc: any = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deep', namespace: 'lab' } };
      for (let i = 0; i < 40; i++) doc = { apiVersion: 'v1', kind: 'List', items: [doc] };
      writeText(d, 'deep.yaml', yamlOf([doc]));
      return ['deep.yaml'];
    },
    exit: 2,
    message: /deep\.yaml:1 .*nested more than 16 deep/,
  },
  {
    name: 'a folder with a JSON file that is not a manifest (package.json)',
    decision: 'kubectl apply -f DIR reads *.json too and refuses it: exit 2 naming the file',
    setup: (d) => { writeText(d, 'app/ok.yaml', OBJECT_HEAD); writeText(d, 'app/package.json', '{"name": "x", "version": "1.0.0"}\n'); return ['app']; },
    exit: 2,
    message: /package\.json:1: not a Kubernetes object/,
  },
];

function expectNoCrash(run: BoundedRun, c: HostileCase): void {
  expect({ case: c.name, signal: run.signal, crash: CRASH.test(run.stderr) ? run.stderr.slice(0, 2000) : undefined })
    .toEqual({ case: c.name, signal: null, crash: undefined });
  expect(run.ms).toBeLessThan(c.maxMs ?? DEFAULT_MAX_MS);
}

function expectOutcome(run: BoundedRun, c: HostileCase): void {
  const allowed = Array.isArray(c.exit) ? c.exit : [c.exit];
  expect({ case: c.name, status: allowed.includes(run.status as Exit) ? 'as decided' : run.status, stderr: run.stderr.slice(0, 500) })
    .toMatchObject({ case: c.name, status: 'as decided' });
  if (run.status === 2) {
    // No partial report: stdout stays empty, the one message names the file.
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^cdk8s-linkerd: /);
    if (c.message) expect(run.stderr).toMatch(c.message);
  } else {
    const report = JSON.parse(run.stdout);
    expect(report.summary).toEqual({ errors: expect.any(Number), warnings: expect.any(Number) });
    expect(run.stderr).toBe('');
  }
}

describe('hostile input to the CLI: bounded, no crash, the decided exit code', () => {
  let root: string;
  beforeAll(() => {
    assertBuilt();
    root = tempDir('hostile');
  });
  afterAll(() => {
    // chmod 000 files must be writable again before they can be removed by a non-root user.
    for (const f of fs.readdirSync(root, { recursive: true }) as string[]) {
      try { fs.chmodSync(path.join(root, f), 0o700); } catch { /* dangling links */ }
    }
    removeDir(root);
  });

  test.each(CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const dir = path.join(root, c.name.replace(/[^a-z0-9]+/gi, '-'));
    fs.mkdirSync(dir, { recursive: true });
    const paths = c.setup(dir);
    const run = runCliBounded(['analyze', '--format', 'json', ...(c.extraArgs ?? []), ...paths], { cwd: dir, maxOldSpaceMb: 512, timeoutMs: (c.maxMs ?? DEFAULT_MAX_MS) + 10_000 });
    expectNoCrash(run, c);
    expectOutcome(run, c);
  }, 200_000);

  test('the decisions are documented for every case', () => {
    for (const c of CASES) expect(c.decision.length).toBeGreaterThan(10);
  });
});

/** Wrong types at many places of valid objects: without --crds nothing crashes; with --crds each is a schema finding. */
const WRONG_TYPES: [kind: string, field: string, value: unknown][] = [
  ['HTTPRoute', 'spec', 7],
  ['HTTPRoute', 'spec.parentRefs', 'x'],
  ['HTTPRoute', 'spec.parentRefs.0', 'x'],
  ['HTTPRoute', 'spec.parentRefs.0.port', 'eighty'],
  ['HTTPRoute', 'spec.rules', { a: 1 }],
  ['HTTPRoute', 'spec.rules.0.backendRefs', 'x'],
  ['HTTPRoute', 'spec.rules.0.backendRefs.0.weight', '90'],
  ['HTTPRoute', 'metadata', []],
  ['HTTPRoute', 'metadata.annotations', 'x'],
  ['Server', 'spec.podSelector', 'x'],
  ['Server', 'spec.port', [8080]],
  ['Server', 'spec.podSelector.matchLabels', ['x']],
  ['AuthorizationPolicy', 'spec.targetRef', 'x'],
  ['AuthorizationPolicy', 'spec.requiredAuthenticationRefs', { kind: 'x' }],
  ['MeshTLSAuthentication', 'spec.identityRefs', 7],
  ['Service', 'spec', 7],
  ['Service', 'spec.selector', 'x'],
  ['Service', 'spec.ports', '8080'],
  ['Deployment', 'spec.template', 'x'],
  ['Deployment', 'spec.template.spec.containers', 7],
  ['Deployment', 'spec.template.metadata.labels', [1]],
  ['Namespace', 'metadata.annotations', [1, 2]],
];

function setPath(obj: any, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let at = obj;
  for (const k of keys.slice(0, -1)) at = at[k];
  at[keys[keys.length - 1]] = value;
}

function wrongTypeDocuments(): { text: string; lines: number[] } {
  const base = meshLabObjects();
  const docs: string[] = [];
  const lines: number[] = [];
  let line = 1;
  WRONG_TYPES.forEach(([kind, field, value], i) => {
    const obj = JSON.parse(JSON.stringify(base.find((o) => o.kind === kind)));
    obj.metadata.name = `wrong-${i}`;
    setPath(obj, field, value);
    const text = yaml.dump(obj, { noRefs: true, lineWidth: -1 });
    lines.push(line);
    line += text.split('\n').length - 1 + 1;
    docs.push(text);
  });
  return { text: docs.join('---\n'), lines };
}

describeWithShared('wrong types everywhere', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = tempDir('wrong-types');
  });
  afterAll(() => removeDir(dir));

  test('without --crds: no crash, a complete report (exit 0 or 1: the engine reads what it can)', () => {
    writeText(dir, 'wrong.yaml', wrongTypeDocuments().text);
    const run = runCliBounded(['analyze', '--format', 'json', 'wrong.yaml'], { cwd: dir });
    expect(CRASH.test(run.stderr)).toBe(false);
    expect([0, 1]).toContain(run.status);
    expect(JSON.parse(run.stdout).summary).toBeDefined();
  });

  test('with --crds: exit 1 and an LKD-SCHEMA-001 finding on every wrong document, at its line', () => {
    const { text, lines } = wrongTypeDocuments();
    writeText(dir, 'wrong.yaml', text);
    const run = runCliBounded(['analyze', '--format', 'json', '--crds', LINKERD_CRDS, '--crds', GATEWAY_API_CRDS, 'wrong.yaml'], { cwd: dir });
    expect(CRASH.test(run.stderr)).toBe(false);
    expect(run.status).toBe(1);
    const schemaLines = new Set(JSON.parse(run.stdout).findings.filter((f: any) => f.ruleId === 'LKD-SCHEMA-001').map((f: any) => f.line));
    const missed = WRONG_TYPES.filter((_, i) => !schemaLines.has(lines[i])).map(([kind, field, value]) => `${kind} ${field}=${JSON.stringify(value)}`);
    expect(missed).toEqual([]);
  });
});

/**
 * The same idea exhaustively, in process (what the CLI runs after parsing): every field of every mesh-lab object (plus
 * a ConfigMap and a Secret) replaced by each wrong-typed value, analysed and rendered in all four formats. Rules must
 * never throw on input (src/analysis/rule.ts); one exception here is a crash of the CLI on some user's YAML.
 */
const WRONG_VALUES: unknown[] = [7, 'x', [], {}, null, true, [7], ['x'], [null], [[]], { a: 'x' }];

function fieldPaths(value: unknown, prefix: (string | number)[], out: (string | number)[][]): void {
  if (prefix.length > 0) out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => fieldPaths(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) fieldPaths(v, [...prefix, k], out);
}

function typeFuzzBase(): any[] {
  return [
    ...meshLabObjects(),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'mesh-lab' }, data: { mode: 'fast', password: 'x' } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'mesh-lab' }, type: 'Opaque', data: { token: 'eA==' } },
  ];
}

function renderAll(objects: any[]): void {
  const result = analyze(objects.map((object) => ({ object })));
  formatJson(result.findings);
  formatText(result.findings, result.suppressed);
  formatSarif(result.findings, { rules: [], toolVersion: '0.0.0', informationUri: 'https://example.invalid', suppressed: result.suppressed });
  formatMermaid(result);
}

describe('wrong types at every field, in process', () => {
  test('no rule or report throws on any variant', () => {
    const base = typeFuzzBase();
    const crashes = new Map<string, string>();
    let variants = 0;
    base.forEach((obj, o) => {
      const paths: (string | number)[][] = [];
      fieldPaths(obj, [], paths);
      for (const p of paths) {
        for (const wrong of WRONG_VALUES) {
          const copy = JSON.parse(JSON.stringify(base));
          let at = copy[o];
          for (const k of p.slice(0, -1)) at = at[k];
          at[p[p.length - 1]] = JSON.parse(JSON.stringify(wrong));
          variants++;
          try {
            renderAll(copy);
          } catch (e) {
            const frame = ((e as Error).stack ?? '').split('\n')[1]?.trim() ?? '';
            if (!crashes.has(frame)) crashes.set(frame, `${obj.kind} ${p.join('.')} = ${JSON.stringify(wrong)}: ${(e as Error).message} ${frame}`);
          }
        }
      }
    });
    expect(variants).toBeGreaterThan(3000);
    expect([...crashes.values()]).toEqual([]);
  }, 120_000);
});
