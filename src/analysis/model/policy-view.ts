/**
 * Shared reading of Linkerd policy objects for the policy and mesh rules and for policy evaluation.
 * Everything cross-object is computed once per index (memoized) so rules stay linear in the number of objects.
 */
import { ExistingObjectClaim, ResourceId, annotationsOf, labelsOf } from './manifest';
import {
  DEFAULT_POLICY_ANNOTATION, GATEWAY_GROUP, INJECT_ANNOTATION, IndexedObject, Injection, MeshIndex, POLICY_GROUP, PodTemplate, WORKLOAD_GROUP,
} from './mesh-index';
import { NamespacedLists } from './namespaced-lists';
import { compareStrings } from '../../core/compare';
import { editDistance } from '../../core/edit-distance';
import { serviceAccountIdentity as coreServiceAccountIdentity } from '../../core/identity';
import { goAtoi } from '../../core/linkerd-grammar';
import { SKIP_INBOUND_PORTS_ANNOTATION as SKIP_INBOUND_PORTS, OPAQUE_PORTS_ANNOTATION, REQUIRE_IDENTITY_PORTS_ANNOTATION } from '../../core/vocabulary';
import { Severity } from '../finding';
import { perIndex } from './memo';
import { LabelSelector, selectorMatches } from './selectors';
import { AnalysisContext, DEFAULT_INBOUND_POLICIES } from '../options';

export const PROXY_UID = 2102;
export {
  SKIP_INBOUND_PORTS_ANNOTATION as SKIP_INBOUND_PORTS, OPAQUE_PORTS_ANNOTATION as OPAQUE_PORTS, CHART_OPAQUE_PORTS,
} from '../../core/vocabulary';
import { cniEnabledOf, cniIgnoredInboundPorts, podOrNamespaceAnnotation, proxyInitIgnoredInboundPorts } from './proxy-settings';
import { ObjectRef, isServerParentOf, refTargets } from './refs';
import { inboundBindingProblem } from './route-view';
export type { ObjectRef } from './refs';
export const PROXY_PROTOCOLS = ['unknown', 'HTTP/1', 'HTTP/2', 'gRPC', 'opaque', 'TLS'];

// ---------------------------------------------------------------------------------------------------------------
// References

/** The object-shaped entries of a list field; anything else (malformed input) is dropped. */
export function refList(value: unknown): ObjectRef[] {
  return Array.isArray(value) ? value.filter((r) => r !== null && typeof r === 'object' && !Array.isArray(r)) : [];
}

export function asRef(value: unknown): ObjectRef | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as ObjectRef : undefined;
}

/** Linkerd compares kinds ASCII-case-insensitively (`targets_kind`). `kind` is one of the kind names, e.g. 'Server'. */
export function kindIs(ref: ObjectRef | undefined, kind: string): boolean {
  const actual = ref?.kind;
  return typeof actual === 'string' && actual.length === kind.length && actual.toLowerCase() === kind.toLowerCase();
}

export function groupIs(ref: ObjectRef | undefined, group: string): boolean {
  return typeof ref?.group === 'string' && ref.group.toLowerCase() === group;
}

/** A reference to a Linkerd kind: the group must be spelled out, since a missing group means core. */
export function isPolicyRef(ref: ObjectRef | undefined, kind: string): boolean {
  return refTargets(ref?.group, ref?.kind, POLICY_GROUP, kind);
}

export function isCoreRef(ref: ObjectRef | undefined, kind: string): boolean {
  return refTargets(ref?.group, ref?.kind, '', kind);
}

export function refText(ref: ObjectRef | undefined): string {
  if (!ref) return '(missing)';
  const group = ref.group === undefined ? 'no group' : `group ${JSON.stringify(ref.group)}`;
  return `${String(ref.kind ?? '(no kind)')} "${String(ref.name ?? '')}" (${group})`;
}

export function specOf(entry: IndexedObject): Record<string, any> {
  const spec = entry.object.spec;
  return spec !== null && typeof spec === 'object' && !Array.isArray(spec) ? spec : {};
}

export function namespaceOf(entry: IndexedObject): string {
  return entry.id.namespace ?? '';
}

export function workloadLabel(pod: PodTemplate): string {
  return `${pod.owner.id.kind} ${pod.namespace}/${pod.owner.id.name}`;
}

