import * as kplus from 'cdk8s-plus-28';
import { DefaultInboundPolicy, MeshedDeployment, MeshedNamespace, ServiceReference } from '../../src';
import { find, labChart, synth, synthChecked } from '../support/synth';

const container = { image: 'hashicorp/http-echo:1.0.0', ports: [{ name: 'http', number: 8080 }], securityContext: { user: 65532 } };

describe('MeshedNamespace', () => {
  test('enables injection by annotation and sets the default inbound policy', () => {
    const chart = labChart();
    new MeshedNamespace(chart, 'Ns', { name: 'mesh-lab', defaultInboundPolicy: DefaultInboundPolicy.AUDIT });
    const ns = find(synth(chart), 'Namespace', 'mesh-lab');
    expect(ns.metadata.annotations).toEqual({ 'linkerd.io/inject': 'enabled', 'config.linkerd.io/default-inbound-policy': 'audit' });
    expect(ns.metadata.labels ?? {}).not.toHaveProperty('linkerd.io/inject');
    // Cluster-scoped: the chart's namespace must not leak onto it.
    expect(ns.metadata.namespace).toBeUndefined();
  });

  test('rejects a policy outside the six values, naming the construct and rule', () => {
    expect(() => new MeshedNamespace(labChart(), 'Ns', { name: 'x', defaultInboundPolicy: 'allow-all' as any }))
      .toThrow(/\[lab\/Ns\] LKD-POL-012: .*allow-all.*Fix: /);
  });

  test('rejects a name that is not a DNS label', () => {
    expect(() => new MeshedNamespace(labChart(), 'Ns', { name: 'Mesh_Lab' })).toThrow(/LKD-INPUT-001.*Mesh_Lab/);
  });
});

