/**
 * Fuzzed meshes: random Services, versions, splits, Servers, authentications, policies, routes, retries and timeouts,
 * built only through the public constructs (test/support/fuzz). Each case must either synthesize into output that
 * conforms to the real CRDs (schema + CEL), that the engine finds no error in and that Linkerd can read — or fail
 * with a coded error naming a construct path. The seed is fixed so CI is reproducible; FUZZ_SEED / FUZZ_RUNS override
 * it locally. `npm test` runs 400 meshes and 300 jsii inputs; `npm run test:long` (also in CI) the full round of
 * 2,000 and 1,000, and scripts/fuzz-nightly.ts many more cases.
 */
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import {
  HttpRoute, MeshChecks, MeshedDeployment, Network, NetworkAuthentication, PathMatch, PodSelection, RouteBackend, Server, ServerAccess, ServerPort,
  ServiceReference, UnmatchedRequests,
} from '../../src';
import { conformanceIssues } from '../support/conformance';
import { FUZZ_NAMESPACE } from '../support/fuzz/arbitraries';
import { linkerdReadsProblems } from '../support/fuzz/invariants';
import { ENTRY_POINTS, HOSTILE_VALUES, JsiiCase, describeCase, jsiiCases, runJsiiCase } from '../support/fuzz/jsii-inputs';
import { MeshSpec } from '../support/fuzz/mesh-spec';
import { runCase } from '../support/fuzz/oracle';
import { describeStats, fuzzMeshes } from '../support/fuzz/property';
import { cleanPrototype, prototypePollution } from '../support/fuzz/prototype-keys';
import { describeWithShared } from '../support/shared';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_129);
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

describeWithShared(`fuzzed meshes (seed ${SEED}, ${RUNS} cases)`, () => {
  test('every case synthesizes into valid output or fails with a coded error naming a construct path', () => {
    const stats = fuzzMeshes({ runs: RUNS, seed: SEED, conformance: conformanceIssues });
    console.log(describeStats(stats));
    expect(stats.cases).toBe(RUNS);
    // Both branches must be exercised well, or the property proves little.
    expect(stats.synthesized).toBeGreaterThan(RUNS * 0.3);
    expect(stats.rejected).toBeGreaterThan(RUNS * 0.2);
    expect(stats.ruleIds.size).toBeGreaterThanOrEqual(12);
  }, 120_000);
});

const JSII_RUNS = Number(process.env.FUZZ_JSII_RUNS ?? 300);

describeWithShared(`jsii-user inputs at every public entry point (seed ${SEED}, ${JSII_RUNS} cases)`, () => {
  test('with valid arguments every entry point synthesizes into conforming output (the baseline the fuzzer breaks)', () => {
    const baseline = (entry: number) => runJsiiCase({ entry, slots: [], values: [] }, conformanceIssues);
    const reports = ENTRY_POINTS.map((entry, i) => ({ entry: entry.name, report: baseline(i) }));
    expect(reports.filter((r) => r.report.outcome.kind !== 'synthesized' || r.report.problems.length > 0)
      .map((r) => `${r.entry}: ${r.report.outcome.kind === 'rejected' ? r.report.outcome.message : r.report.problems.join('; ')}`)).toEqual([]);
  });

  test('None, null, wrong types, NaN, huge numbers, newlines: valid output or a coded refusal, never a TypeError from inside', () => {
    let synthesized = 0;
    let rejected = 0;
    const ruleIds = new Set<string>();
    fc.assert(fc.property(jsiiCases(), (c: JsiiCase) => {
      const report = runJsiiCase(c, conformanceIssues);
      if (report.outcome.kind === 'synthesized') {synthesized++;} else {
        rejected++;
        report.outcome.ruleIds.forEach((id) => ruleIds.add(id));
      }
      if (report.problems.length > 0) throw new Error(`${describeCase(c)}:\n  ${report.problems.join('\n  ')}`);
      // A value like `{"__proto__": {...}}` or the name `__proto__.group` must never reach Object.prototype.
      const leaked = prototypePollution();
      cleanPrototype();
      if (leaked.length > 0) throw new Error(`${describeCase(c)}: Object.prototype got ${leaked.join(', ')}`);
    }), { numRuns: JSII_RUNS, seed: SEED, includeErrorInReport: true });
    console.log(`jsii inputs: ${synthesized} synthesized, ${rejected} refused (${[...ruleIds].sort().join(', ')}); ${HOSTILE_VALUES.length} hostile values, ${ENTRY_POINTS.length} entry points`);
    // Most hostile values must be refused; the harmless ones (None for an optional field) still synthesize and are checked.
    expect(synthesized).toBeGreaterThan(JSII_RUNS * 0.02);
    expect(rejected).toBeGreaterThan(JSII_RUNS * 0.5);
    expect(ruleIds.size).toBeGreaterThanOrEqual(10);
  }, 60_000);
});