export function idLabel(id: ResourceId): string {
  return `${id.kind} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
}

/**
 * Linkerd resolves ties among competing objects by creation time, then name. An object without a creationTimestamp is
 * one still to be applied, so it is newer than every object the cluster already has (status/src/index.rs
 * target_ref_status also puts entries with timestamps first); among themselves such objects go by name.
 */
export function claimOrder(a: IndexedObject, b: IndexedObject): number {
  const ta = a.object.metadata?.creationTimestamp;
  const tb = b.object.metadata?.creationTimestamp;
  const hasA = ta !== undefined && ta !== null;
  const hasB = tb !== undefined && tb !== null;
  const byTime = hasA && hasB ? compareStrings(String(ta), String(tb)) : Number(hasB) - Number(hasA);
  return byTime || compareStrings(a.id.name, b.id.name);
}

// ---------------------------------------------------------------------------------------------------------------
// Servers and the pod ports they claim

/** `spec.port` of a Server: a number, or a name (a quoted number is a name too). */
export function serverPort(server: IndexedObject): number | string | undefined {
  const port = specOf(server).port;
  return typeof port === 'number' || typeof port === 'string' ? port : undefined;
}

export function serverAccessPolicy(server: IndexedObject): string {
  const value = specOf(server).accessPolicy;
  return typeof value === 'string' ? value : 'deny';
}

export function serverSelector(server: IndexedObject): LabelSelector | undefined {
  const selector = specOf(server).podSelector;
  return selector !== null && typeof selector === 'object' && !Array.isArray(selector) ? selector : undefined;
}

/** The proxy's admin port on an injected pod (`config.linkerd.io/admin-port`, the pod's or its namespace's, else 4191): metrics and probes. */
export function proxyAdminPort(pod: PodTemplate): number {
  return proxyPort(pod, 'config.linkerd.io/admin-port', 4191);
}

/** The proxy's inbound port on an injected pod (`config.linkerd.io/inbound-port`, the pod's or its namespace's, else 4143). */
export function proxyInboundPort(pod: PodTemplate): number {
  return proxyPort(pod, 'config.linkerd.io/inbound-port', 4143);
}

function proxyPort(pod: PodTemplate, annotation: string, fallback: number): number {
  const value = Number(podOrNamespaceAnnotation(pod, annotation));
  return Number.isInteger(value) && value >= 1 && value <= 65535 ? value : fallback;
}

/** The named ports of the proxy container the injector adds (Servers such as `linkerd viz allow-scrapes`'s name them). */
function injectedPortNamed(pod: PodTemplate, name: string): number | undefined {
  if (pod.injection !== Injection.ENABLED) return undefined;
  if (name === 'linkerd-admin') return proxyAdminPort(pod);
  if (name === 'linkerd-proxy') return proxyInboundPort(pod);
  return undefined;
}

function isTcp(port: { protocol: string }): boolean {
  return typeof port.protocol !== 'string' || port.protocol.toUpperCase() === 'TCP';
}

/**
 * The pod ports a Server's `spec.port` selects on one pod, as the inbound index's `Pod::select_ports` does
 * (linkerd2 policy-controller/k8s/index/src/inbound/index.rs, workload.rs `pod_tcp_ports_by_name`): a number always
 * selects that port, declared by a container or not; a name selects every TCP container port (init containers, so
 * native sidecars, included) of that name, plus the named ports of the proxy the injector adds.
 */
export function selectPorts(pod: PodTemplate, port: number | string): number[] {
  if (typeof port === 'number') return [port];
  const numbers: number[] = [];
  for (const p of pod.ports) if (p.name === port && isTcp(p) && !numbers.includes(p.containerPort)) numbers.push(p.containerPort);
  if (numbers.length > 0) return numbers;
  const injected = injectedPortNamed(pod, port);
  return injected === undefined ? [] : [injected];
}

/** The container port a Service's targetPort or a probe's port names on one pod template (the injected proxy's included). */
export function resolveContainerPort(pod: PodTemplate, port: number | string): number | undefined {
  if (typeof port === 'number') return pod.ports.some((p) => p.containerPort === port) ? port : undefined;
  return pod.ports.find((p) => p.name === port)?.containerPort ?? injectedPortNamed(pod, port);
}

export function portNameOf(pod: PodTemplate, port: number): string | undefined {
  return pod.ports.find((p) => p.containerPort === port && p.name)?.name;
}

export interface ServerCoverage {
  /** Pod templates a Server's podSelector selects. */
  podsOf(server: IndexedObject): PodTemplate[];
  /** Servers claiming a pod's port, winner first. */
  claims(pod: PodTemplate, port: number): IndexedObject[];
  /** Every claimed port of a pod, each with its competing Servers (winner first). */
  claimedPorts(pod: PodTemplate): Map<number, IndexedObject[]>;
}

// ---------------------------------------------------------------------------------------------------------------
// Memoized per-index tables

interface Memo {
  coverage?: ServerCoverage;
  authz?: AuthorizationTargets;
  serverRoutes?: NamespacedLists<IndexedObject>;
  legacy?: Map<string, IndexedObject[]>;
  ownPods?: PodTemplate[];
  uninjectedNamespaces?: Set<string>;
  /** Each pod's opaque ports as the policy controller reads them, for the context they were read under. */
  podOpaque?: { readonly context: AnalysisContext; readonly byPod: Map<PodTemplate, PortList | undefined> };
}

const MEMO = new WeakMap<MeshIndex, Memo>();

function memo(index: MeshIndex): Memo {
  let m = MEMO.get(index);
  if (!m) {
    m = {};
    MEMO.set(index, m);
  }
  return m;
}

/** Servers claim a numeric port even when no container declares it; a named port only when a container has it. */
/** A selector as a key: Servers with the same one select the same pods, so the selection runs once for all of them. */
function selectorKey(namespace: string, selector: LabelSelector): string {
  const labels = Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([namespace, labels, selector.matchExpressions ?? []]);
}

/** Two claim lists of one pod port, in claim order (rare: Servers with different selectors on the same port). */
function mergeClaims(a: readonly IndexedObject[], b: readonly IndexedObject[]): IndexedObject[] {
  return [...a, ...b].sort(claimOrder);
}

/**
 * Servers claim a numeric port even when no container declares it; a named port only where a pod has it (select_ports).
 * Linear in objects: Servers are grouped by selector (one pod selection per group) and, within a group, by port; every
 * pod of a group shares the group's claim list for that port, so N Servers over the same N pods cost N, not N².
 */
function buildCoverage(index: MeshIndex): ServerCoverage {
  const pods = new Map<IndexedObject, PodTemplate[]>();
  const claims = new Map<PodTemplate, Map<number, readonly IndexedObject[]>>();
  const groups = new Map<string, { selected: PodTemplate[]; byPort: Map<number | string, IndexedObject[]> }>();
  for (const server of [...index.list(POLICY_GROUP, 'Server')].sort(claimOrder)) {
    const selector = serverSelector(server);
    if (!selector) {
      pods.set(server, []);
      continue;
    }
    const key = selectorKey(namespaceOf(server), selector);
    let group = groups.get(key);
    if (!group) groups.set(key, group = { selected: index.podTemplatesMatching(namespaceOf(server), selector), byPort: new Map() });
    pods.set(server, group.selected);
    const port = serverPort(server);
    // A second definition of one Server (the output twice, or over the inventory's) is one object in the cluster: it claims once.
    if (port === undefined || index.get(POLICY_GROUP, 'Server', server.id.namespace, server.id.name) !== server) continue;
    const list = group.byPort.get(port);
    if (list) list.push(server); else group.byPort.set(port, [server]);
  }
  for (const group of groups.values()) {
    for (const [port, servers] of group.byPort) {
      for (const pod of group.selected) {
        for (const number of selectPorts(pod, port)) {
          let byPort = claims.get(pod);
          if (!byPort) claims.set(pod, byPort = new Map());
          const prior = byPort.get(number);
          byPort.set(number, prior ? mergeClaims(prior, servers) : servers);
        }
      }
    }
  }
  return {
    podsOf: (server) => pods.get(server) ?? [],
    claims: (pod, port) => (claims.get(pod)?.get(port) ?? []) as IndexedObject[],
    claimedPorts: (pod) => (claims.get(pod) ?? new Map()) as Map<number, IndexedObject[]>,
  };
}

export function serverCoverage(index: MeshIndex): ServerCoverage {
  const m = memo(index);
  return m.coverage ??= buildCoverage(index);
}

/** Every route kind that can attach to a Server (inbound routes). */
export function inboundRouteKinds(index: MeshIndex): IndexedObject[] {
  return [
    ...index.list(POLICY_GROUP, 'HTTPRoute'),
    ...index.list(GATEWAY_GROUP, 'HTTPRoute'),
    ...index.list(GATEWAY_GROUP, 'GRPCRoute'),
  ];
}

/** A parentRef that names a Server, read after CRD defaulting (Linkerd's HTTPRoute defaults the group to policy.linkerd.io). */
export function isServerParent(ref: ObjectRef | undefined, route: IndexedObject): boolean {
  return ref !== undefined && isServerParentOf(route.group, ref);
}

function buildServerRoutes(index: MeshIndex): NamespacedLists<IndexedObject> {
  const byServer = new NamespacedLists<IndexedObject>();
  for (const route of inboundRouteKinds(index)) {
    const parents = specOf(route).parentRefs;
    if (!Array.isArray(parents)) continue;
    // Names of the Servers this route already attached to (a route names a Server at most once).
    let seen: Set<string> | undefined;
    for (const parent of parents) {
      if (asRef(parent) === undefined || !isServerParent(parent, route) || typeof parent.name !== 'string') continue;
      // The inbound index ignores the whole route, for every Server it names (judged once, and only for routes that name
      // a Server: most routes name Services).
      if (seen === undefined && inboundBindingProblem(route) !== undefined) break;
      if (seen?.has(parent.name)) continue;
      (seen ??= new Set()).add(parent.name);
      byServer.add(namespaceOf(route), parent.name, route);
    }
  }
  return byServer;
}

/** Routes (HTTPRoute of either group, GRPCRoute) whose parentRefs name this Server, as the inbound index binds them. */
export function routesForServer(index: MeshIndex, server: IndexedObject): IndexedObject[] {
  const m = memo(index);
  m.serverRoutes ??= buildServerRoutes(index);
  return m.serverRoutes.get(namespaceOf(server), server.id.name) ?? [];
}

// ---------------------------------------------------------------------------------------------------------------
// AuthorizationPolicy targets

export type AuthorizationTargetKind = 'Server' | 'HTTPRoute' | 'GRPCRoute' | 'Namespace';

export interface AuthorizationTarget {
  readonly kind: AuthorizationTargetKind;
  /** API group of the target, normalised ('' for core). */
  readonly group: string;
  readonly name: string;
}

/** The supported target of an AuthorizationPolicy, or undefined for a kind/group the webhook rejects. */
export function authorizationTarget(policy: IndexedObject): AuthorizationTarget | undefined {
  const ref = asRef(specOf(policy).targetRef);
  if (!ref || typeof ref.name !== 'string') return undefined;
  if (isPolicyRef(ref, 'Server')) return { kind: 'Server', group: POLICY_GROUP, name: ref.name };
  if (isPolicyRef(ref, 'HTTPRoute')) return { kind: 'HTTPRoute', group: POLICY_GROUP, name: ref.name };
  if (kindIs(ref, 'HTTPRoute') && groupIs(ref, GATEWAY_GROUP)) return { kind: 'HTTPRoute', group: GATEWAY_GROUP, name: ref.name };
  if (kindIs(ref, 'GRPCRoute') && groupIs(ref, GATEWAY_GROUP)) return { kind: 'GRPCRoute', group: GATEWAY_GROUP, name: ref.name };
  if (isCoreRef(ref, 'Namespace')) return { kind: 'Namespace', group: '', name: ref.name };
  return undefined;
}

/** The object a supported target names, looked up in the policy's namespace. */
export function targetObject(index: MeshIndex, policy: IndexedObject, target: AuthorizationTarget): IndexedObject | undefined {
  if (target.kind === 'Namespace') return index.namespace(target.name);
  return index.get(target.group, target.kind, policy.id.namespace, target.name);
}

export interface AuthorizationTargets {
  forServer(server: IndexedObject): IndexedObject[];
  forRoute(route: IndexedObject): IndexedObject[];
  forNamespace(namespace: string): IndexedObject[];
}

function buildAuthorizationTargets(index: MeshIndex): AuthorizationTargets {
  // Per target group and kind (a handful), then namespace and name: lookups run once per Server and route.
  const byKind = new Map<string, Map<string, NamespacedLists<IndexedObject>>>();
  const byNamespace = new Map<string, IndexedObject[]>();
  const tableFor = (group: string, kind: string): NamespacedLists<IndexedObject> => {
    let kinds = byKind.get(group);
    if (!kinds) byKind.set(group, kinds = new Map());
    let table = kinds.get(kind);
    if (!table) kinds.set(kind, table = new NamespacedLists());
    return table;
  };
  for (const policy of index.list(POLICY_GROUP, 'AuthorizationPolicy')) {
    const target = authorizationTarget(policy);
    if (!target) continue;
    const ns = namespaceOf(policy);
    // A Namespace target only counts for the policy's own namespace (the webhook rejects any other).
    if (target.kind === 'Namespace') {
      if (target.name !== ns) continue;
      const list = byNamespace.get(ns);
      if (list) list.push(policy); else byNamespace.set(ns, [policy]);
    } else {
      tableFor(target.group, target.kind).add(ns, target.name, policy);
    }
  }
  const lookup = (group: string, kind: string, entry: IndexedObject) => byKind.get(group)?.get(kind)?.get(namespaceOf(entry), entry.id.name) ?? [];
  return {
    forServer: (server) => lookup(POLICY_GROUP, 'Server', server),
    forRoute: (route) => lookup(route.group, route.id.kind, route),
    forNamespace: (namespace) => byNamespace.get(namespace) ?? [],
  };
}

export function authorizationTargets(index: MeshIndex): AuthorizationTargets {
  const m = memo(index);
  return m.authz ??= buildAuthorizationTargets(index);
}

function legacyByNamespace(index: MeshIndex): Map<string, IndexedObject[]> {
  const m = memo(index);
  if (!m.legacy) {
    m.legacy = new Map();
    for (const authz of index.list(POLICY_GROUP, 'ServerAuthorization')) {
      const ns = namespaceOf(authz);
      const list = m.legacy.get(ns);
      if (list) list.push(authz); else m.legacy.set(ns, [authz]);
    }
  }
  return m.legacy;
}

/** Legacy ServerAuthorizations that name a Server directly or select it by label. */
export function serverAuthorizationsFor(index: MeshIndex, server: IndexedObject): IndexedObject[] {
  const candidates = legacyByNamespace(index).get(namespaceOf(server));
  // The legacy kind is rare: most Servers have none in their namespace.
  if (!candidates) return [];
  const labels = (server.object.metadata?.labels ?? {}) as Record<string, string>;
  return candidates.filter((authz) => {
    const ref = specOf(authz).server;
    if (!ref || typeof ref !== 'object') return false;
    if (ref.name !== undefined) return ref.name === server.id.name;
    // A full label selector, matchExpressions included (server_authorization.rs ServerSelector::selects); the CRD
    // requires name or selector, so the default (every Server) is never reached from valid input.
    const selector = ref.selector;
    return !!selector && typeof selector === 'object' && selectorMatches(selector, labels);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Default inbound policy

export type PolicySource = 'pod' | 'namespace' | 'cluster';

export interface EffectiveDefault {
  readonly policy: string;
  readonly source: PolicySource;
  /** Where the value came from, in words, for messages. */
  readonly origin: string;
}

export function isKnownDefaultPolicy(value: unknown): boolean {
  return typeof value === 'string' && (DEFAULT_INBOUND_POLICIES as readonly string[]).includes(value);
}

/**
 * The default inbound policy of an injected pod, resolved the way Linkerd does it:
 * - the proxy injector copies a namespace's `config.linkerd.io/default-inbound-policy` onto pods that do not set it
 *   (linkerd2 controller/proxy-injector/webhook.go, pkg/inject `AppendNamespaceAnnotations`);
 * - the policy controller reads the pod's annotation only (k8s/index/src/inbound/workload.rs `Settings::from_metadata`):
 *   an unparseable value is logged and dropped, so the cluster default applies, not the namespace's;
 * - otherwise the controller's `--default-policy` (chart value `proxy.defaultInboundPolicy`).
 */
export function effectiveDefaultPolicy(index: MeshIndex, pod: PodTemplate, context: AnalysisContext): EffectiveDefault {
  const cluster = (why: string): EffectiveDefault => ({ policy: context.defaultInboundPolicy, source: 'cluster', origin: `the cluster default (chart value proxy.defaultInboundPolicy)${why}` });
  const own = pod.annotations[DEFAULT_POLICY_ANNOTATION];
  if (own !== undefined) {
    if (isKnownDefaultPolicy(own)) {
      return { policy: own, source: 'pod', origin: `pod annotation ${DEFAULT_POLICY_ANNOTATION} of ${workloadLabel(pod)}` };
    }
    return cluster(`, because the pod annotation value ${JSON.stringify(own)} is not a policy and the policy controller drops it`);
  }
  const ns = index.namespace(pod.namespace);
  const nsValue = ns ? annotationsOf(ns.object)[DEFAULT_POLICY_ANNOTATION] : undefined;
  if (nsValue !== undefined) {
    if (isKnownDefaultPolicy(nsValue)) {
      return { policy: nsValue, source: 'namespace', origin: `annotation ${DEFAULT_POLICY_ANNOTATION} of Namespace ${pod.namespace}` };
    }
    return cluster(`, because Namespace ${pod.namespace}'s value ${JSON.stringify(nsValue)} is not a policy and is dropped`);
  }
  return cluster('');
}

