/**
 * EgressNetwork scope, audited against linkerd2 version-2.20:
 * - policy-controller/runtime/src/lib.rs `lookup_ip`: a client's address that is no Service cluster IP is resolved
 *   against the EgressNetworks by `Index::lookup_egress_network` with the client's namespace;
 * - policy-controller/k8s/index/src/outbound/index/egress_network.rs `resolve_egress_network`: the EgressNetworks of the
 *   client's own namespace if it has any (whatever addresses they cover), otherwise those of the global egress namespace
 *   (`egress.globalEgressNetworkNamespace`, linkerd-egress by default); an EgressNetwork anywhere else governs no client
 *   outside its own namespace;
 * - policy-controller/k8s/index/src/outbound/index.rs `ResourceRoutes::apply_http_route` (and the gRPC, TLS, TCP ones):
 *   a route outside its EgressNetwork's namespace is a consumer route, seen only by clients of the route's namespace.
 */
import { analyze } from '../../src/analysis/engine';
import { Finding, Severity } from '../../src/analysis/finding';
import { egressScopeFor } from '../../src/analysis/model/egress';
import { asManifests } from '../support/mesh-fixture';

const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, annotations: { 'linkerd.io/inject': 'enabled' } } });
const egress = (name: string, ns: string, trafficPolicy = 'Deny') => ({
  apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { name, namespace: ns }, spec: { trafficPolicy },
});
const route = (ns: string, parentNamespace?: string, parentName = 'internet') => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'allow-api', namespace: ns },
  spec: {
    parentRefs: [{ group: 'policy.linkerd.io', kind: 'EgressNetwork', name: parentName, port: 443, ...(parentNamespace ? { namespace: parentNamespace } : {}) }],
    rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/v1' } }] }],
  },
});

const base = () => [namespace('shop'), namespace('billing'), namespace('linkerd-egress')];
const scopeNames = (objects: any[], ns: string) => {
  const result = analyze(asManifests(objects), { rules: [] });
  return egressScopeFor(result.index, result.context, ns).networks.map((n) => `${n.id.namespace}/${n.id.name}`);
};
const egressFindings = (objects: any[], options = {}): Finding[] =>
  analyze(asManifests(objects), options).findings.filter((f) => f.ruleId === 'LKD-POL-023');

describe('EgressNetwork scope (egress_network.rs resolve_egress_network)', () => {
  test('one in the global egress namespace governs the clients of every namespace that has none of its own', () => {
    const objects = [...base(), egress('internet', 'linkerd-egress')];
    for (const ns of ['shop', 'billing', 'linkerd-egress']) expect(scopeNames(objects, ns)).toEqual(['linkerd-egress/internet']);
    expect(egressFindings(objects)).toEqual([]);
  });

  test('one in another namespace governs only that namespace\'s clients, and hides every global one from them', () => {
    const objects = [...base(), egress('internet', 'linkerd-egress'), egress('partner', 'shop', 'Allow')];
    expect(scopeNames(objects, 'shop')).toEqual(['shop/partner']);
    expect(scopeNames(objects, 'billing')).toEqual(['linkerd-egress/internet']);
    expect(egressFindings(objects).map((f) => [f.resource.name, f.severity])).toEqual([['partner', Severity.WARNING]]);
  });

  test('without a global one, a namespace\'s EgressNetwork still governs no other namespace', () => {
    const objects = [...base(), egress('partner', 'shop', 'Allow')];
    expect(scopeNames(objects, 'billing')).toEqual([]);
    expect(egressFindings(objects)).toEqual([]);
  });

  test('the global egress namespace is the one the option (or the install) names', () => {
    const objects = [...base(), egress('internet', 'billing')];
    expect(scopeNames(objects, 'shop')).toEqual([]);
    const result = analyze(asManifests(objects), { rules: [], globalEgressNamespace: 'billing' });
    expect(egressScopeFor(result.index, result.context, 'shop').networks.map((n) => n.id.name)).toEqual(['internet']);
  });
});

describe('routes on EgressNetworks: consumer routes meet the scope (index.rs apply_http_route)', () => {
  test('a route beside its EgressNetwork (producer), or in a client namespace on a global one (consumer), applies: no finding', () => {
    expect(egressFindings([...base(), egress('internet', 'linkerd-egress'), route('linkerd-egress')])).toEqual([]);
    expect(egressFindings([...base(), egress('internet', 'linkerd-egress'), route('shop', 'linkerd-egress')])).toEqual([]);
    expect(egressFindings([...base(), egress('internet', 'shop'), route('shop')])).toEqual([]);
  });

  test('a consumer route on an EgressNetwork of a third, non-global namespace applies to no client', () => {
    const found = egressFindings([...base(), egress('internet', 'billing'), route('shop', 'billing')]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: Severity.WARNING, resource: { kind: 'HTTPRoute', name: 'allow-api' } });
    expect(found[0].message).toMatch(/^parentRefs\[0\] names EgressNetwork billing\/internet, but a route outside its EgressNetwork's namespace applies only to clients in its own namespace, shop/);
    expect(found[0].message).toMatch(/against the global egress namespace linkerd-egress, never against namespace billing: this route applies to no client\.$/);
    // With billing as the global egress namespace the same route applies to shop's clients.
    expect(egressFindings([...base(), egress('internet', 'billing'), route('shop', 'billing')], { globalEgressNamespace: 'billing' })).toEqual([]);
  });

  test('a consumer route on a global EgressNetwork from a namespace with its own EgressNetworks applies to no client', () => {
    const found = egressFindings([...base(), egress('internet', 'linkerd-egress'), egress('partner', 'shop', 'Allow'), route('shop', 'linkerd-egress')]);
    expect(found.map((f) => f.resource.kind).sort()).toEqual(['EgressNetwork', 'HTTPRoute']);
    expect(found.find((f) => f.resource.kind === 'HTTPRoute')!.message).toMatch(/against namespace shop's own EgressNetworks, which hide the global ones, never against namespace linkerd-egress/);
  });
});
