import { analyze } from '../../../src/analysis/engine';
import { FindingEffect, Severity } from '../../../src/analysis/finding';
import { admissionRejections } from '../../../src/analysis/model/admission';
import { NS, asManifests, meshLab, pick } from '../../support/mesh-fixture';

const ID = 'LKD-ROUTE-024';

function findings(objects: any[]) {
  return analyze(asManifests(objects)).findings.filter((f) => f.ruleId === ID);
}

/** The baseline plus a policy.linkerd.io HTTPRoute and a GRPCRoute on the orders Server/Service that the webhook admits. */
function baseline(): any[] {
  const objects = meshLab();
  objects.push({
    apiVersion: 'policy.linkerd.io/v1beta3',
    kind: 'HTTPRoute',
    metadata: { name: 'orders-inbound', namespace: NS },
    spec: {
      parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }],
      rules: [{
        matches: [
          { path: { type: 'PathPrefix', value: '/orders' }, method: 'GET' },
          { path: { type: 'RegularExpression', value: '/orders/(?P<id>[0-9]+)' }, headers: [{ name: 'X-Tenant', value: 'acme' }] },
        ],
        filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'x-from', value: 'mesh' }], remove: ['x-debug'] } }],
      }],
    },
  }, {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GRPCRoute',
    metadata: { name: 'orders-grpc', namespace: NS },
    spec: {
      parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }],
      rules: [{
        matches: [{ method: { type: 'Exact', service: 'orders.v1.Orders', method: 'Get' }, headers: [{ type: 'RegularExpression', name: 'x-user', value: '(?i)^[a-z]+$' }] }],
        backendRefs: [{ name: 'orders-v1', port: 8080 }],
      }],
    },
  });
  return objects;
}

const split = (objects: any[]) => pick(objects, 'HTTPRoute', 'orders-split');
const inbound = (objects: any[]) => objects.find((o) => o.kind === 'HTTPRoute' && o.metadata.name === 'orders-inbound');
const grpc = (objects: any[]) => pick(objects, 'GRPCRoute', 'orders-grpc');