/**
 * Ports listed in `config.linkerd.io/proxy-require-identity-inbound-ports` (the pod's, or the namespace's, copied by
 * the injector): there an allowing default policy admits only authenticated clients (inbound/index.rs
 * `default_inbound_server`). The policy controller reads the list with parse_portset (inbound/workload.rs
 * `ports_annotation`), so a list with one entry it cannot read requires identity on no port.
 */
export function requiresIdentityOn(pod: PodTemplate, port: number): boolean {
  const value = podOrNamespaceAnnotation(pod, REQUIRE_IDENTITY_PORTS_ANNOTATION);
  const set = value === undefined ? undefined : controllerPortSet(String(value));
  return set !== undefined && portListHas(set, port);
}

/** The authenticated-only form of an allowing default policy. */
export function withRequiredIdentity(policy: string): string {
  if (policy === 'all-unauthenticated') return 'all-authenticated';
  if (policy === 'cluster-unauthenticated') return 'cluster-authenticated';
  return policy;
}

/** Where a pod template's injection decision comes from, for messages. */
export function injectionOrigin(index: MeshIndex, pod: PodTemplate): string {
  if (pod.injectionSkipped !== undefined) return `marked for injection, but the injector skips it: ${pod.injectionSkipped}`;
  const own = pod.annotations[INJECT_ANNOTATION];
  if (own !== undefined) return `pod template annotation ${INJECT_ANNOTATION}: ${own}`;
  const ns = index.namespace(pod.namespace);
  const nsValue = ns ? annotationsOf(ns.object)[INJECT_ANNOTATION] : undefined;
  return nsValue === undefined
    ? `neither the pod template nor Namespace ${pod.namespace} sets ${INJECT_ANNOTATION}`
    : `Namespace ${pod.namespace} annotation ${INJECT_ANNOTATION}: ${nsValue}`;
}

