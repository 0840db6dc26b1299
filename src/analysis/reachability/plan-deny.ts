/**
 * A proven move to deny: the calls that happen (declared with addCall / the calls annotation, observed with
 * `linkerd viz edges -o json` or in the proxies' own authorization counters (observed-metrics.ts, audit mode
 * included), and Prometheus scraping the proxies) that a namespace's move to `deny` would refuse,
 * and the Server / MeshTLSAuthentication / NetworkAuthentication / AuthorizationPolicy objects that keep them allowed.
 *
 * Probes need nothing: a new Server without routes keeps the probe routes Linkerd generates, which it authorizes from
 * the probe networks. The proxy admin port gets what `linkerd viz allow-scrapes` writes (viz/cmd/allow-scrapes.go):
 * a Server on `linkerd-admin`, a `/metrics` route for Prometheus and a `/live`, `/ready` route for the kubelet.
 */
import { ObservedAuthorization, looksLikeMetrics, parseObservedMetrics, workloadOfPod } from './observed-metrics';
import { CallerKind, MeshModel, PortPolicyView } from './views';
import { compareStrings } from '../../util/compare';
import { annotationsOf } from '../model/manifest';

/** One row of `linkerd viz edges <type> -o json` (viz/cmd/edges.go, edgesJSONStats). */
export interface ObservedEdge {
  readonly src: string;
  readonly src_namespace: string;
  readonly dst: string;
  readonly dst_namespace: string;
  /** `serviceaccount.namespace` (edges.go keeps the first two labels of the identity); empty without mTLS. */
  readonly client_id: string;
  readonly server_id: string;
  readonly no_tls_reason: string;
}

export enum CallOrigin {
  DECLARED = 'declared',
  OBSERVED = 'observed',
  SCRAPE = 'scrape',
}

export interface PlannedCall {
  readonly origin: CallOrigin;
  /** The caller key (`mesh-lab/client`, `unauthenticated`). */
  readonly source: string;
  /** Who makes the call, in words (`Deployment mesh-lab/client`, `viz edge client → orders-v1`). */
  readonly from: string;
  readonly target: string;
  /** Why the move would refuse it. */
  readonly because: string;
  /**
   * Refused only if the caller's address lies outside the networks admitted (a NetworkAuthentication covering part of
   * the cluster networks): the manifests do not say that address. The plan still counts it as refused.
   */
  readonly uncertain?: boolean;
}

/** Where a plan moves to: the restrictive default policies. */
export enum DenyTarget {
  DENY = 'deny',
  ALL_AUTHENTICATED = 'all-authenticated',
}

export interface DenyPlan {
  /** The namespace moved, or undefined for the cluster default. */
  readonly namespace?: string;
  readonly policy: DenyTarget;
  /** Calls allowed today that `deny` would refuse. */
  readonly refused: PlannedCall[];
  /** Calls refused already, whatever the namespace's default (listed so they are not mistaken for safe). */
  readonly alreadyRefused: PlannedCall[];
  /** The objects that keep `refused` allowed once the namespace is `deny`. */
  readonly objects: Record<string, any>[];
  /** The same for construct users, as cdk8s-linkerd code. */
  readonly constructLines: string[];
  /** Calls naming a workload or port the manifests do not have. */
  readonly unresolved: string[];
}

export const AUDIT_NOTE = 'audit (default-inbound-policy: audit) allows every connection and only logs would-be denials: '
  + 'it is how to observe before narrowing, not a security boundary.';

/**
 * The injector copies a namespace's default-inbound-policy onto each pod as it injects it, and the policy controller
 * reads only the pod's (inject.go AppendNamespaceAnnotations; inbound/workload.rs Settings::from_metadata).
 */
export const RESTART_NOTE = 'a namespace\'s default-inbound-policy reaches a pod when the pod is injected: pods running before the '
  + 'change keep their old policy until they are restarted (kubectl rollout restart).';

