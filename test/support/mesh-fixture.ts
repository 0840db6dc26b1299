/**
 * A plain-object copy of the mesh-lab scenario for rule unit tests: a valid baseline that each test mutates
 * (one mutation → one finding). The construct-built mesh-lab is tested separately in test/examples.
 */
import { Manifest } from '../../src/analysis/model/manifest';

export const NS = 'mesh-lab';

function deployment(name: string, serviceAccountName: string, image: string, labels: Record<string, string>, port?: number): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName,
          automountServiceAccountToken: true,
          containers: [{
            name: 'main',
            image,
            ...(port ? { ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }] } : {}),
          }],
        },
      },
    },
  };
}

function service(name: string, selector: Record<string, string>): any {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: NS },
    spec: { type: 'ClusterIP', selector, ports: [{ name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' }] },
  };
}

/** The baseline mesh: namespace, SAs, three Deployments, three Services, Server + MeshTLS + AuthorizationPolicy, a 90/10 route. */
export function meshLab(): any[] {
  const orders = (v: string) => ({ 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': v });
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, annotations: { 'linkerd.io/inject': 'enabled', 'config.linkerd.io/default-inbound-policy': 'all-authenticated' } } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'client', namespace: NS } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'orders', namespace: NS } },
    deployment('orders-v1', 'orders', 'hashicorp/http-echo:1.0.0', orders('v1'), 8080),
    deployment('orders-v2', 'orders', 'hashicorp/http-echo:1.0.0', orders('v2'), 8080),
    deployment('client', 'client', 'curlimages/curl:8.14.1', { 'app.kubernetes.io/name': 'client' }),
    service('orders-v1', orders('v1')),
    service('orders-v2', orders('v2')),
    service('orders', { 'app.kubernetes.io/name': 'orders' }),
    {
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'Server',
      metadata: { name: 'orders-http', namespace: NS },
      spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } }, port: 8080, proxyProtocol: 'HTTP/1' },
    },
    {
      apiVersion: 'policy.linkerd.io/v1alpha1',
      kind: 'MeshTLSAuthentication',
      metadata: { name: 'client-sa', namespace: NS },
      spec: { identityRefs: [{ kind: 'ServiceAccount', name: 'client' }] },
    },
    {
      apiVersion: 'policy.linkerd.io/v1alpha1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'client-to-orders', namespace: NS },
      spec: {
        targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' },
        requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', name: 'client-sa' }],
      },
    },
    {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'orders-split', namespace: NS },
      spec: {
        parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }],
        rules: [{ backendRefs: [{ name: 'orders-v1', port: 8080, weight: 90 }, { name: 'orders-v2', port: 8080, weight: 10 }] }],
      },
    },
  ];
}

export function asManifests(objects: any[]): Manifest[] {
  return objects.map((object) => ({ object }));
}

/** Finds one object of the baseline by kind and name, for mutation. */
export function pick(objects: any[], kind: string, name: string): any {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found) throw new Error(`fixture has no ${kind} ${name}`);
  return found;
}