export function isMeshed(pod: PodTemplate): boolean {
  return pod.injection === Injection.ENABLED;
}

// ---------------------------------------------------------------------------------------------------------------
// Port lists (`opaque-ports`, `skip-inbound-ports`, `skip-outbound-ports`)

export interface PortList {
  readonly ranges: Array<[number, number]>;
  readonly names: string[];
  readonly errors: string[];
}

const PORT_NAME = /^(?=.*[a-z])[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$/;

function portNumber(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= 65535 ? n : undefined;
}

/**
 * The same few lists (the chart default above all) are read for every pod and Service: parse each once. One cache
 * per mode, keyed by the annotation string itself, so a lookup builds no key. Callers must not modify the result.
 */
const parsedPortLists = { names: new Map<string, PortList>(), numbers: new Map<string, PortList>() };

/** Comma-separated ports and `lo-hi` ranges; named ports only where Linkerd resolves them (opaque-ports on pods). */
export function parsePortList(value: unknown, allowNames: boolean): PortList {
  if (typeof value !== 'string') return parsePortListUncached(value, allowNames);
  const cache = allowNames ? parsedPortLists.names : parsedPortLists.numbers;
  let list = cache.get(value);
  if (!list) {
    list = parsePortListUncached(value, allowNames);
    if (cache.size < 10_000) cache.set(value, list);
  }
  return list;
}

function parsePortListUncached(value: unknown, allowNames: boolean): PortList {
  const out: PortList = { ranges: [], names: [], errors: [] };
  if (typeof value !== 'string') {
    out.errors.push('the value is not a string');
    return out;
  }
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const range = /^(\d+)-(\d+)$/.exec(entry);
    if (range) {
      const lo = portNumber(range[1]);
      const hi = portNumber(range[2]);
      if (lo === undefined || hi === undefined || lo > hi) out.errors.push(`"${entry}" is not a range lo-hi of ports 1-65535`);
      else out.ranges.push([lo, hi]);
      continue;
    }
    const n = portNumber(entry);
    if (n !== undefined) out.ranges.push([n, n]);
    else if (allowNames && PORT_NAME.test(entry)) out.names.push(entry);
    else out.errors.push(`"${entry}" is not a port number 1-65535${allowNames ? ', a range lo-hi or a container port name' : ' or a range lo-hi'}`);
  }
  return out;
}

