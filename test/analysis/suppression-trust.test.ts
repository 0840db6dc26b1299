/**
 * Suppressions are a trust boundary: app teams write the manifests a platform team gates on. A suppression applies
 * only to the object that carries it, needs a reason a reviewer can read, is listed in every report format, and the
 * gatekeeper can make rules unsuppressible. The same holds for both annotation forms and for the fleet rules.
 */
import { App, ApiObject, Chart, Testing } from 'cdk8s';
import { MeshChecks, Severity } from '../../src';
import { analyze } from '../../src/analysis/engine';
import { analyzeFleet } from '../../src/analysis/fleet';
import { FleetRule } from '../../src/analysis/fleet/fleet-rule';
import { Manifest } from '../../src/analysis/model/manifest';
import { formatJson, formatSarif, formatText } from '../../src/analysis/report';
import { RuleArea } from '../../src/analysis/rule';
import { IGNORE_CHECK_ANNOTATION_PREFIX, SUPPRESS_ANNOTATION } from '../../src/analysis/suppressions';
import { readProperties } from '../../src/checks/plugin-settings';
import { assertBuilt, removeDir, runCli, tempDir, writeYaml } from '../frontends/cli-harness';

/** A route LKD-ROUTE-001 fires on (a Service parent without `group: core`). */
function route(name: string, annotations?: Record<string, string>, extra: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, namespace: 'shop', ...(annotations ? { annotations } : {}) },
    spec: { parentRefs: [{ kind: 'Service', name: 'orders', port: 8080 }], ...extra },
  };
}

const listAnnotation = (ruleId: string, reason: string) => ({ [SUPPRESS_ANNOTATION]: JSON.stringify([{ ruleId, reason }]) });
const ignoreCheck = (ruleId: string, reason: string) => ({ [`${IGNORE_CHECK_ANNOTATION_PREFIX}${ruleId}`]: reason });

function run(objects: Array<{ object: any; file?: string }>, options = {}) {
  const manifests: Manifest[] = objects.map(({ object, file }, i) => ({ object, source: { file: file ?? 'mesh.yaml', line: 1 + i * 20 } }));
  return analyze(manifests, options);
}

const on = (findings: Array<{ ruleId: string; file?: string; severity: string }>, ruleId: string) =>
  findings.filter((f) => f.ruleId === ruleId).map((f) => `${f.severity} ${f.file}`);

describe('a suppression applies to the object that carries it and to nothing else', () => {
  test('a second copy with the same identity does not silence the first copy\'s findings', () => {
    const result = run([
      { object: route('r'), file: 'team-a.yaml' },
      { object: route('r', listAnnotation('LKD-ROUTE-001', 'copied here to silence it'), { hostnames: ['x.example'] }), file: 'team-b.yaml' },
    ]);
    expect(on(result.findings, 'LKD-ROUTE-001')).toEqual(['error team-a.yaml']);
    expect(result.suppressed.map((s) => `${s.finding.ruleId} ${s.finding.file}`)).toEqual(['LKD-ROUTE-001 team-b.yaml']);
  });

  test('an object of the same name in another file, annotated one rule at a time, silences nothing but itself', () => {
    const result = run([
      { object: route('r', ignoreCheck('LKD-ROUTE-001', 'intended: routed by the gateway')), file: 'b.yaml' },
      { object: route('r'), file: 'a.yaml' },
    ]);
    expect(on(result.findings, 'LKD-ROUTE-001')).toEqual(['error a.yaml']);
    expect(result.suppressed.map((s) => s.finding.file)).toEqual(['b.yaml']);
  });

  test('no copy can suppress LKD-MESH-009: the suppression is listed as not applied', () => {
    const result = run([
      { object: route('r') },
      { object: route('r', { ...listAnnotation('LKD-MESH-009', 'this copy wins, trust me') }, { hostnames: ['x.example'] }) },
    ]);
    expect(on(result.findings, 'LKD-MESH-009')).toEqual(['error mesh.yaml']);
    expect(result.suppressed.filter((s) => s.finding.ruleId === 'LKD-MESH-009')).toEqual([]);
    expect(result.findings.filter((f) => f.ruleId === 'LKD-META-001').map((f) => [f.severity, f.message])).toEqual([
      [Severity.WARNING, expect.stringMatching(/suppression of LKD-MESH-009 is not applied: .*copy cannot vouch for itself/)],
    ]);
  });
});

