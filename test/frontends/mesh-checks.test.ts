import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { MeshChecks, MeshedDeployment, MeshedNamespace, PodSelection, ProxyProtocol, RouteBackend, Server, ServerPort, ServiceReference, HttpRoute } from '../../src';
import { SUPPRESS_ANNOTATION } from '../../src/analysis/suppressions';

function appWithOrders(outdir?: string) {
  const app = outdir ? new App({ outdir }) : Testing.app();
  const chart = new Chart(app, 'lab', { namespace: 'mesh-lab' });
  new MeshedNamespace(chart, 'Ns', { name: 'mesh-lab' });
  new MeshedDeployment(chart, 'Orders', { name: 'orders', app: 'orders', containers: [{ image: 'hashicorp/http-echo:1.0.0', ports: [{ name: 'http', number: 8080 }], securityContext: { user: 65532 } }] });
  const svc = new kplus.Service(chart, 'Svc', { metadata: { name: 'orders' }, ports: [{ name: 'http', port: 8080 }] });
  svc.selectLabel('app.kubernetes.io/name', 'orders');
  return { app, chart, svc };
}

describe('MeshChecks (the construct front-end)', () => {
  test('an engine error fails synth with the rule ID, the construct path and the fix; nothing is written', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'checks-'));
    const { app, chart } = appWithOrders(outdir);
    new Server(chart, 'Ghost', { name: 'ghost', selector: PodSelection.app('nobody'), port: ServerPort.number(8080), proxyProtocol: ProxyProtocol.HTTP1 });
    expect(() => app.synth()).toThrow(/LKD-POL-006 at lab\/Ghost \(Server mesh-lab\/ghost\): .* Fix: /);
    expect(fs.readdirSync(outdir)).toEqual([]);
  });

  test('a mistake added after a successful synth is caught by the next synth (no stale cache)', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'checks-'));
    const { app, chart, svc } = appWithOrders(outdir);
    const route = new HttpRoute(chart, 'Route', { name: 'r', service: ServiceReference.fromService(svc), port: 8080 });
    route.addRule({ backends: [RouteBackend.service(ServiceReference.fromService(svc), { port: 8080 })] });
    app.synth();
    new Server(chart, 'Ghost', { name: 'ghost', selector: PodSelection.app('nobody'), port: ServerPort.number(8080), proxyProtocol: ProxyProtocol.HTTP1 });
    expect(() => app.synth()).toThrow(/LKD-POL-006/);
  });

  test('rendering is shared with the synth only while it runs', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'checks-'));
    const { app } = appWithOrders(outdir);
    app.synth();
    const objects = app.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c));
    for (const obj of objects) expect(Object.prototype.hasOwnProperty.call(obj, 'toJson')).toBe(false);
  });

  test('warnings pass by default and fail with failOnWarnings; info never fails', () => {
    const { app, chart } = appWithOrders();
    // orders:8080 has no Server under the cluster default all-unauthenticated: LKD-POL-011 advises (info).
    MeshChecks.of(app).configure({ failOnWarnings: true, printWarnings: false });
    expect(MeshChecks.of(app).findings.filter((f) => f.ruleId === 'LKD-POL-011').map((f) => f.severity)).toEqual(['info']);
    expect(() => Testing.synth(chart)).not.toThrow();
    // A Server denying everyone with no authorization: whether that is meant depends on what is outside, so LKD-POL-009 warns.
    MeshChecks.of(app).configure({ failOnWarnings: false });
    new Server(chart, 'Srv', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080), proxyProtocol: ProxyProtocol.HTTP1 });
    expect(() => Testing.synth(chart)).not.toThrow();
    expect(MeshChecks.of(app).findings.map((f) => f.ruleId)).toContain('LKD-POL-009');
    MeshChecks.of(app).configure({ failOnWarnings: true });
    expect(() => Testing.synth(chart)).toThrow(/LKD-POL-009/);
  });

  test('suppression needs a reason, is written into the YAML and moves the finding to the audit trail', () => {
    const { app, chart } = appWithOrders();
    const orders = chart.node.findChild('Orders');
    expect(() => MeshChecks.suppress(orders, 'LKD-POL-011', '')).toThrow(/LKD-META-001.*needs a reason/);
    expect(() => MeshChecks.suppress(orders, 'POL-11', 'x y z')).toThrow(/not a rule ID/);
    MeshChecks.suppress(orders, 'LKD-POL-011', 'plaintext health checks from the legacy LB until Q3');
    MeshChecks.of(app).configure({ failOnWarnings: true, printWarnings: false });
    const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment');
    expect(JSON.parse(deployment.metadata.annotations[SUPPRESS_ANNOTATION])).toEqual([{ ruleId: 'LKD-POL-011', reason: 'plaintext health checks from the legacy LB until Q3' }]);
    expect(MeshChecks.of(app).suppressed.map((s) => [s.finding.ruleId, s.reason])).toEqual([['LKD-POL-011', 'plaintext health checks from the legacy LB until Q3']]);
  });

  test('cluster facts reach the engine', () => {
    const { app, chart } = appWithOrders();
    MeshChecks.of(app).configure({ gatewayApiVersion: 'v1.6.1', printWarnings: false });
    const route = new HttpRoute(chart, 'Route', { name: 'r', service: ServiceReference.fromName('orders'), port: 8080 });
    route.addRule({});
    expect(() => Testing.synth(chart)).toThrow(/LKD-ROUTE-016.*v1\.6\.1/);
  });
});