/**
 * A port list as linkerd2's policy controller reads it (policy-controller/k8s/index/src/ports.rs, `parse_portset`):
 * comma-separated port numbers and `lo-hi` ranges, each part trimmed, around the `-` too ("1 - 5" is ports 1 to 5).
 * It reads no port names. One part it cannot read (a name, 0, a reversed range) fails the whole list, and
 * `ports_annotation` then reads it as no port at all: undefined here. Same cache rules as parsePortList.
 */
export function controllerPortSet(value: string): PortList | undefined {
  let known = controllerPortSets.get(value);
  if (known === undefined) {
    known = controllerPortSetUncached(value) ?? null;
    if (controllerPortSets.size < 10_000) controllerPortSets.set(value, known);
  }
  return known ?? undefined;
}

const controllerPortSets = new Map<string, PortList | null>();

/** Rust's `u16` parse, as NonZeroU16 takes it: digits with an optional `+`, leading zeros allowed, 1 to 65535. */
function controllerPort(text: string): number | undefined {
  const digits = text.trim().replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return undefined;
  const significant = digits.replace(/^0+/, '');
  if (significant.length > 5) return undefined;
  const n = Number(significant || '0');
  return n >= 1 && n <= 65535 ? n : undefined;
}

function controllerPortSetUncached(value: string): PortList | undefined {
  const out: PortList = { ranges: [], names: [], errors: [] };
  for (const part of value.split(',')) {
    const dash = part.indexOf('-');
    if (dash < 0) {
      if (part.trim() === '') continue;
      const port = controllerPort(part);
      if (port === undefined) return undefined;
      out.ranges.push([port, port]);
      continue;
    }
    const lo = controllerPort(part.slice(0, dash));
    const hi = controllerPort(part.slice(dash + 1));
    if (lo === undefined || hi === undefined || lo > hi) return undefined;
    out.ranges.push([lo, hi]);
  }
  return out;
}

/** How Linkerd's components read one opaque-ports value; they disagree where the Go and Rust parsers differ. */
export interface OpaquePortsReadings {
  /** The policy controller's reading (parse_portset); undefined when it reads the whole list as no port. */
  readonly controller: PortList | undefined;
  /** Entries written as port names: the injector and destination controller resolve them, parse_portset cannot. */
  readonly names: string[];
  /**
   * Entries that are no name and that the injector and destination controller skip (pkg/util/parsing.go
   * `GetPortRanges`, portrange.go `ParsePortRange`: each entry trimmed, split at every `-`, each bound `strconv.Atoi`
   * without trimming, 0 to 65535, the lower bound first).
   */
  readonly skippedByGo: string[];
}

/**
 * One entry as `ParsePortRange` reads it (linkerd2 pkg/util/portrange.go, and its copy in linkerd2-proxy-init
 * pkg/util/portrange.go): split at every `-`, each bound `strconv.Atoi` without trimming, 0 to 65535, the lower first.
 */
function goPortRange(entry: string): [number, number] | undefined {
  const bounds = entry.split('-');
  if (bounds.length > 2) return undefined;
  const low = goAtoi(bounds[0]);
  const high = bounds.length === 1 ? low : goAtoi(bounds[1]);
  return low !== undefined && high !== undefined && low >= 0 && high <= 65535 && low <= high ? [low, high] : undefined;
}

function goReadsRange(entry: string): boolean {
  return goPortRange(entry) !== undefined;
}

export function opaquePortsReadings(value: string): OpaquePortsReadings {
  const names: string[] = [];
  const skippedByGo: string[] = [];
  const trimmed = value.endsWith(',') ? value.slice(0, -1) : value;
  for (const part of trimmed.split(',')) {
    const entry = part.trim();
    if (PORT_NAME.test(entry)) names.push(entry);
    else if (entry !== '' && !goReadsRange(entry)) skippedByGo.push(entry);
  }
  return { controller: controllerPortSet(value), names, skippedByGo };
}

/** An object's own `config.linkerd.io/opaque-ports`, as text. */
function opaquePortsAnnotation(entry: IndexedObject | undefined): string | undefined {
  const value = entry ? annotationsOf(entry.object)[OPAQUE_PORTS_ANNOTATION] : undefined;
  return value === undefined ? undefined : String(value);
}

/** A namespace's own list, which the injector copies to its pods and Services. */
function namespaceOpaquePorts(index: MeshIndex, namespace: string): string | undefined {
  return opaquePortsAnnotation(index.namespace(namespace));
}

/** The chart's proxy.opaquePorts split as the injector splits it (`strings.Split`, no trimming); one list per value. */
const splitDefaults = new Map<string, string[]>();

function defaultEntries(context: AnalysisContext): string[] {
  let entries = splitDefaults.get(context.defaultOpaquePorts);
  if (!entries) splitDefaults.set(context.defaultOpaquePorts, entries = context.defaultOpaquePorts.split(','));
  return entries;
}

/** The cluster default's entries among `ports`, compared as text (`util.ContainsString`: a range entry matches nothing). */
function defaultsAmong(context: AnalysisContext, ports: string[]): string | undefined {
  const defaults = defaultEntries(context);
  const listed = ports.filter((port) => defaults.includes(port));
  return listed.length > 0 ? listed.join(',') : undefined;
}

/**
 * What the policy controller reads as a pod's opaque-ports: what the injector left on it (its own value, else its
 * namespace's, else the defaults it exposes as container ports: webhook.go and inject.go `FilterPodOpaquePorts`).
 */
function podOpaquePortsAsInjected(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): string | undefined {
  const own = pod.annotations[OPAQUE_PORTS_ANNOTATION];
  if (own !== undefined) return String(own);
  return namespaceOpaquePorts(index, pod.namespace) ?? defaultsAmong(context, pod.ports.map((p) => String(p.containerPort)));
}

