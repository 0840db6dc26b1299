/**
 * No key from input becomes a property path on a plain object. A Helm parameter named `__proto__.group` once set
 * `group` on Object.prototype, so every Service parentRef without a group read as `core` and LKD-ROUTE-001 went
 * silent for every team. Here `__proto__`, `constructor` and `prototype` are put at every level of every object and into
 * every dotted path the analysis reads; nothing may leak, and the findings on the objects without them stay the same.
 */
import { ApiObject, App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import * as yaml from 'js-yaml';
import { meshLabObjects } from './mutation-corpus';
import { MeshChecks } from '../../src';
import { analyze } from '../../src/analysis/engine';
import { Finding } from '../../src/analysis/finding';
import { parseLinkerdDuration } from '../../src/core/linkerd-grammar';
import { assertBuilt, removeDir, runCli, tempDir, writeText } from '../frontends/cli-harness';
import { conformanceIssues } from '../support/conformance';
import {
  PROTOTYPE_KEYS, cleanPrototype, hostileDottedPaths, pollutingPayload, prototypePollution, valuesCarriers, withKeyAtEveryLevel,
} from '../support/fuzz/prototype-keys';
import { describeWithShared } from '../support/shared';

/** Another team's route: a Service parent without `group: core`, so LKD-ROUTE-001 must fire on it. */
const PROBE_ROUTE = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'probe', namespace: 'other-team' },
  spec: { parentRefs: [{ kind: 'Service', name: 'orders', port: 8080 }], rules: [{ backendRefs: [{ name: 'orders', port: 8080 }] }] },
};

/** One team's Argo CD Application whose Helm parameters name prototype paths (the reproduction of the report). */
function argoApplication(parameterNames: string[]): any {
  return valuesCarriers(parameterNames, 'team-a')[0];
}

function onProbe(findings: readonly Finding[]): string[] {
  return findings.filter((f) => f.resource.name === 'probe').map((f) => `${f.severity} ${f.ruleId} ${f.message}`);
}

const findingKeys = (findings: readonly Finding[]) => findings.map((f) => `${f.severity} ${f.ruleId} ${f.resource.kind}/${f.resource.name}`).sort();

const manifestsOf = (objects: any[]) => objects.map((object) => ({ object, source: {} }));

afterEach(cleanPrototype);

describe('a Helm parameter named __proto__.group', () => {
  const names = ['__proto__.group', '__proto__.annotations', 'constructor.prototype.group', 'a.__proto__.group'];

  test('does not silence another object\'s LKD-ROUTE-001 in the engine, nor add a suppression', () => {
    const result = analyze(manifestsOf([PROBE_ROUTE, argoApplication(names)]));
    expect(prototypePollution()).toEqual([]);
    expect(result.findings.filter((f) => f.ruleId === 'LKD-ROUTE-001').map((f) => f.resource.name)).toEqual(['probe']);
    expect(result.suppressed).toEqual([]);
  });

  test('does not silence it inside app.synth()', () => {
    const app = new App({ outdir: tempDir('proto-synth') });
    const chart = new Chart(app, 'c');
    new ApiObject(chart, 'route', PROBE_ROUTE);
    // cdk8s cannot render an own `__proto__` key (its valuesObject); the parameters are what reach the analysis.
    const application = argoApplication(names);
    delete application.spec.source.helm.valuesObject;
    new ApiObject(chart, 'argo', application);
    const checks = MeshChecks.of(app);
    checks.configure({ printWarnings: false });
    expect(() => app.synth()).toThrow(/LKD-ROUTE-001/);
    expect(prototypePollution()).toEqual([]);
    removeDir(app.outdir);
  });

  test('does not silence it in the CLI (exit 1, the finding printed)', () => {
    assertBuilt();
    const dir = tempDir('proto-cli');
    try {
      writeText(dir, 'route.yaml', yaml.dump(PROBE_ROUTE));
      writeText(dir, 'argo.yaml', yaml.dump(argoApplication(names)));
      const run = runCli(['analyze', '--format', 'json', 'route.yaml', 'argo.yaml'], { cwd: dir });
      expect(run.status).toBe(1);
      const report = JSON.parse(run.stdout);
      expect(report.findings.filter((f: any) => f.ruleId === 'LKD-ROUTE-001').map((f: any) => f.resource.name)).toEqual(['probe']);
    } finally {
      removeDir(dir);
    }
  });
});

describe('prototype keys at every level and in every dotted path', () => {
  const base = meshLabObjects();
  const baseline = onProbe(analyze(manifestsOf([...base, PROBE_ROUTE])).findings);

  test('the baseline has the finding the pollution removed', () => {
    expect(baseline.some((f) => f.startsWith('error LKD-ROUTE-001'))).toBe(true);
  });

  test('nothing leaks into Object.prototype, the untouched object\'s findings stay the same, and the key acts as an ordinary key', () => {
    fc.assert(fc.property(
      fc.constantFrom(...PROTOTYPE_KEYS),
      fc.array(hostileDottedPaths(), { minLength: 1, maxLength: 4 }),
      (key, paths) => {
        const withKey = (k: string, p: string[]) => [...base, ...valuesCarriers(p, 'mesh-lab')].map((o) => withKeyAtEveryLevel(o, k, pollutingPayload));
        const result = analyze(manifestsOf([...withKey(key, paths), PROBE_ROUTE]));
        const leaked = prototypePollution();
        cleanPrototype();
        expect(leaked).toEqual([]);
        expect(onProbe(result.findings)).toEqual(baseline);
        expect(onProbe(result.suppressed.map((s) => s.finding))).toEqual([]);
        // The prototype key is an ordinary key: the same findings (rule, severity, object) as a harmless key in its place.
        const ordinaryPaths = paths.map((p) => p.split('.').map((part) => ((PROTOTYPE_KEYS as readonly string[]).includes(part) ? 'ordinary' : part)).join('.'));
        const ordinary = analyze(manifestsOf([...withKey('ordinary', ordinaryPaths), PROBE_ROUTE]));
        expect(findingKeys(result.findings)).toEqual(findingKeys(ordinary.findings));
      },
    ), { seed: 20_261_204, numRuns: 25 });
  }, 120_000);
});

describe('units named like Object.prototype\'s properties', () => {
  test.each(['5constructor', '5__proto__', '5toString', '5hasOwnProperty', '5valueOf'])('%s is refused in words, not a TypeError', (text) => {
    const parsed = parseLinkerdDuration(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toMatch(/has unit/);
  });
});

describeWithShared('the CRD schema check (--crds) on prototype keys', () => {
  const server = (spec: string) => ({
    apiVersion: 'policy.linkerd.io/v1beta3',
    kind: 'Server',
    metadata: { name: 's', namespace: 'shop' },
    spec: JSON.parse(spec),
  });

  test.each(PROTOTYPE_KEYS)('an unknown field named %s is reported like any other, not read as a declared property', (key) => {
    const issues = conformanceIssues([server(`{"port": 80, "podSelector": {}, "${key}": {"port": "not a port"}}`)]);
    expect(issues).toEqual([expect.stringContaining(key)]);
    expect(prototypePollution()).toEqual([]);
  });
});

describe('CLI options named like Object.prototype\'s properties', () => {
  test.each(['--toString', '--constructor', '--__proto__', '--hasOwnProperty'])('%s is an unknown option (exit 2), not a flag', (flag) => {
    assertBuilt();
    const run = runCli(['analyze', flag, 'missing.yaml'], { cwd: __dirname });
    expect([run.status, run.stderr]).toEqual([2, expect.stringContaining(`unknown option ${flag}`)]);
  });
});
