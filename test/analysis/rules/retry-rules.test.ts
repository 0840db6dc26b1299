import { analyze } from '../../../src/analysis/engine';
import { FindingEffect, Severity } from '../../../src/analysis/finding';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

function ruleFindings(objects: any[], ruleId: string) {
  return analyze(asManifests(objects)).findings.filter((f) => f.ruleId === ruleId);
}

/** The baseline with annotations on the route and/or the orders Service, and optional rule edits. */
function mesh(routeAnnotations?: Record<string, unknown>, serviceAnnotations?: Record<string, unknown>, editRoute?: (route: any) => void): any[] {
  const objects = meshLab();
  const route = pick(objects, 'HTTPRoute', 'orders-split');
  if (routeAnnotations) route.metadata.annotations = routeAnnotations;
  if (serviceAnnotations) pick(objects, 'Service', 'orders').metadata.annotations = serviceAnnotations;
  editRoute?.(route);
  return objects;
}

const getOnly = (route: any) => { route.spec.rules[0].matches = [{ method: 'GET' }, { method: 'HEAD' }]; };
const asGrpc = (route: any) => { route.kind = 'GRPCRoute'; };

describe('LKD-RETRY-001 retries on non-idempotent requests', () => {
  test('passes when the retried rule matches only GET/HEAD', () => {
    expect(ruleFindings(mesh({ 'retry.linkerd.io/http': '5xx' }, undefined, getOnly), 'LKD-RETRY-001')).toEqual([]);
  });
  test('warns when a rule without method match retries', () => {
    const [finding] = ruleFindings(mesh({ 'retry.linkerd.io/http': '5xx' }), 'LKD-RETRY-001');
    expect(finding).toMatchObject({ severity: Severity.WARNING, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/retries \(retry\.linkerd\.io\/http="5xx"\) apply to rules\[0\] has no matches.*take effect twice/);
  });
  test('warns on a POST match, with retries inherited from the Service', () => {
    const objects = mesh(undefined, { 'retry.linkerd.io/http': 'gateway-error' }, (r) => { r.spec.rules[0].matches = [{ method: 'GET' }, { method: 'POST' }]; });
    expect(ruleFindings(objects, 'LKD-RETRY-001')[0].message)
      .toMatch(/inherited from Service mesh-lab\/orders\) apply to rules\[0\]\.matches\[1\] matches method POST/);
  });
  test('for GRPCRoute, an exact method is accepted and a service-wide match is flagged', () => {
    const exact = (r: any) => { asGrpc(r); r.spec.rules[0].matches = [{ method: { service: 'orders.v1.Orders', method: 'GetOrder' } }]; };
    expect(ruleFindings(mesh({ 'retry.linkerd.io/grpc': 'unavailable' }, undefined, exact), 'LKD-RETRY-001')).toEqual([]);
    const serviceWide = (r: any) => { asGrpc(r); r.spec.rules[0].matches = [{ method: { service: 'orders.v1.Orders' } }]; };
    expect(ruleFindings(mesh({ 'retry.linkerd.io/grpc': 'unavailable' }, undefined, serviceWide), 'LKD-RETRY-001')[0].message)
      .toMatch(/rules\[0\]\.matches\[0\] does not name one gRPC method/);
  });
  // index/http.rs parse_http_retry errors drop the block (Service) or fail the whole route's conversion: nothing retries.
  test('no warning for retries Linkerd never applies: an unreadable value drops the Service\'s block, or the whole route', () => {
    expect(ruleFindings(mesh({ 'retry.linkerd.io/limit': '65536' }), 'LKD-RETRY-001')).toEqual([]);
    expect(ruleFindings(mesh({ 'timeout.linkerd.io/request': '1m30s', 'retry.linkerd.io/http': '5xx' }), 'LKD-RETRY-001')).toEqual([]);
    expect(ruleFindings(mesh(undefined, { 'retry.linkerd.io/http': '' }), 'LKD-RETRY-001')).toEqual([]);
    const bare = mesh(undefined, { 'retry.linkerd.io/http': '' });
    bare.splice(bare.indexOf(pick(bare, 'HTTPRoute', 'orders-split')), 1);
    expect(ruleFindings(bare, 'LKD-RETRY-001')).toEqual([]);
  });
  test('warns on a Service with retries and no route', () => {
    const objects = mesh(undefined, { 'retry.linkerd.io/limit': '2' });
    objects.splice(objects.indexOf(pick(objects, 'HTTPRoute', 'orders-split')), 1);
    const [finding] = ruleFindings(objects, 'LKD-RETRY-001');
    expect(finding).toMatchObject({ resource: { kind: 'Service', name: 'orders' }, message: expect.stringContaining('every request to this Service') });
  });
});

