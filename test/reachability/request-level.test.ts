/**
 * Request-level reachability on a booksapp-like mesh: the four edits of a review that `diff` used to pass in silence,
 * and `explain` agreeing with the generated probe route (inbound/index.rs ClusterInfo::default_inbound_http_routes).
 */
import { EDITS, booksappManifests, booksappObjects, findBooksObject } from './booksapp-fixture';
import {
  DiffFailOn, MeshDiff, diffManifests, diffMatches, explainModel, explainPort, findPort, findServicePort, formatDiffText, formatServiceExplanation,
  meshModel,
} from '../../src/analysis/reachability';

function diffOf(edit: (objects: any[]) => void): MeshDiff {
  const head = booksappObjects();
  edit(head);
  return diffManifests(booksappManifests(booksappObjects()), booksappManifests(head));
}

function rows(d: MeshDiff): string[] {
  return d.changes.map((c) => `${c.kind} ${c.change}: ${c.source} → ${c.target}${c.request !== undefined ? ` [${c.request}]` : ''}`);
}

describe('diff at request level on booksapp', () => {
  test('no edit, no change', () => {
    expect(diffOf(() => undefined).changes).toEqual([]);
  });

  // The probe route admits unauthenticated GET <probe path> from the probe networks while no route is attached.
  test('readiness probe moved to /: GET / opens to every caller Server webapp-server refused, GET /ping closes', () => {
    const d = diffOf(EDITS.probeToRoot);
    const lines = rows(d);
    for (const caller of ['unauthenticated', 'external', 'other-meshed', 'kubelet']) {
      expect(lines).toContain(`authorization denied-to-allowed: ${caller} → booksapp/webapp:7000 [GET /]`);
      expect(lines).toContain(`authorization allowed-to-denied: ${caller} → booksapp/webapp:7000 [GET /ping]`);
    }
    const opened = d.changes.find((c) => c.source === 'unauthenticated' && c.request === 'GET /')!;
    expect(opened.because).toMatch(/^now: GET \/ is a probe path, and the probe route Linkerd generates/);
    // traffic is allowed on every request before and after.
    expect(d.changes.some((c) => c.source === 'booksapp/traffic')).toBe(false);
    expect(diffMatches(d, DiffFailOn.TO_ALLOWED)).toBe(true);
  });

  test('the canary moved to its own ServiceAccount: its reads of authors are now refused', () => {
    const d = diffOf(EDITS.canaryOwnServiceAccount);
    expect(rows(d)).toEqual([
      'authorization allowed-to-denied: Deployment booksapp/books-canary (booksapp/books → booksapp/books-canary) → booksapp/authors:7001 '
        + '[GET /authors.json, HEAD /authors.json, GET /authors/…]',
    ]);
    expect(d.changes[0].because).toMatch(/before: GET \/authors.json lands on HTTPRoute authors-get-route; AuthorizationPolicy authors-get-policy admits meshed booksapp\/books/);
    expect(diffMatches(d, DiffFailOn.TO_DENIED)).toBe(true);
  });

  test('POST added to the matches of a rule that retries: POST /books is now retried, on another route', () => {
    const d = diffOf(EDITS.postRetried);
    expect(rows(d)).toEqual([
      'route changed: meshed clients → booksapp/books:7002 [POST /books…]',
      'retry now-retried: meshed clients → booksapp/books:7002 [POST /books…]',
    ]);
    expect(d.changes[1].because).toBe('now retried (5xx, limit 2 (on the route)) on HTTPRoute books-reads rule 0; before: not retried on HTTPRoute books-rest rule 0');
    expect(diffMatches(d, DiffFailOn.RETRY)).toBe(true);
    expect(diffMatches(d, DiffFailOn.ROUTE)).toBe(true);
    expect(diffMatches(d, DiffFailOn.SHARE)).toBe(false);
  });

  test('HEAD removed from a route\'s matches: its callers\' HEAD requests get no route and are refused', () => {
    const d = diffOf(EDITS.headRemoved);
    expect(rows(d)).toEqual([
      'authorization allowed-to-denied: booksapp/books → booksapp/authors:7001 [HEAD /authors.json]',
      'authorization allowed-to-denied: booksapp/webapp → booksapp/authors:7001 [HEAD /authors.json]',
    ]);
    expect(d.changes[0].because).toMatch(/^now: HEAD \/authors.json matches none of the routes attached to Server authors-server/);
    expect(d.changes[0].because).toMatch(/\[AuthorizationPolicy booksapp\/authors-get-policy, MeshTLSAuthentication booksapp\/authors-get-authn\]$/);
  });

  test('text output groups caller → target → request class', () => {
    const text = formatDiffText(diffOf(EDITS.headRemoved));
    expect(text.split('\n').slice(0, 3)).toEqual([
      '2 calls allowed → denied.',
      'booksapp/books:',
      '  authorization allowed-to-denied: → booksapp/authors:7001 [HEAD /authors.json]',
    ]);
  });
});

