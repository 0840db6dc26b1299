import { analyze } from '../../../src/analysis/engine';
import { Severity } from '../../../src/analysis/finding';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

function ruleFindings(objects: any[], ruleId: string) {
  return analyze(asManifests(objects)).findings.filter((f) => f.ruleId === ruleId);
}

function withRoute(mutate: (route: any) => void): any[] {
  const objects = meshLab();
  mutate(pick(objects, 'HTTPRoute', 'orders-split'));
  return objects;
}

const inboundRoute = (parentRef: Record<string, unknown>) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'orders-inbound', namespace: 'mesh-lab' },
  spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http', ...parentRef }], rules: [{ matches: [{ path: { value: '/health' } }] }] },
});

describe('LKD-ROUTE-002 parent exists', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-002')).toEqual([]);
  });
  test('fires on a missing Service parent', () => {
    const [finding] = ruleFindings(withRoute((r) => { r.spec.parentRefs[0].name = 'ordres'; }), 'LKD-ROUTE-002');
    expect(finding).toMatchObject({ severity: Severity.ERROR, resource: { name: 'orders-split' } });
    expect(finding.message).toMatch(/parentRefs\[0\] names Service mesh-lab\/ordres.*NoMatchingParent/);
  });
  test('passes when the parent is in the inventory', () => {
    const objects = withRoute((r) => { r.spec.parentRefs[0].name = 'legacy'; });
    const legacy = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'legacy', namespace: 'mesh-lab' }, spec: { ports: [{ port: 8080 }] } };
    expect(analyze(asManifests(objects), { inventory: [legacy] }).findings.filter((f) => f.ruleId === 'LKD-ROUTE-002')).toEqual([]);
  });
  test('fires on a missing Server parent and on a parentRef without name', () => {
    const objects = [...meshLab(), inboundRoute({ name: 'orders-grpc' }), { ...inboundRoute({}), metadata: { name: 'nameless', namespace: 'mesh-lab' } }];
    delete objects[objects.length - 1].spec.parentRefs[0].name;
    const messages = ruleFindings(objects, 'LKD-ROUTE-002').map((f) => `${f.resource.name}: ${f.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^nameless: parentRefs\[0\] has no name/),
      expect.stringMatching(/^orders-inbound: parentRefs\[0\] names Server mesh-lab\/orders-grpc/),
    ]);
  });
  // As in Buoyant's service-mesh-academy workshops: a folder adds routes and one more Service (smiley2) beside the Faces
  // app, which its Helm chart installs; the route's parent `smiley` is the chart's.
  test('other Services of the namespace in the output do not prove the parent missing: a warning, unless the Namespace or the inventory says so', () => {
    const ns = 'faces';
    const service = (name: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec: { selector: { service: name }, ports: [{ name: 'http', port: 80 }] } });
    const route = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'smiley-edge', namespace: ns },
      spec: {
        parentRefs: [{ group: 'core', kind: 'Service', name: 'smiley', port: 80 }],
        rules: [{ backendRefs: [{ name: 'smiley', port: 80, weight: 50 }, { name: 'smiley2', port: 80, weight: 50 }] }],
      },
    };
    const overlay = [service('smiley2'), route];
    const atWarning = ruleFindings(overlay, 'LKD-ROUTE-002');
    expect(atWarning).toMatchObject([{ severity: Severity.WARNING }]);
    expect(atWarning[0].message).toMatch(/namespace faces is not part of this analysis: it has neither the Namespace nor an inventory of its Services.*--inventory/);
    expect(analyze(asManifests(overlay)).findings.filter((f) => f.ruleId === 'LKD-ROUTE-007').map((f) => f.severity)).toEqual([Severity.WARNING]);
    // The Namespace in the output: whoever writes the namespace writes what runs in it.
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
    expect(ruleFindings([namespace, ...overlay], 'LKD-ROUTE-002').map((f) => f.severity)).toEqual([Severity.ERROR]);
    // An inventory of the namespace's Services (kubectl get svc -n faces) without smiley: the parent is missing for sure.
    const inventory = [{ ...service('color'), metadata: { name: 'color', namespace: ns } }];
    const sure = analyze(asManifests(overlay), { inventory }).findings.filter((f) => f.ruleId === 'LKD-ROUTE-002');
    expect(sure.map((f) => f.severity)).toEqual([Severity.ERROR]);
    // With smiley in that inventory, nothing is missing.
    expect(analyze(asManifests(overlay), { inventory: [...inventory, service('smiley')] }).findings.filter((f) => f.ruleId === 'LKD-ROUTE-002')).toEqual([]);
  });
  test('a Gateway parent is another implementation\'s: not checked (Linkerd neither serves nor reports on it)', () => {
    expect(ruleFindings(withRoute((r) => { r.spec.parentRefs = [{ name: 'public' }]; }), 'LKD-ROUTE-002')).toEqual([]);
  });
});

describe('LKD-ROUTE-003 parent has a cluster IP', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-003')).toEqual([]);
  });
  test('fires on a headless parent', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').spec.clusterIP = 'None';
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-003');
    expect(finding.resource.name).toBe('orders-split');
    expect(finding.message).toMatch(/parentRefs\[0\].*is headless \(clusterIP: None\)/);
  });
  test('fires on an ExternalName parent', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').spec = { type: 'ExternalName', externalName: 'orders.example.com' };
    expect(ruleFindings(objects, 'LKD-ROUTE-003').map((f) => f.message)).toEqual([expect.stringContaining('ExternalName')]);
  });
});

describe('LKD-ROUTE-004 parent port', () => {
  test('passes on the baseline and with a matching sectionName', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-004')).toEqual([]);
    expect(ruleFindings(withRoute((r) => { r.spec.parentRefs[0].sectionName = 'http'; }), 'LKD-ROUTE-004')).toEqual([]);
  });
  test('fires when the port is the targetPort, not a Service port', () => {
    const objects = withRoute((r) => { r.spec.parentRefs[0].port = 80; });
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-004');
    expect(finding.resource.name).toBe('orders-split');
    expect(finding.message).toMatch(/parentRefs\[0\]\.port 80 is not a port of Service mesh-lab\/orders \(ports: 8080 \(http\)\)/);
  });
  // Linkerd never reads a Service parent's sectionName (outbound/index.rs apply_http_route keys it by port), so none of
  // these detaches the route: each is a warning saying which ports the route binds to.
  test('warns on an unknown sectionName: the route still binds to its port', () => {
    const [finding] = ruleFindings(withRoute((r) => { r.spec.parentRefs[0].sectionName = 'grpc'; }), 'LKD-ROUTE-004');
    expect(finding).toMatchObject({ severity: Severity.WARNING, message: expect.stringMatching(/sectionName "grpc" names no port.*binds to port 8080/) });
    expect(finding.effect).toBeUndefined();
  });
  test('warns on a sectionName naming no port of a Service whose port has no name', () => {
    const objects = withRoute((r) => { r.spec.parentRefs[0].sectionName = 'http'; });
    delete pick(objects, 'Service', 'orders').spec.ports[0].name;
    expect(ruleFindings(objects, 'LKD-ROUTE-004')).toEqual([expect.objectContaining({ severity: Severity.WARNING })]);
  });
  test('warns on an unknown sectionName without a port: the route applies to every port', () => {
    const [finding] = ruleFindings(withRoute((r) => { delete r.spec.parentRefs[0].port; r.spec.parentRefs[0].sectionName = 'admin'; }), 'LKD-ROUTE-004');
    expect(finding).toMatchObject({ severity: Severity.WARNING, message: expect.stringContaining('applies to every port of the Service') });
  });
  test('warns on a sectionName that disagrees with the port', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').spec.ports.push({ name: 'admin', port: 9000 });
    pick(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].sectionName = 'admin';
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-004');
    expect(finding).toMatchObject({ severity: Severity.WARNING, message: expect.stringMatching(/sectionName "admin" \(port 9000\) and port 8080, which disagree.*binds to port 8080/) });
  });
  test('warns when sectionName is used without port', () => {
    const [finding] = ruleFindings(withRoute((r) => { delete r.spec.parentRefs[0].port; r.spec.parentRefs[0].sectionName = 'http'; }), 'LKD-ROUTE-004');
    expect(finding).toMatchObject({ severity: Severity.WARNING, fix: expect.stringContaining('Set parentRefs[0].port to 8080') });
  });
  test('fires on port 0', () => {
    expect(ruleFindings(withRoute((r) => { r.spec.parentRefs[0].port = 0; }), 'LKD-ROUTE-004')[0].message).toMatch(/port is 0; it must be/);
  });
});

describe('LKD-ROUTE-005 consumer route', () => {
  test('passes for a producer route', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-005')).toEqual([]);
  });
  test('warns when the route lives in another namespace', () => {
    const objects = withRoute((r) => { r.metadata.namespace = 'frontend'; r.spec.parentRefs[0].namespace = 'mesh-lab'; });
    const [finding] = ruleFindings(objects, 'LKD-ROUTE-005');
    expect(finding).toMatchObject({ severity: Severity.WARNING, resource: { name: 'orders-split', namespace: 'frontend' } });
    expect(finding.message).toMatch(/consumer route, applied only to clients in "frontend"/);
  });
});

describe('LKD-ROUTE-017 missing parentRefs', () => {
  test('passes on the baseline', () => {
    expect(ruleFindings(meshLab(), 'LKD-ROUTE-017')).toEqual([]);
  });
  test.each([['absent', undefined], ['empty', []]])('fires when parentRefs is %s', (_, refs) => {
    const [finding] = ruleFindings(withRoute((r) => { r.spec.parentRefs = refs; }), 'LKD-ROUTE-017');
    expect(finding).toMatchObject({ resource: { name: 'orders-split' }, message: expect.stringContaining('spec.parentRefs is missing or empty') });
  });
});

describe('LKD-ROUTE-022 Server parent scope', () => {
  test('passes for a plain Server parent', () => {
    expect(ruleFindings([...meshLab(), inboundRoute({})], 'LKD-ROUTE-022')).toEqual([]);
  });
  test('fires when a Server parent sets a port, a sectionName or another namespace', () => {
    const [finding] = ruleFindings([...meshLab(), inboundRoute({ port: 8080, sectionName: 'http', namespace: 'other' })], 'LKD-ROUTE-022');
    expect(finding.resource.name).toBe('orders-inbound');
    expect(finding.message).toMatch(/parentRefs\[0\] \(Server orders-http\) sets port 8080 and sets sectionName "http" and points to namespace "other"/);
  });
});
