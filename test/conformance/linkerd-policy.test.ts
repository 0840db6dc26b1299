import * as path from 'path';
import { ConformanceValidator, CrdCatalog } from '../../src/conformance';
import { describeWithShared, GATEWAY_API_CRDS, LINKERD_CRDS } from '../support/shared';

const meta = (name: string) => ({ name, namespace: 'emojivoto' });

const server = (spec: Record<string, unknown>) => ({ apiVersion: 'policy.linkerd.io/v1beta3', kind: 'Server', metadata: meta('web-http'), spec });
const meshTls = (spec: Record<string, unknown>) => ({ apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'MeshTLSAuthentication', metadata: meta('web-clients'), spec });

const goodServer = server({ podSelector: { matchLabels: { app: 'web' } }, port: 'http', proxyProtocol: 'HTTP/1' });
const goodMeshTls = meshTls({ identityRefs: [{ kind: 'ServiceAccount', name: 'vote-bot' }] });
const goodAuthorization = {
  apiVersion: 'policy.linkerd.io/v1alpha1',
  kind: 'AuthorizationPolicy',
  metadata: meta('web-authz'),
  spec: {
    targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'web-http' },
    requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', name: 'web-clients' }],
  },
};

describeWithShared('Linkerd 2.20 policy CRDs', () => {
  // Built lazily: jest still runs this callback (without running tests) when ../shared is absent.
  let validator: ConformanceValidator;
  beforeAll(() => {
    validator = new ConformanceValidator(CrdCatalog.fromDirectories([LINKERD_CRDS]));
  });

  test.each([
    ['Server', goodServer],
    ['MeshTLSAuthentication', goodMeshTls],
    ['MeshTLSAuthentication with identities', meshTls({ identities: ['*.emojivoto.serviceaccount.identity.linkerd.cluster.local'] })],
    ['AuthorizationPolicy', goodAuthorization],
    ['Server with a numeric port and matchExpressions', server({ podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] }, port: 8080 })],
  ])('a correct %s is accepted', (_name, obj) => {
    expect(validator.validate(obj)).toEqual([]);
  });

  test('Server v1beta3 defaults accessPolicy to deny (and proxyProtocol to unknown)', () => {
    const defaulted = validator.defaulted(server({ podSelector: { matchLabels: { app: 'web' } }, port: 'http' }));
    expect(defaulted.spec).toEqual({ podSelector: { matchLabels: { app: 'web' } }, port: 'http', accessPolicy: 'deny', proxyProtocol: 'unknown' });
  });

  test('an explicit accessPolicy is kept', () => {
    expect(validator.defaulted(server({ podSelector: { matchLabels: {} }, port: 1, accessPolicy: 'all-authenticated' })).spec)
      .toMatchObject({ accessPolicy: 'all-authenticated' });
  });

  test('a Server may not select both pods and external workloads', () => {
    const issues = validator.validate(server({
      podSelector: { matchLabels: { app: 'web' } },
      externalWorkloadSelector: { matchLabels: { app: 'vm' } },
      port: 'http',
    }));
    expect(issues).toMatchObject([{ kind: 'Server', name: 'web-http', path: 'spec', rule: 'oneOf' }]);
  });

  test('a Server must select something', () => {
    expect(validator.validate(server({ port: 'http' }))).toMatchObject([{ path: 'spec', rule: 'oneOf' }]);
  });

  test('a Server needs a port', () => {
    expect(validator.validate(server({ podSelector: { matchLabels: { app: 'web' } } }))).toMatchObject([{ path: 'spec.port', rule: 'required' }]);
  });

  test('a MeshTLSAuthentication may not set both identities and identityRefs', () => {
    const issues = validator.validate(meshTls({ identities: ['a'], identityRefs: [{ kind: 'ServiceAccount', name: 'b' }] }));
    expect(issues).toMatchObject([{ path: 'spec', rule: 'oneOf' }]);
  });

  test('identityRefs need a kind and must not be empty', () => {
    expect(validator.validate(meshTls({ identityRefs: [{ name: 'b' }] }))).toMatchObject([{ path: 'spec.identityRefs[0].kind', rule: 'required' }]);
    const empty = validator.validate(meshTls({ identityRefs: [] }));
    expect(empty.map(i => i.rule)).toContain('minItems');
  });

  test('an AuthorizationPolicy needs required authentication refs and a well-formed target', () => {
    const issues = validator.validate({ ...goodAuthorization, spec: { targetRef: { kind: 'Server', name: '' } } });
    expect(issues.map(i => `${i.path} ${i.rule}`).sort()).toEqual([
      'spec.requiredAuthenticationRefs required',
      'spec.targetRef.name minLength',
    ]);
  });

  test('an unknown field in a policy object is reported', () => {
    expect(validator.validate(server({ ...goodServer.spec, proxyProtocols: 'HTTP/2' }))).toMatchObject([{ path: 'spec.proxyProtocols', rule: 'unknown field' }]);
  });

  // The CRD declares proxyProtocol as a free string with no enum, so the API server stores
  // 'HTTP/3'; only Linkerd's policy controller refuses it later. Schema conformance alone cannot
  // catch this value, which is why the library needs its own check for it.
  test("proxyProtocol 'HTTP/3' is NOT rejected by the CRD schema (it has no enum)", () => {
    expect(validator.validate(server({ ...goodServer.spec, proxyProtocol: 'HTTP/3' }))).toEqual([]);
  });

  test('a proxyProtocol of the wrong type is rejected', () => {
    expect(validator.validate(server({ ...goodServer.spec, proxyProtocol: 3 }))).toMatchObject([{ path: 'spec.proxyProtocol', rule: 'type' }]);
  });

  test('v1beta3 accepts matchLabels with matchExpressions; the deprecated v1alpha1 schema rejects the pair (oneOf)', () => {
    const both = server({
      podSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
      port: 'http',
    });
    expect(validator.validate(both)).toEqual([]);
    expect(validator.validate({ ...both, apiVersion: 'policy.linkerd.io/v1alpha1' })).toMatchObject([{ path: 'spec.podSelector', rule: 'oneOf' }]);
  });
});

