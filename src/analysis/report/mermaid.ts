/**
 * Renders a MeshGraph as a mermaid `flowchart LR`. Output is deterministic: nodes and edges are sorted by their keys,
 * and node IDs are derived from keys (sanitized, with a numeric suffix when two keys sanitize alike).
 */
import { GraphEdge, GraphNode, GraphNodeKind, MeshGraph } from './mesh-graph';
import { compareStrings } from '../../core/compare';

const SHAPES: Record<GraphNodeKind, [string, string]> = {
  [GraphNodeKind.SERVICE]: ['([', '])'],
  [GraphNodeKind.ROUTE]: ['[/', '/]'],
  [GraphNodeKind.WORKLOAD]: ['[', ']'],
  [GraphNodeKind.SERVER_PORT]: ['{{', '}}'],
};

/** Mermaid IDs allow letters, digits and `_`; everything else becomes `_`. */
export function sanitizeId(key: string): string {
  const id = key.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z]/.test(id) ? id : `n_${id}`;
}

function assignIds(nodes: GraphNode[]): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const node of nodes) {
    const base = sanitizeId(node.key);
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
    used.add(id);
    ids.set(node.key, id);
  }
  return ids;
}

/** Quoted labels still must not contain `"`; mermaid's entity syntax keeps the character. */
function quote(label: string): string {
  return `"${label.replace(/"/g, '#quot;')}"`;
}

function uniqueEdges(edges: GraphEdge[]): GraphEdge[] {
  const byKey = new Map<string, GraphEdge>();
  for (const e of edges) byKey.set(`${e.from.key}\u0000${e.to.key}\u0000${e.label}`, e);
  return [...byKey.entries()].sort((a, b) => compareStrings(a[0], b[0])).map(([, e]) => e);
}

function nodesOf(graph: MeshGraph): GraphNode[] {
  const byKey = new Map<string, GraphNode>();
  for (const e of [...graph.shares, ...graph.access]) {
    byKey.set(e.from.key, e.from);
    byKey.set(e.to.key, e.to);
  }
  return [...byKey.values()].sort((a, b) => compareStrings(a.key, b.key));
}

function edgeLines(edges: GraphEdge[], ids: Map<string, string>, arrow: string): string[] {
  return uniqueEdges(edges).map((e) => `  ${ids.get(e.from.key)} ${arrow}|${quote(e.label)}| ${ids.get(e.to.key)}`);
}

export function formatMermaid(graph: MeshGraph): string {
  const nodes = nodesOf(graph);
  const ids = assignIds(nodes);
  const lines = ['flowchart LR'];
  for (const node of nodes) {
    const [open, close] = SHAPES[node.kind];
    lines.push(`  ${ids.get(node.key)}${open}${quote(node.label)}${close}`);
  }
  if (graph.shares.length > 0) lines.push('  %% traffic shares per route rule', ...edgeLines(graph.shares, ids, '-->'));
  if (graph.access.length > 0) lines.push('  %% inbound policy: callers the proxy lets in', ...edgeLines(graph.access, ids, '-.->'));
  if (graph.accessOmitted) lines.push(`  %% inbound policy edges omitted: ${graph.accessOmitted}`);
  return `${lines.join('\n')}\n`;
}
