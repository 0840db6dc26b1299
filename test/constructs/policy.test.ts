import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Authentication, AuthorizationPolicy, AuthorizationTarget, DefaultInboundPolicy, EgressNetwork, EgressTrafficPolicy, HttpLocalRateLimitPolicy,
  MeshTlsAuthentication, Network, NetworkAuthentication, PodSelection, ProxyProtocol, Server, ServerAccess, ServerPort,
} from '../../src';
import { find, labChart, synth, synthChecked } from '../support/synth';

function serverIn(chart: any, port = ServerPort.number(8080)) {
  return new Server(chart, 'Server', { name: 'orders-http', selector: PodSelection.app('orders'), port, proxyProtocol: ProxyProtocol.HTTP1 });
}

describe('Server', () => {
  test('renders selector, numeric port and protocol; accessPolicy left to the CRD default (deny)', () => {
    const chart = labChart();
    serverIn(chart);
    const server = find(synth(chart), 'Server', 'orders-http');
    expect(server.apiVersion).toBe('policy.linkerd.io/v1beta3');
    expect(server.spec).toEqual({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } }, port: 8080, proxyProtocol: 'HTTP/1' });
  });

  test('a named port stays a name, an access policy is written', () => {
    const chart = labChart();
    new Server(chart, 'S', { name: 's', selector: PodSelection.labels({ tier: 'db' }), port: ServerPort.name('mysql'), accessPolicy: DefaultInboundPolicy.AUDIT });
    expect(find(synth(chart), 'Server', 's').spec).toMatchObject({ port: 'mysql', accessPolicy: 'audit' });
  });

  test('refuses a quoted number as a port name (Linkerd would read "8080" as a name)', () => {
    expect(() => serverIn(labChart(), ServerPort.name('8080'))).toThrow(/\[lab\/Server\] LKD-INPUT-002.*"8080"/);
  });

  test('refuses out-of-range ports and unknown enum values', () => {
    expect(() => serverIn(labChart(), ServerPort.number(0))).toThrow(/LKD-INPUT-002/);
    expect(() => new Server(labChart(), 'S', { name: 's', selector: PodSelection.app('a'), port: ServerPort.number(1), proxyProtocol: 'HTTP/3' as any }))
      .toThrow(/LKD-POL-012.*HTTP\/3/);
    expect(() => new Server(labChart(), 'S', { name: 's', selector: PodSelection.app('a'), port: ServerPort.number(1), accessPolicy: 'open' as any }))
      .toThrow(/LKD-POL-012.*open/);
  });
});

describe('MeshTlsAuthentication', () => {
  test('references ServiceAccounts and namespaces', () => {
    const chart = labChart();
    const sa = new kplus.ServiceAccount(chart, 'Sa', { metadata: { name: 'client' } });
    const auth = new MeshTlsAuthentication(chart, 'A', { name: 'client-sa', serviceAccounts: [sa] });
    auth.addNamespace('monitoring');
    expect(find(synth(chart), 'MeshTLSAuthentication', 'client-sa').spec).toEqual({
      identityRefs: [{ kind: 'ServiceAccount', name: 'client' }, { kind: 'Namespace', name: 'monitoring' }],
    });
  });

  test('accepts valid identity strings and refuses invalid ones', () => {
    const chart = labChart();
    new MeshTlsAuthentication(chart, 'A', { name: 'ids', identities: ['*.mesh-lab.serviceaccount.identity.linkerd.cluster.local', 'spiffe://example.org/ns/a'] });
    expect(find(synth(chart), 'MeshTLSAuthentication', 'ids').spec.identities).toHaveLength(2);
    expect(() => new MeshTlsAuthentication(labChart(), 'A', { name: 'x', identities: ['Client.Mesh'] })).toThrow(/LKD-POL-003.*Client\.Mesh/);
    expect(() => new MeshTlsAuthentication(labChart(), 'A', { name: 'x', identities: ['spiffe://td/a//b'] })).toThrow(/LKD-POL-003/);
  });

  test('refuses mixing identity strings and references', () => {
    const chart = labChart();
    const auth = new MeshTlsAuthentication(chart, 'A', { name: 'x', namespaces: ['a'] });
    expect(() => auth.addIdentity('*')).toThrow(/\[lab\/A\] LKD-POL-003: .*not both/);
  });

  test('an authentication that accepts nobody fails synth', () => {
    const chart = labChart();
    new MeshTlsAuthentication(chart, 'A', { name: 'nobody' });
    expect(() => synthChecked(chart)).toThrow(/lab\/A.*LKD-INPUT-003.*accepts nobody/);
  });
});