describe('explain agrees with the generated probe route', () => {
  test('GET / from unauthenticated on webapp:7000 with the probe on /: ALLOW through the probe route', () => {
    const head = booksappObjects();
    EDITS.probeToRoot(head);
    const model = meshModel(booksappManifests(head));
    const port = findPort(model, 'booksapp/webapp:7000');
    if (typeof port === 'string') throw new Error(port);
    const e = explainPort(model, port, { from: 'unauthenticated', method: 'GET', path: '/' });
    if (typeof e === 'string') throw new Error(e);
    expect(e.verdicts.map((v) => [v.source, v.request, v.allowed])).toEqual([['unauthenticated', 'probe GET /', true]]);
    const other = explainPort(model, port, { from: 'unauthenticated', method: 'POST', path: '/' });
    if (typeof other === 'string') throw new Error(other);
    expect(other.verdicts.map((v) => [v.request, v.allowed])).toEqual([['*', false]]);
  });

  test('without --path: every caller has a verdict per request class, the probe path among them', () => {
    const model = meshModel(booksappManifests(booksappObjects()));
    const port = findPort(model, 'booksapp/webapp:7000');
    if (typeof port === 'string') throw new Error(port);
    const e = explainPort(model, port);
    if (typeof e === 'string') throw new Error(e);
    const table = Object.fromEntries(e.verdicts.map((v) => [`${v.source} ${v.request}`, v.allowed]));
    expect(table).toMatchObject({
      'booksapp/traffic *': true,
      'booksapp/traffic probe GET /ping': true,
      'unauthenticated *': false,
      'unauthenticated probe GET /ping': true,
      'external *': false,
      'external probe GET /ping': true,
    });
  });
});

describe('header matches cut request classes of their own', () => {
  // linkerd2-proxy http-route: a match's headers must all be present; more header matches take precedence.
  test('a route for requests carrying x-canary: 1 that admits traffic: diff names that class, not every request', () => {
    const head = booksappObjects();
    head.push({
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'HTTPRoute',
      metadata: { name: 'authors-canary-route', namespace: 'booksapp' },
      spec: {
        parentRefs: [{ name: 'authors-server', kind: 'Server', group: 'policy.linkerd.io' }],
        rules: [{ matches: [{ method: 'GET', path: { type: 'Exact', value: '/authors.json' }, headers: [{ name: 'X-Canary', value: '1' }] }] }],
      },
    }, {
      apiVersion: 'policy.linkerd.io/v1alpha1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'authors-canary-policy', namespace: 'booksapp' },
      spec: {
        targetRef: { group: 'policy.linkerd.io', kind: 'HTTPRoute', name: 'authors-canary-route' },
        requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', name: 'webapp-callers' }],
      },
    });
    const d = diffManifests(booksappManifests(booksappObjects()), booksappManifests(head));
    // traffic gains GET /authors.json with the header; books and webapp lose it (the more specific route does not name them).
    expect(rows(d)).toEqual([
      'authorization allowed-to-denied: booksapp/books → booksapp/authors:7001 [GET /authors.json with x-canary: 1]',
      'authorization denied-to-allowed: booksapp/traffic → booksapp/authors:7001 [GET /authors.json with x-canary: 1]',
      'authorization allowed-to-denied: booksapp/webapp → booksapp/authors:7001 [GET /authors.json with x-canary: 1]',
    ]);
  });
});