describeWithShared('catalog order across Linkerd and Gateway API folders', () => {
  const source = (catalog: CrdCatalog, apiVersion: string, kind: string) => path.basename(path.dirname(catalog.lookup(apiVersion, kind)?.source ?? ''));

  test('the later folder wins for a group/kind both define', () => {
    const gatewayLast = CrdCatalog.fromDirectories([LINKERD_CRDS, GATEWAY_API_CRDS]);
    const linkerdLast = CrdCatalog.fromDirectories([GATEWAY_API_CRDS, LINKERD_CRDS]);
    expect(source(gatewayLast, 'gateway.networking.k8s.io/v1', 'HTTPRoute')).toBe('v1.2.1');
    expect(source(linkerdLast, 'gateway.networking.k8s.io/v1', 'HTTPRoute')).toBe('crds');
  });

  test('a replaced CRD takes all its versions with it; kinds only one folder defines stay', () => {
    const gatewayLast = CrdCatalog.fromDirectories([LINKERD_CRDS, GATEWAY_API_CRDS]);
    expect(gatewayLast.has('gateway.networking.k8s.io/v1alpha2', 'GRPCRoute')).toBe(false); // only Linkerd's copy serves it
    expect(gatewayLast.has('gateway.networking.k8s.io/v1alpha2', 'TLSRoute')).toBe(true);
    expect(gatewayLast.has('policy.linkerd.io/v1beta3', 'Server')).toBe(true);
  });

  test("Linkerd's bundled experimental HTTPRoute allows only 8 matches per rule, v1.2.1 allows 64", () => {
    const route = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: meta('many-matches'),
      spec: {
        parentRefs: [{ group: 'core', kind: 'Service', name: 'web', port: 80 }],
        rules: [{ matches: Array.from({ length: 9 }, (_, i) => ({ path: { type: 'PathPrefix', value: `/p${i}` } })) }],
      },
    };
    const linkerdLast = new ConformanceValidator(CrdCatalog.fromDirectories([GATEWAY_API_CRDS, LINKERD_CRDS]));
    const gatewayLast = new ConformanceValidator(CrdCatalog.fromDirectories([LINKERD_CRDS, GATEWAY_API_CRDS]));
    expect(linkerdLast.validate(route)).toMatchObject([{ path: 'spec.rules[0].matches', rule: 'maxItems' }]);
    expect(gatewayLast.validate(route)).toEqual([]);
  });
});