/** Parses the JSON of `linkerd viz edges ... -o json`; an error message for anything else. */
export function parseObservedEdges(text: string): ObservedEdge[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e: any) {
    return `not JSON (${e?.message ?? e}); expected the output of linkerd viz edges ... -o json`;
  }
  if (!Array.isArray(value)) return 'expected a JSON list (linkerd viz edges ... -o json prints one)';
  for (const [i, row] of value.entries()) {
    const ok = row && typeof row === 'object' && ['src', 'src_namespace', 'dst', 'dst_namespace'].every((k) => typeof (row as any)[k] === 'string');
    if (!ok) return `entry ${i} lacks src, src_namespace, dst or dst_namespace strings`;
  }
  return value.map((row: any) => ({
    src: row.src,
    src_namespace: row.src_namespace,
    dst: row.dst,
    dst_namespace: row.dst_namespace,
    client_id: typeof row.client_id === 'string' ? row.client_id : '',
    server_id: typeof row.server_id === 'string' ? row.server_id : '',
    no_tls_reason: typeof row.no_tls_reason === 'string' ? row.no_tls_reason : '',
  }));
}

/** What `--observed` files hold: viz edges, the proxies' authorization results, or both (several files). */
export interface Observed {
  readonly edges: ObservedEdge[];
  readonly authorizations: ObservedAuthorization[];
}

/**
 * One `--observed` file, by its format: JSON is `linkerd viz edges -o json`, anything else Prometheus text exposition
 * of the proxies (`linkerd diagnostics proxy-metrics`, or Prometheus' /federate); an error message otherwise.
 */
export function parseObserved(text: string, file?: string): Observed | string {
  if (looksLikeMetrics(text)) {
    const authorizations = parseObservedMetrics(text, file);
    return typeof authorizations === 'string' ? authorizations : { edges: [], authorizations };
  }
  const edges = parseObservedEdges(text);
  return typeof edges === 'string' ? edges : { edges, authorizations: [] };
}

/** `sa.ns` (or a full identity) → `ns/sa`; no identity means the client had no mTLS. */
function observedCaller(edge: ObservedEdge): string {
  const parts = edge.client_id.split('.');
  return parts.length >= 2 && parts[0] && parts[1] ? `${parts[1]}/${parts[0]}` : 'unauthenticated';
}

interface Candidate {
  readonly origin: CallOrigin;
  readonly source: string;
  readonly from: string;
  readonly target: string;
}

/** `undefined` stands for the whole cluster (a move of the cluster default). */
function inScope(namespace: string | undefined, ns: string | undefined): boolean {
  return namespace === undefined || ns === namespace;
}

/** The declared ports of each workload (`namespace/name`), built once so observed calls resolve in linear time. */
function portsByWorkload(model: MeshModel): Map<string, PortPolicyView[]> {
  const out = new Map<string, PortPolicyView[]>();
  for (const port of [...model.ports, ...model.adminPorts]) {
    const key = `${port.namespace}/${port.workload.name}`;
    const list = out.get(key) ?? [];
    if (!list.includes(port)) list.push(port);
    out.set(key, list);
  }
  return out;
}

/** Namespace → workload name → its kinds (a Deployment and a StatefulSet may share a name). */
function workloadsByNamespace(model: MeshModel): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const port of model.ports) {
    let names = out.get(port.namespace);
    if (!names) out.set(port.namespace, names = new Map());
    const kinds = names.get(port.workload.name) ?? [];
    if (!kinds.includes(port.workload.kind)) kinds.push(port.workload.kind);
    names.set(port.workload.name, kinds);
  }
  return out;
}

/**
 * The calls the proxies let in (allowed, or allowed only by `audit`), as candidates on the exact pod port. Samples
 * without a `namespace` label (linkerd diagnostics proxy-metrics) are taken to be in the namespace being moved.
 */