describe('outbound per group of clients', () => {
  // outbound/index.rs: a route in the client's namespace (a consumer route) adds to the producer routes for its clients.
  test('a consumer route in namespace shop changes what shop\'s clients get, and nobody else\'s', () => {
    const head = booksappObjects();
    head.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'shop-writes', namespace: 'shop' },
      spec: {
        parentRefs: [{ group: 'core', kind: 'Service', name: 'books', namespace: 'booksapp', port: 7002 }],
        rules: [{ matches: [{ method: 'POST', path: { type: 'PathPrefix', value: '/books' } }], backendRefs: [{ name: 'books-canary', namespace: 'booksapp', port: 7002 }] }],
      },
    });
    const d = diffManifests(booksappManifests(booksappObjects()), booksappManifests(head));
    expect(rows(d).filter((r) => r.startsWith('route '))).toEqual(['route changed: meshed clients in namespace shop → booksapp/books:7002 [POST /books…]']);
    expect(d.changes.find((c) => c.kind === 'route')!.because).toBe(
      'now: HTTPRoute shop-writes rule 0 → booksapp/books-canary:7002 100%; before: HTTPRoute books-rest rule 0 → booksapp/books:7002 100%');
  });
});

describe('a workload that changes the caller it presents', () => {
  test('injection turned off on webapp: its calls to authors and books are now refused, as an unauthenticated caller', () => {
    const withCall = (objects: any[]) => {
      const webapp = findBooksObject(objects, 'Deployment', 'webapp');
      webapp.metadata.annotations = { 'analysis.cdk8s-linkerd.io/calls': 'authors:7001 GET /authors.json' };
      return objects;
    };
    const head = withCall(booksappObjects());
    findBooksObject(head, 'Deployment', 'webapp').spec.template.metadata.annotations = { 'linkerd.io/inject': 'disabled' };
    const d = diffManifests(booksappManifests(withCall(booksappObjects())), booksappManifests(head));
    expect(rows(d).filter((r) => r.includes('(booksapp/webapp → unauthenticated)'))).toEqual([
      'authorization allowed-to-denied: Deployment booksapp/webapp (booksapp/webapp → unauthenticated) → booksapp/authors:7001 '
        + '[GET /authors.json, HEAD /authors.json, GET /authors/…]',
      // books-callers names webapp; as an unmeshed client only the probe path stays open.
      'authorization allowed-to-denied: Deployment booksapp/webapp (booksapp/webapp → unauthenticated) → booksapp/books:7002 [every request but GET /ping]',
    ]);
  });
});

describe('explain --to-service per request class', () => {
  test('books:7002 with POST added to the retried rule: which requests are retried, and where they go', () => {
    const objects = booksappObjects();
    EDITS.postRetried(objects);
    const model = explainModel(booksappManifests(objects));
    const service = findServicePort(model, 'booksapp/books:7002');
    if (typeof service === 'string') throw new Error(service);
    const text = formatServiceExplanation(service, model.outboundRequests(service));
    expect(text.split('\n').slice(-4, -1)).toEqual([
      '  requests (every client):',
      '    every request but GET /books…, HEAD /books…, POST /books…: HTTPRoute books-rest rule 0 → booksapp/books:7002 100%',
      '    GET /books…, HEAD /books…, POST /books…: HTTPRoute books-reads rule 0 → booksapp/books:7002 90%, booksapp/books-canary:7002 10%; '
        + 'retried: 5xx, limit 2 (on the route)',
    ]);
  });
});

describe('EgressNetwork ports', () => {
  // grpc/src/outbound/http.rs default_outbound_egress_route: the fallback stays whatever is served; Deny answers 403.
  function egress(trafficPolicy: string): any[] {
    return [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'egress-test', annotations: { 'linkerd.io/inject': 'enabled' } } },
      { apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { namespace: 'egress-test', name: 'all-egress-traffic' }, spec: { trafficPolicy } },
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        metadata: { name: 'httpbin-get', namespace: 'egress-test' },
        spec: {
          parentRefs: [{ name: 'all-egress-traffic', kind: 'EgressNetwork', group: 'policy.linkerd.io', namespace: 'egress-test', port: 80 }],
          rules: [{ matches: [{ path: { value: '/get' } }] }],
        },
      },
    ];
  }

  test('trafficPolicy Allow → Deny: every request but /get now gets 403 from the fallback route', () => {
    const d = diffManifests(booksappManifests(egress('Allow')), booksappManifests(egress('Deny')));
    expect(rows(d)).toEqual(['route changed: meshed clients → EgressNetwork egress-test/all-egress-traffic:80 [every request but GET /get…, other methods /get…]']);
    expect(d.changes[0].because).toMatch(/^now: no route: HTTP 403 \(traffic not allowed\); before: the egress fallback route \(trafficPolicy Allow\) → the original destination, port 80 100%$/);
  });
});
