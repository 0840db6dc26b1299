/**
 * Outbound for headless Services, audited against linkerd2 version-2.20 and the linkerd2-proxy it pins:
 * - policy-controller/k8s/index/src/outbound/index.rs `Index::apply` (Service) skips a cluster IP of "None", so no
 *   outbound policy exists for a headless Service; clients dial the pods' own IPs and the policy lookup finds nothing
 *   (policy-controller/runtime/src/lib.rs `lookup_ip`);
 * - controller/api/destination/server.go `getProfileByIP` then answers with an endpoint profile
 *   (`subscribeToEndpointProfile`), whose opaque flag comes from the pod: watcher/workload_watcher.go
 *   `GetAnnotatedOpaquePorts` (the pod's annotation, else the cluster default list) or a Server with proxyProtocol
 *   opaque (watcher/endpoints_watcher.go `SetToServerProtocol`);
 * - linkerd2-proxy linkerd/app/outbound/src/sidecar.rs `Param<Protocol>`: an opaque profile wins, else the synthesized
 *   policy detects (discover.rs).
 * So the Service's own appProtocol and opaque-ports are never read for it; the pods' opaque ports are. `linkerd check`
 * skips headless Services for the same reason (pkg/healthcheck/healthcheck.go checkMisconfiguredOpaquePortAnnotations),
 * and test/integration/deep/opaqueports/opaque_ports_test.go expects opaque TCP to a headless Service's annotated pod.
 */
import { analyze } from '../../src/analysis/engine';
import { Finding, Severity } from '../../src/analysis/finding';
import { OutboundProtocol, servicePortProtocol } from '../../src/analysis/model/outbound';
import { explainModel } from '../../src/analysis/reachability';
import { findServicePort } from '../../src/analysis/reachability/explain';
import { asManifests } from '../support/mesh-fixture';

const NS = 'db';

/** A meshed NATS StatefulSet behind one Service; `podAnnotations` go on its pod template. */
interface ServiceShape { clusterIP?: string; annotations?: Record<string, string>; appProtocol?: string }

function nats(podAnnotations: Record<string, string> = {}, service: ServiceShape = {}): any[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, annotations: { 'linkerd.io/inject': 'enabled' } } },
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'nats', namespace: NS },
      spec: {
        serviceName: 'nats',
        selector: { matchLabels: { app: 'nats' } },
        template: {
          metadata: { labels: { app: 'nats' }, annotations: podAnnotations },
          spec: { containers: [{ name: 'nats', image: 'nats:2.10.0', ports: [{ name: 'client', containerPort: 4222 }, { name: 'pg', containerPort: 5432 }] }] },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'nats', namespace: NS, annotations: service.annotations ?? {} },
      spec: {
        ...(service.clusterIP === undefined ? {} : { clusterIP: service.clusterIP }),
        selector: { app: 'nats' },
        ports: [
          { name: 'client', port: 4222, targetPort: 'client', ...(service.appProtocol ? { appProtocol: service.appProtocol } : {}) },
          { name: 'pg', port: 5432, targetPort: 5432 },
        ],
      },
    },
  ];
}

const opaqueServer = {
  apiVersion: 'policy.linkerd.io/v1beta3',
  kind: 'Server',
  metadata: { name: 'nats-client', namespace: NS },
  spec: { podSelector: { matchLabels: { app: 'nats' } }, port: 'client', proxyProtocol: 'opaque' },
};

function protocolOf(objects: any[], port = 4222) {
  const result = analyze(asManifests(objects), { rules: [] });
  const service = result.index.service(NS, 'nats')!;
  return servicePortProtocol(result.index, service, port, result.context);
}

const mesh004 = (objects: any[]): Finding[] => analyze(asManifests(objects)).findings.filter((f) => f.ruleId === 'LKD-MESH-004');

