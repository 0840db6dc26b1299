/**
 * Silence means nothing changed: random edits of a booksapp-like mesh; whenever `diff` reports nothing, `explain`
 * answers every sampled request of every caller the same before and after — inbound (allowed or refused) and outbound (route, backends and shares, retry, timeout, or 404). The seed is fixed and the runs bounded.
 */
import * as fc from 'fast-check';
import { booksappManifests, booksappObjects, findBooksObject } from './booksapp-fixture';
import { MeshModel, diffModels, meshModel } from '../../src/analysis/reachability';

const SEED = 20_261_204;
const RUNS = 40;

type Edit = (objects: any[]) => void;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];
const PATHS = ['/', '/ping', '/authors.json', '/authors/1', '/authors/', '/books', '/books/7', '/booksx', '/health', '/x/y'];
const ROUTES = ['authors-get-route', 'authors-probe-route', 'books-reads'];
const DEPLOYMENTS = ['webapp', 'authors', 'books', 'books-canary', 'traffic'];

function rule(objects: any[], route: string): any {
  return findBooksObject(objects, 'HTTPRoute', route).spec.rules[0];
}

/** Edits that may or may not change what happens to a request (some change nothing at all). */
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.tuple(fc.constantFrom(...ROUTES), fc.nat(3), fc.constantFrom(...METHODS)).map(([r, i, m]): Edit => (o) => {
    const matches = rule(o, r).matches;
    if (matches.length > 0) matches[i % matches.length].method = m;
  }),
  fc.tuple(fc.constantFrom(...ROUTES), fc.nat(3)).map(([r, i]): Edit => (o) => {
    const matches = rule(o, r).matches;
    if (matches.length > 1) matches.splice(i % matches.length, 1);
  }),
  fc.tuple(fc.constantFrom(...ROUTES), fc.constantFrom(...METHODS), fc.constantFrom(...PATHS), fc.constantFrom('Exact', 'PathPrefix')).map(
    ([r, m, p, type]): Edit => (o) => {
      rule(o, r).matches.push({ method: m, path: { type, value: p } });
    }),
  fc.tuple(fc.constantFrom(...ROUTES), fc.constantFrom(...METHODS), fc.constantFrom(...PATHS), fc.constantFrom('1', '2')).map(
    ([r, m, p, v]): Edit => (o) => {
      rule(o, r).matches.push({ method: m, path: { type: 'Exact', value: p }, headers: [{ name: 'X-Canary', value: v }] });
    }),
  // A consumer route: what the clients in namespace shop (only) get.
  fc.tuple(fc.constantFrom(...METHODS), fc.constantFrom(...PATHS)).map(([m, p]): Edit => (o) => {
    if (!o.some((x) => x.kind === 'Namespace' && x.metadata.name === 'shop')) o.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    o.push({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: `shop-${o.length}`, namespace: 'shop' },
      spec: {
        parentRefs: [{ group: 'core', kind: 'Service', name: 'books', namespace: 'booksapp', port: 7002 }],
        rules: [{ matches: [{ method: m, path: { type: 'PathPrefix', value: p } }], backendRefs: [{ name: 'books-canary', namespace: 'booksapp', port: 7002 }] }],
      },
    });
  }),
  fc.tuple(fc.constantFrom(...DEPLOYMENTS), fc.constantFrom(...PATHS)).map(([d, p]): Edit => (o) => {
    findBooksObject(o, 'Deployment', d).spec.template.spec.containers[0].readinessProbe.httpGet.path = p;
  }),
  fc.tuple(fc.constantFrom(...DEPLOYMENTS), fc.constantFrom('webapp', 'authors', 'books', 'traffic')).map(([d, sa]): Edit => (o) => {
    findBooksObject(o, 'Deployment', d).spec.template.spec.serviceAccountName = sa;
  }),
  fc.tuple(fc.constantFrom('authors-get-authn', 'webapp-callers', 'books-callers'), fc.subarray(['webapp', 'books', 'traffic', 'authors'], { minLength: 1 }))
    .map(([a, sas]): Edit => (o) => {
      findBooksObject(o, 'MeshTLSAuthentication', a).spec.identities = sas.map((sa) => `${sa}.booksapp.serviceaccount.identity.linkerd.cluster.local`);
    }),
  fc.tuple(fc.constantFrom('webapp-server', 'authors-server', 'books-server'), fc.constantFrom('deny', 'all-authenticated', 'all-unauthenticated'))
    .map(([s, p]): Edit => (o) => {
      findBooksObject(o, 'Server', s).spec.accessPolicy = p;
    }),
  fc.tuple(fc.nat(100), fc.nat(100)).map(([a, b]): Edit => (o) => {
    const backends = rule(o, 'books-reads').backendRefs;
    backends[0].weight = a;
    backends[1].weight = b;
  }),
  fc.constantFrom('2', '3', undefined).map((limit): Edit => (o) => {
    const annotations = findBooksObject(o, 'HTTPRoute', 'books-reads').metadata.annotations;
    if (limit === undefined) delete annotations['retry.linkerd.io/limit'];
    else annotations['retry.linkerd.io/limit'] = limit;
  }),
  fc.constantFrom('books-rest', 'authors-probe-policy', 'webapp-policy').map((name): Edit => (o) => {
    o.splice(o.findIndex((x) => x.metadata.name === name), 1);
  }),
  // Rewrites that change nothing a request meets: the property must hold without any change reported, too.
  fc.constantFrom<Edit>(
    (o) => rule(o, 'authors-get-route').matches.reverse(),
    (o) => { findBooksObject(o, 'Deployment', 'books').metadata.labels = { team: 'books' }; },
  ),
);

