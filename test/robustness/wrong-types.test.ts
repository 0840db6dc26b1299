/**
 * Values of the wrong type inside manifests that are otherwise real: a number or a boolean where Kubernetes wants a
 * string (an unquoted `version: 2` label, `prometheus.io/scrape: true`), a map where a list belongs, a list where a map
 * belongs, null. Every command over manifests (analyze, for one cluster and for a fleet, explain, diff, plan-deny,
 * import) must end in a report or a refusal with a message, never in an internal error. The inputs are
 * ../shared/realworld (read in place) and mesh-lab; the cases are drawn with a fixed seed (FUZZ_SEED and
 * WRONG_TYPES_RUNS override it locally). The crashes this found are pinned in test/analysis/rules/schema-rules.test.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import * as yaml from 'js-yaml';
import { meshLabObjects } from './mutation-corpus';
import { main } from '../../src/frontends/cli/main';
import { removeDir, tempDir, writeText } from '../frontends/cli-harness';
import { describeWithShared, sharedPath } from '../support/shared';

/** Values of every JSON type, each of which is the wrong type somewhere. */
const VALUES: unknown[] = [0, 2, -1, 1.5, 65_536, true, false, null, [], {}, ['x'], [1], { a: 1 }, { a: 'true' }, 'x', '', '1'];

/** Keys the engine reads as labels or annotations: the wrong type under them is the common user mistake. */
const METADATA_KEYS = [
  'linkerd.io/inject', 'config.linkerd.io/proxy-version', 'config.linkerd.io/default-inbound-policy', 'config.linkerd.io/opaque-ports',
  'config.linkerd.io/skip-inbound-ports', 'config.linkerd.io/proxy-enable-native-sidecar', 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds',
  'retry.linkerd.io/http', 'retry.linkerd.io/limit', 'timeout.linkerd.io/request', 'balancer.linkerd.io/failure-accrual',
  'analysis.cdk8s-linkerd.io/calls', 'analysis.cdk8s-linkerd.io/suppress', 'app', 'version', 'linkerd.io/control-plane-ns',
  'pod-security.kubernetes.io/enforce', 'topology.kubernetes.io/zone', 'mirror.linkerd.io/exported',
];

interface Corpus {
  readonly name: string;
  readonly objects: any[];
}

function realworld(): Corpus[] {
  const dir = sharedPath('realworld');
  return fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().map((f) => ({
    name: f, objects: yaml.loadAll(fs.readFileSync(path.join(dir, f), 'utf8')).filter((o) => o !== null && o !== undefined),
  }));
}

/** Every path in an object (object keys and list indexes), the object itself excepted. */
function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (prefix.length > 0) out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (value !== null && typeof value === 'object') for (const key of Object.keys(value)) pathsOf((value as any)[key], [...prefix, key], out);
  return out;
}

/**
 * One change: a value replaced at a path (any path, or one inside a selector, where the engine interprets most), or a
 * label or annotation (of the object or its pod template) set to a value.
 */
interface Change {
  readonly object: number;
  readonly target: 'path' | 'selector' | 'annotation' | 'label';
  readonly pick: number;
  readonly value: number;
}

const change: fc.Arbitrary<Change> = fc.record({
  object: fc.nat(), target: fc.constantFrom<Change['target']>('path', 'selector', 'annotation', 'label'), pick: fc.nat(), value: fc.nat(),
});

function setAt(root: any, at: (string | number)[], value: unknown): void {
  let node = root;
  for (const part of at.slice(0, -1)) node = node[part];
  node[at[at.length - 1]] = value;
}

/** The map of labels or annotations a change writes into: the pod template's when there is one, half of the time. */
function metadataMap(obj: any, field: string, templateFirst: boolean): Record<string, unknown> {
  const template = obj.spec?.template;
  const holder = templateFirst && template && typeof template === 'object' ? template : obj;
  if (!holder.metadata || typeof holder.metadata !== 'object' || Array.isArray(holder.metadata)) holder.metadata = {};
  const map = holder.metadata[field];
  if (map && typeof map === 'object' && !Array.isArray(map)) return map;
  return holder.metadata[field] = {};
}