function metricCandidates(current: MeshModel, namespace: string | undefined, observed: ObservedAuthorization[], unresolved: string[]): Candidate[] {
  const out: Candidate[] = [];
  if (observed.length === 0) return out;
  const ports = portsByWorkload(current);
  const workloads = workloadsByNamespace(current);
  for (const a of observed) {
    const ns = a.namespace ?? namespace;
    const where = `${a.pod ?? a.workload ?? 'a pod'} port ${a.port}`;
    const at = a.file === undefined ? `line ${a.line}` : `${a.file}:${a.line}`;
    const text = `proxy metrics ${at}: ${where}, ${a.protocol} ${a.audited ? 'allowed only by audit (a would-be denial)' : `allowed by ${a.authorization}`}`;
    if (ns === undefined) {
      unresolved.push(`${text}: no namespace label (give --namespace, or scrape Prometheus' /federate, whose series carry one)`);
      continue;
    }
    if (!inScope(namespace, ns)) continue;
    const workload = a.workload ?? (a.pod !== undefined ? workloadOfPod(a.pod, workloads.get(ns) ?? new Map()) : undefined);
    const port = workload === undefined ? undefined : (ports.get(`${ns}/${workload}`) ?? []).find((p) => p.port === a.port);
    if (!port) {
      unresolved.push(`${text}: no workload of namespace ${ns} with that pod and port in the manifests`);
      continue;
    }
    out.push({ origin: CallOrigin.OBSERVED, source: a.source, from: text, target: port.target });
  }
  return out;
}

function candidates(current: MeshModel, namespace: string | undefined, edges: ObservedEdge[], unresolved: string[]): Candidate[] {
  const out: Candidate[] = [];
  for (const call of current.declaredCalls) {
    if (!inScope(namespace, call.service.split('/')[0])) continue;
    if (call.targets.length === 0) unresolved.push(`${call.workload.kind} ${call.workload.namespace}/${call.workload.name} declares ${call.service}: ${call.problem}`);
    for (const target of call.targets) {
      out.push({ origin: CallOrigin.DECLARED, source: call.source, from: `${call.workload.kind} ${call.workload.namespace}/${call.workload.name} calls ${call.service}`, target });
    }
  }
  const byWorkload = edges.length > 0 ? portsByWorkload(current) : new Map<string, PortPolicyView[]>();
  for (const edge of edges) {
    if (!inScope(namespace, edge.dst_namespace)) continue;
    // viz edges name workloads, not ports: every declared port of the destination must stay open to the caller.
    const ports = (byWorkload.get(`${edge.dst_namespace}/${edge.dst}`) ?? []).filter((p) => !p.admin);
    const text = `viz edge ${edge.src_namespace}/${edge.src} → ${edge.dst_namespace}/${edge.dst}`;
    if (ports.length === 0) unresolved.push(`${text}: no such workload with a declared port`);
    for (const port of ports) out.push({ origin: CallOrigin.OBSERVED, source: observedCaller(edge), from: text, target: port.target });
  }
  if (current.prometheus) {
    for (const port of current.adminPorts.filter((p) => inScope(namespace, p.namespace))) {
      out.push({ origin: CallOrigin.SCRAPE, source: current.prometheus, from: `Prometheus ${current.prometheus} scrapes /metrics`, target: port.target });
    }
  }
  return out;
}

interface CallDecision {
  readonly allowed: boolean;
  readonly because: string;
  readonly uncertain: boolean;
}

/** Allowed when any request is; a refusal is uncertain when one of its requests is refused only perhaps. */
function allowed(model: MeshModel, port: PortPolicyView | undefined, source: string): CallDecision {
  if (!port) return { allowed: false, because: 'no such port', uncertain: false };
  const verdicts = model.decide(port, model.caller(source));
  const yes = verdicts.find((v) => v.allowed);
  if (yes) return { allowed: true, because: yes.because, uncertain: false };
  const unsure = verdicts.find((v) => v.uncertain);
  return { allowed: false, because: (unsure ?? verdicts[0])?.because ?? 'refused', uncertain: unsure !== undefined };
}