/** Every answer explain gives on a model: per workload port, caller and request; per Service port and request. */
function answers(model: MeshModel, callerKeys: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  const plain = METHODS.flatMap((method) => PATHS.map((path) => ({ method, path, label: `${method} ${path}` })));
  const requests = [...plain, ...plain.map((r) => ({ ...r, label: `${r.label} x-canary: 1`, headers: { 'x-canary': '1' } }))];
  for (const port of model.ports) {
    for (const [who, key] of callerKeys) {
      for (const r of requests) {
        const v = model.decideRequest(port, model.caller(key), r);
        // The verdict is the treatment; which generated route admits it (default or probe) is not.
        out.set(`${port.target}|${who}|${r.label}`, `${v.allowed}|${v.uncertain === true}`);
      }
    }
  }
  for (const service of model.services) {
    const outbound = model.outboundRequests(service)!;
    const shop = outbound.consumers.get('shop') ?? outbound;
    for (const r of requests) {
      out.set(`${service.target}|${r.label}`, JSON.stringify(outbound.outcome(r)));
      out.set(`${service.target}|shop|${r.label}`, JSON.stringify(shop.outcome(r)));
    }
  }
  return out;
}

/** The callers to ask about: each workload (by its own identity on that side), and the caller classes. */
function callersOf(model: MeshModel): Map<string, string> {
  const keys = new Map<string, string>([...model.workloadCallers].map(([w, k]) => [w, k]));
  for (const c of ['other-meshed', 'unauthenticated', 'external', 'kubelet']) keys.set(c, c);
  return keys;
}

test('when diff reports nothing, explain answers every sampled request of every caller alike', () => {
  let silent = 0;
  let loud = 0;
  fc.assert(fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
    const headObjects = booksappObjects();
    for (const e of edits) e(headObjects);
    const base = meshModel(booksappManifests(booksappObjects()));
    const head = meshModel(booksappManifests(headObjects));
    if (diffModels(base, head).changes.length > 0) {
      loud++;
      return;
    }
    silent++;
    const before = answers(base, callersOf(base));
    const after = answers(head, callersOf(head));
    for (const [key, answer] of before) expect([key, after.get(key)]).toEqual([key, answer]);
  }), { seed: SEED, numRuns: RUNS });
  // Both branches must be exercised, or the property proves little.
  expect(silent).toBeGreaterThan(2);
  expect(loud).toBeGreaterThan(RUNS / 2);
});
