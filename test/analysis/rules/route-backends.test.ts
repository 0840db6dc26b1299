import { analyze } from '../../../src/analysis/engine';
import { FindingEffect, Severity } from '../../../src/analysis/finding';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

function ruleFindings(objects: any[], ruleId: string) {
  return analyze(asManifests(objects)).findings.filter((f) => f.ruleId === ruleId);
}

/** The route as inbound policy: its one parent is the Server, whose routes Linkerd keeps without their backends. */
function onServer(route: any): void {
  route.spec.parentRefs = [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }];
}

function withRule(mutate: (rule: any, route: any) => void): any[] {
  const objects = meshLab();
  const route = pick(objects, 'HTTPRoute', 'orders-split');
  mutate(route.spec.rules[0], route);
  return objects;
}

describe('LKD-ROUTE-006 Service backend port', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-006')).toEqual([]);
  });
  test('fires on a backend without port', () => {
    const [finding] = ruleFindings(withRule((rule) => { delete rule.backendRefs[1].port; }), 'LKD-ROUTE-006');
    expect(finding.resource.name).toBe('orders-split');
    expect(finding.message).toMatch(/rules\[0\]\.backendRefs\[1\] \(Service orders-v2\) has no port.*weight 10.*HTTP 500/);
  });
  test('explains that group core slips past the CRD', () => {
    const objects = withRule((rule) => { rule.backendRefs[0] = { group: 'core', kind: 'Service', name: 'orders-v1' }; });
    expect(ruleFindings(objects, 'LKD-ROUTE-006')[0].message).toMatch(/weight 1 \(default\).*group "core" slips past the API server/);
  });
  // admission.rs validate_http_backend_if_service compares exactly ("Service", "core"); the index (is_service) ignores case.
  test('a lowercase kind passes the webhook and fails as an invalid backend; a policy.linkerd.io route is not checked by the webhook', () => {
    const lower = withRule((rule) => { rule.backendRefs[1] = { kind: 'service', name: 'orders-v2' }; });
    const [finding] = ruleFindings(lower, 'LKD-ROUTE-006');
    expect(finding).toMatchObject({ effect: FindingEffect.IGNORED });
    expect(finding.message).toMatch(/the webhook compares group and kind exactly and lets kind "service" through, but Linkerd's index reads them case-insensitively/);
    const policy = withRule((rule, route) => { route.apiVersion = 'policy.linkerd.io/v1beta3'; delete rule.backendRefs[1].port; });
    expect(ruleFindings(policy, 'LKD-ROUTE-006')[0]).toMatchObject({ effect: FindingEffect.IGNORED, message: expect.stringMatching(/nothing refuses it on a policy.linkerd.io HTTPRoute/) });
    expect(ruleFindings(withRule((rule) => { delete rule.backendRefs[1].port; }), 'LKD-ROUTE-006')[0]).toMatchObject({ effect: FindingEffect.REJECTED });
  });
  test('fires on port 0', () => {
    expect(ruleFindings(withRule((rule) => { rule.backendRefs[0].port = 0; }), 'LKD-ROUTE-006')[0].message).toMatch(/has port 0/);
  });
  // inbound/index/http.rs keeps a Server's routes without backends; outbound/index.rs skips a Server parent; only the
  // webhook (admission.rs, every gateway.networking.k8s.io route's backends) still looks at them.
  test('on a route whose only parent is a Server, the backends are unused: only the webhook\'s refusal is reported', () => {
    const policy = withRule((rule, route) => { route.apiVersion = 'policy.linkerd.io/v1beta3'; onServer(route); delete rule.backendRefs[1].port; });
    expect(ruleFindings(policy, 'LKD-ROUTE-006')).toEqual([]);
    const gateway = withRule((rule, route) => { onServer(route); delete rule.backendRefs[1].port; });
    const [finding] = ruleFindings(gateway, 'LKD-ROUTE-006');
    expect(finding).toMatchObject({ effect: FindingEffect.REJECTED, message: expect.stringMatching(/webhook rejects a gateway.networking.k8s.io route like this\. Set/) });
  });
});