function findTarget(model: MeshModel, target: string): PortPolicyView | undefined {
  return model.port(target) ?? model.adminPorts.find((p) => p.target === target);
}

// ---------------------------------------------------------------------------------------------------------------
// The objects

const POLICY_V1ALPHA1 = 'policy.linkerd.io/v1alpha1';

function dnsName(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
}

function identityRef(source: string): Record<string, string> {
  const [namespace, name] = source.split('/');
  return { kind: 'ServiceAccount', name, namespace };
}

function portObjects(port: PortPolicyView, sources: string[], model: MeshModel, namespace: string): Record<string, any>[] {
  const server = dnsName(`${port.workload.name}-${port.port}`);
  const meta = (name: string) => ({ name, namespace });
  const objects: Record<string, any>[] = [{
    apiVersion: 'policy.linkerd.io/v1beta3',
    kind: 'Server',
    metadata: meta(server),
    spec: { podSelector: { matchLabels: port.podLabels }, port: port.port, ...(port.protocol.startsWith('opaque') ? { proxyProtocol: 'opaque' } : {}) },
  }];
  const identities = sources.filter((s) => s.includes('/'));
  const target = { group: 'policy.linkerd.io', kind: 'Server', name: server };
  if (identities.length > 0) {
    objects.push({ apiVersion: POLICY_V1ALPHA1, kind: 'MeshTLSAuthentication', metadata: meta(`${server}-callers`), spec: { identityRefs: identities.map(identityRef) } });
    objects.push({
      apiVersion: POLICY_V1ALPHA1,
      kind: 'AuthorizationPolicy',
      metadata: meta(`${server}-callers`),
      spec: { targetRef: target, requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', name: `${server}-callers` }] },
    });
  }
  if (sources.includes('unauthenticated')) {
    objects.push({
      apiVersion: POLICY_V1ALPHA1,
      kind: 'NetworkAuthentication',
      metadata: meta(`${server}-cluster`),
      spec: { networks: model.clusterNetworks.map((cidr) => ({ cidr })) },
    });
    objects.push({
      apiVersion: POLICY_V1ALPHA1,
      kind: 'AuthorizationPolicy',
      metadata: meta(`${server}-unauthenticated`),
      spec: { targetRef: target, requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'NetworkAuthentication', name: `${server}-cluster` }] },
    });
  }
  return objects;
}

/** What `linkerd viz allow-scrapes --namespace NS` writes, with the probe network in the namespace itself. */
function scrapeObjects(namespace: string, prometheus: string): Record<string, any>[] {
  const meta = (name: string) => ({ name, namespace });
  const parent = [{ group: 'policy.linkerd.io', kind: 'Server', name: 'proxy-admin' }];
  const [promNs, promSa] = prometheus.split('/');
  return [
    {
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'Server',
      metadata: meta('proxy-admin'),
      spec: { podSelector: { matchExpressions: [{ key: 'linkerd.io/control-plane-ns', operator: 'Exists' }] }, port: 'linkerd-admin', proxyProtocol: 'HTTP/1' },
    },
    { apiVersion: 'policy.linkerd.io/v1beta3', kind: 'HTTPRoute', metadata: meta('proxy-metrics'), spec: { parentRefs: parent, rules: [{ matches: [{ path: { value: '/metrics' } }] }] } },
    {
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'HTTPRoute',
      metadata: meta('proxy-probes'),
      spec: { parentRefs: parent, rules: [{ matches: [{ path: { value: '/live' } }, { path: { value: '/ready' } }] }] },
    },
    {
      apiVersion: POLICY_V1ALPHA1,
      kind: 'AuthorizationPolicy',
      metadata: meta('prometheus-scrape'),
      spec: { targetRef: { group: 'policy.linkerd.io', kind: 'HTTPRoute', name: 'proxy-metrics' }, requiredAuthenticationRefs: [{ kind: 'ServiceAccount', name: promSa, namespace: promNs }] },
    },
    { apiVersion: POLICY_V1ALPHA1, kind: 'NetworkAuthentication', metadata: meta('kubelet'), spec: { networks: [{ cidr: '0.0.0.0/0' }, { cidr: '::/0' }] } },
    {
      apiVersion: POLICY_V1ALPHA1,
      kind: 'AuthorizationPolicy',
      metadata: meta('proxy-probes'),
      spec: { targetRef: { group: 'policy.linkerd.io', kind: 'HTTPRoute', name: 'proxy-probes' }, requiredAuthenticationRefs: [{ group: 'policy.linkerd.io', kind: 'NetworkAuthentication', name: 'kubelet' }] },
    },
  ];
}