describe('NetworkAuthentication and EgressNetwork', () => {
  test('renders networks with exceptions', () => {
    const chart = labChart();
    new NetworkAuthentication(chart, 'N', { name: 'cluster', networks: [Network.cidr('10.0.0.0/8', ['10.1.0.0/16']), Network.cidr('fd00::/8')] });
    expect(find(synth(chart), 'NetworkAuthentication', 'cluster').spec.networks).toEqual([{ cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] }, { cidr: 'fd00::/8' }]);
  });

  test('refuses exceptions outside the CIDR, bad CIDRs and empty lists', () => {
    expect(() => new NetworkAuthentication(labChart(), 'N', { name: 'n', networks: [Network.cidr('10.0.0.0/8', ['192.168.0.0/16'])] })).toThrow(/LKD-POL-005.*192\.168/);
    expect(() => new NetworkAuthentication(labChart(), 'N', { name: 'n', networks: [Network.cidr('10.0.0.0/8', ['10.0.0.0/8'])] })).toThrow(/LKD-POL-005/);
    expect(() => new NetworkAuthentication(labChart(), 'N', { name: 'n', networks: [Network.cidr('10.0.0.300/8')] })).toThrow(/LKD-POL-005/);
    expect(() => new NetworkAuthentication(labChart(), 'N', { name: 'n', networks: [] })).toThrow(/LKD-POL-005.*empty/);
  });

  test('EgressNetwork renders its traffic policy', () => {
    const chart = labChart();
    new EgressNetwork(chart, 'E', { name: 'internet', trafficPolicy: EgressTrafficPolicy.DENY, networks: [Network.cidr('0.0.0.0/0', ['10.0.0.0/8'])] });
    expect(find(synth(chart), 'EgressNetwork', 'internet').spec).toEqual({ trafficPolicy: 'Deny', networks: [{ cidr: '0.0.0.0/0', except: ['10.0.0.0/8'] }] });
  });
});

describe('AuthorizationPolicy', () => {
  test('targets a Server and requires a MeshTLSAuthentication with explicit groups', () => {
    const chart = labChart();
    const server = serverIn(chart);
    const auth = new MeshTlsAuthentication(chart, 'A', { name: 'client-sa', namespaces: ['mesh-lab'] });
    new AuthorizationPolicy(chart, 'P', { name: 'p', target: AuthorizationTarget.server(server), requiredAuthentications: [Authentication.meshTls(auth)] });
    expect(find(synth(chart), 'AuthorizationPolicy', 'p').spec).toEqual({
      targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' },
      requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', name: 'client-sa' }],
    });
  });

  test('enforces the admission limits at construction', () => {
    const chart = labChart();
    const server = serverIn(chart);
    const a = new MeshTlsAuthentication(chart, 'A', { name: 'a', namespaces: ['x'] });
    const b = new MeshTlsAuthentication(chart, 'B', { name: 'b', namespaces: ['y'] });
    const sa = kplus.ServiceAccount.fromServiceAccountName(chart, 'Sa', 'client');
    const target = AuthorizationTarget.server(server);
    expect(() => new AuthorizationPolicy(chart, 'P1', { name: 'p1', target, requiredAuthentications: [Authentication.meshTls(a), Authentication.meshTls(b)] }))
      .toThrow(/\[lab\/P1\] LKD-POL-002/);
    expect(() => new AuthorizationPolicy(chart, 'P2', { name: 'p2', target, requiredAuthentications: [Authentication.meshTls(a), Authentication.serviceAccount(sa)] }))
      .toThrow(/LKD-POL-002.*not both/);
    const n1 = new NetworkAuthentication(chart, 'N1', { name: 'n1', networks: [Network.cidr('10.0.0.0/8')] });
    const n2 = new NetworkAuthentication(chart, 'N2', { name: 'n2', networks: [Network.cidr('10.0.0.0/8')] });
    expect(() => new AuthorizationPolicy(chart, 'P3', { name: 'p3', target, requiredAuthentications: [Authentication.network(n1), Authentication.network(n2)] }))
      .toThrow(/LKD-POL-002.*NetworkAuthentication/);
  });

  test('a ServiceAccount imported from another namespace keeps it (fromServiceAccountName namespaceName), in each place one is named', () => {
    const chart = labChart();
    const server = serverIn(chart);
    const ingress = kplus.ServiceAccount.fromServiceAccountName(chart, 'Ingress', 'ingress-nginx', { namespaceName: 'ingress-nginx' });
    const local = kplus.ServiceAccount.fromServiceAccountName(chart, 'Local', 'client');
    const authn = new MeshTlsAuthentication(chart, 'Authn', { name: 'ingress', serviceAccounts: [ingress, local] });
    expect(authn.apiObject.toJson().spec.identityRefs).toEqual([
      { kind: 'ServiceAccount', name: 'ingress-nginx', namespace: 'ingress-nginx' },
      // Imported without a namespace: the reference means the authentication's own namespace, as before.
      { kind: 'ServiceAccount', name: 'client' },
    ]);
    const policy = new AuthorizationPolicy(chart, 'P', { name: 'p', target: AuthorizationTarget.server(server), requiredAuthentications: [Authentication.serviceAccount(ingress)] });
    expect(policy.apiObject.toJson().spec.requiredAuthenticationRefs).toEqual([{ kind: 'ServiceAccount', name: 'ingress-nginx', namespace: 'ingress-nginx' }]);
  });

  test('a Namespace target must be the policy\'s own namespace', () => {
    expect(() => new AuthorizationPolicy(labChart(), 'P', { name: 'p', target: AuthorizationTarget.namespace('other'), requiredAuthentications: [] }))
      .toThrow(/LKD-POL-001.*own namespace \(mesh-lab\)/);
  });
});

