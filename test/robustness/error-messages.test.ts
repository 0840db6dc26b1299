/**
 * Errors people can act on. Every coded error the mesh constructs throw (one scenario per `check(` call site, found
 * by scanning the source) and one finding of every engine rule (mutation corpus + rule-triggers.ts, read from YAML
 * like the CLI does) must name where (construct path, or file and line), the rule ID and a fix. All of them are
 * written into docs/error-messages.md for review: `UPDATE_ERROR_DOCS=1 npx jest test/robustness/error-messages.test.ts`
 * regenerates it; otherwise the test fails when the committed file is stale.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { Env, SCENARIOS, Scenario, environment } from './construct-error-scenarios';
import { MUTATIONS, meshLabObjects, mutate } from './mutation-corpus';
import { RULE_TRIGGERS } from './rule-triggers';
import { AnalyzeOptions, analyze } from '../../src/analysis/engine';
import { Finding } from '../../src/analysis/finding';
import { analyzeFleet } from '../../src/analysis/fleet/index';
import { ALL_RULES, FLEET_RULES } from '../../src/analysis/rules';
import { schemaRule } from '../../src/analysis/rules/schema/crds';
import { IGNORE_CHECK_ANNOTATION_PREFIX, SUPPRESS_ANNOTATION } from '../../src/analysis/suppressions';
import { ConfigError, resolveConfig } from '../../src/config';
import { MeshConfigError } from '../../src/core/errors';
import { InputError } from '../../src/core/input-error';
import { loadManifests, parseManifests } from '../../src/frontends/cli/load-manifests';
import { readObserved } from '../../src/frontends/cli/plan-deny-command';
import { MulticlusterMode } from '../../src/multicluster/mode';
import { compareStrings } from '../../src/util/compare';
import { certs } from '../support/certs';
import { FleetFixture, fleetFixture, objectsOf } from '../support/fleet-fixture';

const REPO = path.resolve(__dirname, '..', '..');
const DOC = path.join(REPO, 'docs', 'error-messages.md');
/**
 * Where the mesh constructs live, plus the control plane's checks of its merged values and the delivery options;
 * the rest of the control-plane, delivery and cdktf constructs are reviewed by their own suites.
 */
const CONSTRUCT_SOURCES = ['src/core', 'src/policy', 'src/routing', 'src/workloads', 'src/checks/mesh-checks.ts', 'src/base.ts',
  'src/control-plane/install/merged-values.ts', 'src/control-plane/delivery/delivery.ts'];
const CODED = /^\[([^\]]+)\] (LKD-[A-Z]+-\d{3}): (.+?) Fix: (.+)$/s;

interface ConstructError {
  readonly scenario: string;
  readonly ruleId: string;
  readonly path: string;
  readonly problem: string;
  readonly fix: string;
  /** `src/…:line` of the check that threw, or "synth" for construct validations. */
  readonly site: string;
  readonly message: string;
}

// ---- construct errors -------------------------------------------------------------------------