describe('MeshedDeployment', () => {
  test('selects by app/version labels and runs under its own ServiceAccount', () => {
    const chart = labChart();
    new MeshedDeployment(chart, 'V1', { name: 'orders-v1', app: 'orders', version: 'v1', containers: [container] });
    const objects = synth(chart);
    const deployment = find(objects, 'Deployment', 'orders-v1');
    const labels = { 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': 'v1' };
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    expect(deployment.spec.template.metadata.labels).toMatchObject(labels);
    expect(deployment.spec.template.spec.serviceAccountName).toBe('orders-v1');
    expect(find(objects, 'ServiceAccount', 'orders-v1').metadata.namespace).toBe('mesh-lab');
  });

  test('shares a given ServiceAccount', () => {
    const chart = labChart();
    const sa = new kplus.ServiceAccount(chart, 'Sa', { metadata: { name: 'orders' } });
    new MeshedDeployment(chart, 'V1', { name: 'orders-v1', app: 'orders', serviceAccount: sa, containers: [container] });
    const objects = synth(chart);
    expect(find(objects, 'Deployment', 'orders-v1').spec.template.spec.serviceAccountName).toBe('orders');
    expect(objects.filter((o) => o.kind === 'ServiceAccount')).toHaveLength(1);
  });

  test('puts injection opt-out and proxy config on the pod template, never on the Deployment', () => {
    const chart = labChart();
    new MeshedDeployment(chart, 'Plain', {
      name: 'plain',
      app: 'plain',
      meshed: false,
      containers: [container],
      proxy: { opaquePorts: [3306, 25, 3306], skipOutboundPorts: [443], nativeSidecar: false, defaultInboundPolicy: DefaultInboundPolicy.DENY },
    });
    const deployment = find(synth(chart), 'Deployment', 'plain');
    expect(deployment.spec.template.metadata.annotations).toEqual({
      'linkerd.io/inject': 'disabled',
      'config.linkerd.io/opaque-ports': '25,3306',
      'config.linkerd.io/skip-outbound-ports': '443',
      'config.linkerd.io/proxy-enable-native-sidecar': 'false',
      'config.linkerd.io/default-inbound-policy': 'deny',
    });
    expect(deployment.metadata.annotations).toBeUndefined();
  });

  // pkg/inject/inject.go: a pod's own opaque-ports annotation, even "", stops the namespace's and the default list
  // (ApplyAnnotationOverrides, CreateOpaquePortsPatch), so [] is how a workload says "no opaque ports".
  test('an empty port list is written as "" (none, overriding the namespace and the chart defaults)', () => {
    const chart = labChart();
    new MeshedDeployment(chart, 'Db', { name: 'db-http', app: 'db-http', containers: [{ ...container, ports: [{ number: 3306 }] }], proxy: { opaquePorts: [], skipInboundPorts: [] } });
    // The checks read "" as no opaque ports too: the synth passes.
    const annotations = find(synthChecked(chart), 'Deployment', 'db-http').spec.template.metadata.annotations;
    expect(annotations).toMatchObject({ 'config.linkerd.io/opaque-ports': '', 'config.linkerd.io/skip-inbound-ports': '' });
  });

  // pkg/apis/core/validation validateServicePort: a Service port name is a DNS label, not an IANA service name.
  test('a Service port name may be any DNS label (longer than 15, digits only, "--")', () => {
    const chart = labChart();
    const d = new MeshedDeployment(chart, 'Api', { name: 'api', app: 'api', containers: [container] });
    d.exposeService({ ports: [{ port: 8080, name: 'http-metrics-admin' }, { port: 9090, name: '9090' }, { port: 9091, name: 'http--alt' }] });
    expect(find(synth(chart), 'Service', 'api').spec.ports.map((p: any) => p.name)).toEqual(['http-metrics-admin', '9090', 'http--alt']);
    expect(() => d.exposeService({ name: 'api-2', ports: [{ port: 8080, name: 'Http' }] })).toThrow(/LKD-INPUT-002.*Service port name "Http" is not a valid DNS label/);
  });

  test('rejects bad input with the construct path', () => {
    expect(() => new MeshedDeployment(labChart(), 'D', { name: 'd', app: 'd', containers: [] })).toThrow(/\[lab\/D\] LKD-INPUT-003/);
    expect(() => new MeshedDeployment(labChart(), 'D', { name: 'd', app: 'd', containers: [container], proxy: { opaquePorts: [70000] } }))
      .toThrow(/LKD-INPUT-002.*70000/);
    expect(() => new MeshedDeployment(labChart(), 'D', { name: 'd', app: 'd', containers: [container], proxy: { skipInboundPorts: 443 as any } }))
      .toThrow(/LKD-INPUT-003.*skipInboundPorts is not a list/);
    expect(() => new MeshedDeployment(labChart(), 'D', { name: 'D!', app: 'd', containers: [container] })).toThrow(/LKD-INPUT-001/);
    expect(() => new MeshedDeployment(labChart(), 'D', { name: 'd', app: 'not a label', containers: [container] })).toThrow(/LKD-INPUT-001.*app/);
  });
});

describe('MeshedDeployment.addCall', () => {
  test('writes the declared calls on the Deployment (sorted, unique) for LKD-POL-013', () => {
    const chart = labChart();
    const d = new MeshedDeployment(chart, 'C', { name: 'client', app: 'client', containers: [container] });
    d.addCall(ServiceReference.fromName('orders'), 8080);
    d.addCall(ServiceReference.fromName('billing', 'finance'), 443);
    d.addCall(ServiceReference.fromName('orders'), 8080);
    expect(find(synth(chart), 'Deployment', 'client').metadata.annotations).toEqual({ 'analysis.cdk8s-linkerd.io/calls': 'billing.finance:443,orders:8080' });
    expect(() => d.addCall(ServiceReference.fromName('orders'), 0)).toThrow(/\[lab\/C\] LKD-INPUT-002/);
  });

  test('a declared call the policy refuses fails synth', () => {
    const chart = labChart();
    new MeshedNamespace(chart, 'Ns', { name: 'mesh-lab', defaultInboundPolicy: DefaultInboundPolicy.DENY });
    const server = new MeshedDeployment(chart, 'S', { name: 'orders', app: 'orders', containers: [container] });
    const svc = new kplus.Service(chart, 'Svc', { metadata: { name: 'orders' }, ports: [{ port: 8080 }] });
    for (const [k, v] of Object.entries(server.selectorLabels)) svc.selectLabel(k, v);
    new MeshedDeployment(chart, 'C', { name: 'client', app: 'client', containers: [container], calls: [{ service: ServiceReference.fromService(svc), port: 8080 }] });
    expect(() => synthChecked(chart)).toThrow(/LKD-POL-013 at lab\/C .*calls orders\.mesh-lab:8080, but the mesh would refuse it: .*deny/);
  });
});