function camel(text: string): string {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}

function accountVariable(source: string): string {
  return camel(`sa-${source}`);
}

/** One declaration per ServiceAccount, shared by every allow() that names it (construct IDs must be unique). */
function accountLines(sources: string[]): string[] {
  return sources.map((source) => {
    const [ns, sa] = source.split('/');
    return `const ${accountVariable(source)} = kplus.ServiceAccount.fromServiceAccountName(chart, '${accountVariable(source)}', '${sa}', { namespaceName: '${ns}' });`;
  });
}

function constructLines(port: PortPolicyView, sources: string[], clusterNetworks: string[]): string[] {
  const name = dnsName(`${port.workload.name}-${port.port}`);
  const variable = camel(name);
  const lines = [
    `// ${port.target}`,
    `const ${variable} = new Server(chart, '${camel(`${name}-server`)}', { name: '${name}', selector: PodSelection.labels(${JSON.stringify(port.podLabels)}), port: ServerPort.number(${port.port}) });`,
  ];
  const identities = sources.filter((s) => s.includes('/'));
  if (identities.length > 0) {
    const accounts = identities.map(accountVariable);
    lines.push(`ServerAccess.allow(${variable}, { policyName: '${name}-callers', authenticationName: '${name}-callers', serviceAccounts: [${accounts.join(', ')}] });`);
  }
  if (sources.includes('unauthenticated')) {
    const networks = clusterNetworks.map((cidr) => `Network.cidr('${cidr}')`).join(', ');
    lines.push(`ServerAccess.allow(${variable}, { policyName: '${name}-unauthenticated', networks: [${networks}] });`);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * @param current the mesh as it is
 * @param denied the same manifests with the namespace annotated `config.linkerd.io/default-inbound-policy: deny`
 */
export function planDeny(
  current: MeshModel, denied: MeshModel, namespace: string | undefined, edges: ObservedEdge[] = [], policy = DenyTarget.DENY,
  authorizations: ObservedAuthorization[] = [],
): DenyPlan {
  const unresolved: string[] = [];
  const refused: PlannedCall[] = [];
  const alreadyRefused: PlannedCall[] = [];
  const seen = new Set<string>();
  const found = [...candidates(current, namespace, edges, unresolved), ...metricCandidates(current, namespace, authorizations, unresolved)];
  const calls = found.filter((c) => {
    const key = `${c.source}\u0000${c.target}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  for (const c of calls) {
    const after = allowed(denied, findTarget(denied, c.target), c.source);
    if (after.allowed) continue;
    const before = allowed(current, findTarget(current, c.target), c.source);
    (before.allowed ? refused : alreadyRefused).push({ ...c, because: after.because, ...(after.uncertain ? { uncertain: true } : {}) });
  }
  // A new Server refuses whoever it does not authorize: it must list every known caller of the port, not only the
  // refused ones (under all-authenticated, meshed callers were still allowed).
  const refusedPorts = new Set(refused.map((c) => c.target));
  const byPort = new Map<string, Set<string>>();
  for (const call of calls) {
    if (!refusedPorts.has(call.target)) continue;
    const set = byPort.get(call.target) ?? new Set<string>();
    set.add(call.source);
    byPort.set(call.target, set);
  }
  const objects: Record<string, any>[] = [];
  const lines: string[] = [];
  const scrapes = new Set<string>();
  for (const target of [...byPort.keys()].sort(compareStrings)) {
    const port = findTarget(current, target)!;
    if (port.admin) {
      scrapes.add(port.namespace);
      continue;
    }
    const sources = [...byPort.get(target)!].sort(compareStrings).map((s) => denied.caller(s))
      .map((c) => (c.kind === CallerKind.IDENTITY ? c.key : 'unauthenticated'));
    const unique = [...new Set(sources)];
    objects.push(...portObjects(port, unique, current, port.namespace));
    lines.push(...constructLines(port, unique, current.clusterNetworks));
  }
  const accounts = [...new Set([...byPort.entries()].filter(([t]) => !findTarget(current, t)!.admin).flatMap(([, set]) => [...set]))]
    .filter((s) => denied.caller(s).kind === CallerKind.IDENTITY).sort(compareStrings);
  lines.unshift(...accountLines(accounts));
  for (const ns of [...scrapes].sort(compareStrings)) {
    if (!current.prometheus) break;
    objects.push(...scrapeObjects(ns, current.prometheus));
    lines.push(`// the proxies' admin port in ${ns}: apply the YAML above for proxy-admin, or run linkerd viz allow-scrapes --namespace ${ns}`);
  }
  const order = (a: PlannedCall, b: PlannedCall) => compareStrings(a.target, b.target) || compareStrings(a.source, b.source);
  return {
    namespace,
    policy,
    refused: refused.sort(order),
    alreadyRefused: alreadyRefused.sort(order),
    objects,
    constructLines: lines,
    unresolved: unresolved.sort(compareStrings),
  };
}

/** The manifests with the namespace moved to `policy` (a Namespace object is added when the input has none). */
export function withNamespaceDeny(objects: Record<string, any>[], namespace: string, policy = DenyTarget.DENY): Record<string, any>[] {
  let found = false;
  const out = objects.map((o) => {
    if (o?.apiVersion !== 'v1' || o?.kind !== 'Namespace' || o?.metadata?.name !== namespace) return o;
    found = true;
    return { ...o, metadata: { ...o.metadata, annotations: { ...annotationsOf(o), 'config.linkerd.io/default-inbound-policy': policy } } };
  });
  if (!found) out.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, annotations: { 'config.linkerd.io/default-inbound-policy': policy } } });
  return out;
}

