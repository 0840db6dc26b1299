import { Chart, Testing } from 'cdk8s';
import { MeshChecks } from '../../src/checks/mesh-checks';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';
import { DeliveryForm } from '../../src/control-plane/delivery/form';
import { LinkerdIdentity } from '../../src/control-plane/identity/identity';
import { LinkerdControlPlane } from '../../src/control-plane/install/control-plane';
import { LinkerdVersion } from '../../src/core/versions';
import { MeshedDeployment } from '../../src/workloads/meshed-deployment';
import { MeshedNamespace } from '../../src/workloads/meshed-namespace';
import { controlPlaneChart, indexOf, only, rendered } from '../delivery/fixtures';

describe('LinkerdControlPlane', () => {
  test('creates the control-plane namespace with the labels Linkerd and trust-manager expect, cluster-scoped', () => {
    const { objects } = rendered({}, 'platform');
    const ns = only(objects, 'Namespace', 'linkerd');
    expect(ns.metadata.labels).toEqual({
      'linkerd.io/is-control-plane': 'true', 'config.linkerd.io/admission-webhooks': 'disabled', 'linkerd.io/control-plane-ns': 'linkerd',
    });
    expect(ns.metadata.annotations).toEqual({ 'linkerd.io/inject': 'disabled', 'argocd.argoproj.io/sync-wave': '-1' });
    expect(ns.metadata).not.toHaveProperty('namespace');
  });

  test('orders namespace → identity objects → CRDs → control plane', () => {
    const { objects } = rendered();
    const ns = indexOf(objects, 'Namespace', 'linkerd');
    const issuer = indexOf(objects, 'Certificate', 'linkerd-identity-issuer');
    const bundle = indexOf(objects, 'Bundle', 'linkerd-identity-trust-roots');
    const crds = indexOf(objects, 'Application', 'linkerd-crds');
    const cp = indexOf(objects, 'Application', 'linkerd-control-plane');
    expect(Math.min(ns, issuer, bundle, crds, cp)).toBeGreaterThanOrEqual(0);
    expect(ns).toBeLessThan(issuer);
    expect(ns).toBeLessThan(crds);
    expect(Math.max(issuer, bundle, crds)).toBeLessThan(cp);
  });

  test('binds the identity to its namespace and trust domain', () => {
    const { cp, objects } = rendered({ namespace: 'mesh', trustDomain: 'prod.example' });
    expect(only(objects, 'Certificate', 'linkerd-identity-issuer').metadata.namespace).toBe('mesh');
    expect(cp.values().controlPlane).toMatchObject({ identityTrustDomain: 'prod.example', identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls' } } });
    expect(cp.namespace).toBe('mesh');
  });

  test('exposes version, form and deterministic values that callers cannot change', () => {
    const { cp } = controlPlaneChart({ highAvailability: true });
    expect(cp.version).toBe(LinkerdVersion.V2_20);
    expect(cp.deliveryForm).toBe(DeliveryForm.ARGO_CD);
    const values = cp.values();
    values.controlPlane.controllerReplicas = 99;
    expect(cp.values().controlPlane.controllerReplicas).toBe(3);
    expect(JSON.stringify(controlPlaneChart({ highAvailability: true }).cp.values())).toBe(JSON.stringify(cp.values()));
  });

  // The chart writes controllerReplicas into each controller's replicas (an int32) as is: no cap of its own.
  test('controllerReplicas takes any whole number from 1, typed or through additionalValues', () => {
    expect(controlPlaneChart({ controllerReplicas: 101 }).cp.values().controlPlane.controllerReplicas).toBe(101);
    expect(controlPlaneChart({ additionalValues: { controllerReplicas: 150 } }).cp.values().controlPlane.controllerReplicas).toBe(150);
    expect(() => controlPlaneChart({ controllerReplicas: 0 })).toThrow(/LKD-INPUT-006.*controllerReplicas 0 is not a whole number of at least 1/);
  });

  test('createNamespace: false leaves the namespace to someone else', () => {
    const { objects } = rendered({ createNamespace: false });
    expect(objects.filter((o) => o.kind === 'Namespace')).toEqual([]);
  });

  test('a namespace of another delivery form carries no Argo CD wave', () => {
    const { objects } = rendered({ delivery: LinkerdDelivery.flux() });
    expect(only(objects, 'Namespace', 'linkerd').metadata.annotations).toEqual({ 'linkerd.io/inject': 'disabled' });
  });

  test.each([
    ['identity', { identity: undefined }, /\[platform\/Linkerd\] LKD-INPUT-003: identity is required/],
    ['delivery', { delivery: 'argo' }, /\[platform\/Linkerd\] LKD-INPUT-003: delivery is required.*LinkerdDelivery\.argoCd\(\)/],
    ['an old cluster', { kubernetesVersion: '1.29' }, /\[platform\/Linkerd\] LKD-CP-004/],
    ['an unsupported Gateway API', { gatewayApiVersion: 'v1.0.0' }, /\[platform\/Linkerd\] LKD-CP-005/],
    ['a trust domain that is not a DNS name', { trustDomain: 'Cluster Local' }, /LKD-INPUT-001: trustDomain "Cluster Local"/],
  ])('refuses a missing or bad %s with a coded error', (_what, props, message) => {
    expect(() => controlPlaneChart(props as any)).toThrow(message);
  });

  test('works in a chart without a namespace', () => {
    const chart = new Chart(Testing.app(), 'bare');
    MeshChecks.of(chart).configure({ printWarnings: false });
    new LinkerdControlPlane(chart, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), delivery: LinkerdDelivery.flux() });
    expect(Testing.synth(chart).find((o) => o.kind === 'Namespace').metadata.name).toBe('linkerd');
  });
});

describe('the injector webhook selectors an install sets reach the synth-time checks', () => {
  const synthWith = (namespaceLabels: Record<string, string> | undefined) => {
    const { app, chart } = controlPlaneChart({
      additionalValues: { proxyInjector: { namespaceSelector: { matchLabels: { 'mesh.example/injection': 'on' } } } },
    });
    const apps = new Chart(app, 'apps', { namespace: 'shop' });
    new MeshedNamespace(apps, 'Shop', { name: 'shop', labels: namespaceLabels });
    new MeshedDeployment(apps, 'Orders', {
      name: 'orders', app: 'orders', containers: [{ image: 'hashicorp/http-echo:1.0.0', ports: [{ number: 8080 }], securityContext: { user: 65532 } }],
    });
    return MeshChecks.of(chart).analyze().filter((f) => f.ruleId === 'LKD-MESH-005' && f.resource.name === 'orders');
  };

  test('a meshed namespace without the label the install\'s namespaceSelector requires gets pods without a proxy, reported', () => {
    const [finding] = synthWith(undefined);
    expect(finding.constructPath).toBe('apps/Orders');
    expect(finding.message).toContain('Namespace shop has no label mesh.example/injection (on), which the injector webhook\'s namespaceSelector '
      + 'requires (proxyInjector values of the linkerd-control-plane install in Argo CD Application linkerd-control-plane)');
    expect(synthWith({ 'mesh.example/injection': 'on' })).toEqual([]);
  });
});