describe('ServerAccess.allow (intent API)', () => {
  test('"orders\' http port allows the client identity" creates the authentication and the policy with readable names', () => {
    const chart = labChart();
    const client = new kplus.ServiceAccount(chart, 'Client', { metadata: { name: 'client' } });
    const access = ServerAccess.allow(serverIn(chart), { policyName: 'client-to-orders', authenticationName: 'client-sa', serviceAccounts: [client] });
    const objects = synth(chart);
    expect(access.policy.name).toBe('client-to-orders');
    expect(find(objects, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs).toEqual([{ kind: 'ServiceAccount', name: 'client' }]);
    expect(find(objects, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef.name).toBe('orders-http');
  });

  test('default authentication names derive from the policy name; networks add a NetworkAuthentication', () => {
    const chart = labChart();
    ServerAccess.allow(serverIn(chart), { policyName: 'monitoring', namespaces: ['monitoring'], networks: [Network.cidr('10.0.0.0/8')] });
    const objects = synth(chart);
    expect(find(objects, 'MeshTLSAuthentication', 'monitoring-identities')).toBeDefined();
    expect(find(objects, 'AuthorizationPolicy', 'monitoring').spec.requiredAuthenticationRefs.map((r: any) => r.name)).toEqual(['monitoring-identities', 'monitoring-networks']);
  });

  test('refuses an allow() that names nobody', () => {
    expect(() => ServerAccess.allow(serverIn(labChart()), { policyName: 'x' })).toThrow(/LKD-INPUT-003/);
  });
});

// k8s/index/src/inbound/authorization_policy.rs and ratelimit_policy.rs: targetRef is a LocalTargetRef, resolved in the policy's namespace.
test('a policy in another namespace than its Server is refused: Linkerd looks the target up in the policy\'s namespace', () => {
  const app = Testing.app();
  const server = serverIn(new Chart(app, 'a', { namespace: 'a' }));
  const b = new Chart(app, 'b', { namespace: 'b' });
  expect(() => new AuthorizationPolicy(b, 'P', { name: 'p', target: AuthorizationTarget.server(server), requiredAuthentications: [] }))
    .toThrow(/\[b\/P\] LKD-POL-001: the target Server orders-http is in namespace a, but the policy is in b.*Fix: Create the policy in namespace a\./);
  expect(() => new HttpLocalRateLimitPolicy(b, 'R', { name: 'r', server, totalRequestsPerSecond: 10 }))
    .toThrow(/\[b\/R\] LKD-POL-014: the Server orders-http is in namespace a, but the policy is in b/);
  // An imported Server carries no namespace: it is the policy's.
  expect(() => new HttpLocalRateLimitPolicy(b, 'R2', { name: 'r2', server: Server.fromServerName('orders-http'), totalRequestsPerSecond: 10 })).not.toThrow();
});

describe('HttpLocalRateLimitPolicy', () => {
  test('renders limits and overrides', () => {
    const chart = labChart();
    const client = kplus.ServiceAccount.fromServiceAccountName(chart, 'Sa', 'client');
    new HttpLocalRateLimitPolicy(chart, 'R', {
      name: 'orders-rl', server: serverIn(chart), totalRequestsPerSecond: 100, identityRequestsPerSecond: 20, overrides: [{ requestsPerSecond: 50, clients: [client] }],
    });
    expect(find(synth(chart), 'HTTPLocalRateLimitPolicy', 'orders-rl').spec).toEqual({
      targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' },
      total: { requestsPerSecond: 100 },
      identity: { requestsPerSecond: 20 },
      overrides: [{ requestsPerSecond: 50, clientRefs: [{ kind: 'ServiceAccount', name: 'client' }] }],
    });
  });

  test('refuses limits above the total, zero limits and empty policies', () => {
    const server = Server.fromServerName('orders-http');
    expect(() => new HttpLocalRateLimitPolicy(labChart(), 'R', { name: 'r', server, totalRequestsPerSecond: 10, identityRequestsPerSecond: 20 })).toThrow(/LKD-POL-014.*exceeds/);
    expect(() => new HttpLocalRateLimitPolicy(labChart(), 'R', { name: 'r', server, totalRequestsPerSecond: 0 })).toThrow(/LKD-POL-014/);
    expect(() => new HttpLocalRateLimitPolicy(labChart(), 'R', { name: 'r', server })).toThrow(/LKD-POL-014.*no limit/);
  });
});
