/**
 * What a change does to the mesh, between two models: per caller, target and request class, the requests whose
 * verdict flips (request-diff.ts), the requests another route takes or that start or stop being retried; the traffic
 * shares that move, the objects that become ignored or start to apply, and the retry and timeout settings that change.
 *
 * Linear: each side's ports are matched by name through a map, and per port only the callers either side names
 * (plus the declared callers and the caller classes) are decided, and only where something a verdict depends on differs.
 */
import { KUBELET } from './adapter-callers';
import { ChangeKind, MeshChange, compareRequests, egressRequestChanges, identityChanges, inboundRequestChanges, outboundRequestChanges } from './request-diff';
import { MeshModel, PortPolicyView, ServicePortView } from './views';
import { compareStrings } from '../../util/compare';
import { idLabel } from '../../util/labels';

export { ALLOWED_TO_DENIED, ChangeKind, DENIED_TO_ALLOWED, MeshChange } from './request-diff';

export interface MeshDiff {
  readonly changes: MeshChange[];
}

const KIND_ORDER = [ChangeKind.AUTHORIZATION, ChangeKind.ROUTE, ChangeKind.SHARE, ChangeKind.IGNORED, ChangeKind.RETRY, ChangeKind.TIMEOUT];

// ---------------------------------------------------------------------------------------------------------------
// Authorization

/**
 * The callers to compare on a port: those worth deciding on either side, and the kubelet where either side has probes
 * (attaching a route drops the probe routes Linkerd generates, inbound/index.rs PolicyIndex::http_routes).
 */
function callersToCompare(basePort: PortPolicyView, headPort: PortPolicyView, baseCallers: string[], headCallers: string[]): Set<string> {
  const keys = new Set([...baseCallers, ...headCallers]);
  if (basePort.probes.length > 0 || headPort.probes.length > 0) keys.add(KUBELET);
  return keys;
}

/**
 * Everything a port's verdicts depend on: the Server, its routes (generated default and probe routes included), the authorizations with what they require (resolved
 * authentications included), the default policy and its origin, and the callers worth deciding. Ports equal in this
 * are decided alike on both sides, so most of an unchanged mesh is compared without deciding anything.
 */
function signature(port: PortPolicyView, callers: string[]): string {
  return JSON.stringify([
    port.meshed, port.skipsProxy, port.server ?? null, port.shadowedServers, port.protocol, port.routes, port.generatedRoutes, port.probes,
    port.authorizations, port.defaultPolicy, port.defaultPolicyOrigin, callers,
  ]);
}

function portChanges(base: MeshModel, head: MeshModel, basePort: PortPolicyView, headPort: PortPolicyView): MeshChange[] {
  const baseCallers = base.relevantCallers(basePort).map((c) => c.key);
  const headCallers = head.relevantCallers(headPort).map((c) => c.key);
  if (signature(basePort, baseCallers) === signature(headPort, headCallers)) return [];
  return inboundRequestChanges(base, head, basePort, headPort, callersToCompare(basePort, headPort, baseCallers, headCallers));
}

