/**
 * The picture: one graph of callers → Service ports → workload ports, checked with the real Mermaid parser.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { EDITS, booksappObjects } from './booksapp-fixture';
import { findObject, manifests, meshLabObjects } from './mesh-lab-fixture';
import { analyze } from '../../src/analysis/engine';
import { diffManifests, diffMermaid, meshModel, meshPicture } from '../../src/analysis/reachability';
import { formatMermaid } from '../../src/analysis/report';

const REPO = path.resolve(__dirname, '..', '..');

/** null per text that parses, else the parser's message. */
function mermaidParse(texts: string[]): Array<string | null> {
  const run = spawnSync(process.execPath, [path.join(REPO, 'test', 'support', 'mermaid-parse.mjs')], {
    cwd: REPO, input: JSON.stringify(texts), encoding: 'utf8', timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`mermaid parser did not run: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

function withRefusedCall(): any[] {
  const objects = meshLabObjects({ negative: true });
  findObject(objects, 'Deployment', 'wrong-client').metadata.annotations = { 'analysis.cdk8s-linkerd.io/calls': 'orders:8080' };
  return objects;
}

describe('the mesh picture', () => {
  const text = formatMermaid(analyze(manifests(meshLabObjects())));

  test('callers → Service ports (protocol, shares) → workload ports (Server, who is allowed), no self-loop', () => {
    expect(text.split('\n')[0]).toBe('flowchart LR');
    expect(text).toContain('n_svc_mesh_lab_orders_8080(["Service mesh-lab/orders:8080<br/>detected<br/>routes: orders-split"])');
    expect(text).toContain('n_svc_mesh_lab_orders_8080 -->|"orders-split 90%"| n_svc_mesh_lab_orders_v1_8080');
    expect(text).toContain('n_svc_mesh_lab_orders_8080 -->|"orders-split 10%"| n_svc_mesh_lab_orders_v2_8080');
    expect(text).toContain('n_svc_mesh_lab_orders_v1_8080 -.->|"endpoints"| n_port_mesh_lab_orders_v1_8080');
    expect(text).toContain('n_port_mesh_lab_orders_v1_8080{{"mesh-lab/orders-v1:8080<br/>Server orders-http (deny)<br/>allows: mesh-lab/client"}}');
    expect(text).toContain('n_caller_mesh_lab_client -->|"declared call"| n_svc_mesh_lab_orders_8080');
    expect(text).not.toMatch(/n_svc_mesh_lab_orders_8080 -->\|[^|]*\| n_svc_mesh_lab_orders_8080/);
    expect(text).toContain('subgraph n_group_mesh_lab["mesh-lab"]');
  });

  test('a refused declared call is red, an ignored object grey with its reason', () => {
    const objects = withRefusedCall();
    delete findObject(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
    const picture = formatMermaid(analyze(manifests(objects)));
    expect(picture).toMatch(/n_caller_mesh_lab_default -->\|"declared call: refused"\| n_svc_mesh_lab_orders_8080/);
    expect(picture).toMatch(/linkStyle \d+ stroke:#d62728/);
    expect(picture).toContain('class n_caller_mesh_lab_default refused');
    expect(picture).toMatch(/HTTPRoute mesh-lab\/orders-split<br\/>ignored: LKD-ROUTE-001/);
    expect(picture).toMatch(/class n_ignored_\S+ ignored/);
    // An object the webhook refuses says so.
    findObject(objects, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs = [];
    expect(formatMermaid(analyze(manifests(objects)))).toMatch(/MeshTLSAuthentication mesh-lab\/client-sa<br\/>rejected: LKD-POL-003/);
  });

  test('a large mesh is folded by namespace', () => {
    const folded = meshPicture(meshModel(manifests(withRefusedCall())), 2);
    expect(folded).toContain('%% 5 ports: folded by namespace');
    expect(folded).toContain('n_ns_mesh_lab["namespace mesh-lab<br/>3 Service ports, 2 workload ports"]');
    expect(folded).toContain('n_ns_mesh_lab -->|"2 declared calls, 1 refused"| n_ns_mesh_lab');
  });

  test('every drawing parses with the real Mermaid parser (and a broken one does not)', () => {
    const head = meshLabObjects();
    findObject(head, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs = [];
    const texts = [
      text,
      formatMermaid(analyze(manifests(withRefusedCall()))),
      meshPicture(meshModel(manifests(withRefusedCall())), 2),
      diffMermaid(diffManifests(manifests(meshLabObjects()), manifests(head))),
      // Request-level rows: request classes (…, ?, :) and workloads whose identity changed in the edge labels.
      ...Object.values(EDITS).map((edit) => {
        const edited = booksappObjects();
        edit(edited);
        return diffMermaid(diffManifests(manifests(booksappObjects()), manifests(edited)));
      }),
      'flowchart LR\n  a -->',
    ];
    const results = mermaidParse(texts);
    expect(results.slice(0, -1)).toEqual(texts.slice(0, -1).map(() => null));
    expect(results[results.length - 1]).toMatch(/Parse error/);
  });
});
