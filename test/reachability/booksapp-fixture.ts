/**
 * A booksapp-like mesh (Linkerd's booksapp demo): per-route policy on authors, a Server on webapp that only the traffic
 * generator may call, HTTP readiness probes, and a 90/10 canary of books with retries on reads. Plain objects a test
 * may mutate; `booksappObjects()` returns a fresh copy each time.
 */
import { Manifest } from '../../src/analysis/model/manifest';

const NS = 'booksapp';
const POLICY = 'policy.linkerd.io';

function identity(sa: string): string {
  return `${sa}.${NS}.serviceaccount.identity.linkerd.cluster.local`;
}

function deployment(name: string, app: string, account: string, port: number, probePath = '/ping'): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      selector: { matchLabels: { app } },
      template: {
        metadata: { labels: { app, project: 'booksapp' } },
        spec: {
          serviceAccountName: account,
          containers: [{
            name: 'service',
            image: 'buoyantio/booksapp:v0.0.5',
            ports: [{ name: 'service', containerPort: port }],
            readinessProbe: { httpGet: { path: probePath, port } },
          }],
        },
      },
    },
  };
}

function service(name: string, app: string, port: number): any {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: NS },
    spec: { selector: { app }, ports: [{ name: 'service', port, targetPort: port }] },
  };
}

function serviceAccount(name: string): any {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: NS } };
}

function server(name: string, app: string, accessPolicy = 'deny'): any {
  return {
    apiVersion: `${POLICY}/v1beta3`,
    kind: 'Server',
    metadata: { name, namespace: NS },
    spec: { podSelector: { matchLabels: { app } }, port: 'service', accessPolicy },
  };
}

function serverRoute(name: string, serverName: string, matches: any[]): any {
  return {
    apiVersion: `${POLICY}/v1beta3`,
    kind: 'HTTPRoute',
    metadata: { name, namespace: NS },
    spec: { parentRefs: [{ name: serverName, kind: 'Server', group: POLICY }], rules: [{ matches }] },
  };
}

function policy(name: string, target: { kind: string; name: string }, authn: { kind: string; name: string }): any {
  return {
    apiVersion: `${POLICY}/v1alpha1`,
    kind: 'AuthorizationPolicy',
    metadata: { name, namespace: NS },
    spec: {
      targetRef: { group: POLICY, kind: target.kind, name: target.name },
      requiredAuthenticationRefs: [{ group: POLICY, kind: authn.kind, name: authn.name }],
    },
  };
}

function meshAuthn(name: string, serviceAccounts: string[]): any {
  return {
    apiVersion: `${POLICY}/v1alpha1`,
    kind: 'MeshTLSAuthentication',
    metadata: { name, namespace: NS },
    spec: { identities: serviceAccounts.map(identity) },
  };
}

/** The outbound routes of Service books: reads split 90/10 to the canary and retried; everything else to books. */
function booksRoutes(): any[] {
  const parentRefs = [{ group: 'core', kind: 'Service', name: 'books', port: 7002 }];
  return [{
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'books-reads', namespace: NS, annotations: { 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/limit': '2' } },
    spec: {
      parentRefs,
      rules: [{
        matches: [{ method: 'GET', path: { type: 'PathPrefix', value: '/books' } }, { method: 'HEAD', path: { type: 'PathPrefix', value: '/books' } }],
        backendRefs: [{ name: 'books', port: 7002, weight: 90 }, { name: 'books-canary', port: 7002, weight: 10 }],
      }],
    },
  }, {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'books-rest', namespace: NS },
    spec: { parentRefs, rules: [{ backendRefs: [{ name: 'books', port: 7002 }] }] },
  }];
}

export function booksappObjects(): any[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, annotations: { 'linkerd.io/inject': 'enabled' } } },
    ...['webapp', 'authors', 'books', 'traffic'].map(serviceAccount),
    service('webapp', 'webapp', 7000), service('authors', 'authors', 7001), service('books', 'books', 7002),
    service('books-canary', 'books-canary', 7002),
    deployment('webapp', 'webapp', 'webapp', 7000),
    deployment('authors', 'authors', 'authors', 7001),
    deployment('books', 'books', 'books', 7002),
    deployment('books-canary', 'books-canary', 'books', 7002),
    deployment('traffic', 'traffic', 'traffic', 8080),
    // webapp: only the traffic generator may call it (no route attached: the generated default and probe routes).
    server('webapp-server', 'webapp'),
    meshAuthn('webapp-callers', ['traffic']),
    policy('webapp-policy', { kind: 'Server', name: 'webapp-server' }, { kind: 'MeshTLSAuthentication', name: 'webapp-callers' }),
    // authors: per-route policy as in Linkerd's guide, reads open to books and webapp.
    server('authors-server', 'authors'),
    serverRoute('authors-get-route', 'authors-server', [
      { method: 'GET', path: { type: 'Exact', value: '/authors.json' } },
      { method: 'HEAD', path: { type: 'Exact', value: '/authors.json' } },
      { method: 'GET', path: { type: 'PathPrefix', value: '/authors/' } },
    ]),
    meshAuthn('authors-get-authn', ['books', 'webapp']),
    policy('authors-get-policy', { kind: 'HTTPRoute', name: 'authors-get-route' }, { kind: 'MeshTLSAuthentication', name: 'authors-get-authn' }),
    serverRoute('authors-probe-route', 'authors-server', [{ method: 'GET', path: { type: 'Exact', value: '/ping' } }]),
    {
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'NetworkAuthentication',
      metadata: { name: 'authors-probe-authn', namespace: NS },
      spec: { networks: [{ cidr: '0.0.0.0/0' }, { cidr: '::/0' }] },
    },
    policy('authors-probe-policy', { kind: 'HTTPRoute', name: 'authors-probe-route' }, { kind: 'NetworkAuthentication', name: 'authors-probe-authn' }),
    // books: webapp may call it, on every request.
    server('books-server', 'books'),
    meshAuthn('books-callers', ['webapp']),
    policy('books-policy', { kind: 'Server', name: 'books-server' }, { kind: 'MeshTLSAuthentication', name: 'books-callers' }),
    ...booksRoutes(),
  ];
}

export function booksappManifests(objects: any[]): Manifest[] {
  return objects.map((object) => ({ object }));
}

export function findBooksObject(objects: any[], kind: string, name: string): any {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
}

/** The four edits of the issue: each changes who may send which request, or what is retried. */
export const EDITS: Record<string, (objects: any[]) => void> = {
  probeToRoot: (o) => {
    findBooksObject(o, 'Deployment', 'webapp').spec.template.spec.containers[0].readinessProbe.httpGet.path = '/';
  },
  canaryOwnServiceAccount: (o) => {
    o.push(serviceAccount('books-canary'));
    findBooksObject(o, 'Deployment', 'books-canary').spec.template.spec.serviceAccountName = 'books-canary';
  },
  postRetried: (o) => {
    findBooksObject(o, 'HTTPRoute', 'books-reads').spec.rules[0].matches.push({ method: 'POST', path: { type: 'PathPrefix', value: '/books' } });
  },
  headRemoved: (o) => {
    const rule = findBooksObject(o, 'HTTPRoute', 'authors-get-route').spec.rules[0];
    rule.matches = rule.matches.filter((m: any) => m.method !== 'HEAD');
  },
};