/** One mutation of the baseline and the single message it must produce (or null: still admitted). */
const MUTATIONS: Array<[string, (o: any[]) => void, RegExp | null]> = [
  ['a look-ahead in a path regex', (o) => { split(o).spec.rules[0].matches = [{ path: { type: 'RegularExpression', value: '/orders/(?!internal).*' } }]; },
    /^spec\.rules\[0\]\.matches\[0\]\.path\.value "\/orders\/\(\?!internal\)\.\*" uses look-around.*rejects the HTTPRoute \(policy-controller\/k8s\/index\/src\/routes\/http\.rs path_match\)/],
  ['a back-reference in a header regex', (o) => { inbound(o).spec.rules[0].matches[1].headers = [{ type: 'RegularExpression', name: 'x-a', value: '(a)\\1' }]; },
    /matches\[1\]\.headers\[0\]\.value .* back-reference.*header_match/],
  ['an unescaped brace in a query-parameter regex', (o) => { split(o).spec.rules[0].matches = [{ queryParams: [{ type: 'RegularExpression', name: 'q', value: 'a{' }] }]; },
    /queryParams\[0\]\.value "a\{" has a "\{" that is not a repetition.*query_param_match/],
  ['a query-parameter name that is no token (not checked at admission)', (o) => { split(o).spec.rules[0].matches = [{ queryParams: [{ name: 'a b', value: '(?=x' }] }]; }, null],
  ['a relative PathPrefix on a policy.linkerd.io HTTPRoute', (o) => { inbound(o).spec.rules[0].matches[0].path.value = 'orders'; },
    /matches\[0\]\.path\.value "orders" is not an absolute path: PathPrefix paths must begin with "\/".*Start the path with "\/"/],
  ['an Exact path without a leading slash', (o) => { inbound(o).spec.rules[0].matches[0].path = { type: 'Exact', value: 'orders/1' }; },
    /"orders\/1" is not an absolute path: Exact paths/],
  ['a regex path that JavaScript refuses but Rust accepts', (o) => { inbound(o).spec.rules[0].matches[0].path = { type: 'RegularExpression', value: '/a**' }; }, null],
  ['a header value with a newline', (o) => { inbound(o).spec.rules[0].matches[1].headers[0].value = 'acme\n'; },
    /headers\[0\]\.value "acme\\n" contains a control character.*not an HTTP header value/],
  ['a non-ASCII header value (the http crate accepts opaque bytes)', (o) => { inbound(o).spec.rules[0].matches[1].headers[0].value = 'Zürich'; }, null],
  ['a header modifier removing a name with a space', (o) => { inbound(o).spec.rules[0].filters[0].requestHeaderModifier.remove = ['x debug']; },
    /filters\[0\]\.requestHeaderModifier\.remove\[0\] "x debug" is not an HTTP token.*request_header_modifier/],
  ['a response header set to a value with a carriage return', (o) => {
    split(o).spec.rules[0].filters = [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { add: [{ name: 'x-a', value: 'a\rb' }] } }];
  }, /responseHeaderModifier\.add\[0\]\.value .* control character.*response_header_modifier/],
  ['a relative redirect path', (o) => {
    split(o).spec.rules[0].filters = [{ type: 'RequestRedirect', requestRedirect: { path: { type: 'ReplaceFullPath', replaceFullPath: 'login' } } }];
  }, /requestRedirect\.path\.replaceFullPath "login" is not an absolute path: RequestRedirect paths.*req_redirect \(path_modifier\)/],
  ['a redirect path that sets no path', (o) => {
    inbound(o).spec.rules[0].filters = [{ type: 'RequestRedirect', requestRedirect: { path: { type: 'ReplacePrefixMatch' } } }];
  }, /requestRedirect\.path sets neither replaceFullPath nor replacePrefixMatch/],
  ['a redirect with an absolute prefix and status 301', (o) => {
    inbound(o).spec.rules[0].filters = [{ type: 'RequestRedirect', requestRedirect: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/v2' }, statusCode: 301 } }];
  }, null],
  ['a redirect status outside 100-999', (o) => {
    inbound(o).spec.rules[0].filters = [{ type: 'RequestRedirect', requestRedirect: { statusCode: 1000 } }];
  }, /requestRedirect\.statusCode 1000 is not an HTTP status code/],
  ['a GRPCRoute method regex', (o) => { grpc(o).spec.rules[0].matches[0].method = { type: 'RegularExpression', service: 'orders\\..*' }; },
    /matches\[0\]\.method\.type is RegularExpression.*rejects the GRPCRoute \(policy-controller\/k8s\/index\/src\/routes\/grpc\.rs try_match\)/],
  ['a GRPCRoute header regex with look-behind', (o) => { grpc(o).spec.rules[0].matches[0].headers[0].value = '(?<=a)b'; },
    /rejects the GRPCRoute \(policy-controller\/k8s\/index\/src\/routes\/grpc\.rs header_match\)/],
];

describe('LKD-ROUTE-024 the admission webhook accepts the route', () => {
  test('the baseline (regex, named groups, header modifiers on three route kinds) passes', () => {
    expect(findings(baseline())).toEqual([]);
  });

  test.each(MUTATIONS)('%s', (_name, mutate, expected) => {
    const objects = baseline();
    mutate(objects);
    const found = findings(objects);
    if (expected === null) {
      expect(found).toEqual([]);
    } else {
      expect(found.map((f) => f.message)).toEqual([expect.stringMatching(expected)]);
      expect(found[0].severity).toBe(Severity.ERROR);
    }
  });

  test('where the webhook does not run, the route is applied and the policy controller drops it: still an error, ignored not rejected', () => {
    const objects = baseline();
    inbound(objects).spec.rules[0].matches[0].path.value = 'orders';
    expect(findings(objects).map((f) => f.effect)).toEqual([FindingEffect.REJECTED]);
    pick(objects, 'Namespace', NS).metadata.labels = { 'config.linkerd.io/admission-webhooks': 'disabled' };
    const [ignored] = findings(objects);
    expect(ignored.severity).toBe(Severity.ERROR);
    expect(ignored.effect).toBe(FindingEffect.IGNORED);
    expect(ignored.message).toMatch(new RegExp(`^spec\\.rules\\[0\\]\\.matches\\[0\\]\\.path\\.value .*; Namespace ${NS} is labelled `
      + 'config\\.linkerd\\.io/admission-webhooks: disabled, which the policy validator webhook\'s namespaceSelector leaves out, so the HTTPRoute is '
      + 'applied unchecked, but the policy controller cannot convert it either'));
  });

  test('the validator\'s selectors are read as the cluster sets them: its ValidatingWebhookConfiguration, else the install\'s values', () => {
    const broken = () => {
      const objects = baseline();
      inbound(objects).spec.rules[0].matches[0].path.value = 'orders';
      return objects;
    };
    const validator = (namespaceSelector: unknown) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'linkerd-policy-validator-webhook-config' },
      webhooks: [{ name: 'linkerd-policy-validator.linkerd.io', namespaceSelector }],
    });
    const onlyProd = { matchLabels: { env: 'prod' } };
    const [byConfig] = findings([...broken(), validator(onlyProd)]);
    expect(byConfig.effect).toBe(FindingEffect.IGNORED);
    expect(byConfig.message).toContain(`Namespace ${NS} has no label env (prod), which the policy validator webhook's namespaceSelector requires `
      + '(ValidatingWebhookConfiguration linkerd-policy-validator-webhook-config)');
    const labelled = broken();
    pick(labelled, 'Namespace', NS).metadata.labels = { env: 'prod' };
    expect(findings([...labelled, validator(onlyProd)]).map((f) => f.effect)).toEqual([FindingEffect.REJECTED]);
    const values = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'linkerd-config', namespace: 'linkerd' },
      data: { values: 'policyValidator:\n  namespaceSelector:\n    matchLabels: {env: prod}\n' },
    };
    expect(findings([...broken(), values]).map((f) => f.effect)).toEqual([FindingEffect.IGNORED]);
  });
});

