/**
 * Retries multiply: a client proxy that retries a request up to `limit` times sends up to 1 + limit attempts, and the
 * workload behind it, if it retries its own calls, multiplies again. Along a chain of declared calls (the calls
 * annotation) the worst-case attempts reaching a hop are the product of (1 + retry limit) of the request classes on the
 * way: the route each call lands on (its retry annotations, or its parent Service's) or, without routes, the Service's
 * default route.
 */
import { CALLS_ANNOTATION, RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION } from '../../../core/vocabulary';
import { compareStrings } from '../../../util/compare';
import { idLabel } from '../../../util/labels';
import { inboundRoutes, routeFor } from '../../model/inbound-routes';
import { annotationOf } from '../../model/manifest';
import { IndexedObject, MeshIndex, PodTemplate } from '../../model/mesh-index';
import { OutboundProtocol, outboundPolicy, servedTo, servicePortProtocol } from '../../model/outbound';
import { workloadLabel } from '../../model/pod-templates';
import { RouteFamily } from '../../model/routes/lists';
import { servicePorts } from '../../model/service-ports';
import { AnalysisContext } from '../../options';
import { DeclaredCall, parseCalls } from '../policy/declared-calls';
import { RetrySettings, annotationsRead, describeKeys, effectiveRetry, retryBlockKeys, retrySettingsOf } from '../retry/retry-config';

const HTTP_KEYS: readonly string[] = [RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION];

/** One request class of a Service port, as a client proxy serves it, and the attempts one request of it may make. */
export interface RetryClass {
  /** `HTTPRoute ns/name`, `GRPCRoute ns/name`, `the default route` or `opaque (no HTTP routing)`. */
  readonly name: string;
  /** 1 + the retry limit: the attempts one request of this class can make (1 without retries). */
  readonly factor: number;
  /** Where the retries are set (`retry.linkerd.io/limit="3" on Service ns/orders`); undefined without retries. */
  readonly source?: string;
}

function classOf(name: string, settings: RetrySettings | undefined): RetryClass {
  if (!settings) return { name, factor: 1 };
  return { name, factor: 1 + settings.limit, source: `${describeKeys(settings.source, settings.keys)} on ${idLabel(settings.source.id)}` };
}

/** The Service's own retry block for the default route (outbound index: the Service's annotations), if readable. */
function defaultRouteRetry(service: IndexedObject): RetrySettings | undefined {
  const keys = retryBlockKeys(service, HTTP_KEYS);
  return keys.length > 0 && annotationsRead(service, HTTP_KEYS) ? retrySettingsOf(service, keys) : undefined;
}

interface ServedClasses {
  readonly classes: RetryClass[];
  /** The class a request lands on; undefined when it matches no route (the client proxy answers 404, no retry). */
  pick(request: DeclaredCall['request']): RetryClass | undefined;
}

function served(index: MeshIndex, context: AnalysisContext, service: IndexedObject, port: number, clientNamespace: string): ServedClasses {
  const view = outboundPolicy(index, context).get(service)?.get(port);
  const protocol = (view?.protocol ?? servicePortProtocol(index, service, port, context)).protocol;
  if (protocol === OutboundProtocol.OPAQUE || protocol === OutboundProtocol.UNKNOWN) {
    const opaque = { name: 'opaque (no HTTP routing, no retries)', factor: 1 };
    return { classes: [opaque], pick: () => opaque };
  }
  const routes = view ? servedTo(view, clientNamespace) : { family: undefined, routes: [] };
  if (routes.family !== RouteFamily.HTTP && routes.family !== RouteFamily.GRPC) {
    const only = classOf('the default route', defaultRouteRetry(service));
    return { classes: [only], pick: () => only };
  }
  const classes = new Map<IndexedObject, RetryClass>(
    routes.routes.map((r) => [r.route, classOf(idLabel(r.route.id), effectiveRetry(r.route, index))]));
  const matchable = inboundRoutes(routes.routes.map((r) => r.route), routes.family === RouteFamily.GRPC ? 'grpc' : 'http', [], []);
  return {
    classes: [...classes.values()],
    pick: (request) => {
      const route = request ? routeFor(matchable, request)?.route : undefined;
      return route ? classes.get(route) : undefined;
    },
  };
}

/** The request classes of a Service port for clients in `clientNamespace` (explain shows them). */
export function retryClasses(
  index: MeshIndex, context: AnalysisContext, service: IndexedObject, port: number, clientNamespace: string,
): RetryClass[] {
  return served(index, context, service, port, clientNamespace).classes;
}

/** One declared call on a chain: who calls which Service port, the class its requests use, and who answers. */
export interface ChainHop {
  readonly caller: PodTemplate;
  readonly call: DeclaredCall;
  readonly retry: RetryClass;
  readonly targets: readonly PodTemplate[];
}