describe('LKD-ROUTE-007 backend Service exists and has the port', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-007')).toEqual([]);
  });
  test('fires on a missing backend Service', () => {
    const [finding] = ruleFindings(withRule((rule) => { rule.backendRefs[1].name = 'orders-v3'; }), 'LKD-ROUTE-007');
    expect(finding.resource.name).toBe('orders-split');
    expect(finding.message).toMatch(/rules\[0\]\.backendRefs\[1\] names Service mesh-lab\/orders-v3.*BackendNotFound/);
  });
  test('fires on a port the backend Service does not expose', () => {
    const [finding] = ruleFindings(withRule((rule) => { rule.backendRefs[0].port = 80; }), 'LKD-ROUTE-007');
    expect(finding.message).toMatch(/rules\[0\]\.backendRefs\[0\]\.port 80 is not a port of Service mesh-lab\/orders-v1/);
  });
  // controller/api/destination/watcher/endpoints_watcher.go getTargetPort: a number no Service port has is the pods' port.
  test('a port that is no Service port is sent to the pods directly: information where they declare it, a warning where they declare none', () => {
    const objects = withRule((rule) => { rule.backendRefs[0].port = 9000; });
    pick(objects, 'Service', 'orders-v1').spec.ports = [{ name: 'http', port: 80, targetPort: 9000 }];
    const v1 = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'orders-v1');
    v1.spec.template.spec.containers[0].ports = [{ containerPort: 9000 }];
    expect(ruleFindings(objects, 'LKD-ROUTE-007').map((f) => [f.severity, f.message])).toEqual([
      [Severity.INFO, expect.stringMatching(/port 9000 is not a port of Service mesh-lab\/orders-v1 .*sends to port 9000 on the Service's pods directly, which they declare, so this works on Linkerd/)],
    ]);
    delete v1.spec.template.spec.containers[0].ports;
    expect(ruleFindings(objects, 'LKD-ROUTE-007').map((f) => f.severity)).toEqual([Severity.WARNING]);
  });
  // Gateway API's GAMMA conformance (v1.5.1 tests/mesh/grpcroute-weight.yaml) lists a missing echo-v3 at weight 0.
  test('a backend with weight 0 receives no request: a missing Service or port there is a warning', () => {
    const missing = withRule((rule) => { Object.assign(rule.backendRefs[1], { name: 'orders-v3', weight: 0 }); });
    expect(ruleFindings(missing, 'LKD-ROUTE-007').map((f) => [f.severity, f.message])).toEqual([
      ['warning', expect.stringMatching(/names Service mesh-lab\/orders-v3, .* it has weight 0, so no request goes there, but the route's status reports BackendNotFound/)],
    ]);
    const wrongPort = withRule((rule) => { Object.assign(rule.backendRefs[0], { port: 80, weight: 0 }); });
    expect(ruleFindings(wrongPort, 'LKD-ROUTE-007').map((f) => f.severity)).toEqual(['warning']);
  });
  test('follows the backend namespace', () => {
    const objects = withRule((rule) => { rule.backendRefs[0].namespace = 'elsewhere'; });
    expect(ruleFindings(objects, 'LKD-ROUTE-007')[0].message).toContain('Service elsewhere/orders-v1');
  });
  // outbound/index.rs apply_http → Namespace::apply_http_route → index/http.rs convert_backend(&self.namespace): the parent's.
  test('a consumer route\'s backendRef without a namespace resolves in the parent Service\'s namespace, not the route\'s', () => {
    const consumer = (backend: string) => ({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'web-orders', namespace: 'web' },
      spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', namespace: 'mesh-lab', port: 8080 }], rules: [{ backendRefs: [{ name: backend, port: 8080 }] }] },
    });
    const webService = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web-local', namespace: 'web' }, spec: { ports: [{ port: 8080 }] } };
    expect(ruleFindings([...meshLab(), consumer('orders-v2')], 'LKD-ROUTE-007')).toEqual([]);
    const [finding] = ruleFindings([...meshLab(), webService, consumer('web-local')], 'LKD-ROUTE-007');
    expect(finding.message).toMatch(/names Service mesh-lab\/web-local \(Linkerd's outbound index resolves a backendRef without a namespace in its parent's namespace, not in the route's/);
  });
});

describe('LKD-ROUTE-008 backend kind', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-008')).toEqual([]);
  });
  test('fires on a Deployment backend', () => {
    const [finding] = ruleFindings(withRule((rule) => { Object.assign(rule.backendRefs[1], { group: 'apps', kind: 'Deployment' }); }), 'LKD-ROUTE-008');
    expect(finding.resource.name).toBe('orders-split');
    expect(finding.message).toMatch(/rules\[0\]\.backendRefs\[1\] has kind apps\/Deployment.*InvalidKind/);
  });
  test('fires on an EgressNetwork backend under a Service parent, passes under the same EgressNetwork', () => {
    const egress = { group: 'policy.linkerd.io', kind: 'EgressNetwork', name: 'internet', namespace: 'mesh-lab' };
    const objects = withRule((rule) => { rule.backendRefs = [{ ...egress, port: 443 }]; });
    expect(ruleFindings(objects, 'LKD-ROUTE-008')[0].message).toMatch(/is EgressNetwork internet, but under Service mesh-lab\/orders \(parents of this route\) it is not the parent itself/);
    const fixed = withRule((rule, route) => { rule.backendRefs = [{ ...egress, port: 443 }]; route.spec.parentRefs = [{ ...egress, port: 443 }]; });
    expect(ruleFindings(fixed, 'LKD-ROUTE-008')).toEqual([]);
  });
  // grpc/src/outbound/http.rs convert_backend: each parent's policy is built apart, and the backend must be that parent.
  test('an EgressNetwork backend is judged under each parent: one of two EgressNetwork parents is not enough', () => {
    const egress = (name: string) => ({ group: 'policy.linkerd.io', kind: 'EgressNetwork', name, port: 443 });
    const objects = withRule((rule, route) => { rule.backendRefs = [{ group: 'policy.linkerd.io', kind: 'EgressNetwork', name: 'internet' }]; route.spec.parentRefs = [egress('internet'), egress('partners')]; });
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-008');
    expect(finding.message).toMatch(/under EgressNetwork mesh-lab\/partners \(parents of this route\)/);
  });
  // Gateway API's own examples (examples/standard/multicluster) route a Gateway to a ServiceImport: that backend is the
  // gateway implementation's to support, and Linkerd's indexes never take a route without a Service or EgressNetwork.
  const serviceImport = (rule: any) => { rule.backendRefs = [{ group: 'multicluster.x-k8s.io', kind: 'ServiceImport', name: 'orders', port: 8080 }]; };
  test('passes where only a Gateway or a Server is the parent (no client proxy forwards to those backends)', () => {
    const gateway = { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'external-http' };
    const server = { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' };
    for (const parent of [gateway, server]) {
      const objects = withRule((rule, route) => { serviceImport(rule); route.spec.parentRefs = [parent]; });
      expect(ruleFindings(objects, 'LKD-ROUTE-008')).toEqual([]);
    }
  });
  test('fires when a Service parent sits beside the Gateway', () => {
    const objects = withRule((rule, route) => {
      serviceImport(rule);
      route.spec.parentRefs = [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'external-http' }, ...route.spec.parentRefs];
    });
    expect(ruleFindings(objects, 'LKD-ROUTE-008')[0].message).toMatch(/has kind multicluster\.x-k8s\.io\/ServiceImport/);
  });
});

