import { analyze } from '../../../src/analysis/engine';
import { FindingEffect, Severity } from '../../../src/analysis/finding';
import { AnalysisContextInput } from '../../../src/analysis/options';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

function ruleFindings(objects: any[], ruleId: string, options: AnalysisContextInput = {}) {
  return analyze(asManifests(objects), options).findings.filter((f) => f.ruleId === ruleId);
}

function withRoute(mutate: (route: any) => void): any[] {
  const objects = meshLab();
  mutate(pick(objects, 'HTTPRoute', 'orders-split'));
  return objects;
}

const timeouts = (t: Record<string, unknown>) => withRoute((r) => { r.spec.rules[0].timeouts = t; });

describe('LKD-ROUTE-014 rule timeouts', () => {
  test('passes for single-unit durations in order', () => {
    expect(ruleFindings(timeouts({ request: '90s', backendRequest: '30s' }), 'LKD-ROUTE-014')).toEqual([]);
    expect(ruleFindings(timeouts({ request: '0s', backendRequest: '30s' }), 'LKD-ROUTE-014')).toEqual([]);
  });
  test('fires on a compound request timeout Linkerd silently drops, suggesting the single-unit form', () => {
    const [finding] = ruleFindings(timeouts({ request: '1m30s' }), 'LKD-ROUTE-014');
    expect(finding).toMatchObject({ severity: Severity.ERROR, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/rules\[0\]\.timeouts\.request is "1m30s".*silently drops.*"90s"/);
    expect(finding.fix).toBe('Set rules[0].timeouts.request to "90s".');
  });
  test('a Gateway-only route\'s compound timeout is its gateway\'s to read: no finding; the CRD\'s own checks still apply', () => {
    const gatewayOnly = (t: Record<string, unknown>) => withRoute((r) => {
      r.spec.parentRefs = [{ name: 'public-gw', namespace: 'gateways' }];
      r.spec.rules[0].timeouts = t;
    });
    expect(ruleFindings(gatewayOnly({ request: '1m30s' }), 'LKD-ROUTE-014')).toEqual([]);
    // Nor does LKD-ROUTE-018 say Linkerd ignores a backendRequest that the gateway may well apply.
    expect(ruleFindings(gatewayOnly({ request: '10s', backendRequest: '2s' }), 'LKD-ROUTE-018')).toEqual([]);
    expect(ruleFindings(timeouts({ request: '10s', backendRequest: '2s' }), 'LKD-ROUTE-018')).toHaveLength(1);
    expect(ruleFindings(gatewayOnly({ request: '1s', backendRequest: '1500ms' }), 'LKD-ROUTE-014').map((f) => f.effect)).toEqual([FindingEffect.REJECTED]);
  });
  // index/http.rs convert_gateway_rule maps zero to unset; grpc/src/outbound/http.rs convert_outbound_route then takes the Service's.
  test('a zero request timeout ("no timeout") keeps the parent Service\'s timeouts: an error naming them', () => {
    const objects = timeouts({ request: '0s' });
    pick(objects, 'Service', 'orders').metadata.annotations = { 'timeout.linkerd.io/request': '10s' };
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-018');
    expect(finding).toMatchObject({ severity: Severity.ERROR, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/rules\[0\]\.timeouts\.request is zero, .* Linkerd reads it as unset, so the rule takes the timeouts of .*timeout.linkerd.io\/request="10s"/);
    // A timeout of the route's own hides the Service's: nothing to say. Nor without a Service timeout.
    pick(objects, 'HTTPRoute', 'orders-split').metadata.annotations = { 'timeout.linkerd.io/idle': '5m' };
    expect(ruleFindings(objects, 'LKD-ROUTE-018')).toEqual([]);
    expect(ruleFindings(timeouts({ request: '0s' }), 'LKD-ROUTE-018')).toEqual([]);
  });
  test('fires when backendRequest exceeds request', () => {
    expect(ruleFindings(timeouts({ request: '1s', backendRequest: '1500ms' }), 'LKD-ROUTE-014')[0].message)
      .toMatch(/rules\[0\]\.timeouts\.backendRequest \(1500ms\) is longer than rules\[0\]\.timeouts\.request \(1s\)/);
  });
  test('fires on a value the CRD rejects', () => {
    expect(ruleFindings(timeouts({ backendRequest: '100us' }), 'LKD-ROUTE-014')[0].message)
      .toMatch(/rules\[0\]\.timeouts\.backendRequest: "100us" is not a Gateway API duration/);
  });
});

describe('LKD-ROUTE-014 on policy.linkerd.io HTTPRoutes: the webhook\'s check (admission.rs validate_timeouts)', () => {
  /** mesh-lab's orders-split, as Linkerd's own HTTPRoute kind (the only version with timeouts is v1beta3). */
  const policyTimeouts = (t: Record<string, unknown>, apiVersion = 'policy.linkerd.io/v1beta3') => withRoute((r) => {
    r.apiVersion = apiVersion;
    r.spec.rules[0].timeouts = t;
  });

  test('Go durations pass, compound ones too (K8sDuration), and a bare 0', () => {
    expect(ruleFindings(policyTimeouts({ request: '1m30s', backendRequest: '1.5s' }), 'LKD-ROUTE-014')).toEqual([]);
    expect(ruleFindings(policyTimeouts({ request: '0', backendRequest: '0' }), 'LKD-ROUTE-014')).toEqual([]);
    expect(ruleFindings(policyTimeouts({ request: '1h', backendRequest: '250000us' }), 'LKD-ROUTE-014')).toEqual([]);
  });

  test('backendRequest above request is rejected, a request of 0 included (the Gateway API exempts it)', () => {
    const [late] = ruleFindings(policyTimeouts({ request: '1s', backendRequest: '1500ms' }), 'LKD-ROUTE-014');
    expect(late).toMatchObject({ severity: Severity.ERROR, effect: 'rejected' });
    expect(late.message).toMatch(/backendRequest \(1500ms\) is longer than rules\[0\]\.timeouts\.request \(1s\); Linkerd's admission webhook rejects the route\./);
    expect(ruleFindings(policyTimeouts({ request: '0s', backendRequest: '30s' }), 'LKD-ROUTE-014')[0].message)
      .toMatch(/a request timeout of 0 is no exception here, unlike on Gateway API HTTPRoutes/);
  });

  test('where the webhook does not run, backendRequest above request is applied and harmless: the controller reads only request', () => {
    const objects = policyTimeouts({ request: '1s', backendRequest: '1500ms' });
    pick(objects, 'Namespace', 'mesh-lab').metadata.labels = { 'config.linkerd.io/admission-webhooks': 'disabled' };
    expect(ruleFindings(objects, 'LKD-ROUTE-014')).toEqual([]);
    // Not below the request timeout, it would never fire first: ignoring it changes nothing (info).
    expect(ruleFindings(objects, 'LKD-ROUTE-018').map((f) => f.severity)).toEqual([Severity.INFO]);
  });

  test('what K8sDuration cannot read, and negative values, are rejected', () => {
    for (const [value, reason] of [['1d', /unit "d"/], ['10', /a number without a unit/], ['-5s', /is negative/], ['5s-3s', /"-3" where a number belongs/]] as const) {
      const [finding, ...rest] = ruleFindings(policyTimeouts({ request: value }), 'LKD-ROUTE-014');
      expect(rest).toEqual([]);
      expect(finding.message).toMatch(reason);
      expect(finding.message).toMatch(/Linkerd's admission webhook rejects the route/);
    }
  });

  // apiextensions-apiserver validation/formats.go validates format: duration with kube-openapi strfmt ParseDuration.
  test('where the webhook does not run: the CRD\'s format: duration decides, then what the controller can read', () => {
    const unvalidated = (t: Record<string, unknown>) => {
      const objects = policyTimeouts(t);
      pick(objects, 'Namespace', 'mesh-lab').metadata.labels = { 'config.linkerd.io/admission-webhooks': 'disabled' };
      return ruleFindings(objects, 'LKD-ROUTE-014');
    };
    const [days, ...more] = unvalidated({ request: '1d' });
    expect(more).toEqual([]);
    expect(days).toMatchObject({ severity: Severity.ERROR, effect: 'ignored' });
    expect(days.message).toMatch(/unit "d".*admission-webhooks.*the API server admits the route \(its format: duration is looser\), but the policy controller cannot read/);
    const [words] = unvalidated({ request: 'soon' });
    expect(words).toMatchObject({ severity: Severity.ERROR, effect: 'rejected' });
    expect(words.message).toMatch(/the CRD's format: duration refuses it too, so the API server rejects the route/);
    const [negative, ...others] = unvalidated({ request: '-5s', backendRequest: '-1s' });
    expect(others).toEqual([]);
    expect(negative.severity).toBe(Severity.WARNING);
    expect(negative.effect).toBeUndefined();
    expect(negative.message).toMatch(/request: "-5s" is negative; .*nothing refuses it, and the policy controller drops the sign: the timeout is 5s\./);
  });

  test('older versions have no timeouts field: not judged here', () => {
    expect(ruleFindings(policyTimeouts({ request: '1d' }, 'policy.linkerd.io/v1beta2'), 'LKD-ROUTE-014')).toEqual([]);
  });
});

describe('LKD-ROUTE-018 timeout fields Linkerd does not apply', () => {
  test('passes for a plain request timeout', () => {
    expect(ruleFindings(timeouts({ request: '10s' }), 'LKD-ROUTE-018')).toEqual([]);
  });
  test('a backendRequest below the request timeout is not applied: an error', () => {
    const [finding] = ruleFindings(timeouts({ request: '10s', backendRequest: '2s' }), 'LKD-ROUTE-018');
    expect(finding).toMatchObject({ severity: Severity.ERROR, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/rules\[0\]\.timeouts\.backendRequest is set, but Linkerd 2\.20 never reads it/);
  });
  test('warns when the request annotation shadows rules[].timeouts.request', () => {
    const objects = withRoute((r) => { r.spec.rules[0].timeouts = { request: '10s' }; r.metadata.annotations = { 'timeout.linkerd.io/request': '5s' }; });
    expect(ruleFindings(objects, 'LKD-ROUTE-018')[0].message).toMatch(/annotation takes precedence, so rules\[0\]\.timeouts\.request is ignored/);
  });
  test('warns on timeouts in a GRPCRoute', () => {
    const objects = withRoute((r) => { r.kind = 'GRPCRoute'; r.spec.rules[0].timeouts = { request: '10s' }; });
    expect(ruleFindings(objects, 'LKD-ROUTE-018')[0].message).toMatch(/GRPCRoute has no timeouts field/);
  });
});

describe('LKD-ROUTE-015 layer-4 rules and EgressNetwork ports', () => {
  const tcp = (rules: unknown[], parent: Record<string, unknown>) => ({
    apiVersion: 'gateway.networking.k8s.io/v1alpha2',
    kind: 'TCPRoute',
    metadata: { name: 'egress-tcp', namespace: 'mesh-lab' },
    spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'EgressNetwork', name: 'internet', ...parent }], rules },
  });
  const egressBackend = { group: 'policy.linkerd.io', kind: 'EgressNetwork', name: 'internet' };
  test('passes for one rule and a port', () => {
    expect(ruleFindings([...meshLab(), tcp([{ backendRefs: [egressBackend] }], { port: 443 })], 'LKD-ROUTE-015')).toEqual([]);
  });
  test('fires on two rules and on an EgressNetwork parent without port', () => {
    const messages = ruleFindings([...meshLab(), tcp([{ backendRefs: [egressBackend] }, { backendRefs: [egressBackend] }], {})], 'LKD-ROUTE-015')
      .map((f) => `${f.resource.name}: ${f.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^egress-tcp: parentRefs\[0\] \(EgressNetwork internet\) has no valid port/),
      expect.stringMatching(/^egress-tcp: spec\.rules has 2 rules/),
    ]);
    expect(ruleFindings([...meshLab(), tcp([{ backendRefs: [egressBackend] }, { backendRefs: [egressBackend] }], {})], 'LKD-ROUTE-015')
      .map((f) => f.effect)).toEqual([FindingEffect.REJECTED, FindingEffect.REJECTED]);
  });
  test('where the policy validator does not run, the routes are applied and the policy controller drops or never uses them', () => {
    const objects = [...meshLab(), tcp([], {})];
    pick(objects, 'Namespace', 'mesh-lab').metadata.labels = { 'config.linkerd.io/admission-webhooks': 'disabled' };
    const found = ruleFindings(objects, 'LKD-ROUTE-015');
    expect(found.map((f) => [f.severity, f.effect])).toEqual([[Severity.ERROR, FindingEffect.IGNORED], [Severity.ERROR, FindingEffect.IGNORED]]);
    expect(found.map((f) => f.message)).toEqual([
      expect.stringMatching(/^parentRefs\[0\] \(EgressNetwork internet\) has no valid port; Namespace mesh-lab is labelled config\.linkerd\.io\/admission-webhooks: disabled, .* so the TCPRoute is applied unchecked, but the policy controller files a parent without a port under Services only/),
      expect.stringMatching(/^spec\.rules has 0 rules; .* drops this one with a log line \("Failed to convert route"\)\.$/),
    ]);
  });
});

describe('LKD-ROUTE-016 Gateway API bundle and versions', () => {
  test('passes for v1.2.1 and v1.5.1', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-016')).toEqual([]);
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-016', { gatewayApiVersion: 'v1.5.1' })).toEqual([]);
  });
  test.each(['v1.1.1', 'v1.6.1', 'latest'])('fires once for bundle %s', (version) => {
    const findings = ruleFindings([...meshLab(), { ...pick(meshLab(), 'HTTPRoute', 'orders-split'), metadata: { name: 'b', namespace: 'mesh-lab' } }],
      'LKD-ROUTE-016', { gatewayApiVersion: version });
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toContain(`bundle is "${version}", outside the v1.2.1-v1.5.1 range`);
  });
  test('fires on GRPCRoute v1alpha2 and warns on experimental kinds', () => {
    const grpc = { ...pick(meshLab(), 'HTTPRoute', 'orders-split'), apiVersion: 'gateway.networking.k8s.io/v1alpha2', kind: 'GRPCRoute' };
    expect(ruleFindings([grpc], 'LKD-ROUTE-016')[0].message).toMatch(/apiVersion gateway\.networking\.k8s\.io\/v1alpha2 is not served.*use gateway\.networking\.k8s\.io\/v1/);
    const tls = { ...grpc, kind: 'TLSRoute' };
    expect(ruleFindings([tls], 'LKD-ROUTE-016')[0]).toMatchObject({ severity: Severity.WARNING, message: expect.stringContaining('experimental') });
  });
});

describe('LKD-ROUTE-020 fields beyond Gateway API v1.2.1', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-020')).toEqual([]);
  });
  test.each([
    ['a rule name', (r: any) => { r.spec.rules[0].name = 'split'; }, /rules\[0\]\.name is not part of Gateway API v1\.2\.1/],
    ['sessionPersistence', (r: any) => { r.spec.rules[0].sessionPersistence = { type: 'Cookie' }; }, /rules\[0\]\.sessionPersistence/],
    ['a CORS filter', (r: any) => { r.spec.rules[0].filters = [{ type: 'CORS', cors: {} }]; }, /rules\[0\]\.filters\[0\]: a CORS filter/],
    ['mirror percent', (r: any) => { r.spec.rules[0].backendRefs[0].filters = [{ type: 'RequestMirror', requestMirror: { backendRef: { name: 'x', port: 1 }, percent: 10 } }]; },
      /rules\[0\]\.backendRefs\[0\]\.filters\[0\]: requestMirror\.percent\/fraction/],
    ['redirect 308', (r: any) => { r.spec.rules[0] = { filters: [{ type: 'RequestRedirect', requestRedirect: { statusCode: 308 } }] }; }, /statusCode 308/],
    ['an empty rules list', (r: any) => { r.spec.rules = []; }, /spec\.rules is an explicit empty list/],
  ])('fires on %s', (_, mutate, pattern) => {
    const [finding] = ruleFindings(withRoute(mutate), 'LKD-ROUTE-020');
    expect(finding).toMatchObject({ severity: Severity.ERROR, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(pattern);
  });
  test('fires on more than 8 matches in a GRPCRoute rule', () => {
    const objects = withRoute((r) => {
      r.kind = 'GRPCRoute';
      r.spec.rules[0].matches = Array.from({ length: 9 }, (_, i) => ({ method: { service: 'orders.v1.Orders', method: `M${i}` } }));
    });
    expect(ruleFindings(objects, 'LKD-ROUTE-020')[0].message).toMatch(/rules\[0\]\.matches has 9 entries \(v1\.2\.1 allows 8\)/);
  });
  // Gateway API v1.5.1's own examples/standard/http-redirect-rewrite: a Gateway's route redirecting with 303.
  const gatewayRedirect = (r: any) => {
    r.spec.parentRefs = [{ name: 'redirect-gateway' }];
    r.spec.rules[0] = { filters: [{ type: 'RequestRedirect', requestRedirect: { statusCode: 303 } }] };
  };
  test('a route only Gateways take is judged against the declared bundle, not Linkerd', () => {
    const [finding] = ruleFindings(withRoute(gatewayRedirect), 'LKD-ROUTE-020');
    expect(finding.severity).toBe(Severity.WARNING);
    expect(finding.message).toMatch(/statusCode 303 .*is not part of the standard Gateway API v1\.2\.1 declared as gatewayApiVersion: its API server rejects/);
    expect(finding.message).not.toMatch(/Linkerd 2\.20 ignores/);
    expect(ruleFindings(withRoute(gatewayRedirect), 'LKD-ROUTE-020', { gatewayApiVersion: 'v1.5.1' })).toEqual([]);
  });
  // Linkerd reads routes with the gateway-api 0.16 experimental types: unknown fields are skipped, unknown enum values are not.
  test('on a declared v1.5.1 bundle a Service parent\'s route is judged by how Linkerd reads it', () => {
    const v151 = { gatewayApiVersion: 'v1.5.1' };
    const named = withRoute((r) => { r.spec.rules[0].name = 'split'; });
    expect(ruleFindings(named, 'LKD-ROUTE-020', v151)).toEqual([]);
    const redirect = withRoute((r) => { r.spec.rules[0] = { filters: [{ type: 'RequestRedirect', requestRedirect: { statusCode: 308 } }] }; });
    expect(ruleFindings(redirect, 'LKD-ROUTE-020', v151)).toEqual([]);
    const cors = withRoute((r) => { r.spec.rules[0].filters = [{ type: 'CORS', cors: { allowOrigins: ['https://example.com'] } }]; });
    const [unreadable] = ruleFindings(cors, 'LKD-ROUTE-020', v151);
    expect(unreadable).toMatchObject({ severity: Severity.ERROR, effect: FindingEffect.IGNORED });
    expect(unreadable.message).toMatch(/cannot read the route and ignores it whole/);
    const retry = withRoute((r) => { r.spec.rules[0].retry = { attempts: 3, codes: [503] }; });
    const [unapplied] = ruleFindings(retry, 'LKD-ROUTE-020', v151);
    expect(unapplied.severity).toBe(Severity.ERROR);
    expect(unapplied.effect).toBeUndefined();
    expect(unapplied.message).toMatch(/rules\[0\]\.retry is read by Linkerd 2\.20 but not applied.*retry\.linkerd\.io/);
  });
  test('on v1.2.1 a newer field of a Linkerd-served route is the API server\'s refusal, not Linkerd ignoring the route', () => {
    const [finding] = ruleFindings(withRoute((r) => { r.spec.rules[0].name = 'split'; }), 'LKD-ROUTE-020');
    expect(finding.effect).toBe(FindingEffect.REJECTED);
    expect(finding.message).toMatch(/a v1\.2\.1 API server rejects \(or with lax validation drops\) it.*declare the bundle you install/);
    expect(finding.message).not.toMatch(/Linkerd 2\.20 ignores/);
  });
});