describe('LKD-RETRY-002 annotation grammar', () => {
  test('passes for valid values', () => {
    const good = { 'retry.linkerd.io/http': '5xx,429', 'retry.linkerd.io/limit': '3', 'retry.linkerd.io/timeout': '300ms', 'timeout.linkerd.io/request': '10s' };
    expect(ruleFindings(mesh(good, good, getOnly), 'LKD-RETRY-002')).toEqual([]);
  });
  test('fires on a route value with a space, naming the webhook rejection', () => {
    const [finding] = ruleFindings(mesh({ 'retry.linkerd.io/http': '5xx, 429' }, undefined, getOnly), 'LKD-RETRY-002');
    expect(finding).toMatchObject({ severity: Severity.ERROR, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/annotation retry\.linkerd\.io\/http: item " 429".*webhook rejects the route/);
  });
  test('where the webhook does not run, the route is applied and the policy controller skips it whole (ignored, not rejected)', () => {
    const objects = mesh({ 'retry.linkerd.io/http': '5xx, 429' }, undefined, getOnly);
    pick(objects, 'Namespace', 'mesh-lab').metadata.labels = { 'config.linkerd.io/admission-webhooks': 'disabled' };
    const [finding] = ruleFindings(objects, 'LKD-RETRY-002');
    expect(finding).toMatchObject({ severity: Severity.ERROR, effect: FindingEffect.IGNORED });
    expect(finding.message).toMatch(/; Namespace mesh-lab is labelled config\.linkerd\.io\/admission-webhooks: disabled, .*so the route is applied unchecked, and the policy controller cannot convert it and skips the whole route \("Failed to convert route"\)\.$/);
  });
  test('fires on Service values the webhook never sees', () => {
    const messages = ruleFindings(mesh(undefined, { 'retry.linkerd.io/limit': '70000', 'timeout.linkerd.io/request': '1m30s' }), 'LKD-RETRY-002')
      .map((f) => `${f.resource.kind}: ${f.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^Service: annotation retry\.linkerd\.io\/limit: "70000" is larger than 65535.*ignores this Service's HTTP and gRPC retry settings \(its timeouts still apply\)/),
      expect.stringMatching(/^Service: annotation timeout\.linkerd\.io\/request: .*compound.*ignores this Service's timeout settings/),
    ]);
    // index.rs parses the HTTP and the gRPC retry apart: a bad gRPC list costs only the gRPC retries.
    const [grpc] = ruleFindings(mesh(undefined, { 'retry.linkerd.io/grpc': 'unavailable,aborted', 'retry.linkerd.io/http': '5xx' }), 'LKD-RETRY-002');
    expect(grpc.message).toMatch(/ignores this Service's gRPC retry settings \(its HTTP retries and timeouts still apply\)/);
  });
  test('checks gRPC codes on GRPCRoutes', () => {
    expect(ruleFindings(mesh({ 'retry.linkerd.io/grpc': 'not-found' }, undefined, asGrpc), 'LKD-RETRY-002')[0].message)
      .toMatch(/item "not-found" is not one of cancelled/);
  });
  test('fires on EgressNetwork values, which the outbound index reads as a Service\'s and the webhook does not check', () => {
    const egressNetwork = (annotations: Record<string, string>) => ({
      apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { name: 'internet', namespace: 'mesh-lab', annotations }, spec: { trafficPolicy: 'Allow' },
    });
    const egress = (annotations: Record<string, string>) => [...meshLab(), egressNetwork(annotations)];
    expect(ruleFindings(egress({ 'retry.linkerd.io/http': '5xx', 'timeout.linkerd.io/request': '10s' }), 'LKD-RETRY-002')).toEqual([]);
    const [finding, ...rest] = ruleFindings(egress({ 'timeout.linkerd.io/request': '1m30s' }), 'LKD-RETRY-002');
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ resource: { kind: 'EgressNetwork', name: 'internet' } });
    expect(finding.effect).toBeUndefined();
    expect(finding.message).toMatch(/the webhook does not check an EgressNetwork's annotations, so Linkerd only logs an error and ignores this EgressNetwork's timeout settings/);
  });
});

describe('LKD-RETRY-003 retry attempts fit the request timeout', () => {
  const retry = (timeout: string, limit = '3') => ({ 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/limit': limit, 'retry.linkerd.io/timeout': timeout });
  test('passes when every attempt fits', () => {
    expect(ruleFindings(mesh({ ...retry('1s'), 'timeout.linkerd.io/request': '4s' }, undefined, getOnly), 'LKD-RETRY-003')).toEqual([]);
  });
  test('warns when attempts do not fit', () => {
    const [finding] = ruleFindings(mesh({ ...retry('2s'), 'timeout.linkerd.io/request': '5s' }, undefined, getOnly), 'LKD-RETRY-003');
    expect(finding).toMatchObject({ severity: Severity.WARNING, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/retry\.linkerd\.io\/timeout 2s x 4 attempts \(limit 3 \+ the first\) = 8s exceeds the request timeout 5s.*at most 2 attempt/);
  });
  test('warns when the retry timeout is not shorter than the request timeout from rules[].timeouts', () => {
    const objects = mesh(retry('10s', '1'), undefined, (r) => { getOnly(r); r.spec.rules[0].timeouts = { request: '10s' }; });
    expect(ruleFindings(objects, 'LKD-RETRY-003')[0].message).toMatch(/10s is not shorter than the request timeout 10s \(rules\[0\]\.timeouts\.request\)/);
  });
  test('uses the Service request timeout when the route has none, and checks the Service itself', () => {
    const objects = mesh(retry('3s', '2'), { 'timeout.linkerd.io/request': '5s', 'retry.linkerd.io/timeout': '5s' }, getOnly);
    const messages = ruleFindings(objects, 'LKD-RETRY-003').map((f) => `${f.resource.kind}: ${f.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^HTTPRoute: .*exceeds the request timeout 5s \(timeout\.linkerd\.io\/request on Service mesh-lab\/orders\)/),
      expect.stringMatching(/^Service: .*5s is not shorter than the request timeout 5s/),
    ]);
  });
});