function authorizationChanges(base: MeshModel, head: MeshModel): MeshChange[] {
  return head.ports.flatMap((headPort) => {
    const basePort = base.port(headPort.target);
    return basePort ? portChanges(base, head, basePort, headPort) : [];
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Shares

/** route#rule|backend → percent; a port without routes sends everything to its own endpoints. */
function sharesOf(service: ServicePortView): Map<string, { route: string; backend: string; percent: number; fails?: string }> {
  const out = new Map<string, { route: string; backend: string; percent: number; fails?: string }>();
  if (service.routes.length === 0) {
    out.set(`default|${service.target}`, { route: 'the default route', backend: service.target, percent: 100 });
  }
  for (const route of service.routes) {
    for (const rule of route.rules) {
      const where = route.rules.length > 1 ? `${route.name} rule ${rule.index}` : route.name;
      for (const b of rule.backends) out.set(`${route.name}#${rule.index}|${b.name}`, { route: where, backend: b.name, percent: b.percent, fails: b.fails });
    }
  }
  return out;
}

/**
 * Per Service port present on both sides, the entries (keyed by `entriesOf`) that were added, removed or changed
 * (`same` is false), each turned into a change by `describe` (given the entry as it is now, or as it was if removed).
 */
function keyedChanges<T>(
  base: MeshModel, head: MeshModel, entriesOf: (service: ServicePortView) => Map<string, T>, same: (a: T, b: T) => boolean,
  describe: (service: ServicePortView, change: string, entry: T, now: T | undefined, was: T | undefined) => MeshChange,
): MeshChange[] {
  const changes: MeshChange[] = [];
  for (const after of head.services) {
    const before = base.service(after.target);
    if (!before) continue;
    const a = entriesOf(after);
    const b = entriesOf(before);
    for (const key of new Set([...b.keys(), ...a.keys()])) {
      const now = a.get(key);
      const was = b.get(key);
      if (now && was && same(now, was)) continue;
      changes.push(describe(after, !was ? 'added' : !now ? 'removed' : 'changed', (now ?? was)!, now, was));
    }
  }
  return changes;
}

/** Request classes another route now takes, or whose retrying starts or stops (request-diff.ts). */
function requestChanges(base: MeshModel, head: MeshModel): MeshChange[] {
  return [...head.services.flatMap((after) => {
    const before = base.service(after.target);
    return before ? outboundRequestChanges(before, after, base, head) : [];
  }), ...egressRequestChanges(base, head)];
}

function shareChanges(base: MeshModel, head: MeshModel): MeshChange[] {
  return keyedChanges(base, head, sharesOf, (a, b) => a.percent === b.percent, (service, change, entry, now, was) => ({
    kind: ChangeKind.SHARE,
    change,
    source: service.target,
    target: entry.backend,
    because: `${entry.route}: ${was ? `${was.percent}%` : 'none'} → ${now ? `${now.percent}%` : 'none'}${now?.fails ? ` (${now.fails})` : ''}`,
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Retries and timeouts

type Settings = Map<string, { scope: string; key: string; value: string }>;

function settingsOf(service: ServicePortView, kind: ChangeKind): Settings {
  const out: Settings = new Map();
  const add = (scope: string, values: Record<string, string>) => {
    for (const [key, value] of Object.entries(values)) out.set(`${scope}|${key}`, { scope, key, value });
  };
  add(`Service ${service.namespace}/${service.name}`, kind === ChangeKind.RETRY ? service.retries : service.timeouts);
  for (const route of service.routes) {
    add(route.name, kind === ChangeKind.RETRY ? route.retries : route.timeouts);
    if (kind === ChangeKind.TIMEOUT) for (const rule of route.rules) add(`${route.name} rule ${rule.index}`, rule.timeouts);
  }
  return out;
}

function settingChanges(base: MeshModel, head: MeshModel, kind: ChangeKind): MeshChange[] {
  return keyedChanges(base, head, (service) => settingsOf(service, kind), (a, b) => a.value === b.value, (service, change, entry, now, was) => ({
    kind,
    change,
    source: service.target,
    target: entry.scope,
    because: `${entry.key}: ${was ? JSON.stringify(was.value) : 'unset'} → ${now ? JSON.stringify(now.value) : 'unset'}`,
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Ignored objects

function ignoredChanges(base: MeshModel, head: MeshModel): MeshChange[] {
  const key = (o: { object: { apiVersion: string } }) => `${o.object.apiVersion}|${idLabel(o.object as any)}`;
  const before = new Map(base.ignored.map((o) => [key(o), o]));
  const after = new Map(head.ignored.map((o) => [key(o), o]));
  const changes: MeshChange[] = [];
  for (const [k, o] of after) {
    if (!before.has(k)) changes.push({ kind: ChangeKind.IGNORED, change: 'now-ignored', source: idLabel(o.object), target: o.object.namespace ?? '', because: o.reason });
  }
  for (const [k, o] of before) {
    if (!after.has(k)) {
      changes.push({ kind: ChangeKind.IGNORED, change: 'no-longer-ignored', source: idLabel(o.object), target: o.object.namespace ?? '', because: `was: ${o.reason}` });
    }
  }
  return changes;
}

// ---------------------------------------------------------------------------------------------------------------

function compareChanges(a: MeshChange, b: MeshChange): number {
  return KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind)
    || compareStrings(a.source, b.source) || compareStrings(a.target, b.target) || compareRequests(a, b) || compareStrings(a.change, b.change)
    || compareStrings(a.because, b.because);
}

export function diffModels(base: MeshModel, head: MeshModel): MeshDiff {
  const changes = [
    ...authorizationChanges(base, head),
    ...identityChanges(base, head),
    ...requestChanges(base, head),
    ...shareChanges(base, head),
    ...ignoredChanges(base, head),
    ...settingChanges(base, head, ChangeKind.RETRY),
    ...settingChanges(base, head, ChangeKind.TIMEOUT),
  ];
  return { changes: changes.sort(compareChanges) };
}

/** Which changes make `diff --fail-on` exit 1: a direction of authorization change, any change of one kind, or any. */
export enum DiffFailOn {
  TO_DENIED = 'allowed-to-denied',
  TO_ALLOWED = 'denied-to-allowed',
  AUTHORIZATION = 'authorization',
  ROUTE = 'route',
  SHARE = 'share',
  RETRY = 'retry',
  TIMEOUT = 'timeout',
  IGNORED = 'ignored',
  ANY = 'any',
}

/** Whether one change is of the kind `--fail-on` names. */
export function changeMatches(c: MeshChange, failOn: DiffFailOn): boolean {
  if (failOn === DiffFailOn.ANY) return true;
  if (failOn === DiffFailOn.TO_DENIED || failOn === DiffFailOn.TO_ALLOWED) {
    return c.kind === ChangeKind.AUTHORIZATION && c.change === (failOn as string);
  }
  return c.kind === (failOn as string);
}

export function diffMatches(diff: MeshDiff, failOn: DiffFailOn): boolean {
  return diff.changes.some((c) => changeMatches(c, failOn));
}
