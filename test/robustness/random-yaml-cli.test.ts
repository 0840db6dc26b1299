/**
 * Random and hostile YAML fed to the compiled CLI: whatever the text, the CLI ends with 0 or 1 (a report) or 2 (one
 * coded input error naming the file), never an internal error or a stack trace. The cases are generated with a fixed
 * seed and a bounded count, so a failure replays and the suite stays quick; the two reproductions that once crashed
 * (a Linkerd duration whose unit is an Object.prototype property, an anchor used inside its own node) are pinned.
 */
import * as fc from 'fast-check';
import * as yaml from 'js-yaml';
import { runCliBounded } from './cli-process';
import { internalErrorText } from '../../src/frontends/cli/main';
import { assertBuilt, removeDir, tempDir, writeText } from '../frontends/cli-harness';

const CRASH = /internal error|\n\s+at |heap out of memory|FATAL ERROR|Maximum call stack|TypeError|RangeError/i;
const CODED = /LKD-[A-Z]+-\d{3}: .*input\.yaml/;

/** Strings that are dangerous as keys, durations, names or paths. */
const HOSTILE_TEXT = [
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '5constructor', '5__proto__', '5toString', '1_0', '+.2',
  '0x1F', '1:30', '~', 'null', '', ' ', '\u200b\u200b\u200b', '\u001b[2J', 'a\rb', '\u202eevil', '*', '&', '{}', '[]', '"', 'é',
  'LKD-ROUTE-001', '[{"ruleId":"LKD-ROUTE-001","reason":"\u200b\u200b\u200b"}]', 'x'.repeat(300),
];

const ANNOTATION_KEYS = [
  'timeout.linkerd.io/request', 'timeout.linkerd.io/response', 'retry.linkerd.io/http', 'retry.linkerd.io/limit', 'retry.linkerd.io/timeout',
  'config.linkerd.io/opaque-ports', 'config.linkerd.io/proxy-await', 'linkerd.io/inject', 'config.linkerd.io/default-inbound-policy',
  'analysis.cdk8s-linkerd.io/suppress', 'ignore-check.cdk8s-linkerd.io/LKD-ROUTE-001', '__proto__', 'constructor',
];

const KINDS: Array<[string, string]> = [
  ['v1', 'Service'], ['v1', 'Pod'], ['apps/v1', 'Deployment'], ['v1', 'ConfigMap'], ['v1', 'Secret'], ['gateway.networking.k8s.io/v1', 'HTTPRoute'],
  ['policy.linkerd.io/v1beta3', 'Server'], ['policy.linkerd.io/v1alpha1', 'AuthorizationPolicy'], ['argoproj.io/v1alpha1', 'Application'],
  ['helm.toolkit.fluxcd.io/v2', 'HelmRelease'], ['v1', 'List'], ['v1', '__proto__'],
];

const text = fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.string({ maxLength: 12 }));

/** Any JSON-like value, hostile strings at the leaves and as keys. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ maxDepth: 3 },
    text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(text, tie('node'), { maxKeys: 3 })),
})).node;

/** A Kubernetes-shaped object with hostile names, annotations, labels and a random spec. */
const object = fc.record({
  kind: fc.constantFrom(...KINDS),
  name: text,
  namespace: fc.option(text, { nil: undefined }),
  annotations: fc.dictionary(fc.oneof(fc.constantFrom(...ANNOTATION_KEYS), text), text, { maxKeys: 4 }),
  labels: fc.dictionary(text, text, { maxKeys: 2 }),
  spec: value,
}).map((o) => ({
  apiVersion: o.kind[0],
  kind: o.kind[1],
  metadata: { name: o.name, ...(o.namespace !== undefined ? { namespace: o.namespace } : {}), annotations: o.annotations, labels: o.labels },
  spec: o.spec,
  ...(o.kind[1] === 'List' ? { items: [o.spec] } : {}),
}));

/** YAML-ish text built from the tokens that confuse readers: anchors, aliases, flow, block, tags, tabs. */
const TOKENS = ['a', 'b:', ' ', '  ', '- ', ': ', '\n', '\t', '&x ', '*x', '{', '}', '[', ']', ',', '"', "'", '!!str ', '!!binary ', '<<: ', '---\n', '#', '|\n', '? '];
const rawText = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: raw\ndata:\n  ${t.join('')}\n`);

const document = fc.oneof(
  fc.array(object, { minLength: 1, maxLength: 3 }).map((objects) => objects.map((o) => yaml.dump(o, { noRefs: true, lineWidth: -1 })).join('---\n')),
  rawText,
);

function runOn(dir: string, input: string): { status: number | null; stderr: string; stdout: string } {
  writeText(dir, 'input.yaml', input);
  return runCliBounded(['analyze', 'input.yaml'], { cwd: dir, timeoutMs: 30_000 });
}

function verdict(run: { status: number | null; stderr: string }): string {
  if (CRASH.test(run.stderr)) return `crash: ${run.stderr.slice(0, 800)}`;
  if (run.status === null || ![0, 1, 2].includes(run.status)) return `exit ${run.status}`;
  if (run.status === 2 && !CODED.test(run.stderr)) return `exit 2 without a coded message naming the file: ${run.stderr.slice(0, 400)}`;
  return 'ok';
}

describe('the CLI on random and hostile YAML', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = tempDir('random-yaml');
  });
  afterAll(() => removeDir(dir));

  test.each(['5constructor', '5__proto__', '5toString'])('timeout.linkerd.io/request: %s is a finding, not an internal error', (duration) => {
    const run = runOn(dir, `apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  namespace: a\n  annotations:\n    timeout.linkerd.io/request: ${duration}\n`
      + 'spec:\n  ports:\n  - port: 80\n');
    expect(verdict(run)).toBe('ok');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`has unit "${duration.slice(1)}"`);
  });

  test.each([
    ['block', 'data: &a\n  x: *a\n'],
    ['flow', 'data: &a {x: *a}\n'],
    ['in a list', 'metadata2: &m\n  - *m\n'],
  ])('an anchor used inside its own node (%s) is a coded input error with the file and line, exit 2', (_name, body) => {
    const run = runOn(dir, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n${body}`);
    expect(verdict(run)).toBe('ok');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/LKD-INPUT-007: input\.yaml:1: a YAML alias is used inside the node of its own anchor/);
  });

  test('random documents: exit 0, 1 or 2 only, and 2 only with a coded message naming the file', () => {
    fc.assert(fc.property(document, (input) => {
      expect({ input, verdict: verdict(runOn(dir, input)) }).toEqual({ input, verdict: 'ok' });
    }), { seed: Number(process.env.FUZZ_SEED ?? 20_261_204), numRuns: Number(process.env.RANDOM_YAML_RUNS ?? 30) });
  }, 300_000);
});

test('a bug is reported in one line without a stack trace, which CDK8S_LINKERD_DEBUG=1 adds', () => {
  const bug = new TypeError('x is not a function');
  const plain: string = internalErrorText(bug, false);
  expect(plain).toMatch(/^cdk8s-linkerd: internal error: x is not a function\. This is a bug in cdk8s-linkerd, not in the input/);
  expect(plain).not.toMatch(/\n\s+at /);
  expect(internalErrorText(bug, true)).toMatch(/\n\s+at /);
});