describe('LKD-RETRY-004 misplaced annotations', () => {
  test('passes for http retries on an HTTPRoute', () => {
    expect(ruleFindings(mesh({ 'retry.linkerd.io/http': '5xx' }, undefined, getOnly), 'LKD-RETRY-004')).toEqual([]);
  });
  test('warns on the gRPC family on an HTTPRoute', () => {
    const [finding] = ruleFindings(mesh({ 'retry.linkerd.io/grpc': 'unavailable' }, undefined, getOnly), 'LKD-RETRY-004');
    expect(finding).toMatchObject({ resource: { name: 'orders-split' }, message: expect.stringContaining('retry.linkerd.io/grpc is never read on HTTPRoutes') });
  });
  test('warns on retries on a Server-parented route', () => {
    const objects = mesh({ 'retry.linkerd.io/http': '5xx' }, undefined, (r) => { r.spec.parentRefs = [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }]; });
    expect(ruleFindings(objects, 'LKD-RETRY-004')[0].message).toMatch(/parent is a Server \(an inbound, policy route\)/);
  });
  test('warns on a Deployment pod template', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'client').spec.template.metadata.annotations = { 'timeout.linkerd.io/request': '5s' };
    const [finding] = ruleFindings(objects, 'LKD-RETRY-004');
    expect(finding).toMatchObject({ resource: { kind: 'Deployment', name: 'client' }, message: expect.stringContaining('pod template carries timeout.linkerd.io/request') });
  });
  test('warns on workload metadata', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'orders-v1').metadata.annotations = { 'retry.linkerd.io/http': '5xx' };
    const [finding] = ruleFindings(objects, 'LKD-RETRY-004');
    expect(finding).toMatchObject({ resource: { kind: 'Deployment', name: 'orders-v1' }, message: expect.stringContaining('are on a Deployment, where Linkerd never reads them') });
  });
  // grpc/src/outbound.rs to_proto: a port serving GRPCRoutes gets the Service's gRPC retry, any other HTTP port its HTTP
  // retry (the default route's too), an opaque port (or an unknown appProtocol) neither, nor the timeouts.
  describe('on a Service, the family each port uses', () => {
    /** The baseline without its HTTPRoute: the orders Service serves its default route. */
    const bare = (serviceAnnotations: Record<string, string>, port: Record<string, unknown> = {}) => {
      const objects = meshLab().filter((o) => o.kind !== 'HTTPRoute');
      const service = pick(objects, 'Service', 'orders');
      service.metadata.annotations = serviceAnnotations;
      Object.assign(service.spec.ports[0], port);
      return objects;
    };
    test('the HTTP retry on the default route is used; the gRPC retry without a GRPCRoute is not', () => {
      expect(ruleFindings(bare({ 'retry.linkerd.io/http': '5xx' }), 'LKD-RETRY-004')).toEqual([]);
      expect(ruleFindings(bare({ 'retry.linkerd.io/grpc': 'unavailable' }), 'LKD-RETRY-004').map((f) => f.message)).toEqual([
        expect.stringMatching(/^annotations retry.linkerd.io\/grpc are never applied: port 8080 \(detect: .*\) uses retry.linkerd.io\/http/),
      ]);
    });
    test('with a GRPCRoute on the port, the gRPC retry is used and the HTTP one is not', () => {
      const grpc = {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'GRPCRoute',
        metadata: { name: 'orders-grpc', namespace: 'mesh-lab' },
        spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }], rules: [{ backendRefs: [{ name: 'orders-v1', port: 8080 }] }] },
      };
      expect(ruleFindings([...bare({ 'retry.linkerd.io/grpc': 'unavailable' }), grpc], 'LKD-RETRY-004')).toEqual([]);
      expect(ruleFindings([...bare({ 'retry.linkerd.io/http': '5xx' }), grpc], 'LKD-RETRY-004').map((f) => f.message))
        .toEqual([expect.stringMatching(/retry.linkerd.io\/http are never applied: port 8080 .* uses retry.linkerd.io\/grpc/)]);
    });
    test('on an opaque port no retry or timeout applies, and LKD-RETRY-001 does not claim that requests are retried', () => {
      for (const port of [{ appProtocol: 'linkerd.io/opaque' }, { appProtocol: 'grpc' }]) {
        const objects = bare({ 'retry.linkerd.io/http': '5xx', 'timeout.linkerd.io/request': '5s' }, port);
        expect(ruleFindings(objects, 'LKD-RETRY-004').map((f) => f.message))
          .toEqual([expect.stringMatching(/retry.linkerd.io\/http, timeout.linkerd.io\/request are never applied: port 8080 \((opaque|unknown): appProtocol .*\) uses none/)]);
        expect(ruleFindings(objects, 'LKD-RETRY-001')).toEqual([]);
      }
      expect(ruleFindings(bare({ 'retry.linkerd.io/http': '5xx' }), 'LKD-RETRY-001')).toHaveLength(1);
    });
  });
});

