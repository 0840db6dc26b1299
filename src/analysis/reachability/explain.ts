/**
 * explain — the offline `linkerd authz`: the resolved inbound policy of one workload port and, for each caller the
 * manifests know, allowed or refused per request class and why; or what a Service port does with requests.
 */
import { OutboundRequests } from './outbound-requests';
import { requestWords } from './request-diff';
import { CallVerdict, CallerView, MeshModel, PortPolicyView, ServicePortView } from './views';
import { idLabel } from '../../util/labels';
import { RequestSample, requestSamples } from '../policy';

export interface ExplainRequest {
  /** One caller (`namespace/serviceaccount`, `unauthenticated`, `external`, `kubelet`, `other-meshed`); default every known caller. */
  readonly from?: string;
  /** With `path`: only this request (the request class it falls in). */
  readonly method?: string;
  readonly path?: string;
}

export interface PortExplanation {
  readonly port: PortPolicyView;
  /** The request class asked about, when a method and path were given. */
  readonly request?: string;
  readonly verdicts: CallVerdict[];
}

/** `namespace/name:port` → its parts; the port may be a number or a name. */
export function parseTarget(text: string): { namespace: string; name: string; port: number | string } | undefined {
  const m = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-.a-z0-9]*[a-z0-9])?):([0-9]{1,5}|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$/.exec(text);
  if (!m) return undefined;
  return { namespace: m[1], name: m[3], port: /^\d+$/.test(m[5]) ? Number(m[5]) : m[5] };
}

/** The workload port a target names (a port name resolves through the workload's container ports). */
export function findPort(model: MeshModel, text: string): PortPolicyView | string {
  const target = parseTarget(text);
  if (!target) return `${JSON.stringify(text)} is not NAMESPACE/WORKLOAD:PORT`;
  const ofWorkload = model.ports.filter((p) => p.namespace === target.namespace && p.workload.name === target.name);
  if (ofWorkload.length === 0) return `no workload ${target.namespace}/${target.name} with a declared container port in the input`;
  const port = ofWorkload.find((p) => p.port === target.port || p.portName === target.port);
  if (!port) return `workload ${target.namespace}/${target.name} declares no port ${target.port} (it declares ${ofWorkload.map((p) => p.port).join(', ')})`;
  return port;
}

export function findServicePort(model: MeshModel, text: string): ServicePortView | string {
  const target = parseTarget(text);
  if (!target) return `${JSON.stringify(text)} is not NAMESPACE/SERVICE:PORT`;
  const ports = model.services.filter((s) => s.namespace === target.namespace && s.name === target.name);
  if (ports.length === 0) return `no Service ${target.namespace}/${target.name} in the input`;
  const port = typeof target.port === 'number' ? ports.find((s) => s.port === target.port) : undefined;
  return port ?? `Service ${target.namespace}/${target.name} has no port ${target.port} (it has ${ports.map((s) => s.port).join(', ')})`;
}

function callersFor(model: MeshModel, from: string | undefined): CallerView[] | string {
  if (from === undefined) return model.callers;
  const known = model.callers.find((c) => c.key === from);
  if (known) return [known];
  if (/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/.test(from)) return [model.caller(from)];
  return `caller (--from) must be NAMESPACE/SERVICEACCOUNT, unauthenticated, external, kubelet or other-meshed (got ${JSON.stringify(from)})`;
}

export function explainPort(model: MeshModel, port: PortPolicyView, request: ExplainRequest = {}): PortExplanation | string {
  const callers = callersFor(model, request.from);
  if (typeof callers === 'string') return callers;
  if (request.path === undefined) return { port, verdicts: callers.flatMap((caller) => model.decideClasses(port, caller)) };
  // One request: the route it lands on (the generated probe route included), then that route's authorizations.
  const method = (request.method ?? 'GET').toUpperCase();
  const sample = { method, path: request.path, label: `${method} ${request.path}` };
  const verdicts = callers.map((caller) => {
    const v = model.decideRequest(port, caller, sample);
    return { ...v, request: v.route ?? '*' };
  });
  return { port, request: model.requestClass(port, method, request.path), verdicts };
}

function mapLines(title: string, values: Record<string, string>): string[] {
  const entries = Object.entries(values);
  return entries.length === 0 ? [] : [`${title}: ${entries.map(([k, v]) => `${k}=${v}`).join(', ')}`];
}

/** One row per caller, one column per request class: the verdict of each. */
function verdictTable(verdicts: readonly CallVerdict[]): string[] {
  const classes: string[] = [];
  const rows = new Map<string, Map<string, string>>();
  for (const v of verdicts) {
    if (!classes.includes(v.request)) classes.push(v.request);
    const row = rows.get(v.source) ?? new Map<string, string>();
    row.set(v.request, verdictWord(v).trim());
    rows.set(v.source, row);
  }
  const header = ['caller', ...classes.map((c) => (c === '*' ? '* (every request)' : c))];
  const body = [...rows].map(([source, row]) => [source, ...classes.map((c) => row.get(c) ?? '-')]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) => `    ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')}`.trimEnd();
  return [line(header), ...body.map(line)];
}