/** Lines with `check(` (or a direct `new MeshConfigError(`) in the construct sources. */
function checkSites(): string[] {
  const files = CONSTRUCT_SOURCES.flatMap((p) => {
    const full = path.join(REPO, p);
    return fs.statSync(full).isDirectory() ? fs.readdirSync(full).filter((f) => f.endsWith('.ts')).map((f) => path.join(p, f)) : [p];
  });
  // versions.ts belongs to the control plane, whose errors test/control-plane/install-versions.test.ts triggers.
  return files.filter((f) => f !== 'src/core/errors.ts' && f !== 'src/core/versions.ts').flatMap((file) => fs.readFileSync(path.join(REPO, file), 'utf8').split('\n')
    .map((line, i) => ((/\bcheck\(/.test(line) && !/function check|check\(ctx\)|\.check\(/.test(line)) || /new MeshConfigError\(/.test(line) ? `${file}:${i + 1}` : undefined))
    .filter((s): s is string => s !== undefined));
}

/** The first stack frame outside core/errors.ts: the call site of check(). */
function siteOf(e: Error): string {
  for (const line of (((e as any).fullStack as string | undefined) ?? e.stack ?? '').split('\n').slice(1)) {
    const m = /\(?([^\s(]+):(\d+):\d+\)?$/.exec(line.trim());
    if (!m) continue;
    const rel = path.relative(REPO, m[1]);
    if (rel.startsWith('src/') && rel !== path.join('src', 'core', 'errors.ts')) return `${rel}:${m[2]}`;
  }
  return 'unknown';
}

function fromMeshConfigError(scenario: string, e: MeshConfigError): ConstructError {
  const m = CODED.exec(e.message);
  return { scenario, ruleId: e.ruleId, path: e.constructPath, problem: m?.[3] ?? '', fix: m?.[4] ?? '', site: siteOf(e), message: e.message };
}

/** cdk8s joins construct validation messages as `[path] message`; engine lines (path "[]") are the engine's part. */
function fromValidation(scenario: string, e: Error): ConstructError[] {
  return e.message.split('\n').slice(1).map((l) => l.trim()).filter((l) => /^\[[^\]]+\] LKD-/.test(l)).map((line) => {
    const [, p, message] = /^\[([^\]]+)\] (.*)$/s.exec(line)!;
    const m = /^(LKD-[A-Z]+-\d{3}): (.+?) Fix: (.+)$/s.exec(message);
    return { scenario, ruleId: m?.[1] ?? '', path: p, problem: m?.[2] ?? '', fix: m?.[3] ?? '', site: 'synth', message: line };
  });
}

function runScenario(s: Scenario): { errors: ConstructError[]; env: Env; thrown: unknown } {
  const env = environment();
  try {
    s.run(env);
    if (s.atSynth) env.chart.toJson();
  } catch (e) {
    if (e instanceof MeshConfigError) return { errors: [fromMeshConfigError(s.name, e)], env, thrown: e };
    if (e instanceof Error && e.message.startsWith('Validation failed')) return { errors: fromValidation(s.name, e), env, thrown: e };
    return { errors: [], env, thrown: e };
  }
  return { errors: [], env, thrown: undefined };
}

// ---- engine findings --------------------------------------------------------------------------

interface EngineExample {
  readonly trigger: string;
  readonly finding: Finding;
}

/** Analyses objects the way the CLI does: written as YAML, read back with file and line. */
function findingsFromYaml(objects: any[], file: string, options: AnalyzeOptions = {}): Finding[] {
  const text = objects.map((o) => yaml.dump(o, { noRefs: true, lineWidth: -1 })).join('---\n');
  return analyze(parseManifests(text, file), options).findings;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** One example per rule: a trigger's finding of its own rule first; rules no trigger names take any finding. */
function engineExamples(): Map<string, EngineExample> {
  const runs: { trigger: string; preferred: string; findings: Finding[] }[] = [];
  const base = meshLabObjects();
  for (const m of MUTATIONS) {
    runs.push({
      trigger: `mesh-lab, mutation "${m.kind}: ${m.instance}"`,
      preferred: m.expected.ruleId,
      findings: findingsFromYaml(mutate(base, m), `review/${slug(m.kind)}.yaml`),
    });
  }
  for (const t of RULE_TRIGGERS) {
    const file = `review/${t.ruleId.toLowerCase()}.yaml`;
    const findings = t.text ? analyze(parseManifests(t.text(), file), t.options).findings : findingsFromYaml(t.objects(), file, t.options);
    runs.push({ trigger: `rule-triggers.ts (${t.ruleId})`, preferred: t.ruleId, findings });
  }
  const examples = new Map<string, EngineExample>();
  for (const run of runs) {
    const own = run.findings.find((f) => f.ruleId === run.preferred);
    if (own && !examples.has(own.ruleId)) examples.set(own.ruleId, { trigger: run.trigger, finding: own });
  }
  for (const run of runs) {
    for (const finding of run.findings) if (!examples.has(finding.ruleId)) examples.set(finding.ruleId, { trigger: run.trigger, finding });
  }
  return examples;
}

// ---- CLI refusals (exit 2) -------------------------------------------------------------------

interface Refusal {
  readonly input: string;
  readonly message: string;
}

/** A ConfigMap whose data nests `depth` block mappings. */
function deepBlockYaml(depth: number): string {
  const levels = Array.from({ length: depth }, (_, i) => `${'  '.repeat(i + 1)}k:`);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n${levels.join('\n')} x\n`;
}

/** Input the CLI cannot use: each case is read in-process the way `analyze` reads it, and must throw an InputError. */
interface RefusalCase {
  input: string;
  files: Record<string, string | Buffer>;
  paths?: string[];
  crds?: string[];
  observed?: string[];
  /** Read the folder's .cdk8s-linkerd.yaml as every front-end does. */
  config?: boolean;
}

const REFUSALS: RefusalCase[] = [
  { input: 'a UTF-16 file', files: { 'win.yaml': Buffer.from('\uFEFFapiVersion: v1\nkind: ConfigMap\n', 'utf16le') } },
  { input: 'a Latin-1 file', files: { 'latin1.yaml': Buffer.from('apiVersion: v1\nkind: ConfigMap\ndata: {a: caf\xe9}\n', 'latin1') } },
  { input: 'an empty PATH (analyze \'\')', files: {}, paths: [''] },
  { input: 'a folder without manifests', files: { 'docs/readme.txt': 'x' }, paths: ['docs'] },
  { input: 'a v1 List without items', files: { 'list.yaml': 'apiVersion: v1\nkind: List\n' } },
  { input: 'a typed List whose items is not a list', files: { 'list.yaml': 'apiVersion: policy.linkerd.io/v1beta3\nkind: ServerList\nitems: {a: 1}\n' } },
  { input: 'YAML nested deeper than js-yaml reads (block style, as flow style)', files: { 'deep.yaml': deepBlockYaml(120) } },
  { input: 'a YAML alias used inside the node of its own anchor', files: { 'self.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: &a\n  x: *a\n' } },
  { input: 'a List item that is not an object', files: { 'list.yaml': 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items: [42]\n' } },
  { input: '--crds naming a folder without CRDs', files: { 'crds/readme.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' }, paths: [], crds: ['crds'] },
  { input: 'plan-deny --observed JSON that is not a list of viz edges', files: { 'edges.json': '{"a": 1}' }, observed: ['edges.json'] },
  { input: 'plan-deny --observed Prometheus text without the proxies\' authorization counters', files: { 'metrics.txt': 'process_cpu_seconds_total 12\n' }, observed: ['metrics.txt'] },
  { input: 'plan-deny --observed proxy metrics with a broken sample', files: { 'metrics.txt': 'inbound_http_authz_allow_total{tls="true" 3\n' }, observed: ['metrics.txt'] },
  { input: '.cdk8s-linkerd.yaml with an unknown key', files: { '.cdk8s-linkerd.yaml': 'rule:\n  LKD-POL-011: "off"\n' }, config: true },
  { input: '.cdk8s-linkerd.yaml naming an unknown rule', files: { '.cdk8s-linkerd.yaml': 'rules:\n  LKD-POL-999: "off"\n' }, config: true },
  { input: '.cdk8s-linkerd.yaml with a bad cluster option', files: { '.cdk8s-linkerd.yaml': 'cluster-networks: [10.0.0.0/33]\n' }, config: true },
];

function refusals(): Refusal[] {
  return REFUSALS.map((c) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-linkerd-refusal-'));
    try {
      for (const [name, content] of Object.entries(c.files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), content);
      }
      try {
        if (c.crds) schemaRule(c.crds.map((d) => path.join(dir, d)));
        if (c.config) resolveConfig(dir);
        else if (c.observed) readObserved(c.observed, dir);
        else loadManifests(c.paths ?? Object.keys(c.files), dir);
      } catch (e) {
        if (e instanceof InputError || e instanceof ConfigError) return { input: c.input, message: e.message.split(dir).join('<dir>') };
        throw e;
      }
      return { input: c.input, message: '(not refused)' };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

function refusalSection(list: Refusal[]): string[] {
  return list.flatMap((r) => [`- ${r.input}`, `  > cdk8s-linkerd: error: ${r.message}`]);
}

/** A fleet written as one YAML file per cluster and read back, so fleet findings carry file and line too. */
function fleetFindingsFromYaml(name: string, clusters: Array<{ cluster: string; objects: any[] }>): Finding[] {
  return analyzeFleet(clusters.map(({ cluster, objects }) => {
    const text = objects.map((o) => yaml.dump(o, { noRefs: true, lineWidth: -1 })).join('---\n');
    return { name: cluster, manifests: parseManifests(text, `review/${name}-${cluster}.yaml`) };
  })).findings;
}

/**
 * Objects carrying certificates (the Applications' chart values) go last: a PEM's line count varies with its DER
 * length, and the line numbers in the review must not.
 */
function clustersOf(f: FleetFixture): Array<{ cluster: string; objects: any[] }> {
  const pemLast = (objects: any[]) => [...objects.filter((o) => o.kind !== 'Application'), ...objects.filter((o) => o.kind === 'Application')];
  return [f.east, f.west].map((c) => ({ cluster: c.clusterName, objects: pemLast(objectsOf(c)) }));
}

/** One example per fleet rule, from fleets built with the constructs (test/support/fleet-fixture.ts). */
function fleetExamples(): Map<string, EngineExample> {
  const eastIdentity = (east: any) => east.identityOf('client', 'shop');
  const flat = fleetFixture({ mode: MulticlusterMode.FLAT_NETWORK, allowed: eastIdentity });
  const otherAnchor = fleetFixture({
    mode: MulticlusterMode.FLAT_NETWORK, allowed: eastIdentity, anchor: certs.newRoot, westIssuer: certs.newIssuer,
  });
  const runs: Array<{ trigger: string; findings: Finding[] }> = [
    { trigger: 'fleet-fixture.ts, west on another anchor', findings: fleetFindingsFromYaml('anchors', [clustersOf(flat)[0], clustersOf(otherAnchor)[1]]) },
    {
      trigger: 'fleet-fixture.ts, one issuer in both clusters',
      findings: fleetFindingsFromYaml('issuer', clustersOf(fleetFixture({ mode: MulticlusterMode.FLAT_NETWORK, allowed: eastIdentity, westIssuer: certs.issuer }))),
    },
    { trigger: 'fleet-fixture.ts, gateway mode, west admits east\'s client', findings: fleetFindingsFromYaml('gateway', clustersOf(fleetFixture({ mode: MulticlusterMode.GATEWAY, allowed: eastIdentity }))) },
    {
      trigger: 'fleet-fixture.ts, export label "yes"',
      findings: fleetFindingsFromYaml('label', clustersOf(fleetFixture({ mode: MulticlusterMode.FLAT_NETWORK, allowed: eastIdentity, exportLabel: 'yes' }))),
    },
  ];
  const examples = new Map<string, EngineExample>();
  for (const run of runs) {
    for (const finding of run.findings) {
      if (finding.ruleId.startsWith('LKD-MC-') && finding.severity !== 'info' && !examples.has(finding.ruleId)) examples.set(finding.ruleId, { trigger: run.trigger, finding });
    }
  }
  return examples;
}

// ---- suppression findings (LKD-META-001) -----------------------------------------------------

/** Every kind of suppression the engine refuses or does not apply, on a route LKD-ROUTE-001 fires on. */
const SUPPRESSION_CASES: Array<{ input: string; annotations: Record<string, string>; options?: AnalyzeOptions; copy?: boolean }> = [
  { input: 'a suppress annotation that is not JSON', annotations: { [SUPPRESS_ANNOTATION]: '[{ruleId: LKD-ROUTE-001}' } },
  { input: 'a suppress annotation that is not a list', annotations: { [SUPPRESS_ANNOTATION]: '{"ruleId": "LKD-ROUTE-001"}' } },
  { input: 'an entry without a rule ID', annotations: { [SUPPRESS_ANNOTATION]: '[{"rule": "ROUTE-001", "reason": "intended"}]' } },
  { input: 'an entry without a reason', annotations: { [SUPPRESS_ANNOTATION]: '[{"ruleId": "LKD-ROUTE-001"}]' } },
  { input: 'a reason of three zero-width spaces', annotations: { [`${IGNORE_CHECK_ANNOTATION_PREFIX}LKD-ROUTE-001`]: '\u200b\u200b\u200b' } },
  { input: 'an ignore-check key that does not end in a rule ID', annotations: { [`${IGNORE_CHECK_ANNOTATION_PREFIX}route-001`]: 'intended' } },
  { input: 'a copy suppressing LKD-MESH-009', annotations: { [`${IGNORE_CHECK_ANNOTATION_PREFIX}LKD-MESH-009`]: 'this copy wins' }, copy: true },
  {
    input: 'a suppression of a rule made unsuppressible (--unsuppressible LKD-ROUTE-001)',
    annotations: { [`${IGNORE_CHECK_ANNOTATION_PREFIX}LKD-ROUTE-001`]: 'routed by the ingress' },
    options: { unsuppressible: ['LKD-ROUTE-001'] },
  },
];

function suppressionFindings(): Array<{ input: string; finding: Finding }> {
  return SUPPRESSION_CASES.flatMap((c) => {
    const routeWith = (annotations: Record<string, string>, hostnames?: string[]) => ({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'web', namespace: 'review', annotations },
      spec: { parentRefs: [{ kind: 'Service', name: 'web', port: 80 }], ...(hostnames ? { hostnames } : {}) },
    });
    const objects = c.copy ? [routeWith({}), routeWith(c.annotations, ['copy.example'])] : [routeWith(c.annotations)];
    const text = objects.map((o) => yaml.dump(o, { noRefs: true, lineWidth: -1 })).join('---\n');
    const findings = analyze(parseManifests(text, 'review/suppressions.yaml'), c.options).findings.filter((f) => f.ruleId === 'LKD-META-001');
    return findings.map((finding) => ({ input: c.input, finding }));
  });
}

function suppressionSection(list: Array<{ input: string; finding: Finding }>): string[] {
  return list.flatMap(({ input, finding: f }) => [
    `- ${input} (${f.severity}, at \`${f.file}:${f.line}\`)`, `  > ${f.message} Fix: ${f.fix}`,
  ]);
}

// ---- the review file --------------------------------------------------------------------------

/** Messages must not change between runs: certificate fingerprints and serials (from keys made at run time) are masked. */
function stable(text: string): string {
  return text.replace(/\b[0-9A-F]{2}(:[0-9A-F]{2}){7,}\b/g, '<fingerprint>').replace(/\b[0-9a-f]{32,}\b/gi, '<hex>');
}

function constructSection(errors: ConstructError[]): string[] {
  const file = (e: ConstructError) => e.site.replace(/:\d+$/, '');
  const sorted = [...errors].sort((a, b) => compareStrings(a.ruleId, b.ruleId) || compareStrings(file(a), file(b))
    || compareStrings(a.scenario, b.scenario));
  const lines: string[] = [];
  let rule = '';
  for (const e of sorted) {
    if (e.ruleId !== rule) lines.push('', `### ${(rule = e.ruleId)}`, '');
    // The file, not the line: an unrelated edit above a check must not make the review stale.
    lines.push(`- ${e.scenario} (\`${e.site.replace(/:\d+$/, '')}\`)`, `  > ${stable(e.message).replace(/\n/g, ' ')}`);
  }
  return lines;
}

function engineSection(examples: Map<string, EngineExample>): string[] {
  return [...examples.entries()].sort(([a], [b]) => compareStrings(a, b)).flatMap(([id, { trigger, finding: f }]) => [
    '', `### ${id} (${f.severity})`, '',
    `- on: \`${f.resource.kind} ${f.resource.namespace ? `${f.resource.namespace}/` : ''}${f.resource.name}\` at \`${f.file}:${f.line}\`${f.cluster !== undefined ? ` (cluster ${f.cluster})` : ''}`,
    `- trigger: ${trigger}`,
    `- message: ${stable(f.message)}`,
    `- fix: ${stable(f.fix)}`,
  ]);
}

function renderDoc(errors: ConstructError[], examples: Map<string, EngineExample>, refused: Refusal[], fleet: Map<string, EngineExample>): string {
  const suppressions = suppressionFindings();
  return [
    '# Error messages',
    '',
    '<!-- Generated by test/robustness/error-messages.test.ts: `UPDATE_ERROR_DOCS=1 npx jest test/robustness/error-messages.test.ts`. Do not edit by hand. -->',
    '',
    'Every coded error the mesh constructs throw, and one finding of every analysis rule, as users see them, for review.',
    'Each names where (the construct path, or the file and line), the rule ID and a fix. Construct errors list the scenario',
    'and the `check` that threw; engine findings list the input that triggered them (docs/rules.md explains each rule).',
    '',
    `## Construct errors (${errors.length})`,
    ...constructSection(errors),
    '',
    `## Engine findings (${examples.size} rules)`,
    ...engineSection(examples),
    '',
    `## Suppression findings (LKD-META-001) (${suppressions.length})`,
    '',
    'A suppression the engine cannot read is an error; one it does not apply (a rule no suppression silences) is a warning.',
    '',
    ...suppressionSection(suppressions),
    '',
    `## CLI refusals (exit 2, nothing on stdout) (${refused.length})`,
    '',
    'Input `cdk8s-linkerd analyze` cannot use is refused with what the input is and what to do, never analysed as something else.',
    '',
    ...refusalSection(refused),
    '',
    `## Fleet findings (${fleet.size} rules, analyze --cluster / analyzeFleet)`,
    ...engineSection(fleet),
    '',
  ].join('\n');
}

// ---- tests ------------------------------------------------------------------------------------

describe('errors people can act on', () => {
  const results = SCENARIOS.map((s) => ({ scenario: s, ...runScenario(s) }));
  const errors = results.flatMap((r) => r.errors);
  const examples = engineExamples();
  const fleet = fleetExamples();

  test('every construct scenario throws a coded error (and nothing else)', () => {
    const wrong = results.filter((r) => r.errors.length === 0).map((r) => `${r.scenario.name}: ${r.thrown === undefined ? 'did not throw' : String((r.thrown as Error).stack ?? r.thrown).slice(0, 400)}`);
    expect(wrong).toEqual([]);
  });

  test('every check( call site of the mesh constructs is reached by a scenario', () => {
    const reached = new Set(errors.map((e) => e.site));
    const sites = checkSites();
    expect(sites.length).toBeGreaterThan(60);
    expect(sites.filter((s) => !reached.has(s))).toEqual([]);
  });

  test('each construct error names an existing construct path, the rule ID and a fix', () => {
    const bad = results.flatMap((r) => r.errors.filter((e) => {
      const known = e.path === '<root>' || r.env.chart.node.root.node.findAll().some((c) => c.node.path === e.path);
      return !known || !/^LKD-[A-Z]+-\d{3}$/.test(e.ruleId) || e.problem.length < 10 || e.fix.length < 5;
    }).map((e) => e.message));
    expect(bad).toEqual([]);
  });

  test('every engine rule has a triggering input, and its finding names the resource, file and line, the rule and a fix', () => {
    expect(ALL_RULES.map((r) => r.id).filter((id) => !examples.has(id))).toEqual([]);
    const bad = [...examples.values()].map(({ finding: f }) => f).filter((f) => !f.file || !f.line || !f.resource.kind || !f.resource.name
      || f.message.length < 20 || f.fix.length < 10 || !/^LKD-[A-Z]+-\d{3}$/.test(f.ruleId));
    expect(bad).toEqual([]);
  });

  const refused = refusals();

  test('every CLI refusal case is refused with a message naming the input', () => {
    expect(refused.filter((r) => r.message === '(not refused)').map((r) => r.input)).toEqual([]);
  });

  test('every fleet rule has a triggering fleet, and its finding names the cluster, resource, file and line and a fix', () => {
    expect(FLEET_RULES.map((r) => r.id).filter((id) => !fleet.has(id))).toEqual([]);
    const bad = [...fleet.values()].map(({ finding: f }) => f)
      .filter((f) => !f.cluster || !f.file || !f.line || f.message.length < 20 || f.fix.length < 10);
    expect(bad).toEqual([]);
  });

  test('docs/error-messages.md is current (UPDATE_ERROR_DOCS=1 regenerates it)', () => {
    const doc = renderDoc(errors, examples, refused, fleet);
    if (process.env.UPDATE_ERROR_DOCS === '1') fs.writeFileSync(DOC, doc);
    const committed = fs.existsSync(DOC) ? fs.readFileSync(DOC, 'utf8') : '';
    expect(committed).toEqual(doc);
  });
});