describe('a reason needs visible text', () => {
  test.each([
    ['three zero-width spaces', '\u200b\u200b\u200b'],
    ['bidi marks and a word joiner', '\u200e\u200f\u2060\u2060'],
    ['hangul fillers', '\u3164\u3164\u3164'],
    ['punctuation only', '...'],
    ['spaces of every kind', '\u00a0\u2003\u3000'],
  ])('%s is no reason, in either annotation form', (_name, reason) => {
    for (const annotations of [listAnnotation('LKD-ROUTE-001', reason), ignoreCheck('LKD-ROUTE-001', reason)]) {
      const result = run([{ object: route('r', annotations) }]);
      expect(on(result.findings, 'LKD-ROUTE-001')).toEqual(['error mesh.yaml']);
      expect(result.suppressed).toEqual([]);
      expect(result.findings.filter((f) => f.ruleId === 'LKD-META-001').map((f) => [f.severity, f.message]))
        .toEqual([[Severity.ERROR, expect.stringMatching(/suppression of LKD-ROUTE-001 has no (readable )?reason/)]]);
    }
  });

  test('MeshChecks.suppress refuses it too, with the same check', () => {
    const chart = new Chart(Testing.app(), 'c');
    const obj = new ApiObject(chart, 'r', route('r'));
    expect(() => MeshChecks.suppress(obj, 'LKD-ROUTE-001', '\u200b\u200b\u200b')).toThrow(/LKD-META-001.*needs a reason with letters or digits/);
    expect(() => MeshChecks.suppress(obj, 'LKD-ROUTE-001', 'a reason in words')).not.toThrow();
  });

  test('a reason in any script counts', () => {
    const result = run([{ object: route('r', ignoreCheck('LKD-ROUTE-001', '意図的なルート')) }]);
    expect(result.suppressed.map((s) => s.reason)).toEqual(['意図的なルート']);
  });
});

describe('ignore-check.cdk8s-linkerd.io/<RULE-ID> annotations', () => {
  test('one annotation per rule suppresses that rule, beside the JSON list (both forms on one object agree)', () => {
    const result = run([
      { object: route('by-key', ignoreCheck('LKD-ROUTE-001', 'routed by the ingress')) },
      { object: route('by-list', listAnnotation('LKD-ROUTE-001', 'the Service is in another repo')) },
      { object: route('both', { ...listAnnotation('LKD-ROUTE-001', 'said in the list'), ...ignoreCheck('LKD-ROUTE-001', 'said by key') }) },
    ]);
    expect(result.findings).toEqual([]);
    expect(result.suppressed.map((s) => [s.finding.resource.name, s.reason])).toEqual([
      ['both', 'said in the list'], ['by-key', 'routed by the ingress'], ['by-list', 'the Service is in another repo'],
    ]);
  });

  test('a key that does not end in a rule ID is an LKD-META-001 error naming the key', () => {
    const result = run([{ object: route('r', { [`${IGNORE_CHECK_ANNOTATION_PREFIX}route-001`]: 'a good reason' }) }]);
    expect(result.findings.filter((f) => f.ruleId === 'LKD-META-001').map((f) => f.message))
      .toEqual([expect.stringContaining(`"${IGNORE_CHECK_ANNOTATION_PREFIX}route-001" does not end in a rule ID`)]);
    expect(on(result.findings, 'LKD-ROUTE-001')).toEqual(['error mesh.yaml']);
  });
});

describe('unsuppressible rules', () => {
  const objects = [{ object: route('r', ignoreCheck('LKD-ROUTE-001', 'we know, ship it')) }];

  test('the engine keeps the finding and lists the suppression as not applied', () => {
    const result = run(objects, { unsuppressible: ['LKD-ROUTE-001'] });
    expect(on(result.findings, 'LKD-ROUTE-001')).toEqual(['error mesh.yaml']);
    expect(result.suppressed).toEqual([]);
    expect(result.findings.filter((f) => f.ruleId === 'LKD-META-001').map((f) => [f.severity, f.message])).toEqual([
      [Severity.WARNING, expect.stringContaining('suppression of LKD-ROUTE-001 is not applied: this analysis makes LKD-ROUTE-001 unsuppressible')],
    ]);
  });

  test('MeshChecks.configure({ unsuppressible }) and the plugin property read the same option', () => {
    const app = new App({ outdir: tempDir('unsuppressible') });
    const chart = new Chart(app, 'c');
    const obj = new ApiObject(chart, 'r', route('r'));
    MeshChecks.suppress(obj, 'LKD-ROUTE-001', 'we know, ship it');
    const checks = MeshChecks.of(app);
    checks.configure({ printWarnings: false });
    expect(checks.analyze().map((f) => f.ruleId)).not.toContain('LKD-ROUTE-001');
    checks.configure({ unsuppressible: ['LKD-ROUTE-001'] });
    expect(checks.analyze().map((f) => f.ruleId)).toEqual(expect.arrayContaining(['LKD-ROUTE-001', 'LKD-META-001']));
    expect(() => checks.configure({ unsuppressible: ['route-001'] })).toThrow(/option unsuppressible must be rule IDs/);
    expect(readProperties({ unsuppressible: ['LKD-ROUTE-001', 'LKD-POL-011'] }).context.unsuppressible).toEqual(['LKD-ROUTE-001', 'LKD-POL-011']);
    expect(() => readProperties({ unsuppressible: 'LKD-ROUTE-001,nope' })).toThrow(/property unsuppressible must be rule IDs/);
    removeDir(app.outdir);
  });

  test('the CLI reads --unsuppressible: exit 1 where the suppression used to pass', () => {
    assertBuilt();
    const dir = tempDir('unsuppressible-cli');
    try {
      writeYaml(dir, 'mesh.yaml', [route('r', ignoreCheck('LKD-ROUTE-001', 'we know, ship it'))]);
      const json = (args: string[]) => {
        const r = runCli(['analyze', '--format', 'json', ...args, 'mesh.yaml'], { cwd: dir });
        return { status: r.status, errors: JSON.parse(r.stdout).findings.filter((f: any) => f.severity === 'error').map((f: any) => f.ruleId) };
      };
      expect(json([]).errors).not.toContain('LKD-ROUTE-001');
      expect(json(['--unsuppressible', 'LKD-ROUTE-001,LKD-POL-011'])).toEqual({ status: 1, errors: ['LKD-ROUTE-001'] });
    } finally {
      removeDir(dir);
    }
  });
});

