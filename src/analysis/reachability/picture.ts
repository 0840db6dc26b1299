/**
 * One Mermaid graph of the mesh: callers → Service ports (protocol, routes, shares) → workloads' ports (Server, who
 * is allowed). Declared calls the policy refuses are red, objects Linkerd ignores are grey with the reason, and a
 * large mesh is folded into one node per namespace. Deterministic: everything is sorted by byte order.
 */
import { MermaidIds, mermaidLabel } from './mermaid-text';
import { MeshModel, PortPolicyView, ServicePortView } from './views';
import { compareStrings } from '../../util/compare';
import { pushTo } from '../../util/json';
import { idLabel } from '../../util/labels';

/** Beyond this many ports (workload and Service), the graph shows one node per namespace. */
export const FOLD_LIMIT = 150;
/** Allowed callers listed on a workload port's node before "and N more". */
const MAX_ALLOWED_LISTED = 4;

const RED = 'stroke:#d62728,stroke-width:2px,color:#d62728';

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly label: string;
  readonly dotted?: boolean;
  readonly refused?: boolean;
}

class Drawing {
  public readonly ids = new MermaidIds();
  public readonly nodes = new Map<string, { line: string; group: string }>();
  public readonly edges = new Map<string, Edge>();
  public readonly classes = new Map<string, string>();

  public node(key: string, group: string, shape: [string, string], label: string): string {
    const id = this.ids.id(key);
    if (!this.nodes.has(id)) this.nodes.set(id, { line: `${id}${shape[0]}${mermaidLabel(label)}${shape[1]}`, group });
    return id;
  }

  public edge(edge: Edge): void {
    const key = `${edge.from}\u0000${edge.to}\u0000${edge.label}`;
    const known = this.edges.get(key);
    this.edges.set(key, known ? { ...known, refused: known.refused || edge.refused } : edge);
  }

