/**
 * Twelve mistakes a new user makes in Linkerd's booksapp (../shared/realworld: the app as `linkerd inject` leaves it, and
 * the per-route policy guide's Server, routes and policies). Each one's effect is certain from the manifests alone, so
 * under the severity contract each must be an error: with default settings `cdk8s synth` and `analyze` fail on it.
 * The untouched app with the guide's policy has no error.
 */
import * as fs from 'fs';
import * as yaml from 'js-yaml';
import { analyze } from '../../src/analysis/engine';
import { Severity } from '../../src/analysis/finding';
import { asManifests } from '../support/mesh-fixture';
import { describeWithShared, sharedPath } from '../support/shared';

const NS = 'booksapp';
const POLICY = 'policy.linkerd.io';

function load(file: string): any[] {
  return yaml.loadAll(fs.readFileSync(sharedPath('realworld', file), 'utf8')).filter((o: any) => o && typeof o === 'object');
}

function find(objects: any[], kind: string, name: string): any {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found) throw new Error(`booksapp has no ${kind} ${name}`);
  return found;
}

const template = (objects: any[], name: string) => find(objects, 'Deployment', name).spec.template;
const annotate = (objects: any[], name: string, key: string, value: string) => {
  template(objects, name).metadata.annotations[key] = value;
};
const server = (name: string, spec: any) => ({ apiVersion: `${POLICY}/v1beta3`, kind: 'Server', metadata: { name, namespace: NS }, spec });
const authors = { matchLabels: { app: 'authors', project: 'booksapp' } };
const route = (name: string, parent: any, rules: any[], annotations?: Record<string, string>) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name, namespace: NS, ...(annotations ? { annotations } : {}) },
  spec: { parentRefs: [parent], rules },
});
const serverParent = (name: string) => ({ group: POLICY, kind: 'Server', name });
const serviceParent = (name: string, port: number) => ({ group: 'core', kind: 'Service', name, port });
const meshTls = (name: string, identities: string[]) => ({
  apiVersion: `${POLICY}/v1alpha1`, kind: 'MeshTLSAuthentication', metadata: { name, namespace: NS }, spec: { identities },
});
const authorization = (name: string, targetRef: any, authn: string) => ({
  apiVersion: `${POLICY}/v1alpha1`,
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace: NS },
  spec: { targetRef, requiredAuthenticationRefs: [{ group: POLICY, kind: 'MeshTLSAuthentication', name: authn }] },
});
const webappOnly = () => meshTls('webapp-only', ['webapp.booksapp.serviceaccount.identity.linkerd.cluster.local']);

/** Each mistake: what it is, the change to the app, and the rule that must report it as an error. */
const MISTAKES: Array<[string, string, (objects: any[]) => void]> = [
  ['an annotation key the injector ignores (opaque-port for opaque-ports)', 'LKD-MESH-003',
    (o) => annotate(o, 'books', 'config.linkerd.io/opaque-port', '7002')],
  ['a Server on a port the pod skips past the proxy', 'LKD-MESH-008', (o) => {
    annotate(o, 'authors', 'config.linkerd.io/skip-inbound-ports', '7001');
    o.push(server('authors-server', { podSelector: authors, port: 'service', accessPolicy: 'deny' }), webappOnly(),
      authorization('authors-webapp', serverParent('authors-server'), 'webapp-only'));
  }],
  ['an application path opened to everyone through the generated probe route', 'LKD-POL-022', (o) => {
    // The readiness probe moved to "/", webapp's front page; the Server admits only the traffic generator.
    const probe = template(o, 'webapp').spec.containers[0].readinessProbe;
    probe.httpGet.path = '/';
    o.push(server('webapp-server', { podSelector: { matchLabels: { app: 'webapp' } }, port: 'service', accessPolicy: 'deny' }),
      meshTls('traffic-only', ['traffic.booksapp.serviceaccount.identity.linkerd.cluster.local']),
      authorization('webapp-traffic', serverParent('webapp-server'), 'traffic-only'));
  }],
  ['a route on the Server that leaves the readiness probe unmatched', 'LKD-POL-010', (o) => {
    o.push(server('authors-server', { podSelector: authors, port: 'service', accessPolicy: 'deny' }), webappOnly(),
      route('authors-get', serverParent('authors-server'), [{ matches: [{ path: { type: 'PathPrefix', value: '/authors' } }] }]),
      authorization('authors-get-webapp', { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'authors-get' }, 'webapp-only'));
  }],
  ['an AuthorizationPolicy on a route attached to the Service, not the Server', 'LKD-POL-017', (o) => {
    o.push(webappOnly(), route('authors-outbound', serviceParent('authors', 7001), [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }]),
      authorization('authors-route-policy', { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'authors-outbound' }, 'webapp-only'));
  }],
  ['a misspelt retry annotation', 'LKD-RETRY-006', (o) => {
    find(o, 'Service', 'books').metadata.annotations = { 'retry.linkerd.io/limits': '3' };
  }],
  ['Linkerd annotations on the Deployment instead of its pod template', 'LKD-MESH-002', (o) => {
    find(o, 'Deployment', 'authors').metadata.annotations = { 'config.linkerd.io/proxy-cpu-limit': '1' };
  }],
  ['a Service parentRef without its group', 'LKD-ROUTE-001', (o) => {
    o.push(route('books-split', { kind: 'Service', name: 'books', port: 7002 }, [{ backendRefs: [{ name: 'books', port: 7002 }] }]));
  }],
  ['two Servers on the same port', 'LKD-POL-008', (o) => {
    o.push(server('authors-a', { podSelector: authors, port: 7001, accessPolicy: 'all-unauthenticated' }),
      server('authors-b', { podSelector: { matchLabels: { app: 'authors' } }, port: 'service', accessPolicy: 'all-unauthenticated' }));
  }],
  ['a Server whose selector has a typo', 'LKD-POL-006', (o) => {
    o.push(server('authors-server', { podSelector: { matchLabels: { app: 'author' } }, port: 'service', accessPolicy: 'all-unauthenticated' }));
  }],
  ['a Service backendRef without a port', 'LKD-ROUTE-006', (o) => {
    o.push(route('books-split', serviceParent('books', 7002), [{ backendRefs: [{ name: 'books' }] }]));
  }],
  ['a timeout on the Server\'s route, where Linkerd never reads it', 'LKD-ROUTE-028', (o) => {
    o.push(server('authors-server', { podSelector: authors, port: 'service', accessPolicy: 'all-unauthenticated' }),
      route('authors-slow', serverParent('authors-server'), [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], timeouts: { request: '5s' } }]));
  }],
];

describeWithShared('booksapp: mistakes whose effect is certain are errors', () => {
  const baseline = () => [...load('derived/03-booksapp-app.injected.yaml'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }];

  test('the app with the per-route policy guide has no error', () => {
    const findings = analyze(asManifests([...baseline(), ...load('04-booksapp-per-route-policy.yaml')])).findings;
    expect(findings.filter((f) => f.severity === Severity.ERROR).map((f) => `${f.ruleId} ${f.message}`)).toEqual([]);
  });

  test('the twelve mistakes are different rules', () => {
    expect(new Set(MISTAKES.map(([, rule]) => rule)).size).toBe(12);
  });

  test.each(MISTAKES)('%s: %s is an error', (_what, rule, mistake) => {
    const objects = baseline();
    mistake(objects);
    const findings = analyze(asManifests(objects)).findings.filter((f) => f.ruleId === rule);
    expect(findings.map((f) => f.severity)).toContain(Severity.ERROR);
  });
});
