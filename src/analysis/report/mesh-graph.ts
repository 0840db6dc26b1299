/**
 * What the mermaid diagram shows, computed from the analysis: route traffic shares and which workloads the inbound
 * policy lets reach each Server port. This is the only report code that calls the policy evaluation, so a change in
 * that API is fixed here alone; the renderer (mermaid.ts) only sees this plain graph.
 */
import { ResourceId } from '../model/manifest';
import { MeshIndex, PodTemplate } from '../model/mesh-index';
import { AnalysisContext } from '../options';
import { BackendShare, Caller, Decision, PortPolicy, callerOf, evaluateInboundPolicy, routeShares } from '../policy';

export enum GraphNodeKind {
  SERVICE = 'service',
  ROUTE = 'route',
  WORKLOAD = 'workload',
  SERVER_PORT = 'server-port',
}

export interface GraphNode {
  /** Unique, stable key (not yet a mermaid ID). */
  readonly key: string;
  readonly kind: GraphNodeKind;
  readonly label: string;
}

export interface GraphEdge {
  readonly from: GraphNode;
  readonly to: GraphNode;
  readonly label: string;
}

export interface MeshGraph {
  /** Route → backend Service, labelled with the share (`90%`). */
  readonly shares: GraphEdge[];
  /** Caller workload → Server port, labelled with the decision (`allowed`). */
  readonly access: GraphEdge[];
  /** Set when the access edges were left out because evaluating them would take too long. */
  readonly accessOmitted?: string;
}

/**
 * Every caller identity is evaluated against every Server port, which grows quadratically; beyond this many
 * evaluations the diagram would be unreadable anyway, so the access edges are left out (and the diagram says so).
 */
export const MAX_ACCESS_EVALUATIONS = 250_000;

function serviceNode(namespace: string, name: string): GraphNode {
  return { key: `svc/${namespace}/${name}`, kind: GraphNodeKind.SERVICE, label: `Service ${namespace}/${name}` };
}

function idText(id: ResourceId): string {
  return `${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
}

function routeNode(id: ResourceId): GraphNode {
  return { key: `route/${id.kind}/${idText(id)}`, kind: GraphNodeKind.ROUTE, label: `${id.kind} ${idText(id)}` };
}

function workloadNode(pod: PodTemplate): GraphNode {
  const id = pod.owner.id;
  return { key: `wl/${id.kind}/${pod.namespace}/${id.name}`, kind: GraphNodeKind.WORKLOAD, label: `${id.kind} ${pod.namespace}/${id.name}` };
}

function serverPortNode(server: ResourceId, port: number): GraphNode {
  return { key: `srv/${idText(server)}/${port}`, kind: GraphNodeKind.SERVER_PORT, label: `Server ${idText(server)} :${port}` };
}

/** Services share nodes with route parents; other backends (EgressNetwork) get nodes of their own kind. */
function backendNode(backend: BackendShare): GraphNode {
  if (backend.kind === 'Service') return serviceNode(backend.namespace, backend.name);
  const text = `${backend.namespace}/${backend.name}`;
  return { key: `backend/${backend.kind}/${text}`, kind: GraphNodeKind.SERVICE, label: `${backend.kind} ${text}` };
}

function percentLabel(percent: number): string {
  return `${Number.isInteger(percent) ? percent : percent.toFixed(2).replace(/0+$/, '')}%`;
}

function shareEdges(index: MeshIndex): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const rule of routeShares(index)) {
    // Without a Service parent (e.g. a Gateway route) the split belongs to the route itself.
    const [ns, name] = rule.parent ? splitOnce(rule.parent) : ['', ''];
    const from = rule.parent ? serviceNode(ns, name) : routeNode(rule.route);
    for (const backend of rule.backends) {
      if (backend.implicit) continue; // a rule without backends keeps traffic on its parent: no edge to draw
      edges.push({ from, to: backendNode(backend), label: percentLabel(backend.percent) });
    }
  }
  return edges;
}

function splitOnce(text: string): [string, string] {
  const slash = text.indexOf('/');
  return slash < 0 ? ['', text] : [text.slice(0, slash), text.slice(slash + 1)];
}

interface Tally {
  from: GraphNode;
  to: GraphNode;
  allowed: number;
  total: number;
  audited: boolean;
}

interface CallerEntry {
  readonly node: GraphNode;
  readonly caller: Caller;
  /** What a decision can depend on: callers alike in these are decided alike, so decisions are cached by it. */
  readonly identity: string;
}

/** One edge per caller and Server port; a Server spanning several workloads may allow a caller on only some. */
function accessLabel(t: Tally): string {
  const base = t.allowed === t.total ? 'allowed' : `allowed on ${t.allowed} of ${t.total} workloads`;
  return t.audited ? `${base} (audit)` : base;
}

function callerEntries(index: MeshIndex): CallerEntry[] {
  return index.podTemplates.flatMap((pod) => {
    const caller = callerOf(index, { namespace: pod.namespace, name: pod.owner.id.name, kind: pod.owner.id.kind });
    if (!caller) return [];
    return [{ node: workloadNode(pod), caller, identity: `${caller.meshed}|${caller.namespace}|${caller.serviceAccount}` }];
  });
}

function decide(port: PortPolicy, entry: CallerEntry, cache: Map<string, Decision>): Decision {
  let decision = cache.get(entry.identity);
  if (!decision) cache.set(entry.identity, decision = port.allows(entry.caller));
  return decision;
}

function tallyAccess(ports: PortPolicy[], callers: CallerEntry[]): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  for (const port of ports) {
    const to = serverPortNode(port.server!.id, port.port);
    const cache = new Map<string, Decision>();
    for (const entry of callers) {
      const key = `${entry.node.key}->${to.key}`;
      let tally = tallies.get(key);
      if (!tally) tallies.set(key, tally = { from: entry.node, to, allowed: 0, total: 0, audited: false });
      const decision = decide(port, entry, cache);
      tally.total++;
      if (decision.allowed) tally.allowed++;
      if (decision.audited) tally.audited = true;
    }
  }
  return tallies;
}

function accessEdges(index: MeshIndex, context: AnalysisContext): Pick<MeshGraph, 'access' | 'accessOmitted'> {
  const ports = evaluateInboundPolicy(index, context).ports.filter((p) => p.server && !p.skipsProxy);
  const callers = callerEntries(index);
  const identities = new Set(callers.map((c) => c.identity)).size;
  if (ports.length * identities > MAX_ACCESS_EVALUATIONS) {
    return { access: [], accessOmitted: `${ports.length} Server ports x ${identities} caller identities exceed ${MAX_ACCESS_EVALUATIONS} evaluations` };
  }
  const access = [...tallyAccess(ports, callers).values()]
    .filter((t) => t.allowed > 0)
    .map((t) => ({ from: t.from, to: t.to, label: accessLabel(t) }));
  return { access };
}

export function meshGraph(analysis: { readonly index: MeshIndex; readonly context: AnalysisContext }): MeshGraph {
  return { shares: shareEdges(analysis.index), ...accessEdges(analysis.index, analysis.context) };
}
