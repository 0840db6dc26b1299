/**
 * `diff` at request level: the two evaluations compared class by class. Inbound, per workload port and caller, every
 * request class whose verdict flips (allowed ↔ refused, a refusal for want of a route included); outbound, per Service
 * port, every request class that another route (or a 404) now takes, or whose retrying starts or stops. Request classes
 * are cut from the matches of both sides (policy/request-samples.ts), so a match added or removed on either side is a
 * class of its own.
 */
import { RequestSample, requestSamples } from '../policy';
import { KUBELET } from './adapter-callers';
import { PROBE_PREFIX } from './adapter-inbound';
import { OutboundRequests, OutboundScope } from './outbound-requests';
import { CallVerdict, MeshModel, PortPolicyView, ServicePortView } from './views';
import { compareStrings } from '../../util/compare';
import { pushTo } from '../../util/json';
import { idLabel } from '../../util/labels';

/** The kinds of change (`diff --fail-on` takes each as well). */
export enum ChangeKind {
  AUTHORIZATION = 'authorization',
  ROUTE = 'route',
  SHARE = 'share',
  IGNORED = 'ignored',
  RETRY = 'retry',
  TIMEOUT = 'timeout',
}

export const ALLOWED_TO_DENIED = 'allowed-to-denied';
export const DENIED_TO_ALLOWED = 'denied-to-allowed';

export interface MeshChange {
  readonly kind: ChangeKind;
  /**
   * `allowed-to-denied`, `denied-to-allowed`, `changed`, `added`, `removed`, `now-ignored`, `no-longer-ignored`,
   * `now-retried`, `no-longer-retried`.
   */
  readonly change: string;
  /** The caller (`mesh-lab/client`, `unauthenticated`, a workload whose identity changed), the Service port of a share, or the ignored object. */
  readonly source: string;
  /** The workload port (`mesh-lab/orders-v1:8080`), the Service port, the backend, or where a retry/timeout sits. */
  readonly target: string;
  /** The request classes concerned (`GET /authors.json, HEAD /authors.json`); unset for every request. */
  readonly request?: string;
  readonly because: string;
}

type InboundMatches = ReturnType<MeshModel['inboundRequests']>;

/** The samples of a port with these matches on either side; one `*` sample when neither side routes requests. */
function samplesOf(a: InboundMatches, b: InboundMatches): RequestSample[] {
  if (a.matches.length === 0 && b.matches.length === 0) return [{ method: 'GET', path: '/', label: '*' }];
  return requestSamples([...a.matches, ...b.matches], a.grpc || b.grpc);
}

/**
 * The request classes of a group in words: none (every request), "every request but …" when the rest is smaller,
 * else the list.
 */
export function requestWords(group: readonly RequestSample[], all: readonly RequestSample[]): string | undefined {
  if (group.length === all.length) return undefined;
  const rest = all.filter((s) => !group.includes(s));
  if (rest.length < group.length) return `every request but ${rest.map((s) => s.label).join(', ')}`;
  return group.map((s) => s.label).join(', ');
}

function grouped<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    pushTo(out, k, item);
  }
  return out;
}

function deciding(before: CallVerdict, after: CallVerdict): string {
  const objects = [...new Set([...after.deciders, ...before.deciders].map(idLabel))];
  return objects.length > 0 ? ` [${objects.join(', ')}]` : '';
}

interface Pair {
  readonly sample: RequestSample;
  readonly before: CallVerdict;
  readonly after: CallVerdict;
}

/** The rows of one caller on one port: one per kind of flip and pair of routes. */
function callerRows(source: string, port: PortPolicyView, pairs: Pair[], all: readonly RequestSample[]): MeshChange[] {
  const flips = grouped(pairs, (p) => (p.before.allowed === p.after.allowed ? undefined
    : `${p.after.allowed}|${p.before.route ?? ''}|${p.after.route ?? ''}`));
  return [...flips.values()].map((group) => {
    const { before, after } = group[0];
    const request = requestWords(group.map((p) => p.sample), all);
    return {
      kind: ChangeKind.AUTHORIZATION,
      change: after.allowed ? DENIED_TO_ALLOWED : ALLOWED_TO_DENIED,
      source,
      target: port.target,
      ...(request !== undefined ? { request } : {}),
      because: `now: ${after.because}; before: ${before.because}${deciding(before, after)}`,
    };
  });
}

function probeSample(sample: RequestSample, ports: readonly PortPolicyView[]): boolean {
  return sample.method === 'GET' && ports.some((p) => p.generatedRoutes.some((r) => r.name === `${PROBE_PREFIX}${sample.path}`)
    || p.probes.includes(`GET ${sample.path}`));
}

/** Per caller key (the same on both sides), the request classes whose verdict flips on one port. */
export function inboundRequestChanges(
  base: MeshModel, head: MeshModel, basePort: PortPolicyView, headPort: PortPolicyView, keys: Iterable<string>,
): MeshChange[] {
  const a = base.inboundRequests(basePort);
  const b = head.inboundRequests(headPort);
  const all = samplesOf(a, b);
  const changes: MeshChange[] = [];
  for (const key of keys) {
    // The kubelet matters for its probes; what else it might send is the unauthenticated caller's to report.
    const samples = key === KUBELET ? all.filter((s) => probeSample(s, [basePort, headPort])) : all;
    const pairs = samples.map((sample) => ({
      sample,
      before: base.decideRequest(basePort, base.caller(key), sample),
      after: head.decideRequest(headPort, head.caller(key), sample),
    }));
    changes.push(...callerRows(key, headPort, pairs, all));
  }
  return changes;
}

