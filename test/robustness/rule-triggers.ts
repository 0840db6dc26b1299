/**
 * One triggering input per engine rule that the mutation corpus does not already trigger: small manifests (mostly
 * mesh-lab with one mistake) plus the analysis options a rule needs. Used by the error-message review, which requires
 * a message for EVERY rule in the pack. Key and token material is generated at run time.
 */
import { generateKeyPairSync } from 'crypto';
import { meshLabObjects } from './mutation-corpus';
import { AnalyzeOptions } from '../../src/analysis/engine';
import { argoApp, workload } from '../delivery/fixtures';
import { certs } from '../support/certs';

export interface RuleTrigger {
  readonly ruleId: string;
  readonly objects: () => any[];
  readonly options?: AnalyzeOptions;
  /** YAML text to read instead of the dumped objects (for what only the text shows, e.g. unquoted scalars). */
  readonly text?: () => string;
}

const NS = 'mesh-lab';

function lab(change: (objects: any[]) => void): () => any[] {
  return () => {
    const objects = meshLabObjects();
    change(objects);
    return objects;
  };
}

function find(objects: any[], kind: string, name: string): any {
  return objects.find((o) => o.kind === kind && o.metadata?.name === name);
}

const route = (o: any[]) => find(o, 'HTTPRoute', 'orders-split');
const podMeta = (o: any[], name = 'orders-v1') => find(o, 'Deployment', name).spec.template.metadata;
const annotate = (target: any, annotations: Record<string, string>) => { target.annotations = { ...target.annotations, ...annotations }; };

function serverRoute(extra: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'orders-api', namespace: NS },
    spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http', ...extra }], rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/api' } }] }] },
  };
}

function serverAuthorization(client: Record<string, unknown>): any {
  return {
    apiVersion: 'policy.linkerd.io/v1beta1',
    kind: 'ServerAuthorization',
    metadata: { name: 'legacy', namespace: NS },
    spec: { server: { name: 'orders-http' }, client },
  };
}