/** Applies a change to a copy; says what it did, for the failure message. */
function apply(objects: any[], c: Change): string {
  const obj = objects[c.object % objects.length];
  const value = structuredClone(VALUES[c.value % VALUES.length]);
  if (c.target === 'path' || c.target === 'selector') {
    // apiVersion and kind decide what the object is; the loader already refuses them of the wrong type.
    let paths = pathsOf(obj).filter((p) => !(p.length === 1 && (p[0] === 'apiVersion' || p[0] === 'kind')));
    if (c.target === 'selector') paths = paths.filter((p) => p.some((part) => /selector|^match/i.test(String(part))));
    if (paths.length === 0) return 'nothing';
    const at = paths[c.pick % paths.length];
    setAt(obj, at, value);
    return `${obj.kind} ${at.join('.')} = ${JSON.stringify(value)}`;
  }
  const key = METADATA_KEYS[c.pick % METADATA_KEYS.length];
  const field = c.target === 'label' ? 'labels' : 'annotations';
  metadataMap(obj, field, c.pick % 2 === 0)[key] = value;
  return `${obj.kind} ${field} ${key} = ${JSON.stringify(value)}`;
}

/** The commands the engine answers, with targets taken from the input (a Service port, a workload, a namespace). */
function commands(objects: any[]): string[][] {
  const out = [
    ['analyze', 'head.yaml'], ['analyze', '--cluster', 'east=head.yaml', '--cluster', 'west=base.yaml'], ['diff', 'base.yaml', 'head.yaml'],
    ['diff', 'head.yaml', 'base.yaml'], ['plan-deny', 'head.yaml', '--cluster'], ['import', 'head.yaml'],
  ];
  const text = (v: unknown): v is string => typeof v === 'string' && v !== '';
  const service = objects.find((o) => o?.kind === 'Service' && text(o.metadata?.namespace) && text(o.metadata?.name) && Number.isInteger(o.spec?.ports?.[0]?.port));
  if (service) out.push(['explain', 'head.yaml', '--to-service', `${service.metadata.namespace}/${service.metadata.name}:${service.spec.ports[0].port}`]);
  const workload = objects.find((o) => o?.kind === 'Deployment' && text(o.metadata?.namespace) && text(o.metadata?.name));
  if (workload) {
    const port = workload.spec?.template?.spec?.containers?.[0]?.ports?.[0]?.containerPort;
    out.push(['explain', 'head.yaml', '--to', `${workload.metadata.namespace}/${workload.metadata.name}:${Number.isInteger(port) ? port : 80}`]);
    out.push(['plan-deny', 'head.yaml', '--namespace', workload.metadata.namespace]);
  }
  return out;
}

const dump = (objects: any[]): string => objects.map((o) => yaml.dump(o, { noRefs: true, lineWidth: -1 })).join('---\n');

/** Runs one command in this process; returns what it printed on stderr when that is a crash, else undefined. */
function crash(dir: string, argv: string[]): string | undefined {
  const err: string[] = [];
  const code = main(argv, { cwd: dir, stdout: () => undefined, stderr: (s: string) => err.push(s) });
  const text = err.join('');
  if (/internal error|TypeError|RangeError/.test(text)) return text;
  // 2 is a refusal: it must carry a code (LKD-INPUT-... or a usage line), never be silent.
  if (code === 2 && text.trim() === '') return 'exit 2 without a message';
  return undefined;
}

describeWithShared('values of the wrong type in real manifests', () => {
  let dir: string;
  const corpora: Corpus[] = [];
  beforeAll(() => {
    dir = tempDir('wrong-types');
    corpora.push(...realworld(), { name: 'mesh-lab', objects: meshLabObjects() });
  });
  afterAll(() => removeDir(dir));

  test('every command answers or refuses with a message; none ends in an internal error', () => {
    expect(corpora.length).toBeGreaterThan(10);
    let commandsRun = 0;
    fc.assert(fc.property(fc.nat(), fc.array(change, { minLength: 1, maxLength: 3 }), (which, changes) => {
      const corpus = corpora[which % corpora.length];
      const head = structuredClone(corpus.objects);
      const done = changes.map((c) => apply(head, c));
      writeText(dir, 'base.yaml', dump(corpus.objects));
      writeText(dir, 'head.yaml', dump(head));
      for (const argv of commands(head)) {
        commandsRun++;
        const failure = crash(dir, argv);
        if (failure) throw new Error(`${corpus.name}: ${done.join('; ')}\n  ${argv.join(' ')}: ${failure.slice(0, 600)}`);
      }
    }), { seed: Number(process.env.FUZZ_SEED ?? 20_261_205), numRuns: Number(process.env.WRONG_TYPES_RUNS ?? 300) });
    // Each case runs both analyses, both diffs, plan-deny and import at least: the property really exercised the commands.
    expect(commandsRun).toBeGreaterThanOrEqual(6 * Number(process.env.WRONG_TYPES_RUNS ?? 300));
  }, 240_000);
});