export interface RetryChain {
  readonly hops: readonly ChainHop[];
  /** The product of the hops' factors: worst-case attempts reaching the last hop's workloads for one request. */
  readonly factor: number;
}

/** The hops a workload's declared calls make (calls to Services not in the analysis, or not resolvable, are skipped). */
function hopsOf(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): ChainHop[] {
  const value = annotationOf(pod.owner.object, CALLS_ANNOTATION);
  if (typeof value !== 'string') return [];
  return parseCalls(value, pod.namespace).calls.flatMap((call) => {
    const service = index.service(call.namespace, call.service);
    const port = servicePorts(service).find((p) => p.port === call.port || p.name === call.port)?.port;
    if (!service || port === undefined) return [];
    const classes = served(index, context, service, port, pod.namespace);
    // Without a declared request, the worst class the call may use; a request no route matches is answered 404.
    const retry = call.request ? classes.pick(call.request) ?? { name: 'no route (404 from the client proxy)', factor: 1 }
      : classes.classes.reduce((a, b) => (b.factor > a.factor ? b : a));
    const targets = byWorkload(index.podTemplatesForService(service).filter((p) => !p.owner.inventory));
    return [{ caller: pod, call, retry, targets }];
  });
}

/**
 * The pod templates in workload-label order. Each label is built once: a comparator that built both labels would build
 * two strings per comparison, n log n of them over thousands of workloads.
 */
function byWorkload(pods: readonly PodTemplate[]): PodTemplate[] {
  const labelled = pods.map((pod) => ({ pod, label: workloadLabel(pod) }));
  labelled.sort((a, b) => compareStrings(a.label, b.label));
  return labelled.map((l) => l.pod);
}

/** At most this many calls deep: a chain longer than any real request path is a cycle unrolled. */
const MAX_DEPTH = 16;
/** Chains are paths through a call graph, whose count can grow exponentially with fan-out: enough for any real mesh. */
const MAX_CHAINS = 10_000;

/**
 * Every maximal chain of declared calls from the workloads nobody calls (and from those only reached in a cycle),
 * with its worst-case factor. A cycle ends a chain at the hop that reaches a workload already on it.
 */
export function retryChains(index: MeshIndex, context: AnalysisContext): RetryChain[] {
  // Workload order, not input order: which workload of a cycle starts its chain must not depend on the input.
  const hops = new Map<PodTemplate, ChainHop[]>();
  for (const pod of index.podTemplates) if (!pod.owner.inventory) hops.set(pod, hopsOf(index, context, pod));
  // Only workloads that declare calls start or continue a chain: without any, there is nothing to order or walk.
  if (![...hops.values()].some((list) => list.length > 0)) return [];
  const own = byWorkload([...hops.keys()]);
  const called = new Set([...hops.values()].flatMap((list) => list.flatMap((h) => h.targets)));
  const chains: RetryChain[] = [];
  const visited = new Set<PodTemplate>();
  const walk = (pod: PodTemplate, path: ChainHop[], factor: number, onPath: Set<PodTemplate>) => {
    visited.add(pod);
    if (chains.length >= MAX_CHAINS) return;
    const next = (hops.get(pod) ?? []).flatMap((hop) => hop.targets.map((t) => ({ hop, target: t })));
    if (next.length === 0 || path.length >= MAX_DEPTH) {
      if (path.length > 0) chains.push({ hops: path, factor });
      return;
    }
    for (const { hop, target } of next) {
      const longer = [...path, { ...hop, targets: [target] }];
      // A workload already on the chain is reached again (that hop counts) and the chain ends there.
      if (onPath.has(target)) chains.push({ hops: longer, factor: factor * hop.retry.factor });
      else walk(target, longer, factor * hop.retry.factor, new Set([...onPath, target]));
    }
  };
  for (const pod of own.filter((p) => (hops.get(p) ?? []).length > 0 && !called.has(p))) walk(pod, [], 1, new Set([pod]));
  for (const pod of own) {
    // Workloads only reached in a cycle: the first one not yet walked starts a chain.
    if ((hops.get(pod) ?? []).length > 0 && !visited.has(pod)) walk(pod, [], 1, new Set([pod]));
  }
  return chains;
}

/** `Deployment a → orders.shop:8080 [HTTPRoute shop/orders: ×4, retry.linkerd.io/limit="3" on …] → Deployment b`. */
export function describeChain(chain: RetryChain): string {
  const parts = [workloadLabel(chain.hops[0].caller)];
  for (const hop of chain.hops) {
    const request = hop.call.request ? ` ${[hop.call.request.method, hop.call.request.path].filter(Boolean).join(' ')}` : '';
    const retry = hop.retry.source ? `${hop.retry.name}: ×${hop.retry.factor}, ${hop.retry.source}` : `${hop.retry.name}: no retry`;
    parts.push(`${hop.call.service}.${hop.call.namespace}:${hop.call.port}${request} [${retry}]`, workloadLabel(hop.targets[0]));
  }
  return parts.join(' → ');
}