/** explain's word for a refusal an unknown address decides. */
function unsureMark(call: PlannedCall): string {
  return call.uncertain ? 'UNSURE ' : '';
}

export function formatDenyPlanText(plan: DenyPlan, yaml: string): string {
  const lines: string[] = [];
  const move = `Moving ${plan.namespace === undefined ? 'the cluster default' : `namespace ${plan.namespace}`} to ${plan.policy}`;
  if (plan.refused.length === 0) lines.push(`${move} refuses none of the known calls.`);
  else lines.push(`${move} would refuse ${plan.refused.length} call${plan.refused.length === 1 ? '' : 's'}:`);
  for (const c of plan.refused) lines.push(`  ${unsureMark(c)}${c.origin}: ${c.source} → ${c.target} (${c.from})`, `      ${c.because}`);
  if (plan.alreadyRefused.length > 0) lines.push('Refused already, whatever the default policy:');
  for (const c of plan.alreadyRefused) lines.push(`  ${unsureMark(c)}${c.origin}: ${c.source} → ${c.target} (${c.from}): ${c.because}`);
  for (const u of plan.unresolved) lines.push(`Not checked: ${u}`);
  if (plan.objects.length > 0) {
    lines.push('', 'Apply these objects before the move (they keep the calls allowed; probes stay authorized by the routes Linkerd generates):', '', yaml.trimEnd());
    lines.push('', 'Or, with the constructs:', ...plan.constructLines.map((l) => `  ${l}`));
  }
  lines.push('', `Note: ${AUDIT_NOTE}`);
  if (plan.namespace !== undefined) lines.push(`Note: ${RESTART_NOTE}`);
  return `${lines.join('\n')}\n`;
}