/**
 * Whether the policy controller serves a pod port without a Server as opaque (inbound/index.rs
 * `default_inbound_server`): the port is in the pod's opaque-ports as parse_portset reads it. This side has no cluster
 * default of its own, only what the injector wrote onto the pod.
 */
export function controllerOpaqueOnPod(index: MeshIndex, context: AnalysisContext, pod: PodTemplate, port: number): boolean {
  const set = controllerOpaquePortsOfPod(index, context, pod);
  return set !== undefined && portListHas(set, port);
}

/**
 * A pod's opaque ports as the policy controller reads them (undefined: none), once per pod: rules ask for every pod
 * port and every Service port in front of it.
 */
export function controllerOpaquePortsOfPod(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): PortList | undefined {
  const m = memo(index);
  if (m.podOpaque?.context !== context) m.podOpaque = { context, byPod: new Map() };
  const byPod = m.podOpaque.byPod;
  if (byPod.has(pod)) return byPod.get(pod);
  const value = podOpaquePortsAsInjected(index, context, pod);
  const set = value === undefined ? undefined : controllerPortSet(value);
  byPod.set(pod, set);
  return set;
}

/**
 * Whether the proxy injector's webhook is called for the object: its namespaceSelector and objectSelector, as the
 * cluster sets them (model/webhooks.ts), let it through.
 */
function injectorSees(index: MeshIndex, entry: IndexedObject): boolean {
  const namespace = entry.id.namespace ?? '';
  return index.injectorWebhookSkips(namespace, labelsOf(entry.object)) === undefined;
}

/** Where a Service's opaque-ports annotation comes from: written on it, copied from its namespace, or made from the defaults. */
enum OpaqueSource {
  OWN = 'own',
  NAMESPACE = 'namespace',
  DEFAULTS = 'defaults',
}

/** An opaque-ports annotation of a Service, as the injector's patch leaves it, and its source. */
interface InjectedOpaquePorts {
  readonly value: string;
  readonly source: OpaqueSource;
}

/**
 * A Service's opaque-ports as the injector's patch leaves it (inject.go `CreateOpaquePortsPatch`): its own, else its
 * namespace's, else the ports whose targetPort (the port itself when unset, as the API server defaults it) is a
 * default opaque port; undefined when it gets none, or when the webhook never sees it.
 */
function serviceOpaquePortsAsInjected(index: MeshIndex, context: AnalysisContext, service: IndexedObject): InjectedOpaquePorts | undefined {
  const own = opaquePortsAnnotation(service);
  if (own !== undefined) return { value: own, source: OpaqueSource.OWN };
  if (!injectorSees(index, service)) return undefined;
  const nsValue = namespaceOpaquePorts(index, service.id.namespace ?? '');
  if (nsValue !== undefined) return { value: nsValue, source: OpaqueSource.NAMESPACE };
  const ports = (Array.isArray(service.object.spec?.ports) ? service.object.spec.ports : []).filter((p: any) => typeof p?.port === 'number');
  const defaults = defaultEntries(context);
  // A named targetPort's number is 0 to the injector (IntVal), so it never matches a default.
  const target = (p: any) => String(p.targetPort === undefined ? p.port : typeof p.targetPort === 'number' ? p.targetPort : 0);
  const listed = ports.filter((p: any) => defaults.includes(target(p))).map((p: any) => String(p.port));
  return listed.length > 0 ? { value: listed.join(','), source: OpaqueSource.DEFAULTS } : undefined;
}

/** An opaque-ports list someone wrote for a Service, and where: its own annotation, or its namespace's (copied by the injector). */
export interface WrittenOpaquePorts {
  readonly ports: PortList;
  readonly origin: string;
}

/**
 * The opaque ports a Service gets from an annotation someone wrote (its own, else its namespace's where the injector
 * copies it), not from the cluster defaults; undefined when there is none or the policy controller cannot read it.
 */
export function writtenServiceOpaquePorts(index: MeshIndex, context: AnalysisContext, service: IndexedObject): WrittenOpaquePorts | undefined {
  const injected = serviceOpaquePortsAsInjected(index, context, service);
  if (!injected || injected.source === OpaqueSource.DEFAULTS) return undefined;
  const ports = controllerPortSet(injected.value);
  if (!ports) return undefined;
  return {
    ports,
    origin: injected.source === OpaqueSource.OWN ? `the Service's ${OPAQUE_PORTS_ANNOTATION}`
      : `Namespace ${service.id.namespace ?? ''}'s ${OPAQUE_PORTS_ANNOTATION} (copied by the injector)`,
  };
}

/**
 * Whether the policy controller's outbound index reads a Service port as opaque (outbound/index.rs, Service and
 * EgressNetwork alike): the annotation as the injector left it, parsed by parse_portset; without one, the cluster
 * default; an unreadable one gives no opaque port at all, defaults included.
 */
export function controllerOpaqueOnService(index: MeshIndex, context: AnalysisContext, service: IndexedObject, port: number): boolean {
  const value = service.id.kind === 'Service' ? serviceOpaquePortsAsInjected(index, context, service)?.value : opaquePortsAnnotation(service);
  const set = controllerPortSet(value ?? context.defaultOpaquePorts);
  return set !== undefined && portListHas(set, port);
}

export function portListHas(list: PortList, port: number, portName?: string): boolean {
  // No destructuring: this runs per Service port and pod, and unoptimized code destructures through the iterator protocol.
  for (const range of list.ranges) if (range[0] <= port && port <= range[1]) return true;
  return portName !== undefined && list.names.includes(portName);
}

/**
 * A skip-inbound-ports or skip-outbound-ports list as the iptables rules are written from it. The injector passes the
 * text on unparsed (pkg/inject/inject.go ApplyAnnotationOverrides, then `--inbound-ports-to-ignore` in
 * charts/partials/templates/_proxy-init.tpl); proxy-init (a pflag string slice: split at commas, nothing trimmed) and
 * the CNI plugin (`strings.Split(value, ",")`) read each entry with `ParsePortRange` (linkerd2-proxy-init
 * pkg/iptables/iptables.go makeMultiportDestinations), and an entry it cannot read is logged and left out, the others
 * kept. So " 6222" (a space after the comma) skips nothing. `errors` holds the entries left out, as written.
 */
export function proxyInitPortList(value: string): PortList {
  let list = proxyInitPortLists.get(value);
  if (!list) {
    list = proxyInitPortListUncached(value);
    if (proxyInitPortLists.size < 10_000) proxyInitPortLists.set(value, list);
  }
  return list;
}

const proxyInitPortLists = new Map<string, PortList>();