/** The port, then one verdict table (callers × request classes); `verbose` adds each verdict's reason and deciding objects. */
export function formatPortExplanation(e: PortExplanation, verbose = false): string {
  const p = e.port;
  const lines = [`${p.target}${p.portName ? ` (${p.portName})` : ''} — ${idLabel(p.workload)}`];
  if (!p.meshed) lines.push('  not meshed: no proxy, so no inbound policy applies');
  if (p.skipsProxy) lines.push('  skipped by proxy-init or the CNI plugin (skip-inbound-ports, or the cluster\'s ignoreInboundPorts): traffic bypasses the proxy');
  lines.push(`  protocol: ${p.protocol}`);
  lines.push(p.server ? `  Server: ${idLabel(p.server.id)} (accessPolicy ${p.server.accessPolicy})` : '  Server: none selects this port');
  for (const s of p.shadowedServers) lines.push(`  also selected, skipped by Linkerd: ${idLabel(s)}`);
  lines.push(`  default inbound policy: ${p.defaultPolicy} (from ${p.defaultPolicyOrigin})`);
  const routes = p.routes.length > 0 ? p.routes : p.generatedRoutes;
  if (routes.length > 0) lines.push(p.routes.length > 0 ? '  routes:' : '  routes (generated while no route is attached):');
  for (const r of routes) {
    const auth = r.authorizations.length > 0 ? `; authorized by ${r.authorizations.map(idLabel).join(', ')}` : '';
    lines.push(`    ${r.name}: ${r.matches.length > 0 ? r.matches.join(' | ') : 'every request'}${auth}`);
  }
  if (p.authorizations.length > 0) lines.push('  authorizations:');
  for (const a of p.authorizations) lines.push(`    ${idLabel(a.id)} → ${a.target}; requires ${a.requires.join(' and ') || 'nothing (everyone)'}`);
  if (p.probes.length > 0) lines.push(`  probes: ${p.probes.join(', ')}`);
  lines.push(e.request ? `  verdicts, for requests in ${e.request}:` : '  verdicts:');
  lines.push(...verdictTable(e.verdicts));
  if (e.verdicts.some((v) => v.audited)) lines.push('  AUDIT: allowed and logged as a would-be denial (audit policy), not a security boundary');
  if (!verbose) return `${lines.join('\n')}\n`;
  lines.push('  why:');
  for (const v of e.verdicts) {
    const request = v.request === '*' ? '' : ` [${v.request}]`;
    const deciders = v.deciders.length > 0 ? ` [${v.deciders.map(idLabel).join(', ')}]` : '';
    lines.push(`    ${verdictWord(v)}${v.source}${request}: ${v.because}${deciders}`);
  }
  return `${lines.join('\n')}\n`;
}

/** UNSURE: refused only if the caller's unknown address lies outside the admitted networks. */
function verdictWord(v: CallVerdict): string {
  if (v.allowed) return v.audited ? 'AUDIT  ' : 'ALLOW  ';
  return v.uncertain ? 'UNSURE ' : 'DENY   ';
}

/** The request classes of a Service port, grouped by what the client proxy does with them. */
function requestLines(requests: OutboundRequests): string[] {
  const samples = requestSamples(requests.matches, requests.grpc);
  const byOutcome = new Map<string, RequestSample[]>();
  for (const sample of samples) {
    const o = requests.outcome(sample);
    const words = o.status ? `${o.status} (no route)` : [`${o.route} → ${o.backends || 'no backend'}`,
      ...(o.retry ? [`retried: ${o.retry}`] : []), ...(o.timeout ? [`timeout: ${o.timeout}`] : [])].join('; ');
    byOutcome.set(words, [...(byOutcome.get(words) ?? []), sample]);
  }
  const lines = ['  requests (every client):'];
  for (const [words, group] of byOutcome) lines.push(`    ${requestWords(group, samples) ?? 'every request'}: ${words}`);
  return lines;
}

/** What a meshed client's proxy does with requests to a Service port; with `requests`, per request class too. */
export function formatServiceExplanation(s: ServicePortView, requests?: OutboundRequests): string {
  const lines = [`${s.target} — Service ${s.namespace}/${s.name} port ${s.port}`, `  protocol: ${s.protocol}`];
  lines.push(`  endpoints: ${s.endpoints.join(', ') || 'none (the selector matches no workload port)'}`);
  if (s.defaultRoute) lines.push(`  default route: ${s.defaultRoute}`);
  if (s.unmatched) lines.push(`  requests no rule matches: ${s.unmatched}`);
  for (const r of s.routes) {
    lines.push(`  ${r.name}:`);
    lines.push(...mapLines('    retries', r.retries), ...mapLines('    timeouts', r.timeouts));
    for (const rule of r.rules) {
      const backends = rule.backends.map((b) => `${b.name} ${b.percent}% (weight ${b.weight}${b.fails ? `; ${b.fails}` : ''})`).join(', ');
      lines.push(`    rule ${rule.index}: ${rule.matches.join(' | ') || 'every request'} → ${backends || 'no backend'}`);
      lines.push(...mapLines('      timeouts', rule.timeouts));
    }
  }
  for (const u of s.unusedRoutes ?? []) lines.push(`  not served to every client: ${u.name}: ${u.reason}`);
  lines.push(...mapLines('  Service retries', s.retries), ...mapLines('  Service timeouts', s.timeouts));
  if (requests) lines.push(...requestLines(requests));
  return `${lines.join('\n')}\n`;
}
