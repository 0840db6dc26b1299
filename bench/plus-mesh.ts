/**
 * B+: the benchmark's mesh as a user writes it WITHOUT this library: cdk8s-plus-28 Deployments, Services and
 * ServiceAccounts, plain ApiObjects for the Linkerd and Gateway API objects (the JSON the
 * user would otherwise type by hand). Same objects, names and shape as bench/mesh.ts; no checks run.
 */
import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';

const PORT = 8080;

function addService(chart: Chart, namespace: string, i: number): void {
  const app = `svc-${i}`;
  const identity = new kplus.ServiceAccount(chart, `${app}-sa`, { metadata: { name: app }, automountToken: false });
  const services: Record<string, kplus.Service> = {};
  for (const version of ['v1', 'v2']) {
    const labels = { 'app.kubernetes.io/name': app, 'app.kubernetes.io/version': version };
    const deployment = new kplus.Deployment(chart, `${app}-${version}`, {
      metadata: { name: `${app}-${version}` },
      select: false,
      replicas: 1,
      serviceAccount: identity,
      automountServiceAccountToken: false,
      containers: [{
        name: 'app',
        image: 'hashicorp/http-echo:1.0.0',
        args: [`-listen=:${PORT}`, `-text=${version}`],
        ports: [{ name: 'http', number: PORT }],
        securityContext: { user: 65532, group: 65532 },
      }],
    });
    for (const [k, v] of Object.entries(labels)) {
      deployment.podMetadata.addLabel(k, v);
      deployment.select(kplus.LabelSelector.of({ labels: { [k]: v } }));
    }
    services[version] = service(chart, `${app}-${version}`, labels);
  }
  service(chart, app, { 'app.kubernetes.io/name': app });
  const meta = (name: string) => ({ name, namespace });
  new ApiObject(chart, `${app}-server`, {
    apiVersion: 'policy.linkerd.io/v1beta3',
    kind: 'Server',
    metadata: meta(`${app}-http`),
    spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': app } }, port: PORT, proxyProtocol: 'HTTP/1' },
  });
  new ApiObject(chart, `${app}-identities`, {
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'MeshTLSAuthentication',
    metadata: meta(`${app}-identities`),
    spec: { identityRefs: [{ kind: 'ServiceAccount', name: app }] },
  });
  new ApiObject(chart, `${app}-callers`, {
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'AuthorizationPolicy',
    metadata: meta(`${app}-callers`),
    spec: {
      targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: `${app}-http` },
      requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', name: `${app}-identities` }],
    },
  });
  new ApiObject(chart, `${app}-split`, {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: meta(`${app}-split`),
    spec: {
      parentRefs: [{ group: 'core', kind: 'Service', name: app, port: PORT }],
      rules: [{ backendRefs: [{ name: `${app}-v1`, port: PORT, weight: 90 }, { name: `${app}-v2`, port: PORT, weight: 10 }] }],
    },
  });
}

function service(scope: Construct, name: string, selector: Record<string, string>): kplus.Service {
  const svc = new kplus.Service(scope, `${name}-svc`, { metadata: { name }, ports: [{ name: 'http', port: PORT, targetPort: PORT }] });
  for (const [k, v] of Object.entries(selector)) svc.selectLabel(k, v);
  return svc;
}

/** The same charts and services as buildMesh, without the library. */
export function buildPlusMesh(scope: Construct, services: number, perChart = services): void {
  for (let start = 0; start < services; start += perChart) {
    const namespace = `bench-${start / perChart}`;
    const chart = new Chart(scope, namespace, { namespace });
    const ns = new kplus.Namespace(chart, 'ns', { metadata: { name: namespace, annotations: { 'linkerd.io/inject': 'enabled' } } });
    // A Namespace is cluster-scoped: drop the chart's namespace cdk8s puts on every object.
    ApiObject.of(ns).addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    for (let i = start; i < Math.min(services, start + perChart); i++) addService(chart, namespace, i);
  }
}