function proxyInitPortListUncached(value: string): PortList {
  const out: PortList = { ranges: [], names: [], errors: [] };
  for (const entry of value.split(',')) {
    if (entry === '') continue;
    const range = goPortRange(entry);
    if (range) out.ranges.push(range);
    else out.errors.push(entry);
  }
  return out;
}

/**
 * Ports of a pod whose inbound traffic bypasses the proxy (no mTLS, no policy): those proxy-init reads from the pod's
 * list, or else its namespace's, which the injector copies to the pod (controller/proxy-injector/webhook.go
 * AppendNamespaceAnnotations), or else the cluster's default list.
 */
export function skippedInboundPorts(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): PortList {
  // Runs for every pod port the policy evaluation decides: no message text here (skippedInboundSource).
  const own = podOrNamespaceAnnotation(pod, SKIP_INBOUND_PORTS);
  if (!cniEnabledOf(index, context).enabled) return proxyInitPortList(own === undefined ? proxyInitIgnoredInboundPorts(index) : String(own));
  const cni = cniIgnoredInboundPorts(index);
  return proxyInitPortList(own === undefined ? cni : cni === '' ? String(own) : `${cni},${String(own)}`);
}

/** What sets up the pods' iptables, and so skips their inbound ports: proxy-init, or the CNI plugin in its place. */
export function inboundRedirector(index: MeshIndex, context: AnalysisContext): string {
  return cniEnabledOf(index, context).enabled ? 'the CNI plugin' : 'proxy-init';
}

/** Where a pod's skipped inbound ports come from, in words about the pod ("its own ..."), for messages. */
export function skippedInboundSource(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): string {
  const own = pod.annotations[SKIP_INBOUND_PORTS] !== undefined ? `its own ${SKIP_INBOUND_PORTS}`
    : podOrNamespaceAnnotation(pod, SKIP_INBOUND_PORTS) !== undefined ? `${SKIP_INBOUND_PORTS} of Namespace ${pod.namespace}` : undefined;
  if (!cniEnabledOf(index, context).enabled) {
    return own ?? `the cluster's proxyInit.ignoreInboundPorts "${proxyInitIgnoredInboundPorts(index)}", with no ${SKIP_INBOUND_PORTS} of its own`;
  }
  const cni = cniIgnoredInboundPorts(index);
  const plugin = `the CNI plugin's ignoreInboundPorts "${cni}"`;
  return own === undefined ? plugin : cni === '' ? own : `${own}, added to ${plugin}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Identities

/** The mTLS identity Linkerd issues to a ServiceAccount, in this analysis's trust domain. */
export function serviceAccountIdentity(serviceAccount: string, namespace: string, context: AnalysisContext): string {
  return coreServiceAccountIdentity(serviceAccount, namespace, context.trustDomain, context.controlPlaneNamespace);
}

// ---------------------------------------------------------------------------------------------------------------
// Small conveniences for rules

/** Pod templates of workloads in this output (findings on inventory objects would be dropped anyway). Shared: do not modify. */
export function ownPodTemplates(index: MeshIndex): PodTemplate[] {
  const m = memo(index);
  return m.ownPods ??= index.podTemplates.filter((pod) => !pod.owner.inventory);
}

/**
 * Namespaces with a pod template whose injection is known to be disabled. Rules about uninjected targets skip every
 * other namespace without resolving anything (Servers, routes and policies only reach pods in their own namespace).
 */
export function uninjectedNamespaces(index: MeshIndex): Set<string> {
  const m = memo(index);
  if (!m.uninjectedNamespaces) {
    m.uninjectedNamespaces = new Set();
    for (const pod of index.podTemplates) if (pod.injection === Injection.DISABLED) m.uninjectedNamespaces.add(pod.namespace);
  }
  return m.uninjectedNamespaces;
}

/** The ServiceAccount Kubernetes creates in every namespace (its ServiceAccount controller); pods without one run as it. */
export const DEFAULT_SERVICE_ACCOUNT = 'default';

/** Whether a ServiceAccount exists in the output or the inventory, or is the one every namespace has. */
export function serviceAccountExists(index: MeshIndex, namespace: string, name: string): boolean {
  return name === DEFAULT_SERVICE_ACCOUNT || index.serviceAccount(namespace, name) !== undefined;
}

/**
 * Whether some workload can present the identity of this ServiceAccount: it exists here, or in a cluster of the fleet
 * whose identities are this cluster's (Linkerd only formats the identity from the reference: inbound/index.rs
 * policy_client_authz, meshtls_authentication.rs).
 */
export function serviceAccountIdentityExists(index: MeshIndex, context: AnalysisContext, namespace: string, name: string): boolean {
  return serviceAccountExists(index, namespace, name) || context.peerServiceAccounts.includes(`${namespace}/${name}`);
}

function pushObjects(out: any[], field: unknown): void {
  if (!Array.isArray(field)) return;
  for (const c of field) if (c !== null && typeof c === 'object') out.push(c);
}

/** Containers and init containers (native sidecars are init containers) as plain objects; junk entries dropped. */
export function containersOf(pod: PodTemplate): any[] {
  const out: any[] = [];
  pushObjects(out, pod.spec.containers);
  pushObjects(out, pod.spec.initContainers);
  return out;
}

/**
 * How sure a "does not exist" finding can be: an error when the analysis sees that namespace's objects of the kind
 * in full (MeshIndex.sees: the Namespace, or the inventory's record of the kind there), else a warning where the name is
 * close to one of its kind there (a likely typo) and info otherwise, saying how to tell the analysis about the cluster. A warning too where the app itself says the object exists outside it (a
 * `fromName` reference): the author knows what another tool installs there, and the hint names that claim.
 */
export function missingReference(
  index: MeshIndex, group: string, kind: string, namespace: string, name?: string,
): { severity: Severity; hint: string } {
  const claim = name === undefined ? undefined : index.claimOf(group, kind, namespace, name);
  if (claim) return { severity: Severity.WARNING, hint: claimedHint(claim) };
  if (index.sees(group, kind, namespace)) return { severity: Severity.ERROR, hint: '' };
  // The analysis sees only part of the namespace: a name close to one of its kind there is likely a typo (a warning);
  // any other may be deployed separately, so the reference is merely unchecked (info).
  const nearMiss = name !== undefined && index.list(group, kind)
    .some((o) => (o.id.namespace ?? '') === namespace && editDistance(o.id.name, name) <= 2);
  return {
    severity: nearMiss ? Severity.WARNING : Severity.INFO,
    hint: ` (namespace ${namespace} is not part of this analysis: it has neither the Namespace nor an inventory of its ${kind}s, and `
      + `objects deployed separately may be there; if the ${kind} exists in the cluster, pass it with --inventory or MeshChecks' inventory)`,
  };
}

