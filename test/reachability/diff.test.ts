/**
 * diff on mesh-lab: each mutation of the seed's experiments gives exactly the expected changes, and no change none.
 */
import { findObject, manifests, meshLabObjects } from './mesh-lab-fixture';
import { diffManifests, formatDiffJson, formatDiffMarkdown, diffMatches, DiffFailOn, MeshDiff } from '../../src/analysis/reachability';

function diff(base: any[], head: any[]): MeshDiff {
  return diffManifests(manifests(base), manifests(head));
}

function brief(d: MeshDiff) {
  return d.changes.map((c) => [c.kind, c.change, c.source, c.target]);
}

describe('diff on mesh-lab', () => {
  test('no change gives no change', () => {
    const d = diff(meshLabObjects({ negative: true }), meshLabObjects({ negative: true }));
    expect(d.changes).toEqual([]);
    expect(formatDiffJson(d)).toBe('{\n  "changes": []\n}\n');
    expect(diffMatches(d, DiffFailOn.ANY)).toBe(false);
  });

  test('removing client from client-sa: client → both orders versions go allowed → denied', () => {
    const base = meshLabObjects();
    const head = meshLabObjects();
    // client-sa names only client: without it the list is empty, which the admission webhook rejects.
    findObject(head, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs = [];
    const d = diff(base, head);
    expect(brief(d)).toEqual([
      ['authorization', 'allowed-to-denied', 'mesh-lab/client', 'mesh-lab/orders-v1:8080'],
      ['authorization', 'allowed-to-denied', 'mesh-lab/client', 'mesh-lab/orders-v2:8080'],
      ['ignored', 'now-ignored', 'MeshTLSAuthentication mesh-lab/client-sa', 'mesh-lab'],
    ]);
    expect(d.changes[0].because).toMatch(/MeshTLSAuthentication client-sa does not match/);
    expect(d.changes[0].because).toMatch(/before: GET \/ lands on the default route Linkerd generates; AuthorizationPolicy client-to-orders admits/);
    // GET /health stays allowed: the generated probe route admits it from the probe networks, whoever asks.
    expect(d.changes[0].request).toBe('every request but GET /health');
    expect(d.changes[0].because).toMatch(/AuthorizationPolicy mesh-lab\/client-to-orders/);
    expect(diffMatches(d, DiffFailOn.TO_DENIED)).toBe(true);
    expect(diffMatches(d, DiffFailOn.TO_ALLOWED)).toBe(false);
  });

  test('moving the namespace to deny without a Server: every caller of orders goes allowed → denied', () => {
    const base = meshLabObjects({ withPolicy: false });
    const head = meshLabObjects({ withPolicy: false });
    findObject(head, 'Namespace', 'mesh-lab').metadata.annotations['config.linkerd.io/default-inbound-policy'] = 'deny';
    const d = diff(base, head);
    const expected = ['mesh-lab/client', 'external', 'other-meshed', 'unauthenticated'].flatMap((source) => [1, 2].map((v) => [source, `mesh-lab/orders-v${v}:8080`]));
    expect(d.changes.map((c) => [c.source, c.target]).sort()).toEqual(expected.sort());
    expect(d.changes.every((c) => c.kind === 'authorization' && c.change === 'allowed-to-denied')).toBe(true);
    expect(d.changes[0].because).toMatch(/Namespace mesh-lab is deny/);
    expect(d.changes[0].because).toMatch(/\[Namespace mesh-lab\]/);
  });

  // inbound/index.rs PolicyIndex::http_routes: the probe routes exist only while no route is attached to the Server.
  test('attaching a route that does not match a probe path: the kubelet\'s probes go allowed → denied', () => {
    const base = meshLabObjects();
    const head = meshLabObjects();
    head.push({
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'HTTPRoute',
      metadata: { name: 'orders-api', namespace: 'mesh-lab' },
      spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }], rules: [{ matches: [{ path: { value: '/api' } }] }] },
    });
    const probes = diff(base, head).changes.filter((c) => c.source === 'kubelet');
    expect(probes.map((c) => [c.change, c.target, c.request])).toEqual([
      ['allowed-to-denied', 'mesh-lab/orders-v1:8080', 'GET /health'], ['allowed-to-denied', 'mesh-lab/orders-v2:8080', 'GET /health'],
    ]);
    expect(probes[0].because).toMatch(/^now: GET \/health matches none of the routes attached to Server orders-http; .*before: GET \/health is a probe path/);
  });

  test('adding wrong-client (ServiceAccount default) to client-sa: it goes denied → allowed on both versions', () => {
    const base = meshLabObjects({ negative: true });
    const head = meshLabObjects({ negative: true });
    findObject(head, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs.push({ kind: 'ServiceAccount', name: 'default' });
    const d = diff(base, head);
    expect(brief(d)).toEqual([
      ['authorization', 'denied-to-allowed', 'mesh-lab/default', 'mesh-lab/orders-v1:8080'],
      ['authorization', 'denied-to-allowed', 'mesh-lab/default', 'mesh-lab/orders-v2:8080'],
    ]);
    expect(diffMatches(d, DiffFailOn.TO_ALLOWED)).toBe(true);
  });

  test('adding the wrong-client workload alone changes no verdict: it was refused as any other identity before', () => {
    expect(diff(meshLabObjects(), meshLabObjects({ negative: true })).changes).toEqual([]);
  });

  test('changing the split to 50/50: exactly the two shares change', () => {
    const base = meshLabObjects();
    const head = meshLabObjects();
    for (const b of findObject(head, 'HTTPRoute', 'orders-split').spec.rules[0].backendRefs) b.weight = 50;
    const d = diff(base, head);
    expect(d.changes).toEqual([
      { kind: 'share', change: 'changed', source: 'mesh-lab/orders:8080', target: 'mesh-lab/orders-v1:8080', because: 'HTTPRoute orders-split: 90% → 50%' },
      { kind: 'share', change: 'changed', source: 'mesh-lab/orders:8080', target: 'mesh-lab/orders-v2:8080', because: 'HTTPRoute orders-split: 10% → 50%' },
    ]);
  });

  // grpc/src/outbound/http.rs convert_backend: a Service backend that does not exist is an invalid backend (HTTP 500).
  test('a share moved to a Service that does not exist says that the share fails', () => {
    const head = meshLabObjects();
    findObject(head, 'HTTPRoute', 'orders-split').spec.rules[0].backendRefs[1].name = 'orders-v3';
    const added = diff(meshLabObjects(), head).changes.find((c) => c.kind === 'share' && c.target === 'mesh-lab/orders-v3:8080');
    expect(added?.because).toMatch(/none → 10% \(no such Service: this share fails with HTTP 500\)$/);
  });

  test('a timeout added to the split shows as a timeout change', () => {
    const head = meshLabObjects();
    findObject(head, 'HTTPRoute', 'orders-split').metadata.annotations = { 'timeout.linkerd.io/request': '5s' };
    expect(diff(meshLabObjects(), head).changes).toEqual([
      { kind: 'timeout', change: 'added', source: 'mesh-lab/orders:8080', target: 'HTTPRoute orders-split', because: 'timeout.linkerd.io/request: unset → "5s"' },
    ]);
  });

  test('a split whose parent loses its group: the route is ignored and the default route takes the traffic', () => {
    const head = meshLabObjects();
    delete findObject(head, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
    expect(brief(diff(meshLabObjects(), head))).toEqual([
      ['route', 'changed', 'meshed clients', 'mesh-lab/orders:8080'],
      ['share', 'removed', 'mesh-lab/orders:8080', 'mesh-lab/orders-v1:8080'],
      ['share', 'removed', 'mesh-lab/orders:8080', 'mesh-lab/orders-v2:8080'],
      ['share', 'added', 'mesh-lab/orders:8080', 'mesh-lab/orders:8080'],
      ['ignored', 'now-ignored', 'HTTPRoute mesh-lab/orders-split', 'mesh-lab'],
    ]);
  });

  test('output does not depend on the order of the input', () => {
    const head = meshLabObjects({ negative: true });
    findObject(head, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs = [{ kind: 'ServiceAccount', name: 'default' }];
    for (const b of findObject(head, 'HTTPRoute', 'orders-split').spec.rules[0].backendRefs) b.weight = 50;
    const base = meshLabObjects({ negative: true });
    const forward = formatDiffJson(diff(base, head));
    expect(formatDiffJson(diff([...base].reverse(), [...head].reverse()))).toBe(forward);
    expect(JSON.parse(forward).changes.length).toBe(6);
  });

  test('markdown: a summary line, a table and a Mermaid graph of the changed part', () => {
    const head = meshLabObjects();
    findObject(head, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs = [];
    const md = formatDiffMarkdown(diff(meshLabObjects(), head));
    expect(md.split('\n')[0]).toBe('**Mesh change:** 2 calls allowed → denied, 1 object now ignored by Linkerd.');
    expect(md).toContain('| authorization | allowed-to-denied | mesh-lab/client | mesh-lab/orders-v1:8080 |');
    expect(md).toMatch(/```mermaid\nflowchart LR\n/);
    expect(md).toContain('linkStyle 0 stroke:#d62728');
  });
});
