/**
 * References to objects another tool installs (`ServiceReference.fromName`, `Server.fromServerName`, imported
 * ServiceAccounts) in a namespace this app writes: the app's author says they exist, so a reference the analysis
 * cannot resolve is a warning naming that claim, never a failed synth. The same manifests as plain YAML carry no
 * claim, and stay errors.
 */
import { ApiObject, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Authentication, AuthorizationPolicy, AuthorizationTarget, HttpLocalRateLimitPolicy, HttpRoute, MeshChecks, MeshTlsAuthentication, MeshedDeployment,
  MeshedNamespace, RouteBackend, Server, ServiceReference,
} from '../../src';
import { analyze } from '../../src/analysis/engine';
import { Finding } from '../../src/analysis/finding';

const CLAIMING_RULES = ['LKD-MESH-010', 'LKD-POL-001', 'LKD-POL-003', 'LKD-POL-013', 'LKD-POL-014', 'LKD-ROUTE-002', 'LKD-ROUTE-007'];

/** A namespace this app writes, whose payments Service, Server and ServiceAccount come from a Helm chart. */
function shopReferencingHelmObjects() {
  const app = Testing.app();
  const chart = new Chart(app, 'lab', { namespace: 'shop' });
  new MeshedNamespace(chart, 'Ns', { name: 'shop' });
  new MeshedDeployment(chart, 'Client', {
    name: 'client',
    app: 'client',
    containers: [{ image: 'curlimages/curl:8.14.1', securityContext: { user: 100 } }],
    calls: [{ service: ServiceReference.fromName('payments'), port: 8080 }],
  });
  new MeshedDeployment(chart, 'Worker', {
    name: 'worker',
    app: 'worker',
    serviceAccount: kplus.ServiceAccount.fromServiceAccountName(chart, 'WorkerAccount', 'payments-worker'),
    containers: [{ image: 'curlimages/curl:8.14.1', securityContext: { user: 100 } }],
  });
  const route = new HttpRoute(chart, 'Route', { name: 'payments', service: ServiceReference.fromName('payments'), port: 8080 });
  route.addRule({ backends: [RouteBackend.service(ServiceReference.fromName('payments-v2'), { port: 8080 })] });
  const billing = kplus.ServiceAccount.fromServiceAccountName(chart, 'Billing', 'billing');
  const callers = new MeshTlsAuthentication(chart, 'Callers', { name: 'payments-callers', serviceAccounts: [billing] });
  new AuthorizationPolicy(chart, 'Allow', {
    name: 'payments', target: AuthorizationTarget.server(Server.fromServerName('payments-http')), requiredAuthentications: [Authentication.meshTls(callers)],
  });
  new HttpLocalRateLimitPolicy(chart, 'Limit', { name: 'payments', server: Server.fromServerName('payments-http'), totalRequestsPerSecond: 100 });
  MeshChecks.of(app).configure({ printWarnings: false });
  return { app, chart };
}

const about = (findings: Finding[]) => findings.filter((f) => CLAIMING_RULES.includes(f.ruleId)).map((f) => `${f.ruleId} ${f.severity}`).sort();

describe('objects the app says exist in the cluster', () => {
  test('each unresolved reference is a warning that names the factory and the construct; the synth passes', () => {
    const { app, chart } = shopReferencingHelmObjects();
    const findings = MeshChecks.of(app).analyze();
    expect(about(findings)).toEqual([
      'LKD-MESH-010 warning', 'LKD-POL-001 warning', 'LKD-POL-003 warning', 'LKD-POL-013 warning', 'LKD-POL-014 warning', 'LKD-ROUTE-002 warning', 'LKD-ROUTE-007 warning',
    ]);
    const message = (id: string) => findings.find((f) => f.ruleId === id)!.message;
    expect(message('LKD-ROUTE-007')).toMatch(/Service shop\/payments-v2, .*\(ServiceReference\.fromName at lab\/Route says it exists in the cluster outside this app; if it does, add it to MeshChecks' inventory/);
    expect(message('LKD-ROUTE-002')).toMatch(/Service shop\/payments, .*ServiceReference\.fromName at lab\/(Route|Client) says it exists/);
    expect(message('LKD-POL-001')).toMatch(/Server "payments-http" .*Server\.fromServerName at lab\/(Allow|Limit) says it exists/);
    expect(message('LKD-MESH-010')).toMatch(/ServiceAccount shop\/payments-worker, .*ServiceAccount\.fromServiceAccountName at lab\/Worker says it exists/);
    expect(message('LKD-POL-003')).toMatch(/ServiceAccount shop\/billing, .*ServiceAccount\.fromServiceAccountName at lab\/Callers says it exists/);
    expect(message('LKD-POL-013')).toMatch(/calls payments\.shop:8080, which this analysis cannot follow: Service shop\/payments is not in this analysis \(ServiceReference\.fromName/);
    expect(() => Testing.synth(chart)).not.toThrow();
  });

  test('the same objects as YAML carry no claim: a namespace written in full makes each missing reference an error', () => {
    const { chart } = shopReferencingHelmObjects();
    // Rendered without the synth, whose checks would refuse these objects before anything could read them.
    const yaml = chart.node.findAll().filter(ApiObject.isApiObject).map((o) => ({ object: o.toJson() }));
    expect(about(analyze(yaml).findings)).toEqual([
      'LKD-MESH-010 error', 'LKD-POL-001 error', 'LKD-POL-003 error', 'LKD-POL-013 error', 'LKD-POL-014 error', 'LKD-ROUTE-002 error', 'LKD-ROUTE-007 error',
    ]);
  });

  test('declared in the inventory, the claimed Service is checked in full: a port it lacks is reported, the claim no longer named', () => {
    const { app } = shopReferencingHelmObjects();
    const service = (name: string, port: number) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'shop' }, spec: { ports: [{ port }], selector: { app: name } } });
    MeshChecks.of(app).configure({ inventory: [service('payments', 8080), service('payments-v2', 9090)] });
    const route = MeshChecks.of(app).analyze().filter((f) => f.ruleId === 'LKD-ROUTE-007' || f.ruleId === 'LKD-ROUTE-002');
    expect(route.map((f) => `${f.ruleId} ${f.severity}`)).toEqual(['LKD-ROUTE-007 warning']);
    expect(route[0].message).toMatch(/port 8080 is not a port of Service shop\/payments-v2 \(ports: 9090\)/);
    expect(route[0].message).not.toMatch(/says it exists/);
  });

  test('a claim covers only what it names: another missing Service of the namespace stays an error', () => {
    const { app, chart } = shopReferencingHelmObjects();
    new ApiObject(chart, 'Plain', {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'plain' },
      spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'payments', port: 8080 }], rules: [{ backendRefs: [{ name: 'paymets-v2', port: 8080 }] }] },
    });
    const plain = MeshChecks.of(app).analyze().filter((f) => f.resource.name === 'plain' && f.ruleId === 'LKD-ROUTE-007');
    expect(plain.map((f) => `${f.ruleId} ${f.severity}`)).toEqual(['LKD-ROUTE-007 error']);
    expect(plain[0].message).toMatch(/Service shop\/paymets-v2, which is neither in this output nor in the inventory;/);
  });

  test('a warning, not silence: failOnWarnings fails the synth on a claimed reference', () => {
    const { app, chart } = shopReferencingHelmObjects();
    MeshChecks.of(app).configure({ failOnWarnings: true });
    expect(() => Testing.synth(chart)).toThrow(/LKD-ROUTE-007 at lab\/Route .*ServiceReference\.fromName at lab\/Route says it exists/);
  });
});