const cp = (values: Record<string, unknown>) => argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', values);
const trustRoots = (pem: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-identity-trust-roots', namespace: 'linkerd' }, data: { 'ca-bundle.crt': pem } });

const copyOf = (o: any[], kind: string, name: string, change: (copy: any) => void) => {
  const copy = JSON.parse(JSON.stringify(find(o, kind, name)));
  change(copy);
  o.push(copy);
};

export const RULE_TRIGGERS: RuleTrigger[] = [
  // client is authorized on orders, yet declares that the mesh refuses it.
  { ruleId: 'LKD-POL-026', objects: lab((o) => { annotate(find(o, 'Deployment', 'client').metadata, { 'analysis.cdk8s-linkerd.io/refused-calls': 'orders:8080 GET /' }); }) },
  {
    // client → orders (3 retries: ×4) → orders-v1 → orders-v2 (3 retries: ×4): 16 attempts.
    ruleId: 'LKD-CAP-001',
    objects: lab((o) => {
      for (const name of ['orders', 'orders-v2']) annotate(find(o, 'Service', name).metadata, { 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/limit': '3' });
      annotate(find(o, 'Deployment', 'orders-v1').metadata, { 'analysis.cdk8s-linkerd.io/calls': 'orders-v2:8080' });
    }),
  },
  { ruleId: 'LKD-MESH-001', objects: lab((o) => { for (const v of ['orders-v1', 'orders-v2']) annotate(podMeta(o, v), { 'linkerd.io/inject': 'disabled' }); }) },
  { ruleId: 'LKD-MESH-004', objects: lab((o) => { for (const v of ['orders-v1', 'orders-v2']) annotate(podMeta(o, v), { 'config.linkerd.io/opaque-ports': '8080' }); }) },
  { ruleId: 'LKD-POL-008', objects: lab((o) => copyOf(o, 'Server', 'orders-http', (s) => { s.metadata.name = 'orders-http-2'; })) },
  { ruleId: 'LKD-POL-012', objects: lab((o) => { find(o, 'Server', 'orders-http').spec.accessPolicy = 'allow'; }) },
  { ruleId: 'LKD-POL-016', objects: lab((o) => { delete find(o, 'Server', 'orders-http').spec.podSelector; }) },
  {
    ruleId: 'LKD-POL-017',
    objects: lab((o) => { find(o, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef = { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'orders-split' }; }),
  },
  {
    ruleId: 'LKD-POL-021',
    objects: lab((o) => { annotate(find(o, 'Namespace', NS).metadata, { 'config.linkerd.io/default-inbound-policy': 'deny' }); }),
    options: { prometheusServiceAccount: 'linkerd-viz/prometheus' },
  },
  {
    // A readiness probe on "/" opens GET / to everyone through the probe route Linkerd generates.
    ruleId: 'LKD-POL-022',
    objects: lab((o) => {
      for (const name of ['orders-v1', 'orders-v2']) {
        for (const c of find(o, 'Deployment', name).spec.template.spec.containers) c.readinessProbe = { httpGet: { path: '/', port: 8080 } };
      }
    }),
  },
  {
    ruleId: 'LKD-POL-024',
    objects: lab((o) => {
      find(o, 'Server', 'orders-http').spec.proxyProtocol = 'opaque';
      o.push({
        apiVersion: 'policy.linkerd.io/v1alpha1',
        kind: 'HTTPLocalRateLimitPolicy',
        metadata: { name: 'orders-rl', namespace: NS },
        spec: { targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }, total: { requestsPerSecond: 100 } },
      });
    }),
  },
  {
    ruleId: 'LKD-POL-023',
    objects: lab((o) => {
      o.push({ apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { name: 'deny-all', namespace: 'linkerd-egress' }, spec: { trafficPolicy: 'Deny' } });
      o.push({ apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { name: 'allow-api', namespace: NS }, spec: { trafficPolicy: 'Allow' } });
    }),
  },
  {
    ruleId: 'LKD-ROUTE-025',
    objects: lab((o) => { find(o, 'HTTPRoute', 'orders-split').spec.rules[0].matches = [{ path: { type: 'PathPrefix', value: '/orders' } }]; }),
  },
  {
    ruleId: 'LKD-ROUTE-026',
    objects: lab((o) => { find(o, 'Service', 'orders').metadata.annotations = { 'config.linkerd.io/opaque-ports': '8080' }; }),
  },
  { ruleId: 'LKD-ROUTE-027', objects: lab((o) => { find(o, 'Service', 'orders-v1').spec.ports[0].appProtocol = 'grpc'; }) },
  { ruleId: 'LKD-ROUTE-028', objects: lab((o) => { const r = serverRoute(); r.spec.rules[0].timeouts = { request: '5s' }; o.push(r); }) },
  {
    ruleId: 'LKD-POL-025',
    objects: lab((o) => {
      annotate(podMeta(o), { 'config.linkerd.io/proxy-require-identity-inbound-ports': '8080' });
      find(o, 'Server', 'orders-http').spec.accessPolicy = 'all-unauthenticated';
    }),
  },
  {
    ruleId: 'LKD-MESH-015',
    objects: lab((o) => {
      find(o, 'Service', 'orders-v2').spec.selector = { app: 'legacy-orders' };
      o.push({
        apiVersion: 'workload.linkerd.io/v1beta1',
        kind: 'ExternalWorkload',
        metadata: { name: 'vm-1', namespace: NS, labels: { app: 'legacy-orders' } },
        spec: { meshTLS: { identity: 'spiffe://root.linkerd.cluster.local/vm-1', serverName: 'vm-1.cluster.local' }, ports: [{ port: 8080 }] },
      });
    }),
  },
  { ruleId: 'LKD-POL-019', objects: lab((o) => { find(o, 'AuthorizationPolicy', 'client-to-orders').spec.requiredAuthenticationRefs = []; }) },
  {
    ruleId: 'LKD-ROUTE-005',
    objects: lab((o) => copyOf(o, 'HTTPRoute', 'orders-split', (r) => {
      r.metadata = { name: 'orders-from-shop', namespace: 'shop' };
      r.spec.parentRefs[0].namespace = NS;
      r.spec.rules[0].backendRefs = [{ name: 'orders-v1', namespace: NS, port: 8080 }];
    })),
  },
  { ruleId: 'LKD-ROUTE-010', objects: lab((o) => { route(o).spec.rules[0].backendRefs = [{ name: 'orders-v1', port: 8080, weight: 100 }]; }) },
  {
    ruleId: 'LKD-ROUTE-012',
    objects: lab((o) => copyOf(o, 'HTTPRoute', 'orders-split', (r) => { r.kind = 'GRPCRoute'; r.metadata.name = 'orders-grpc'; })),
  },
  { ruleId: 'LKD-ROUTE-013', objects: lab((o) => copyOf(o, 'HTTPRoute', 'orders-split', (r) => { r.metadata.name = 'orders-split-2'; })) },
  {
    ruleId: 'LKD-MESH-012',
    objects: lab((o) => { route(o).kind = 'HttpRoute'; }),
  },
  {
    ruleId: 'LKD-MESH-013',
    objects: () => [],
    text: () => `apiVersion: v1\nkind: Service\nmetadata:\n  name: orders\n  namespace: ${NS}\nspec:\n  ports:\n  - port: 0443\n`,
  },
  { ruleId: 'LKD-MESH-002', objects: lab((o) => annotate(find(o, 'Deployment', 'orders-v1').metadata, { 'config.linkerd.io/proxy-cpu-request': '100m' })) },
  { ruleId: 'LKD-SCHEMA-002', objects: lab((o) => { find(o, 'Deployment', 'orders-v1').spec.template.metadata.labels.version = 1; }) },
  { ruleId: 'LKD-MESH-003', objects: lab((o) => annotate(podMeta(o), { 'config.linkerd.io/skip-inbound-port': '4222' })) },
  { ruleId: 'LKD-MESH-005', objects: lab((o) => { find(o, 'Deployment', 'orders-v1').spec.template.spec.hostNetwork = true; }) },
  {
    ruleId: 'LKD-MESH-014',
    objects: lab((o) => o.push({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: NS },
      spec: {
        template: {
          metadata: { annotations: { 'config.linkerd.io/proxy-enable-native-sidecar': 'false' } },
          spec: { restartPolicy: 'Never', serviceAccountName: 'orders', containers: [{ name: 'migrate', image: 'ghcr.io/example/migrate:1.0.0' }] },
        },
      },
    })),
  },
  {
    ruleId: 'LKD-MESH-006',
    objects: lab((o) => o.push({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'orders-ingress', namespace: NS },
      spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } }, policyTypes: ['Ingress'], ingress: [{ ports: [{ port: 8080 }] }] },
    })),
  },
  {
    ruleId: 'LKD-MESH-011',
    objects: lab((o) => { const ns = find(o, 'Namespace', NS).metadata; ns.labels = { ...ns.labels, 'pod-security.kubernetes.io/enforce': 'baseline' }; }),
  },
  { ruleId: 'LKD-MESH-008', objects: lab((o) => { for (const v of ['orders-v1', 'orders-v2']) annotate(podMeta(o, v), { 'config.linkerd.io/skip-inbound-ports': '8080' }); }) },
  {
    ruleId: 'LKD-POL-004',
    objects: lab((o) => { find(o, 'MeshTLSAuthentication', 'client-sa').spec = { identities: ['client.mesh-lab.serviceaccount.identity.linkerd.example.org'] }; }),
  },
  {
    ruleId: 'LKD-POL-005',
    objects: lab((o) => o.push({ apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'NetworkAuthentication', metadata: { name: 'office', namespace: NS }, spec: { networks: [{ cidr: '10.0.0.0/33' }] } })),
  },
  {
    ruleId: 'LKD-POL-010',
    objects: lab((o) => {
      o.push(serverRoute());
      find(o, 'Deployment', 'orders-v1').spec.template.spec.containers[0].readinessProbe = { httpGet: { path: '/ready', port: 8080 } };
    }),
  },
  {
    ruleId: 'LKD-POL-014',
    objects: lab((o) => o.push({
      apiVersion: 'policy.linkerd.io/v1alpha1',
      kind: 'HTTPLocalRateLimitPolicy',
      metadata: { name: 'orders-limit', namespace: NS },
      spec: { targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-htp' }, total: { requestsPerSecond: 100 } },
    })),
  },
  { ruleId: 'LKD-POL-015', objects: lab((o) => o.push(serverAuthorization({ meshTLS: { serviceAccounts: [{ name: 'client' }] } }))) },
  { ruleId: 'LKD-POL-018', objects: lab((o) => o.push(serverAuthorization({ unauthenticated: true, meshTLS: { serviceAccounts: [{ name: 'client' }] } }))) },
  // Admitted, then dropped by the index: a meshTLS that names no identity.
  { ruleId: 'LKD-POL-018', objects: lab((o) => o.push(serverAuthorization({ meshTLS: {} }))) },
  { ruleId: 'LKD-POL-020', objects: lab((o) => { const r = serverRoute(); delete r.spec.parentRefs[0].group; o.push(r); }) },
  {
    ruleId: 'LKD-RETRY-003',
    objects: lab((o) => annotate(route(o).metadata, {
      'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/limit': '3', 'retry.linkerd.io/timeout': '2s', 'timeout.linkerd.io/request': '1s',
    })),
  },
  { ruleId: 'LKD-RETRY-004', objects: lab((o) => annotate(find(o, 'Deployment', 'orders-v1').metadata, { 'retry.linkerd.io/http': '5xx' })) },
  {
    ruleId: 'LKD-RETRY-005',
    objects: lab((o) => {
      annotate(find(o, 'Service', 'orders').metadata, { 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/timeout': '300ms' });
      annotate(route(o).metadata, { 'retry.linkerd.io/limit': '3' });
    }),
  },
  { ruleId: 'LKD-RETRY-006', objects: lab((o) => annotate(route(o).metadata, { 'retry.linkerd.io/limits': '3' })) },
  { ruleId: 'LKD-RETRY-007', objects: lab((o) => annotate(find(o, 'Service', 'orders').metadata, { 'balancer.linkerd.io/failure-accrual': 'Consecutive' })) },
  { ruleId: 'LKD-ROUTE-003', objects: lab((o) => { find(o, 'Service', 'orders').spec.clusterIP = 'None'; }) },
  { ruleId: 'LKD-ROUTE-008', objects: lab((o) => { route(o).spec.rules[0].backendRefs[1] = { group: 'apps', kind: 'Deployment', name: 'orders-v2', port: 8080, weight: 10 }; }) },
  {
    ruleId: 'LKD-ROUTE-015',
    objects: lab((o) => o.push({
      apiVersion: 'gateway.networking.k8s.io/v1alpha2',
      kind: 'TCPRoute',
      metadata: { name: 'orders-tcp', namespace: NS },
      spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'orders-v1', port: 8080 }], rules: [{ backendRefs: [{ name: 'orders-v1', port: 8080 }] }, { backendRefs: [{ name: 'orders-v2', port: 8080 }] }] },
    })),
  },
  { ruleId: 'LKD-ROUTE-016', objects: lab(() => undefined), options: { gatewayApiVersion: 'v1.0.0' } },
  { ruleId: 'LKD-ROUTE-017', objects: lab((o) => { delete route(o).spec.parentRefs; }) },
  { ruleId: 'LKD-ROUTE-018', objects: lab((o) => { route(o).spec.rules[0].timeouts = { request: '10s', backendRequest: '2s' }; }) },
  {
    ruleId: 'LKD-ROUTE-019',
    objects: lab((o) => o.push({ apiVersion: 'linkerd.io/v1alpha2', kind: 'ServiceProfile', metadata: { name: 'orders.mesh-lab.svc.cluster.local', namespace: NS }, spec: { routes: [{ name: 'GET /', condition: { method: 'GET', pathRegex: '/' } }] } })),
  },
  { ruleId: 'LKD-ROUTE-020', objects: lab((o) => { route(o).spec.rules[0].name = 'canary'; }) },
  { ruleId: 'LKD-ROUTE-021', objects: lab((o) => { route(o).spec.hostnames = ['orders.example.com']; }) },
  { ruleId: 'LKD-ROUTE-022', objects: lab((o) => o.push(serverRoute({ port: 8080 }))) },
  {
    ruleId: 'LKD-ROUTE-024',
    objects: lab((o) => { route(o).spec.rules[0].matches = [{ path: { type: 'RegularExpression', value: '/orders/(?!internal).*' } }]; }),
  },
  {
    ruleId: 'LKD-SEC-001',
    objects: lab((o) => o.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'orders-db', namespace: NS }, data: { DB_PASSWORD: ['pass', 'word', '-1'].join('') } })),
  },
  { ruleId: 'LKD-CERT-001', objects: () => [trustRoots('not a certificate')] },
  { ruleId: 'LKD-CERT-002', objects: () => [trustRoots(certs.weakRoot.certPem)] },
  // The expired certificate has fixed dates (2020), so the message is the same on every day the review runs.
  { ruleId: 'LKD-CERT-003', objects: () => [trustRoots(certs.expiredIssuer.certPem)] },
  {
    ruleId: 'LKD-CERT-004',
    objects: () => [{
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'linkerd-identity-issuer', namespace: 'linkerd' },
      spec: { secretName: 'linkerd-identity-issuer', isCA: true, duration: '48h', renewBefore: '48h', issuerRef: { name: 'linkerd-trust-anchor', kind: 'Issuer' } },
    }],
  },
  {
    ruleId: 'LKD-CERT-005',
    objects: () => [{
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'issuer-key', namespace: 'linkerd' },
      data: { 'tls.key': generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    }],
  },
  { ruleId: 'LKD-CP-001', objects: () => [cp({ controllerReplicas: 2, webhookFailurePolicy: 'Fail' })] },
  { ruleId: 'LKD-CP-002', objects: () => [cp({ webhookFailurePolicy: 'Ignore' })] },
  { ruleId: 'LKD-CP-003', objects: () => [cp({ webhookFailurePolicy: 'Fail', identity: { externalCA: true } })] },
  { ruleId: 'LKD-CP-004', objects: () => [cp({ webhookFailurePolicy: 'Fail' })], options: { kubernetesVersion: '1.29' } },
  { ruleId: 'LKD-CP-005', objects: () => [cp({ webhookFailurePolicy: 'Fail' })], options: { gatewayApiVersion: 'v1.0.0' } },
  { ruleId: 'LKD-CP-007', objects: () => [cp({ webhookFailurePolicy: 'Fail', clusterNetworks: '10.0.0.0/8, 192.168.0.0/16' })] },
  { ruleId: 'LKD-CP-008', objects: () => [cp({ webhookFailurePolicy: 'Fail', identity: { externalCA: true } })] },
  { ruleId: 'LKD-VER-001', objects: () => [workload('web', ['nginx:latest'])] },
  { ruleId: 'LKD-VER-002', objects: lab((o) => annotate(podMeta(o), { 'config.linkerd.io/proxy-version': 'edge-25.1.1' })) },
];