/** A coherent one-app mesh, as the generators would draw it. */
function baseSpec(): MeshSpec {
  return {
    namespace: FUZZ_NAMESPACE,
    apps: [{ name: 'orders', servicePortOffset: 0, versions: [{ version: 'v1', ports: [{ number: 8080, name: 'http' }], meshed: true, service: true }] }],
    splits: [],
    servers: [],
    accesses: [],
    policies: [],
    routes: [],
    rateLimits: [],
    egress: [],
  };
}

/** One mesh with a chart in namespace fuzz, an orders Deployment and Service, for hand-written regressions. */
function lab(): { app: App; chart: Chart; service: kplus.Service } {
  const app = new App({ outdir: path.join(os.tmpdir(), 'cdk8s-linkerd-unused') });
  MeshChecks.of(app).configure({ printWarnings: false });
  const chart = new Chart(app, 'fuzz', { namespace: FUZZ_NAMESPACE });
  new MeshedDeployment(chart, 'Orders', { name: 'orders-v1', app: 'orders', version: 'v1', containers: [{ image: 'example/app:1.0.0', ports: [{ number: 8080, name: 'http' }], securityContext: { user: 1000 } }] });
  const service = new kplus.Service(chart, 'Svc', { metadata: { name: 'orders' }, ports: [{ name: 'http', port: 8080, targetPort: 8080 }] });
  service.selectLabel('app.kubernetes.io/name', 'orders');
  return { app, chart, service };
}

type Header = { name: string; value: string; regex?: boolean };

function route(chart: Chart, service: kplus.Service, pathMatch: PathMatch | undefined, headers?: Header[]): HttpRoute {
  return new HttpRoute(chart, 'Route', {
    name: 'orders',
    service: ServiceReference.fromService(service),
    port: 8080,
    unmatched: UnmatchedRequests.NOT_FOUND,
    rules: [{ matches: [{ path: pathMatch, headers }], backends: [RouteBackend.service(ServiceReference.fromService(service), { port: 8080 })] }],
  });
}