describe('LKD-ROUTE-010 backend sanity', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-010')).toEqual([]);
  });
  test('warns on a duplicate backend in one rule', () => {
    const [finding] = ruleFindings(withRule((rule) => { rule.backendRefs[1].name = 'orders-v1'; }), 'LKD-ROUTE-010');
    expect(finding).toMatchObject({ severity: Severity.WARNING, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/rules\[0\]\.backendRefs\[1\] repeats rules\[0\]\.backendRefs\[0\] \(Service mesh-lab\/orders-v1:8080\)/);
  });
  // outbound/index/http.rs convert_backend: each backendRef is a weighted backend with its own filters.
  test('the same Service with its own filters is a share of its own, not a repeat; the same filters in another key order are', () => {
    const flag = (set: Record<string, string>) => [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [set] } }];
    const flagged = withRule((rule) => { rule.backendRefs[1].name = 'orders-v1'; rule.backendRefs[1].filters = flag({ name: 'x-flag', value: 'on' }); });
    expect(ruleFindings(flagged, 'LKD-ROUTE-010')).toEqual([]);
    const both = withRule((rule) => {
      rule.backendRefs[1].name = 'orders-v1';
      rule.backendRefs[0].filters = flag({ name: 'x-flag', value: 'on' });
      rule.backendRefs[1].filters = flag({ value: 'on', name: 'x-flag' });
    });
    expect(ruleFindings(both, 'LKD-ROUTE-010').map((f) => f.message)).toEqual([expect.stringMatching(/backendRefs\[1\] repeats rules\[0\]\.backendRefs\[0\]/)]);
  });
  test('warns on a lone backend with a weight, not without', () => {
    expect(ruleFindings(withRule((rule) => { rule.backendRefs.pop(); }), 'LKD-ROUTE-010')[0].message)
      .toMatch(/rules\[0\]\.backendRefs\[0\] is the only backend and sets weight 90/);
    expect(ruleFindings(withRule((rule) => { rule.backendRefs.pop(); delete rule.backendRefs[0].weight; }), 'LKD-ROUTE-010')).toEqual([]);
  });
});

