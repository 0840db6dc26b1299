/**
 * Servers and the pod ports they claim, as the policy controller's inbound index computes them: linkerd2
 * policy-controller/k8s/index/src/inbound/server.rs (the Server spec), inbound/index.rs (`Pod::select_ports`, the
 * claim order among competing Servers, routes bound to a Server) and inbound/workload.rs (`pod_tcp_ports_by_name`).
 */
import { GATEWAY_GROUP, POLICY_GROUP } from '../../../core/vocabulary';
import { compareStrings } from '../../../util/compare';
import { proxyAdminPort, proxyInboundPort } from '../injector/proxy-ports';
import { perIndex } from '../memo';
import { IndexedObject, Injection, MeshIndex, PodTemplate } from '../mesh-index';
import { NamespacedLists } from '../namespaced-lists';
import { namespaceOf, specOf } from '../objects';
import { asRef } from '../refs';
import { inboundBindingProblem } from '../routes/conversion';
import { isServerParent } from '../routes/parents';
import { LabelSelector } from '../selectors';

/** The tables this module builds for an index, each on first use. */
interface Memo {
  coverage?: ServerCoverage;
  serverRoutes?: NamespacedLists<IndexedObject>;
}

const memo = perIndex((_index: MeshIndex): Memo => ({}));

export const PROXY_PROTOCOLS = ['unknown', 'HTTP/1', 'HTTP/2', 'gRPC', 'opaque', 'TLS'];

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

/** Servers claim a numeric port even when no container declares it; a named port only when a container has it. */
/** A selector as a key: Servers with the same one select the same pods, so the selection runs once for all of them. */
function selectorKey(namespace: string, selector: LabelSelector): string {
  const labels = Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) => compareStrings(a, b));
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

/**
 * `judge(pods, port)` once per selection and port: Servers with the same selector share one `podsOf` list (the
 * coverage selects once per selector), so a rule that looks at every pod a Server selects costs N, not N², when N
 * Servers select the same N pods on one port. The answer must depend on the pods and the port alone.
 */
export function perSelectionAndPort<T>(coverage: ServerCoverage, judge: (pods: readonly PodTemplate[], port: number | string) => T):
(server: IndexedObject, port: number | string) => T {
  const answers = new Map<readonly PodTemplate[], Map<number | string, T>>();
  return (server, port) => {
    const pods = coverage.podsOf(server);
    let byPort = answers.get(pods);
    if (!byPort) answers.set(pods, byPort = new Map());
    if (!byPort.has(port)) byPort.set(port, judge(pods, port));
    return byPort.get(port) as T;
  };
}

/** Every route kind that can attach to a Server (inbound routes). */
export function inboundRouteKinds(index: MeshIndex): IndexedObject[] {
  return [
    ...index.list(POLICY_GROUP, 'HTTPRoute'),
    ...index.list(GATEWAY_GROUP, 'HTTPRoute'),
    ...index.list(GATEWAY_GROUP, 'GRPCRoute'),
  ];
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
