/**
 * Opaque ports as the injector leaves them on pods and Services and as the policy controller then reads them: linkerd2
 * pkg/inject/inject.go (`FilterPodOpaquePorts`, `CreateOpaquePortsPatch`), controller/proxy-injector/webhook.go (a
 * namespace's annotation copied to its pods and Services), and policy-controller/k8s/index/src/inbound/workload.rs and
 * outbound/index.rs (the annotation read with parse_portset, the cluster default without one).
 */
import { controllerPortSet, parsePortList, PortList, portListHas } from '../../../core/port-lists';
import { OPAQUE_PORTS_ANNOTATION } from '../../../core/vocabulary';
import { AnalysisContext } from '../../options';
import { annotationOf, labelsOf, textOf } from '../manifest';
import { perIndex } from '../memo';
import { IndexedObject, Injection, MeshIndex, PodTemplate } from '../mesh-index';

/** The tables this module builds for an index, each on first use. */
interface Memo {
  /** Each pod's opaque ports as the policy controller reads them, for the context they were read under. */
  podOpaque?: { readonly context: AnalysisContext; readonly byPod: Map<PodTemplate, PortList | undefined> };
}

const memo = perIndex((_index: MeshIndex): Memo => ({}));

/** An object's own `config.linkerd.io/opaque-ports`, as text. */
function opaquePortsAnnotation(entry: IndexedObject | undefined): string | undefined {
  return entry ? annotationOf(entry.object, OPAQUE_PORTS_ANNOTATION) : undefined;
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
function defaultsAmong(context: AnalysisContext, ports: readonly string[]): string | undefined {
  const defaults = defaultEntries(context);
  let listed: string | undefined;
  for (const port of ports) if (defaults.includes(port)) listed = listed === undefined ? port : `${listed},${port}`;
  return listed;
}

/**
 * What the policy controller reads as a pod's opaque-ports: what the injector left on it (its own value, else its
 * namespace's, else the defaults it exposes as container ports: webhook.go and inject.go `FilterPodOpaquePorts`).
 */
function podOpaquePortsAsInjected(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): string | undefined {
  const own = textOf(pod.annotations, OPAQUE_PORTS_ANNOTATION);
  if (own !== undefined) return own;
  const ports: string[] = [];
  for (const p of pod.ports) ports.push(String(p.containerPort));
  return namespaceOpaquePorts(index, pod.namespace) ?? defaultsAmong(context, ports);
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
  const value = defaultOpaqueServicePorts(context, service);
  return value === undefined ? undefined : { value, source: OpaqueSource.DEFAULTS };
}

/** The Service ports whose targetPort is a default opaque port, joined; a loop, as this runs once per Service port, cold. */
function defaultOpaqueServicePorts(context: AnalysisContext, service: IndexedObject): string | undefined {
  const ports = service.object.spec?.ports;
  if (!Array.isArray(ports)) return undefined;
  const defaults = defaultEntries(context);
  let listed: string | undefined;
  for (const p of ports) {
    if (typeof p?.port !== 'number') continue;
    // A named targetPort's number is 0 to the injector (IntVal), so it never matches a default.
    const target = String(p.targetPort === undefined ? p.port : typeof p.targetPort === 'number' ? p.targetPort : 0);
    if (defaults.includes(target)) listed = listed === undefined ? String(p.port) : `${listed},${p.port}`;
  }
  return listed;
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

/**
 * Whether the destination controller's endpoint profile marks a pod port opaque: what a client proxy follows when it
 * dials the pod's own IP (the pods behind a headless Service, a pod address), for which no Service's annotation is read
 * (controller/api/destination/server.go getProfileByIP → subscribeToEndpointProfile;
 * controller/api/destination/watcher/workload_watcher.go GetAnnotatedOpaquePorts). The pod's annotation as the injector
 * left it counts, named ports resolved against its containers; a pod without one gets the whole cluster default list.
 */
export function endpointProfileOpaqueOnPod(index: MeshIndex, context: AnalysisContext, pod: PodTemplate, port: number): boolean {
  // Only an injected pod gets the namespace's list (or the defaults among its ports) written onto it.
  const own = textOf(pod.annotations, OPAQUE_PORTS_ANNOTATION);
  const written = pod.injection === Injection.ENABLED ? podOpaquePortsAsInjected(index, context, pod) : own;
  const name = pod.ports.find((p) => p.containerPort === port && p.name)?.name;
  return portListHas(parsePortList(written ?? context.defaultOpaquePorts, true), port, name);
}