/**
 * Why a Service the analysis lacks is missing: certainly absent where the analysis sees that namespace's Services,
 * else only unseen (another tool's chart, a `ServiceReference.fromName`), which proves nothing either way.
 */
export function absentService(index: MeshIndex, namespace: string, name: string): { reason: string; unseen: boolean } {
  const sure = missingReference(index, '', 'Service', namespace, name);
  return sure.severity === Severity.ERROR
    ? { reason: `Service ${namespace}/${name} does not exist`, unseen: false }
    : { reason: `Service ${namespace}/${name} is not in this analysis${sure.hint}`, unseen: true };
}

/** Words for a reference the app says exists outside it. */
export function claimedHint(claim: ExistingObjectClaim): string {
  return ` (${claim.by} says it exists in the cluster outside this app; if it does, add it to MeshChecks' inventory so that the `
    + 'analysis checks it too, else fix the name)';
}

/** At most `max` items, then "and N more", so messages stay readable on large outputs. */
export function listSome(items: string[], max = 5): string {
  // Sorted, so a message does not depend on the order the input documents came in.
  const unique = [...new Set(items)].sort();
  return unique.length <= max ? unique.join(', ') : `${unique.slice(0, max).join(', ')} and ${unique.length - max} more`;
}

// ---------------------------------------------------------------------------------------------------------------
// ExternalWorkloads and the Servers that claim their ports

/** `spec.externalWorkloadSelector` of a Server, when it is an object. */
export function serverExternalSelector(server: IndexedObject): LabelSelector | undefined {
  const selector = specOf(server).externalWorkloadSelector;
  return selector !== null && typeof selector === 'object' && !Array.isArray(selector) ? selector : undefined;
}

/** An ExternalWorkload's TCP ports by name (inbound/workload.rs external_tcp_ports_by_name: TCP or no protocol, named). */
export function externalPortNames(workload: IndexedObject): Map<string, number> {
  const names = new Map<string, number>();
  const ports = workload.object.spec?.ports;
  for (const p of Array.isArray(ports) ? ports : []) {
    if (!p || typeof p.name !== 'string' || !Number.isInteger(p.port)) continue;
    if (typeof p.protocol === 'string' && p.protocol.toUpperCase() !== 'TCP') continue;
    names.set(p.name, p.port);
  }
  return names;
}

/** The port of an ExternalWorkload a Server's port selects (inbound/index.rs ExternalWorkload::selects_port). */
export function externalServerPort(server: IndexedObject, workload: IndexedObject): number | undefined {
  const port = serverPort(server);
  if (typeof port === 'number') return port;
  return port === undefined ? undefined : externalPortNames(workload).get(port);
}

/** Which ExternalWorkloads each Server selects, and which Servers claim each of their ports, in claim order. */
export interface ExternalCoverage {
  workloadsOf(server: IndexedObject): readonly IndexedObject[];
  /** Port → the Servers that select it on this workload, the first being the one Linkerd applies. */
  claimedPorts(workload: IndexedObject): ReadonlyMap<number, readonly IndexedObject[]>;
}

/**
 * ExternalWorkload::reindex_servers: Servers in creation-then-name order; one whose externalWorkloadSelector matches the
 * workload's labels claims the port it selects there, unless an earlier Server has it ("Port already matched by another
 * server; skipping"), and a named port the workload lacks is skipped. Workloads of the inventory count (others' Servers
 * may select them); only the Server's own namespace is searched.
 */
export const externalWorkloadCoverage = perIndex((index: MeshIndex): ExternalCoverage => {
  const workloads = new Map<IndexedObject, IndexedObject[]>();
  const claims = new Map<IndexedObject, Map<number, IndexedObject[]>>();
  const byNamespace = new Map<string, IndexedObject[]>();
  for (const w of index.list(WORKLOAD_GROUP, 'ExternalWorkload')) {
    const list = byNamespace.get(w.id.namespace ?? '');
    if (list) list.push(w); else byNamespace.set(w.id.namespace ?? '', [w]);
  }
  for (const server of [...index.list(POLICY_GROUP, 'Server')].sort(claimOrder)) {
    const selector = serverExternalSelector(server);
    if (!selector) continue;
    const selected = (byNamespace.get(namespaceOf(server)) ?? []).filter((w) => selectorMatches(selector, labelsOf(w.object)));
    workloads.set(server, selected);
    for (const w of selected) {
      const port = externalServerPort(server, w);
      if (port === undefined) continue;
      let byPort = claims.get(w);
      if (!byPort) claims.set(w, byPort = new Map());
      const list = byPort.get(port);
      if (list) list.push(server); else byPort.set(port, [server]);
    }
  }
  return {
    workloadsOf: (server) => workloads.get(server) ?? [],
    claimedPorts: (workload) => claims.get(workload) ?? new Map(),
  };
});

/**
 * Whether an ExternalWorkload has an address: the external workload controller skips one without workloadIPs, so it is
 * no endpoint of any Service (controller/api/destination/external-workload/endpoints_reconciler.go reconcileByAddressType).
 */
export function externalWorkloadHasAddress(workload: IndexedObject): boolean {
  const ips = workload.object.spec?.workloadIPs;
  return Array.isArray(ips) && ips.length > 0;
}

/**
 * Whether an ExternalWorkload lists the target of a Service port: unlike a pod, it must, by targetPort name or number,
 * with the same protocol (case-sensitive) as the Service port (endpoints_reconciler.go findWorkloadPort).
 */
export function externalWorkloadListsPort(workload: IndexedObject, servicePort: Record<string, any>): boolean {
  const target = servicePort.targetPort ?? servicePort.port;
  const protocol = typeof servicePort.protocol === 'string' ? servicePort.protocol : 'TCP';
  const ports = workload.object.spec?.ports;
  return (Array.isArray(ports) ? ports : []).some((p) => p && (typeof p.protocol === 'string' ? p.protocol : 'TCP') === protocol
    && (typeof target === 'string' ? p.name === target : p.port === target));
}

/** Whether an ExternalWorkload is an endpoint of a Service port: it has an address and lists the port's target. */
export function externalWorkloadServes(workload: IndexedObject, servicePort: Record<string, any>): boolean {
  return externalWorkloadHasAddress(workload) && externalWorkloadListsPort(workload, servicePort);
}