describe('admissionRejections (pure)', () => {
  test('lists every rejection in field order, with the function that rejects', () => {
    const route = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'r' },
      spec: { rules: [{ matches: [{ path: { type: 'RegularExpression', value: '(?=a)' }, headers: [{ name: 'a:b', value: 'x' }] }] }] },
    };
    expect(admissionRejections(route).map((r) => [r.path, r.source])).toEqual([
      ['spec.rules[0].matches[0].path.value', 'policy-controller/k8s/index/src/routes/http.rs path_match'],
      ['spec.rules[0].matches[0].headers[0].name', 'policy-controller/k8s/index/src/routes/http.rs header_match'],
    ]);
  });
  test('ignores kinds the checks do not apply to and malformed input without throwing', () => {
    expect(admissionRejections({ apiVersion: 'v1', kind: 'Service', spec: { rules: [{ matches: [{ path: { value: 'x' } }] }] } })).toEqual([]);
    expect(admissionRejections({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'TCPRoute', spec: {} })).toEqual([]);
    for (const junk of [null, 42, 'x', { kind: 'HTTPRoute', apiVersion: 'gateway.networking.k8s.io/v1', spec: { rules: 'x' } },
      { kind: 'HTTPRoute', apiVersion: 'policy.linkerd.io/v1beta3', spec: { rules: [null, { matches: [null, { path: 7, headers: 'x' }], filters: [1] }] } }]) {
      expect(admissionRejections(junk)).toEqual([]);
    }
  });
  test('a default path (no value) is "/" and admitted; kind and group compare case-insensitively', () => {
    expect(admissionRejections({ apiVersion: 'policy.linkerd.io/v1beta3', kind: 'HTTPRoute', spec: { rules: [{ matches: [{ path: { type: 'Exact' } }] }] } })).toEqual([]);
    expect(admissionRejections({ apiVersion: 'Policy.Linkerd.io/v1beta3', kind: 'httproute', spec: { rules: [{ matches: [{ path: { value: 'x' } }] }] } }))
      .toHaveLength(1);
  });
});