  public render(): string {
    const lines = ['flowchart LR'];
    const groups = new Map<string, string[]>();
    for (const n of [...this.nodes.entries()].sort((a, b) => compareStrings(a[0], b[0])).map(([, node]) => node)) {
      pushTo(groups, n.group, n.line);
    }
    for (const group of [...groups.keys()].sort(compareStrings)) {
      if (group === '') {
        lines.push(...groups.get(group)!.map((l) => `  ${l}`));
        continue;
      }
      lines.push(`  subgraph ${this.ids.id(`group/${group}`)}[${mermaidLabel(group)}]`, ...groups.get(group)!.map((l) => `    ${l}`), '  end');
    }
    const edges = [...this.edges.entries()].sort((a, b) => compareStrings(a[0], b[0])).map(([, e]) => e);
    edges.forEach((e) => lines.push(`  ${e.from} ${e.dotted ? '-.->' : '-->'}|${mermaidLabel(e.label)}| ${e.to}`));
    edges.forEach((e, i) => {
      if (e.refused) lines.push(`  linkStyle ${i} ${RED}`);
    });
    if (this.classes.size > 0) {
      lines.push('  classDef ignored fill:#eeeeee,stroke:#999999,color:#777777,stroke-dasharray:4 2');
      lines.push('  classDef refused stroke:#d62728,stroke-width:2px');
      for (const [id, cls] of [...this.classes.entries()].sort((a, b) => compareStrings(a[0], b[0]))) lines.push(`  class ${id} ${cls}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

function allowedCallers(model: MeshModel, port: PortPolicyView): string {
  if (!port.meshed) return 'not meshed: everyone';
  if (port.skipsProxy) return 'bypasses the proxy: everyone';
  const allowed = model.relevantCallers(port).filter((c) => model.decide(port, c).some((v) => v.allowed)).map((c) => c.key);
  if (allowed.length === 0) return 'allows: nobody';
  const listed = allowed.slice(0, MAX_ALLOWED_LISTED).join(', ');
  return `allows: ${listed}${allowed.length > MAX_ALLOWED_LISTED ? ` and ${allowed.length - MAX_ALLOWED_LISTED} more` : ''}`;
}

function portLabel(model: MeshModel, port: PortPolicyView): string {
  const server = port.server ? `Server ${port.server.id.name} (${port.server.accessPolicy})` : `no Server: default ${port.defaultPolicy}`;
  const routes = port.routes.length > 0 ? `\nroutes: ${port.routes.map((r) => r.name.replace(/^\S+ /, '')).join(', ')}` : '';
  return `${port.target}\n${server}${routes}\n${allowedCallers(model, port)}`;
}

function serviceLabel(service: ServicePortView): string {
  const routes = service.routes.length > 0 ? `\nroutes: ${service.routes.map((r) => r.name.replace(/^\S+ /, '')).join(', ')}` : '';
  return `Service ${service.target}\n${service.protocol.replace(/ \(.*\)$/, '')}${routes}`;
}

function percentText(percent: number): string {
  return `${Number.isInteger(percent) ? percent : percent.toFixed(2).replace(/0+$/, '')}%`;
}

/** Backend `ns/name:port` (or `ns/name`) → the Service port view it names. */
function backendService(model: MeshModel, name: string, fallbackPort: number): ServicePortView | undefined {
  return model.service(/:\d+$/.test(name) ? name : `${name}:${fallbackPort}`);
}

function drawFull(model: MeshModel): Drawing {
  const d = new Drawing();
  const portNode = (port: PortPolicyView) => d.node(`port/${port.target}`, port.namespace, ['{{', '}}'], portLabel(model, port));
  const serviceNode = (s: ServicePortView) => d.node(`svc/${s.target}`, s.namespace, ['([', '])'], serviceLabel(s));
  for (const service of model.services) {
    const from = serviceNode(service);
    const backends = service.routes.flatMap((r) => r.rules.flatMap((rule) => rule.backends.map((b) => ({ route: r.name, rule, b }))));
    for (const { route, b } of backends) {
      const target = backendService(model, b.name, service.port);
      // A rule without backends keeps traffic on its parent: drawing it would be a self-loop.
      if (target?.target === service.target) continue;
      const to = target ? serviceNode(target) : d.node(`backend/${b.name}`, '', ['[', ']'], `${b.kind} ${b.name}`);
      d.edge({ from, to, label: `${route.replace(/^\S+ /, '')} ${percentText(b.percent)}` });
    }
    if (backends.length === 0 || backends.every((x) => backendService(model, x.b.name, service.port)?.target === service.target)) {
      for (const endpoint of service.endpoints) {
        const port = model.port(endpoint);
        if (port) d.edge({ from, to: portNode(port), label: 'endpoints', dotted: true });
      }
    }
  }
  for (const port of model.ports) portNode(port);
  for (const call of model.declaredCalls) {
    const caller = model.caller(call.source);
    const from = d.node(`caller/${caller.key}`, '', ['[', ']'], `${caller.key}\n${caller.workloads.join(', ') || idLabel(call.workload)}`);
    const service = model.service(/:\d+$/.test(call.service) ? call.service : '') ?? model.services.find((s) => `${s.namespace}/${s.name}:${s.port}` === call.service);
    const refused = call.targets.some((t) => {
      const port = model.port(t);
      return !port || model.decide(port, caller).every((v) => !v.allowed);
    }) || call.targets.length === 0;
    const to = service ? serviceNode(service) : d.node(`missing/${call.service}`, '', ['[', ']'], `${call.service}\n${call.problem ?? 'unknown'}`);
    d.edge({ from, to, label: refused ? 'declared call: refused' : 'declared call', refused });
    if (refused) d.classes.set(from, 'refused');
  }
  drawIgnored(model, d);
  return d;
}

function drawIgnored(model: MeshModel, d: Drawing): void {
  for (const o of model.ignored) {
    const reason = o.reason.length > 100 ? `${o.reason.slice(0, 97)}...` : o.reason;
    const id = d.node(`ignored/${o.object.apiVersion}/${idLabel(o.object)}`, 'ignored by Linkerd', ['[', ']'], `${idLabel(o.object)}\n${o.effect}: ${reason}`);
    d.classes.set(id, 'ignored');
  }
}

function drawFolded(model: MeshModel): Drawing {
  const d = new Drawing();
  const counts = new Map<string, { ports: number; services: number }>();
  const bump = (ns: string, key: 'ports' | 'services') => {
    const c = counts.get(ns) ?? { ports: 0, services: 0 };
    c[key]++;
    counts.set(ns, c);
  };
  for (const p of model.ports) bump(p.namespace, 'ports');
  for (const s of model.services) bump(s.namespace, 'services');
  const nsNode = (ns: string) => {
    const c = counts.get(ns) ?? { ports: 0, services: 0 };
    return d.node(`ns/${ns}`, '', ['[', ']'], `namespace ${ns}\n${c.services} Service ports, ${c.ports} workload ports`);
  };
  const tally = new Map<string, { from: string; to: string; calls: number; refused: number }>();
  for (const call of model.declaredCalls) {
    const from = call.workload.namespace ?? '';
    const to = call.service.split('/')[0];
    const caller = model.caller(call.source);
    const refused = call.targets.length === 0 || call.targets.some((t) => {
      const port = model.port(t);
      return !port || model.decide(port, caller).every((v) => !v.allowed);
    });
    const key = `${from}\u0000${to}`;
    const t = tally.get(key) ?? { from, to, calls: 0, refused: 0 };
    t.calls++;
    if (refused) t.refused++;
    tally.set(key, t);
  }
  for (const t of tally.values()) {
    const label = t.refused > 0 ? `${t.calls} declared calls, ${t.refused} refused` : `${t.calls} declared calls`;
    d.edge({ from: nsNode(t.from), to: nsNode(t.to), label, refused: t.refused > 0 });
  }
  for (const ns of counts.keys()) nsNode(ns);
  drawIgnored(model, d);
  return d;
}

/** The Mermaid flowchart of the mesh (folded by namespace beyond FOLD_LIMIT ports). */
export function meshPicture(model: MeshModel, foldLimit = FOLD_LIMIT): string {
  const size = model.ports.length + model.services.length;
  const drawing = size > foldLimit ? drawFolded(model) : drawFull(model);
  const text = drawing.render();
  return size > foldLimit ? text.replace('flowchart LR\n', `flowchart LR\n  %% ${size} ports: folded by namespace\n`) : text;
}