describe('LKD-ROUTE-011 unsupported filters', () => {
  test('passes with a header modifier', () => {
    const objects = withRule((rule) => {
      rule.filters = [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'x-route', value: 'split' }] } }];
    });
    expect(ruleFindings(objects, 'LKD-ROUTE-011')).toEqual([]);
  });
  test('a rule-level RequestMirror drops the whole route', () => {
    const objects = withRule((rule) => {
      rule.filters = [{ type: 'RequestMirror', requestMirror: { backendRef: { name: 'orders-v2', port: 8080 } } }];
    });
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-011');
    expect(finding).toMatchObject({ severity: Severity.ERROR, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/rules\[0\]\.filters\[0\] is a RequestMirror filter.*the whole route fails/);
  });
  test('on Linkerd\'s own policy.linkerd.io HTTPRoute the CRD has no such filter type: the API server refuses the route', () => {
    const objects = withRule((rule, route) => {
      route.apiVersion = 'policy.linkerd.io/v1beta3';
      rule.filters = [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } }];
    });
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-011');
    expect(finding).toMatchObject({ severity: Severity.ERROR, effect: FindingEffect.REJECTED });
    expect(finding.message).toMatch(/URLRewrite filter, which the policy.linkerd.io HTTPRoute CRD does not allow .*the API server refuses the route/);
  });
  // charts/linkerd-crds/templates/policy/httproute.yaml: rule filters RequestHeaderModifier and RequestRedirect only in every version.
  test('on Linkerd\'s own HTTPRoute a ResponseHeaderModifier is refused on a rule and allowed on a backendRef', () => {
    const response = [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'cache-control', value: 'no-store' }] } }];
    const onRule = withRule((rule, route) => { route.apiVersion = 'policy.linkerd.io/v1beta3'; rule.filters = response; });
    const [finding] = ruleFindings(onRule, 'LKD-ROUTE-011');
    expect(finding).toMatchObject({ effect: FindingEffect.REJECTED });
    expect(finding.message).toMatch(/^rules\[0\]\.filters\[0\] is a ResponseHeaderModifier filter, which the policy.linkerd.io HTTPRoute CRD does not allow there \(RequestHeaderModifier, RequestRedirect\) \(it is allowed on a backendRef/);
    const onBackend = withRule((rule, route) => { route.apiVersion = 'policy.linkerd.io/v1beta3'; rule.backendRefs[0].filters = response; });
    expect(ruleFindings(onBackend, 'LKD-ROUTE-011')).toEqual([]);
    const mirrorOnBackend = withRule((rule, route) => { route.apiVersion = 'policy.linkerd.io/v1beta3'; rule.backendRefs[0].filters = [{ type: 'RequestMirror' }]; });
    expect(ruleFindings(mirrorOnBackend, 'LKD-ROUTE-011')[0]).toMatchObject({ effect: FindingEffect.REJECTED });
  });
  // Gateway API v1.2.1 CRD: extensionRef requires group, kind and name; the API server refuses the route first.
  test('an ExtensionRef filter without a name is refused by the API server, not skipped by Linkerd', () => {
    const objects = withRule((rule) => { rule.filters = [{ type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Thing' } }]; });
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-011');
    expect(finding).toMatchObject({ effect: FindingEffect.REJECTED });
    expect(finding.message).toMatch(/ExtensionRef filter, which Linkerd does not support, and extensionRef needs name: the API server refuses the route/);
  });
  test('a backend filter on a route whose only parent is a Server is never converted; the policy CRD still refuses what it does not allow', () => {
    const mirror = withRule((rule, route) => { onServer(route); rule.backendRefs[0].filters = [{ type: 'RequestMirror', requestMirror: { backendRef: { name: 'orders-v2', port: 8080 } } }]; });
    expect(ruleFindings(mirror, 'LKD-ROUTE-011')).toEqual([]);
    const policy = withRule((rule, route) => { route.apiVersion = 'policy.linkerd.io/v1beta3'; onServer(route); rule.backendRefs[0].filters = [{ type: 'RequestMirror' }]; });
    expect(ruleFindings(policy, 'LKD-ROUTE-011')[0]).toMatchObject({ effect: FindingEffect.REJECTED });
  });
  test('a backend-level URLRewrite fails that backend\'s share', () => {
    const objects = withRule((rule) => { rule.backendRefs[1].filters = [{ type: 'URLRewrite', urlRewrite: { hostname: 'orders' } }]; });
    expect(ruleFindings(objects, 'LKD-ROUTE-011')[0].message).toMatch(/rules\[0\]\.backendRefs\[1\]\.filters\[0\] is a URLRewrite filter.*HTTP 500/);
  });
  test('RequestRedirect is fine on HTTPRoute but not on GRPCRoute', () => {
    const redirect = [{ type: 'RequestRedirect', requestRedirect: { statusCode: 301 } }];
    expect(ruleFindings(withRule((rule) => { rule.filters = redirect; delete rule.backendRefs; }), 'LKD-ROUTE-011')).toEqual([]);
    const objects = withRule((rule, route) => { route.kind = 'GRPCRoute'; rule.filters = redirect; });
    expect(ruleFindings(objects, 'LKD-ROUTE-011')[0].message).toContain('RequestRedirect filter');
  });
});

describe('LKD-ROUTE-023 a Service routes use selects something', () => {
  test('fires when the selector matches no pod of a namespace that has pods', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders-v2').spec.selector = { 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': 'v9' };
    expect(ruleFindings(objects, 'LKD-ROUTE-023').map((f) => f.resource.name)).toEqual(['orders-v2']);
  });
  // controller/api/destination/external-workload/endpoints_controller.go writes EndpointSlices for selected ExternalWorkloads.
  test('a Service that selects an ExternalWorkload has endpoints', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders-v2').spec.selector = { app: 'legacy-orders' };
    objects.push({
      apiVersion: 'workload.linkerd.io/v1beta1',
      kind: 'ExternalWorkload',
      metadata: { name: 'vm-1', namespace: 'mesh-lab', labels: { app: 'legacy-orders' } },
      spec: { meshTLS: { identity: 'spiffe://root.linkerd.cluster.local/vm-1', serverName: 'vm-1.cluster.local' }, workloadIPs: [{ ip: '192.0.2.10' }], ports: [{ port: 8080, name: 'http' }] },
    });
    expect(ruleFindings(objects, 'LKD-ROUTE-023')).toEqual([]);
  });
});