/** Whether a caller key is decided on its own on a port (named by an authorization, directly or by namespace). */
function namedOn(port: PortPolicyView, key: string): boolean {
  const slash = key.indexOf('/');
  // A caller class (`unauthenticated`) is no identity: only `namespace/serviceaccount` keys are named.
  return slash > 0 && (port.namedCallers.includes(key) || port.namedNamespaces.includes(key.slice(0, slash)));
}

/**
 * Workloads whose pods present another caller on HEAD (a new ServiceAccount, injection turned on or off): the calls
 * that change, on every port whose authorizations name either identity or that the workload declares it calls.
 */
export function identityChanges(base: MeshModel, head: MeshModel): MeshChange[] {
  const changes: MeshChange[] = [];
  for (const [workload, after] of head.workloadCallers) {
    const before = base.workloadCallers.get(workload);
    if (before === undefined || before === after) continue;
    const declared = new Set(head.declaredCalls.filter((c) => idLabel(c.workload) === workload).flatMap((c) => c.targets));
    const source = `${workload} (${before} → ${after})`;
    for (const headPort of head.ports) {
      const basePort = base.port(headPort.target);
      if (!basePort) continue;
      const relevant = declared.has(headPort.target) || [basePort, headPort].some((p) => namedOn(p, before) || namedOn(p, after));
      if (!relevant) continue;
      const a = base.inboundRequests(basePort);
      const b = head.inboundRequests(headPort);
      const all = samplesOf(a, b);
      const pairs = all.map((sample) => ({
        sample,
        before: base.decideRequest(basePort, base.caller(before), sample),
        after: head.decideRequest(headPort, head.caller(after), sample),
      }));
      changes.push(...callerRows(source, headPort, pairs, all));
    }
  }
  return changes;
}

// ---------------------------------------------------------------------------------------------------------------
// Outbound

function outcomeWords(o: { route: string; backends: string; retry: string; timeout: string; status?: string }): string {
  if (o.status) return `no route: ${o.status}`;
  const parts = [o.route, `→ ${o.backends || 'no backend'}`];
  if (o.retry) parts.push(`retried: ${o.retry}`);
  if (o.timeout) parts.push(`timeout: ${o.timeout}`);
  return parts.join(' ');
}

/**
 * Per Service port on both sides and per group of clients (every client, and each namespace with consumer routes on
 * either side), the request classes another route (or none) now takes, and those whose retrying starts or stops.
 * Changes of a route's own shares, retry values and timeouts are the per-object rows of diff.ts.
 */
export function outboundRequestChanges(before: ServicePortView, after: ServicePortView, base: MeshModel, head: MeshModel): MeshChange[] {
  return portScopes(after.target, base.outboundRequests(before), head.outboundRequests(after));
}

/** EgressNetwork ports some route names on both sides, compared as Service ports are. */
export function egressRequestChanges(base: MeshModel, head: MeshModel): MeshChange[] {
  return [...head.egressPorts].flatMap(([target, b]) => portScopes(target, base.egressPorts.get(target), b));
}

function portScopes(target: string, a: OutboundRequests | undefined, b: OutboundRequests | undefined): MeshChange[] {
  if (!a || !b) return [];
  const namespaces = [...new Set([...a.consumers.keys(), ...b.consumers.keys()])].sort(compareStrings);
  return [
    ...scopeChanges('meshed clients', target, a, b),
    ...namespaces.flatMap((ns) => scopeChanges(`meshed clients in namespace ${ns}`, target, a.consumers.get(ns) ?? a, b.consumers.get(ns) ?? b)),
  ];
}

function scopeChanges(source: string, target: string, a: OutboundScope, b: OutboundScope): MeshChange[] {
  const all = requestSamples([...a.matches, ...b.matches], a.grpc || b.grpc);
  const rows = all.flatMap((sample) => {
    const was = a.outcome(sample);
    const now = b.outcome(sample);
    const out: Array<{ sample: RequestSample; kind: ChangeKind; change: string; because: string }> = [];
    if (was.route !== now.route || was.status !== now.status) {
      out.push({ sample, kind: ChangeKind.ROUTE, change: 'changed', because: `now: ${outcomeWords(now)}; before: ${outcomeWords(was)}` });
    }
    if ((was.retry === '') !== (now.retry === '')) {
      out.push({
        sample,
        kind: ChangeKind.RETRY,
        change: now.retry ? 'now-retried' : 'no-longer-retried',
        because: now.retry
          ? `now retried (${now.retry}) on ${now.route}; before: not retried on ${was.route}`
          : `no longer retried on ${now.route}; before: ${was.retry} on ${was.route}`,
      });
    }
    return out;
  });
  const groups = grouped(rows, (r) => `${r.kind}|${r.change}|${r.because}`);
  return [...groups.values()].map((group) => {
    const request = requestWords(group.map((r) => r.sample), all);
    return { kind: group[0].kind, change: group[0].change, source, target, ...(request !== undefined ? { request } : {}), because: group[0].because };
  });
}

export function compareRequests(a: MeshChange, b: MeshChange): number {
  return compareStrings(a.request ?? '', b.request ?? '');
}