describe('headless Services: clients follow the pods\' endpoint profiles (getProfileByIP, GetAnnotatedOpaquePorts)', () => {
  test('pods that mark the port opaque make it opaque for clients of the headless Service, with no Service annotation', () => {
    const objects = nats({ 'config.linkerd.io/opaque-ports': '4222' }, { clusterIP: 'None' });
    expect(protocolOf(objects)).toMatchObject({ protocol: OutboundProtocol.OPAQUE, origin: expect.stringMatching(/^headless Service/) });
    // Before this audit LKD-MESH-004 asked for the Service annotation, which nothing reads for a headless Service.
    expect(mesh004(objects)).toEqual([]);
  });

  test('contrast: the same pods behind a ClusterIP Service still need the Service annotation (Index::apply for Service)', () => {
    const objects = nats({ 'config.linkerd.io/opaque-ports': '4222' });
    expect(protocolOf(objects).protocol).toBe(OutboundProtocol.DETECT);
    expect(mesh004(objects).map((f) => [f.resource.kind, f.severity])).toEqual([['Service', Severity.WARNING]]);
  });

  test('a headless Service\'s own opaque-ports does not make a port opaque: clients detect, and LKD-MESH-004 says why', () => {
    const objects = nats({}, { clusterIP: 'None', annotations: { 'config.linkerd.io/opaque-ports': '4222' } });
    expect(protocolOf(objects).protocol).toBe(OutboundProtocol.DETECT);
    const found = mesh004(objects);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: Severity.WARNING, resource: { kind: 'Service', name: 'nats' } });
    expect(found[0].message).toMatch(/^port 4222 is listed in the Service's config\.linkerd\.io\/opaque-ports, but this Service is headless/);
    expect(found[0].message).toMatch(/StatefulSet db\/nats do not list it in their own opaque ports/);
    // The pods agreeing settles it.
    expect(mesh004(nats({ 'config.linkerd.io/opaque-ports': 'client' }, { clusterIP: 'None', annotations: { 'config.linkerd.io/opaque-ports': '4222' } }))).toEqual([]);
  });

  test('a headless Service\'s appProtocol is not read (no outbound policy exists for it): the pods decide', () => {
    const objects = nats({ 'config.linkerd.io/opaque-ports': '4222' }, { clusterIP: 'None', appProtocol: 'http' });
    expect(protocolOf(objects).protocol).toBe(OutboundProtocol.OPAQUE);
    expect(protocolOf(nats({}, { clusterIP: 'None', appProtocol: 'linkerd.io/opaque' })).protocol).toBe(OutboundProtocol.DETECT);
    // LKD-ROUTE-027 (an appProtocol Linkerd does not know makes the port opaque) concerns ClusterIP Services only.
    const route027 = (input: any[]) => analyze(asManifests(input)).findings.filter((f) => f.ruleId === 'LKD-ROUTE-027');
    expect(route027(nats({}, { clusterIP: 'None', appProtocol: 'grpc' }))).toEqual([]);
    expect(route027(nats({}, { appProtocol: 'grpc' }))).toHaveLength(1);
    // The appProtocol-versus-opaque-ports conflict of LKD-MESH-004 concerns ClusterIP Services only.
    expect(mesh004(nats({ 'config.linkerd.io/opaque-ports': '4222' }, { clusterIP: 'None', appProtocol: 'http', annotations: { 'config.linkerd.io/opaque-ports': '4222' } }))).toEqual([]);
  });

  test('a pod without the annotation: the cluster default list (5432 opaque, 4222 not); a Server with proxyProtocol opaque (SetToServerProtocol)', () => {
    expect(protocolOf(nats({}, { clusterIP: 'None' }), 5432).protocol).toBe(OutboundProtocol.OPAQUE);
    expect(protocolOf(nats({}, { clusterIP: 'None' })).protocol).toBe(OutboundProtocol.DETECT);
    expect(protocolOf([...nats({}, { clusterIP: 'None' }), opaqueServer]).protocol).toBe(OutboundProtocol.OPAQUE);
  });

  test('explain --to-service shows the endpoint profile\'s protocol for a headless Service, not its appProtocol', () => {
    const model = explainModel(asManifests(nats({ 'config.linkerd.io/opaque-ports': '4222' }, { clusterIP: 'None', appProtocol: 'http' })));
    const view = findServicePort(model, 'db/nats:4222');
    if (typeof view === 'string') throw new Error(view);
    expect(view.protocol).toMatch(/^opaque \(headless Service: clients dial the pods, whose own opaque ports list it\)$/);
  });
});