describe('regressions the fuzzer found (each was synthesized into output Linkerd refuses)', () => {
  test.each([
    ['a network with a leading space', () => Network.cidr(' 10.0.0.0/8')],
    ['an except with a leading space', () => Network.cidr('10.0.0.0/8', [' 10.1.0.0/16'])],
    ['a trailing newline', () => Network.cidr('10.0.0.0/8\n')],
  ])('%s is refused (LKD-POL-005): Linkerd parses CIDRs verbatim', (_, network) => {
    const { chart } = lab();
    expect(() => new NetworkAuthentication(chart, 'Net', { name: 'net', networks: [network()] })).toThrow(/\[fuzz\/Net\] LKD-POL-005: .*without spaces/);
  });

  test.each(['(', '[a-', '(?=x)y', '(a)\\1'])('path regex %j is refused (LKD-INPUT-006): Linkerd would skip the route', (pattern) => {
    const { chart, service } = lab();
    expect(() => route(chart, service, PathMatch.regex(pattern))).toThrow(/\[fuzz\/Route\] LKD-INPUT-006: path regex .* Fix: /);
  });

  test('a header regex that does not compile is refused too', () => {
    const { chart, service } = lab();
    expect(() => route(chart, service, undefined, [{ name: 'x-version', value: '(', regex: true }])).toThrow(/LKD-INPUT-006: .*header x-version regex/);
  });

  test.each(['a\nb', 'tab\tok\u0007bell', '\u007f'])('an exact header value with a control character (%j) is refused', (value) => {
    const { chart, service } = lab();
    expect(() => route(chart, service, undefined, [{ name: 'x-version', value }])).toThrow(/LKD-INPUT-006: .*control character/);
  });

  test('valid regexes, tabs and non-ASCII header values still synthesize and conform', () => {
    const { chart, service } = lab();
    // Rust syntax JS spells differently: named groups with P and inline flags.
    route(chart, service, PathMatch.regex('(?i)^/api/(?P<v>v[0-9]+)/(?s:.*)$'), [{ name: 'x-a', value: 'tab\there ü' }, { name: 'x-b', value: '^v[0-9]+$', regex: true }]);
    const objects = chart.toJson();
    expect(linkerdReadsProblems(objects)).toEqual([]);
  });

  test('two objects of one kind with one name fail synth (LKD-MESH-009) instead of one silently replacing the other', () => {
    const { chart } = lab();
    new Server(chart, 'A', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080) });
    new Server(chart, 'B', { name: 'orders-http', selector: PodSelection.app('other'), port: ServerPort.number(9090) });
    expect(() => chart.toJson()).toThrow(/LKD-MESH-009 at fuzz\/B \(Server fuzz\/orders-http\): Server fuzz\/orders-http is already defined by fuzz\/A/);
  });

  test('allow() twice with one policyName is a coded conflict on the Server, not the constructs library\'s uncoded error', () => {
    const { chart } = lab();
    const server = new Server(chart, 'Http', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080) });
    const networks = [Network.cidr('10.0.0.0/8')];
    ServerAccess.allow(server, { policyName: 'shared', networks });
    expect(() => ServerAccess.allow(server, { policyName: 'shared', networks })).toThrow(/^\[fuzz\/Http\] LKD-INPUT-004: allow\(\) was already called .* Fix: /);
  });

  test('the oracle itself: a coherent spec synthesizes cleanly, a regex that does not compile is a coded rejection', () => {
    expect(runCase(baseSpec(), () => [])).toMatchObject({ outcome: { kind: 'synthesized' }, problems: [] });
    const spec = baseSpec();
    const broken: MeshSpec = {
      ...spec,
      routes: [{ grpc: false, parent: { kind: 'app', app: 0 }, port: { kind: 'nth', index: 0 }, rules: [{ httpMatches: [{ path: { type: 'regex', value: '(' }, headers: [] }], grpcMatches: [], backends: [] }] }],
    };
    expect(runCase(broken, () => [])).toMatchObject({ outcome: { kind: 'rejected', ruleIds: ['LKD-INPUT-006'] }, problems: [] });
  });

  test('durations that Linkerd would drop never reach the output (a compound 1m30s is written as 90s)', () => {
    const { chart, service } = lab();
    new HttpRoute(chart, 'Route', {
      name: 'orders',
      service: ServiceReference.fromService(service),
      port: 8080,
      rules: [{ requestTimeout: Duration.seconds(90), backends: [RouteBackend.service(ServiceReference.fromService(service), { port: 8080 })] }],
    });
    const routeObject = chart.toJson().find((o: any) => o.kind === 'HTTPRoute');
    expect(routeObject.spec.rules[0].timeouts).toEqual({ request: '90s' });
  });
});
