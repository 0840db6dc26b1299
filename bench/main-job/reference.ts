/**
 * The main job's reference: mesh-lab's 13 objects as a user writes them WITHOUT this library — cdk8s-plus-28 for the
 * Namespace, ServiceAccounts, Deployments and Services, plain ApiObjects for the Linkerd and Gateway API objects, no
 * checks. `npm run bench:main-job` synthesizes it with `cdk8s synth` and ts-node (type checking on, as `cdk8s init`
 * sets an app up) and checks that it writes the same objects as `npm run mesh-lab` (up to cdk8s's address label).
 */
import { ApiObject, App, Chart, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';

const NAMESPACE = 'mesh-lab';
const PORT = 8080;
const SMALL = {
  cpu: { request: kplus.Cpu.millis(10), limit: kplus.Cpu.millis(200) },
  memory: { request: Size.mebibytes(16), limit: Size.mebibytes(64) },
};

function deployment(chart: Chart, id: string, name: string, labels: Record<string, string>, serviceAccount: kplus.IServiceAccount,
  container: kplus.ContainerProps, annotations?: Record<string, string>): void {
  const workload = new kplus.Deployment(chart, id, {
    metadata: { name, annotations },
    select: false,
    replicas: 1,
    serviceAccount,
    automountServiceAccountToken: false,
    containers: [container],
  });
  for (const [k, v] of Object.entries(labels)) {
    workload.podMetadata.addLabel(k, v);
    workload.select(kplus.LabelSelector.of({ labels: { [k]: v } }));
  }
}

function service(chart: Chart, name: string, version?: string): void {
  const svc = new kplus.Service(chart, `Service-${name}`, { metadata: { name }, ports: [{ name: 'http', port: PORT, targetPort: PORT }] });
  svc.selectLabel('app.kubernetes.io/name', 'orders');
  if (version) svc.selectLabel('app.kubernetes.io/version', version);
}

const app = new App();
const chart = new Chart(app, 'mesh-lab', { namespace: NAMESPACE });
const ns = new kplus.Namespace(chart, 'Namespace', { metadata: { name: NAMESPACE, annotations: { 'linkerd.io/inject': 'enabled' } } });
// A Namespace is cluster-scoped: drop the chart's namespace cdk8s puts on every object.
ApiObject.of(ns).addJsonPatch(JsonPatch.remove('/metadata/namespace'));
const client = new kplus.ServiceAccount(chart, 'ClientIdentity', { metadata: { name: 'client' }, automountToken: false });
const orders = new kplus.ServiceAccount(chart, 'OrdersIdentity', { metadata: { name: 'orders' }, automountToken: false });
for (const version of ['v1', 'v2']) {
  deployment(chart, `Orders-${version}`, `orders-${version}`, { 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': version }, orders, {
    name: 'echo',
    image: 'hashicorp/http-echo:1.0.0',
    args: [`-listen=:${PORT}`, `-text=${version}`],
    ports: [{ name: 'http', number: PORT }],
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    securityContext: { user: 65532, group: 65532 },
    startup: kplus.Probe.fromHttpGet('/health', { port: PORT }),
    readiness: kplus.Probe.fromHttpGet('/health', { port: PORT }),
    resources: SMALL,
  });
  service(chart, `orders-${version}`, version);
}
deployment(chart, 'Client', 'client', { 'app.kubernetes.io/name': 'client' }, client, {
  name: 'curl',
  image: 'curlimages/curl:8.14.1',
  command: ['sleep', 'infinity'],
  imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
  securityContext: { user: 100, group: 101 },
  resources: SMALL,
}, { 'analysis.cdk8s-linkerd.io/calls': `orders:${PORT} GET /` });
service(chart, 'orders');
const meta = (name: string) => ({ name, namespace: NAMESPACE });
new ApiObject(chart, 'OrdersHttp', {
  apiVersion: 'policy.linkerd.io/v1beta3',
  kind: 'Server',
  metadata: meta('orders-http'),
  spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } }, port: PORT, proxyProtocol: 'HTTP/1' },
});
new ApiObject(chart, 'ClientSa', {
  apiVersion: 'policy.linkerd.io/v1alpha1',
  kind: 'MeshTLSAuthentication',
  metadata: meta('client-sa'),
  spec: { identityRefs: [{ kind: 'ServiceAccount', name: 'client' }] },
});
new ApiObject(chart, 'ClientToOrders', {
  apiVersion: 'policy.linkerd.io/v1alpha1',
  kind: 'AuthorizationPolicy',
  metadata: meta('client-to-orders'),
  spec: {
    targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' },
    requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', name: 'client-sa' }],
  },
});
new ApiObject(chart, 'OrdersSplit', {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: meta('orders-split'),
  spec: {
    parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', port: PORT }],
    rules: [{ backendRefs: [{ name: 'orders-v1', port: PORT, weight: 90 }, { name: 'orders-v2', port: PORT, weight: 10 }] }],
  },
});
app.synth();
