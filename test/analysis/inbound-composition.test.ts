/**
 * How inbound policies compose, audited against linkerd2 version-2.20
 * (policy-controller/k8s/index/src/inbound/index.rs): PolicyIndex::client_authzs gathers a Server's authorizations
 * (those targeting it or its Namespace) and adds its accessPolicy's default authorizations to them, while
 * PolicyIndex::default_inbound_server gives a port no Server selects only the default policy's.
 */
import { analyze } from '../../src/analysis/engine';
import { Severity } from '../../src/analysis/finding';
import { CALLS_ANNOTATION } from '../../src/core/vocabulary';
import { NS, asManifests, meshLab, pick } from '../support/mesh-fixture';

const declared = (objects: any[]) => analyze(asManifests(objects)).findings.filter((f) => f.ruleId === 'LKD-POL-013');

function namespacePolicyOnly(): any[] {
  const objects = meshLab().filter((o) => o.kind !== 'Server');
  pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/default-inbound-policy'] = 'deny';
  pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef = { group: 'core', kind: 'Namespace', name: NS };
  pick(objects, 'Deployment', 'client').metadata.annotations = { [CALLS_ANNOTATION]: 'orders:8080' };
  return objects;
}

describe('inbound policy composition (inbound/index.rs)', () => {
  // default_inbound_server: only the default policy's authorizations; Namespace-targeted policies reach Servers only.
  test('an AuthorizationPolicy on the Namespace does not open a port no Server selects: the declared call is refused', () => {
    const [f] = declared(namespacePolicyOnly());
    expect(f).toMatchObject({ severity: Severity.ERROR, resource: { name: 'client' } });
    expect(f.message).toMatch(/declares that it calls orders\.mesh-lab:8080, but the mesh would refuse it/);
  });

  // client_authzs: a Namespace target applies to every Server of the namespace.
  test('with a Server on the port, the Namespace policy applies and the call is allowed', () => {
    const objects = namespacePolicyOnly();
    objects.push({
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'Server',
      metadata: { name: 'orders-http', namespace: NS },
      spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } }, port: 8080, proxyProtocol: 'HTTP/1' },
    });
    expect(declared(objects)).toEqual([]);
  });

  // client_authzs: the accessPolicy's default authorizations are added to the AuthorizationPolicies, not replaced.
  test('a Server\'s accessPolicy adds to its AuthorizationPolicies: all-unauthenticated admits an unmeshed caller too', () => {
    const objects = meshLab();
    const client = pick(objects, 'Deployment', 'client');
    client.metadata.annotations = { [CALLS_ANNOTATION]: 'orders:8080' };
    client.spec.template.metadata.annotations = { 'linkerd.io/inject': 'disabled' };
    expect(declared(objects).map((f) => f.severity)).toEqual([Severity.ERROR]);
    pick(objects, 'Server', 'orders-http').spec.accessPolicy = 'all-unauthenticated';
    expect(declared(objects)).toEqual([]);
  });
});