describe('LKD-RETRY-005 route settings replace the Service\'s', () => {
  test('passes when the route repeats the Service\'s keys', () => {
    const all = { 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/timeout': '300ms' };
    expect(ruleFindings(mesh({ ...all, 'retry.linkerd.io/limit': '3' }, all, getOnly), 'LKD-RETRY-005')).toEqual([]);
  });
  test('warns when the route sets only the limit', () => {
    const objects = mesh({ 'retry.linkerd.io/limit': '3' }, { 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/timeout': '300ms' }, getOnly);
    const [finding] = ruleFindings(objects, 'LKD-RETRY-005');
    expect(finding).toMatchObject({ severity: Severity.WARNING, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/the route sets retry\.linkerd\.io\/limit.*Service's retry\.linkerd\.io\/http="5xx", retry\.linkerd\.io\/timeout="300ms".*no longer applies/);
  });
  // parse_http_retry drops a limit of 0 and a zero timeout; with nothing left the route has no retry block of its own.
  test('a route whose only retry keys are a 0 limit or a zero timeout keeps the Service\'s retries', () => {
    const service = { 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/limit': '2', 'retry.linkerd.io/timeout': '200ms' };
    expect(ruleFindings(mesh({ 'retry.linkerd.io/limit': '0' }, service, getOnly), 'LKD-RETRY-005')).toEqual([]);
    expect(ruleFindings(mesh({ 'retry.linkerd.io/timeout': '0s' }, service, getOnly), 'LKD-RETRY-005')).toEqual([]);
    expect(ruleFindings(mesh({ 'retry.linkerd.io/limit': '1' }, service, getOnly), 'LKD-RETRY-005')).toHaveLength(1);
  });
  test('warns when a rule timeout hides the Service\'s timeouts', () => {
    const objects = mesh(undefined, { 'timeout.linkerd.io/response': '2s' }, (r) => { r.spec.rules[0].timeouts = { request: '10s' }; });
    expect(ruleFindings(objects, 'LKD-RETRY-005')[0].message).toMatch(/rules\[0\] set timeouts\.request.*timeout\.linkerd\.io\/response="2s".*no longer applies/);
  });
});

describe('LKD-RETRY-006 unknown keys', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-RETRY-006')).toEqual([]);
  });
  test('warns on a misspelt key and suggests the right one', () => {
    const [finding] = ruleFindings(mesh(undefined, { 'retry.linkerd.io/limits': '3' }), 'LKD-RETRY-006');
    expect(finding).toMatchObject({ resource: { kind: 'Service', name: 'orders' }, message: expect.stringContaining('did you mean retry.linkerd.io/limit?') });
  });
});

/**
 * The outbound index reads an EgressNetwork's retry and timeout annotations as a Service's, its routes inherit them,
 * and its default route (which routes never replace) carries them too.
 */
describe('EgressNetwork parents (LKD-RETRY-001, -003, -005)', () => {
  const egress = (annotations: Record<string, string>, trafficPolicy = 'Allow') => ({
    apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { name: 'internet', namespace: 'mesh-lab', annotations }, spec: { trafficPolicy },
  });
  const egressRoute = (annotations?: Record<string, string>, rule: Record<string, unknown> = { matches: [{ method: 'GET' }] }) => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'to-internet', namespace: 'mesh-lab', ...(annotations ? { annotations } : {}) },
    spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'EgressNetwork', name: 'internet', port: 80 }], rules: [rule] },
  });
  const budget = { 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/limit': '3', 'retry.linkerd.io/timeout': '2s', 'timeout.linkerd.io/request': '5s' };

  test('RETRY-001: an EgressNetwork with retries and no route retries every request it lets out', () => {
    const [finding, ...rest] = ruleFindings([...meshLab(), egress({ 'retry.linkerd.io/http': '5xx' })], 'LKD-RETRY-001');
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ severity: Severity.WARNING, resource: { kind: 'EgressNetwork', name: 'internet' } });
    expect(finding.message).toMatch(/retries \(retry\.linkerd\.io\/http="5xx"\) apply to every request this EgressNetwork lets out \(trafficPolicy Allow, no route attached\)/);
  });
  test('RETRY-001: nothing when the EgressNetwork denies, has no retry keys, or a route takes its traffic', () => {
    expect(ruleFindings([...meshLab(), egress({ 'retry.linkerd.io/http': '5xx' }, 'Deny')], 'LKD-RETRY-001')).toEqual([]);
    expect(ruleFindings([...meshLab(), egress({ 'timeout.linkerd.io/request': '5s' })], 'LKD-RETRY-001')).toEqual([]);
    expect(ruleFindings([...meshLab(), egress({ 'retry.linkerd.io/http': '5xx' }), egressRoute()], 'LKD-RETRY-001')).toEqual([]);
  });
  test('RETRY-001: a route of an EgressNetwork inherits its retries', () => {
    const [finding] = ruleFindings([...meshLab(), egress({ 'retry.linkerd.io/http': '5xx' }), egressRoute(undefined, { matches: [{ method: 'POST' }] })], 'LKD-RETRY-001');
    expect(finding).toMatchObject({ resource: { kind: 'HTTPRoute', name: 'to-internet' } });
    expect(finding.message).toMatch(/inherited from EgressNetwork mesh-lab\/internet\) apply to rules\[0\]\.matches\[0\] matches method POST/);
  });
  test('RETRY-003: the EgressNetwork\'s own retry and request timeouts, and a route inheriting both', () => {
    const messages = ruleFindings([...meshLab(), egress(budget), egressRoute()], 'LKD-RETRY-003').map((f) => `${f.resource.kind}: ${f.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^EgressNetwork: retry\.linkerd\.io\/timeout 2s x 4 attempts .* exceeds the request timeout 5s \(timeout\.linkerd\.io\/request on the EgressNetwork\)/),
      expect.stringMatching(/^HTTPRoute: retry\.linkerd\.io\/timeout 2s x 4 attempts .* exceeds the request timeout 5s \(timeout\.linkerd\.io\/request on EgressNetwork mesh-lab\/internet\).*inherited from EgressNetwork mesh-lab\/internet/),
    ]);
    expect(ruleFindings([...meshLab(), egress({ ...budget, 'retry.linkerd.io/timeout': '1s' }), egressRoute()], 'LKD-RETRY-003')).toEqual([]);
  });
  test('RETRY-005: a route\'s own retry keys drop the EgressNetwork\'s', () => {
    const [finding] = ruleFindings([...meshLab(), egress(budget), egressRoute({ 'retry.linkerd.io/limit': '1' })], 'LKD-RETRY-005');
    expect(finding).toMatchObject({ resource: { kind: 'HTTPRoute', name: 'to-internet' } });
    expect(finding.message).toMatch(/the EgressNetwork's retry\.linkerd\.io\/http="5xx", retry\.linkerd\.io\/timeout="2s" \(EgressNetwork mesh-lab\/internet\) no longer applies/);
  });
});
