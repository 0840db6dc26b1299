/**
 * Runs the engine over every shared Gateway API route case (../shared/conformance/gateway-api-route-cases.json).
 * Schema-level verdicts belong to the CRD conformance harness; here we check what the engine itself adds:
 * CRD-valid routes that Linkerd drops or ignores must get an engine error, and no case may crash the engine.
 */
import { analyze } from '../../../src/analysis/engine';
import { Finding, Severity } from '../../../src/analysis/finding';
import { asManifests } from '../../support/mesh-fixture';
import { LINKERD_DROPS, RouteCase, loadRouteCases, meshFor } from '../../support/route-cases';
import { describeWithShared } from '../../support/shared';

function errorRuleIds(routeCase: RouteCase): string[] {
  const findings: Finding[] = analyze(asManifests(meshFor(routeCase))).findings;
  const onRoute = findings.filter((f) => f.resource.name === routeCase.id && f.severity === Severity.ERROR);
  return [...new Set(onRoute.map((f) => f.ruleId))].sort();
}

/**
 * Invalid (schema-rejected) cases the engine also catches on its own, with the rules that fire. Every other invalid
 * case is purely schema-level (limits, patterns, CEL uniqueness) and left to the CRD conformance harness.
 */
const ENGINE_ALSO_CATCHES: Record<string, string[]> = {
  'grpc-invalid-redirect-filter': ['LKD-ROUTE-011'],
  'grpc-invalid-service-backend-no-port': ['LKD-ROUTE-006'],
  'grpc-invalid-urlrewrite-filter': ['LKD-ROUTE-011'],
  'http-invalid-backend-group-wildcard': ['LKD-ROUTE-008'],
  'http-invalid-backendref-rewrite-prefix-two-matches': ['LKD-ROUTE-011'],
  // The CRD's pattern refuses them first; Linkerd's webhook would too (HeaderName::from_str).
  'http-invalid-header-name-pseudo': ['LKD-ROUTE-024'],
  'http-invalid-header-name-space': ['LKD-ROUTE-024'],
  'http-invalid-parentref-missing-name': ['LKD-ROUTE-002'],
  'http-invalid-parentref-namespace': ['LKD-ROUTE-002'],
  'http-invalid-parentref-port-zero': ['LKD-ROUTE-004'],
  // A Service parent's sectionName is never read by Linkerd, so the sectionName cases (CEL uniqueness, the name pattern)
  // get LKD-ROUTE-004 warnings at most; the CRD refuses them.
  'http-invalid-path-modifier-missing-value': ['LKD-ROUTE-011'],
  'http-invalid-repeated-urlrewrite-in-backendref': ['LKD-ROUTE-011'],
  'http-invalid-timeout-microseconds': ['LKD-ROUTE-014'],
};

/**
 * CRD-valid dropped cases where a second thing Linkerd ignores is an error of its own: "1h30m" is unreadable
 * (LKD-ROUTE-014), and its backendRequest "500ms" is read by nothing (LKD-ROUTE-018), so no timeout applies at all.
 */
const ALSO_IGNORED: Record<string, string[]> = {
  'http-valid-timeouts-compound': ['LKD-ROUTE-018'],
};

const cases: RouteCase[] = loadRouteCases();

describeWithShared('shared Gateway API route cases', () => {
  test('the case file has cases of both kinds', () => {
    expect(cases.length).toBeGreaterThan(0);
    expect(new Set(cases.map((c) => c.kind))).toEqual(new Set(['HTTPRoute', 'GRPCRoute']));
  });

  test.each(Object.entries(LINKERD_DROPS))('%s: CRD-valid, but Linkerd drops it; the engine reports %s', (id, ruleId) => {
    const routeCase = cases.find((c) => c.id === id);
    expect(routeCase?.valid).toBe(true);
    expect(errorRuleIds(routeCase!)).toEqual([ruleId, ...ALSO_IGNORED[id] ?? []].sort());
  });

  test.each(cases.filter((c) => c.valid && !(c.id in LINKERD_DROPS)).map((c) => [c.id, c]))('%s: valid and used by Linkerd, no engine error', (_, routeCase) => {
    expect(errorRuleIds(routeCase as RouteCase)).toEqual([]);
  });

  test.each(cases.filter((c) => !c.valid).map((c) => [c.id, c]))('%s: invalid; the engine does not crash and reports what it can', (id, routeCase) => {
    expect(errorRuleIds(routeCase as RouteCase)).toEqual(ENGINE_ALSO_CATCHES[id as string] ?? []);
  });
});