describe('every suppression is listed, with its object and reason, in every format', () => {
  const result = run([{ object: route('r', ignoreCheck('LKD-ROUTE-001', 'routed by the ingress')) }]);

  test('text, JSON and SARIF', () => {
    expect(formatText(result.findings, result.suppressed)).toMatch(/suppressed:\n {2}mesh\.yaml:1: error LKD-ROUTE-001 HTTPRoute shop\/r: .*\(reason: routed by the ingress\)/);
    const json = JSON.parse(formatJson(result.findings, result.suppressed));
    expect(json.suppressed).toEqual([expect.objectContaining({
      ruleId: 'LKD-ROUTE-001', resource: expect.objectContaining({ kind: 'HTTPRoute', namespace: 'shop', name: 'r' }), file: 'mesh.yaml', reason: 'routed by the ingress',
    })]);
    const sarif = JSON.parse(formatSarif(result.findings, { rules: [], toolVersion: '0', informationUri: 'https://example.com', suppressed: result.suppressed }));
    const suppressedResult = sarif.runs[0].results.find((r: any) => r.suppressions);
    expect(suppressedResult).toMatchObject({
      ruleId: 'LKD-ROUTE-001',
      message: { text: expect.stringContaining('HTTPRoute shop/r') },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'mesh.yaml' } } }],
      suppressions: [{ kind: 'inSource', status: 'accepted', justification: 'routed by the ingress' }],
    });
  });
});

describe('the fleet rules apply the same suppression logic', () => {
  /** A fleet rule that reports every Service of every cluster. */
  const everyService: FleetRule = {
    id: 'LKD-MC-900',
    area: RuleArea.MULTICLUSTER,
    severity: Severity.ERROR,
    doc: { title: 'test', why: 'test', fix: 'test', linkerdSource: 'test' },
    check(ctx) {
      for (const cluster of ctx.clusters.values()) {
        for (const svc of cluster.result.index.own('', 'Service')) ctx.report(cluster, svc, 'a Service');
      }
    },
  };
  const service = (annotations: Record<string, string> = {}) => ({
    object: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'orders', namespace: 'shop', annotations }, spec: { ports: [{ port: 80 }] } },
    source: { file: 'x.yaml', line: 1 },
  });

  test('only the annotated object, only with a readable reason, and never an unsuppressible rule', () => {
    const clusters = [
      { name: 'east', manifests: [service(ignoreCheck('LKD-MC-900', 'exported on purpose'))] },
      { name: 'west', manifests: [service()] },
      { name: 'north', manifests: [service(ignoreCheck('LKD-MC-900', '\u200b\u200b\u200b'))] },
    ];
    const result = analyzeFleet(clusters, { fleetRules: [everyService] });
    expect(result.findings.filter((f) => f.ruleId === 'LKD-MC-900').map((f) => f.cluster)).toEqual(['north', 'west']);
    expect(result.suppressed.map((s) => s.finding.cluster)).toEqual(['east']);
    const strict = analyzeFleet(clusters, { fleetRules: [everyService], unsuppressible: ['LKD-MC-900'] });
    expect(strict.findings.filter((f) => f.ruleId === 'LKD-MC-900').map((f) => f.cluster)).toEqual(['east', 'north', 'west']);
    expect(strict.suppressed).toEqual([]);
  });
});
