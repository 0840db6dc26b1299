import { analyze } from '../../../src/analysis/engine';
import { CALLS_ANNOTATION } from '../../../src/core/vocabulary';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

function withCaller(name: string, serviceAccountName: string, calls: string): any[] {
  const objects = meshLab();
  const caller = JSON.parse(JSON.stringify(pick(objects, 'Deployment', 'client')));
  caller.metadata = { name, namespace: 'mesh-lab', annotations: { [CALLS_ANNOTATION]: calls } };
  caller.spec.selector.matchLabels = { 'app.kubernetes.io/name': name };
  caller.spec.template.metadata.labels = { 'app.kubernetes.io/name': name };
  caller.spec.template.spec.serviceAccountName = serviceAccountName;
  return [...objects, caller];
}

const findings = (objects: any[]) => analyze(asManifests(objects)).findings.filter((f) => f.ruleId === 'LKD-POL-013');

describe('LKD-POL-013 declared calls', () => {
  test('passes when the declared call is authorized (client identity → orders:8080)', () => {
    expect(findings(withCaller('client-2', 'client', 'orders:8080'))).toEqual([]);
  });

  test('fires when the caller\'s identity is not authorized, with the reason', () => {
    const [f] = findings(withCaller('wrong-client', 'default', 'orders.mesh-lab:8080'));
    expect(f.resource.name).toBe('wrong-client');
    expect(f.severity).toBe('error');
    expect(f.message).toMatch(/declares that it calls orders\.mesh-lab:8080, but the mesh would refuse it: /);
  });

  // The narrowest fix: the caller's identity on the route it uses, not ServerAccess.allow (which opens every route);
  // or the ServiceAccount another workload of the namespace already runs as and the policy admits.
  test('the fix names the route-level authorization and the ServiceAccount the workload was meant to share', () => {
    const [f] = findings(withCaller('wrong-client', 'default', 'orders.mesh-lab:8080 GET /orders'));
    expect(f.fix).toMatch(/^Authorize ServiceAccount mesh-lab\/default on the route that serves GET \/orders on orders\.mesh-lab:8080: an AuthorizationPolicy targeting that route/);
    expect(f.fix).toMatch(/ServerAccess\.allow would open every route of the Server\./);
    expect(f.fix).toMatch(/if Deployment wrong-client was meant to run as ServiceAccount client, which the policy already admits for this call, set its serviceAccountName to that/);
    expect(f.fix).not.toMatch(/^Authorize the caller \(e\.g\. ServerAccess\.allow/);
  });

  // The caller's pod address is not in the manifests: a NetworkAuthentication over part of the cluster networks
  // admits it or not depending on where the CNI puts the pod.
  test('a refusal that hangs on the caller\'s unknown pod address is a warning; declared cluster networks decide it', () => {
    const objects = withCaller('client-2', 'client', 'orders:8080');
    objects.push({ apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'NetworkAuthentication', metadata: { name: 'pods', namespace: 'mesh-lab' }, spec: { networks: [{ cidr: '10.0.0.0/8' }] } });
    const policy = objects.find((o) => o.kind === 'AuthorizationPolicy');
    policy.spec.requiredAuthenticationRefs = [...policy.spec.requiredAuthenticationRefs, { group: 'policy.linkerd.io', kind: 'NetworkAuthentication', name: 'pods' }];
    const [f] = findings(objects);
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/refuses unless its pod address lies in the networks authorized: .*admits only part of the cluster networks/);
    const declared = analyze(asManifests(objects), { clusterNetworks: ['10.0.0.0/8'] }).findings.filter((x) => x.ruleId === 'LKD-POL-013');
    expect(declared).toEqual([]);
    const elsewhere = analyze(asManifests(objects), { clusterNetworks: ['192.168.0.0/16'] }).findings.filter((x) => x.ruleId === 'LKD-POL-013');
    expect(elsewhere.map((x) => x.severity)).toEqual(['error']);
  });

  // inbound/server_authorization.rs client_authz: a legacy ServerAuthorization's client.networks work as a
  // NetworkAuthentication's do, so the same unknown address leaves the same doubt; a client it does not name is refused.
  test('a legacy ServerAuthorization over part of the cluster networks leaves the same doubt', () => {
    const objects = withCaller('client-2', 'client', 'orders:8080');
    objects.splice(objects.findIndex((o) => o.kind === 'AuthorizationPolicy'), 1);
    const saz = (serviceAccounts: object[]) => ({
      apiVersion: 'policy.linkerd.io/v1beta1',
      kind: 'ServerAuthorization',
      metadata: { name: 'orders-clients', namespace: 'mesh-lab' },
      spec: { server: { name: 'orders-http' }, client: { networks: [{ cidr: '10.0.0.0/8' }], meshTLS: { serviceAccounts } } },
    });
    const [f] = findings([...objects, saz([{ name: 'client' }])]);
    expect(f).toMatchObject({ severity: 'warning', message: expect.stringMatching(/unless its pod address lies in the networks authorized: .*ServerAuthorization orders-clients: its client.networks admit only part/) });
    expect(analyze(asManifests([...objects, saz([{ name: 'client' }])]), { clusterNetworks: ['10.0.0.0/8'] }).findings.filter((x) => x.ruleId === 'LKD-POL-013')).toEqual([]);
    expect(findings([...objects, saz([{ name: 'someone-else' }])]).map((x) => [x.severity, x.message])).toEqual([
      ['error', expect.stringMatching(/ServerAuthorization orders-clients does not match/)],
    ]);
  });

  // The injector reads the caller's Namespace annotation (report.go disabledByAnnotation); without that Namespace
  // whether the caller is meshed is unknown, so a refusal only the unmeshed reading gives is no proof.
  test('a caller whose Namespace is not here: a warning when meshed it would be allowed, an error when refused either way', () => {
    const objects = withCaller('web-client', 'client', 'orders.mesh-lab:8080');
    const caller = objects[objects.length - 1];
    caller.metadata.namespace = 'web';
    pick(objects, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs.push({ kind: 'ServiceAccount', name: 'client', namespace: 'web' });
    const [f] = findings(objects);
    expect(f).toMatchObject({ severity: 'warning', message: expect.stringMatching(/cannot follow: whether Deployment web\/web-client is meshed is unknown \(namespace web, .*meshed it would be allowed/) });
    pick(objects, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs.pop();
    expect(findings(objects).map((x) => x.severity)).toEqual(['error']);
  });

  // Neither the Namespace nor an inventory of Services: the Service may come from another repository or a chart.
  test('a call into a namespace this analysis does not see is a warning, not a refusal', () => {
    const [f] = findings(withCaller('client-2', 'client', 'payments.billing:8080'));
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/calls payments\.billing:8080, which this analysis cannot follow: Service billing\/payments is not in this analysis \(namespace billing is not part of this analysis/);
  });

  test('a Service whose pods the analysis does not have is a warning; one that selects none of the pods it has is an error', () => {
    const service = (namespace: string, selector?: object) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'payments', namespace }, spec: { ports: [{ port: 8080 }], selector } });
    const inventoryOnly = analyze(asManifests(withCaller('client-2', 'client', 'payments.billing:8080')), { inventory: [service('billing', { app: 'payments' })] })
      .findings.filter((f) => f.ruleId === 'LKD-POL-013');
    expect(inventoryOnly.map((f) => f.severity)).toEqual(['warning']);
    expect(inventoryOnly[0].message).toMatch(/Service billing\/payments selects no pod template here: this analysis has none in namespace billing/);
    const endpointsManaged = findings([...withCaller('client-2', 'client', 'payments:8080'), service('mesh-lab')]);
    expect(endpointsManaged.map((f) => f.severity)).toEqual(['warning']);
    expect(endpointsManaged[0].message).toMatch(/has no selector, so its endpoints are managed outside the manifests/);
    const typo = findings([...withCaller('client-2', 'client', 'payments:8080'), service('mesh-lab', { app: 'paymnts' })]);
    expect(typo.map((f) => `${f.severity} ${f.message}`)).toEqual([expect.stringMatching(/^error .*Service mesh-lab\/payments selects no pod template\.$/)]);
  });

  test('fires for a Service or port that does not exist, and for entries it cannot read', () => {
    const messages = findings(withCaller('client-2', 'client', 'payments:80, orders:9999, not a call')).map((f) => f.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/payments\.mesh-lab:80.*does not exist/),
      expect.stringMatching(/orders\.mesh-lab:9999.*has no port 9999/),
      expect.stringMatching(/"not a call" is not service\[\.namespace\]:port/),
    ]));
  });
});
