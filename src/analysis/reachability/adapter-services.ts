/**
 * Outbound, per Service port, in the plain views explain and diff read: the protocol, the routes every client is
 * served (the outbound model, model/outbound.ts), their rules, backends, retries and timeouts, and the request-level
 * evaluation (policy/outbound-requests.ts) that says what each request class gets.
 */
import { ruleMatches } from './adapter-words';
import { rulesCoverAll } from '../../core/route-coverage';
import { compareStrings } from '../../util/compare';
import { idLabel } from '../../util/labels';
import { resolveContainerPort } from '../model/inbound/servers';
import { MetadataMap, annotationsOf, textOf } from '../model/manifest';
import { MeshIndex, PodTemplate } from '../model/mesh-index';
import { IndexedObject } from '../model/object-store';
import { OutboundProtocol, PortRoute, ServicePortPolicy, outboundPolicy, servedTo, servedFamilies, servicePortProtocol } from '../model/outbound';
import { AnalysisContext } from '../options';
import { RuleShares, routeShares } from '../policy';
import { OutboundRequests, outboundRequests } from './outbound-requests';
import { BackendView, PortPolicyView, ServicePortView, ServiceRouteView, UnusedRouteView } from './views';
import { specOf } from '../model/objects';
import { refList } from '../model/refs';
import { isHeadless } from '../model/service-ports';

/** The annotations whose key starts with `prefix`, sorted by key; only values Kubernetes accepts (textOf). */
export function prefixed(annotations: MetadataMap, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(annotations).sort(compareStrings)) {
    const value = textOf(annotations, key);
    if (key.startsWith(prefix) && value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * A Service backend the output and inventory lack, where the namespace's Services are all known: its share fails with
 * HTTP 500 (grpc/src/outbound/http.rs convert_backend, invalid_backend "Service not found").
 */
function missingBackend(index: MeshIndex, b: RuleShares['backends'][number]): string | undefined {
  if (b.kind !== 'Service' || b.implicit || index.service(b.namespace, b.name) || !index.sees('', 'Service', b.namespace)) return undefined;
  return 'no such Service: this share fails with HTTP 500';
}

function backendViews(index: MeshIndex, rule: RuleShares | undefined): BackendView[] {
  return (rule?.backends ?? []).map((b) => {
    const fails = missingBackend(index, b);
    return {
      name: `${b.namespace}/${b.name}${b.port === undefined ? '' : `:${b.port}`}`, kind: b.kind, weight: b.weight, percent: b.percent, ...(fails ? { fails } : {}),
    };
  });
}

function timeoutsOf(rule: any): Record<string, string> {
  const out: Record<string, string> = {};
  const t = rule?.timeouts;
  if (t && typeof t === 'object') for (const key of ['request', 'backendRequest']) if (t[key] !== undefined) out[key] = String(t[key]);
  return out;
}

function serviceRouteView(index: MeshIndex, route: IndexedObject, shares: Map<string, RuleShares>): ServiceRouteView {
  const rules = Array.isArray(specOf(route).rules) ? specOf(route).rules : [];
  const annotations = annotationsOf(route.object);
  return {
    id: route.id,
    name: `${route.id.kind} ${route.id.name}`,
    rules: rules.map((rule: any, i: number) => ({
      index: i, matches: ruleMatches(rule), backends: backendViews(index, shares.get(`${idLabel(route.id)}#${i}`)), timeouts: timeoutsOf(rule),
    })),
    retries: prefixed(annotations, 'retry.linkerd.io/'),
    timeouts: prefixed(annotations, 'timeout.linkerd.io/'),
  };
}

function serviceProtocol(
  index: MeshIndex, context: AnalysisContext, service: IndexedObject, sp: any, endpoints: Array<{ readonly view: PortPolicyView }>,
): string {
  const protocol = servicePortProtocol(index, service, sp.port, context);
  // A headless Service's pods decide (endpoint profile), whatever its appProtocol says.
  if (isHeadless(service)) return `${protocol.protocol === OutboundProtocol.OPAQUE ? 'opaque' : 'detected'} (${protocol.origin})`;
  if (typeof sp.appProtocol === 'string') return `${sp.appProtocol} (appProtocol)`;
  // The origin says whose list it is: the Service's annotation, or the injector's (namespace, else cluster defaults).
  if (protocol.protocol === OutboundProtocol.OPAQUE) return `opaque (${protocol.origin})`;
  // Without an appProtocol the client proxy detects the protocol (to_proto: Detect) whatever the endpoints' Server says;
  // the Server's proxyProtocol is told beside it, since it decides what the server side expects.
  const servers = [...new Set(endpoints.map((e) => e.view.server && e.view.protocol).filter((p): p is string => !!p))];
  if (servers.length === 1) return `detected (no appProtocol; the endpoints' Server: ${servers[0]})`;
  return 'detected (HTTP/1, HTTP/2 or opaque TCP)';
}

/** The inbound view of a workload port (the endpoints of a Service port). */
export type EntryOf = (pod: PodTemplate, port: number) => { readonly view: PortPolicyView } | undefined;

/** grpc/src/outbound/http.rs base_http_routes: once a route is served the default route is gone. */
function unmatchedOf(served: readonly IndexedObject[]): { unmatched?: string } {
  if (served.length === 0 || served.some((r) => rulesCoverAll(specOf(r).rules, r.id.kind === 'GRPCRoute'))) return {};
  return { unmatched: 'get HTTP 404 (gRPC: UNIMPLEMENTED): once a route is served, Linkerd drops the default route' };
}

/** Why a route that names this port is not among the routes every client is served (the outbound model's reading). */
function unusedReason(view: ServicePortPolicy, r: PortRoute): string {
  if (r.unconvertible !== undefined) return `${r.unconvertible}, so the whole route fails conversion: Linkerd never uses it`;
  if (!r.accepted) {
    const by = r.conflictedBy.map((c) => idLabel(c.id)).join(', ');
    return `its status is conflicted${by ? ` by ${by}` : ''} (an identical parentRef of a higher-ranked route kind): Linkerd never uses it here`;
  }
  if (!servedFamilies(view.protocol.protocol).includes(r.family)) {
    return `the port's protocol (${view.protocol.origin}) serves no ${r.family}: Linkerd never uses it here`;
  }
  if (!r.producer) {
    const consumers = servedTo(view, r.clients);
    if (consumers.routes.some((c) => c.route === r.route)) return `a consumer route: only clients in namespace ${r.clients} use it`;
    return `a consumer route for namespace ${r.clients}, where a ${consumers.family} is served first: unused`;
  }
  return `a ${view.servedFamily} is served on this port first: unused`;
}

/** The port's routes as the outbound index resolves them (model/outbound.ts): served to every client, and the rest. */
function portRoutes(view: ServicePortPolicy | undefined): { served: IndexedObject[]; unused: UnusedRouteView[] } {
  if (!view) return { served: [], unused: [] };
  const served = new Set(view.served);
  return {
    served: view.served.map((r) => r.route),
    unused: view.attached.filter((r) => !served.has(r)).map((r) => ({ id: r.route.id, name: `${r.route.id.kind} ${r.route.id.name}`, reason: unusedReason(view, r) })),
  };
}

/** The Service ports of the output, and each one's request-level outbound evaluation by target. */
export interface ServicePorts {
  readonly views: ServicePortView[];
  readonly requests: Map<string, OutboundRequests>;
  /** `EgressNetwork ns/name:port` → the request-level evaluation of each EgressNetwork port some route names. */
  readonly egress: Map<string, OutboundRequests>;
}

export function servicePorts(index: MeshIndex, context: AnalysisContext, entries: EntryOf): ServicePorts {
  const shares = new Map<string, RuleShares>();
  for (const rule of routeShares(index)) shares.set(`${idLabel(rule.route)}#${rule.ruleIndex}`, rule);
  const outbound = outboundPolicy(index, context);
  const out: ServicePortView[] = [];
  const requests = new Map<string, OutboundRequests>();
  for (const service of index.own('', 'Service')) {
    const namespace = service.id.namespace ?? '';
    const name = service.id.name;
    const annotations = annotationsOf(service.object);
    for (const sp of refList(specOf(service).ports) as any[]) {
      if (typeof sp.port !== 'number') continue;
      const targetPort = sp.targetPort ?? sp.port;
      const endpoints = index.podTemplatesForService(service).flatMap((pod) => {
        const number = typeof targetPort === 'number' ? targetPort : resolveContainerPort(pod, String(targetPort));
        const entry = number === undefined ? undefined : entries(pod, number);
        return entry ? [entry] : [];
      });
      const portView = outbound.get(service)?.get(sp.port);
      const { served, unused } = portRoutes(portView);
      requests.set(`${namespace}/${name}:${sp.port}`, outboundRequests(index, service, sp.port, portView));
      out.push({
        target: `${namespace}/${name}:${sp.port}`,
        namespace,
        name,
        port: sp.port,
        protocol: serviceProtocol(index, context, service, sp, endpoints),
        routes: served.map((r) => serviceRouteView(index, r, shares)),
        ...(unused.length > 0 ? { unusedRoutes: unused } : {}),
        defaultRoute: served.length === 0 ? `every request goes to the endpoints of Service ${namespace}/${name} port ${sp.port}` : undefined,
        ...unmatchedOf(served),
        retries: prefixed(annotations, 'retry.linkerd.io/'),
        timeouts: prefixed(annotations, 'timeout.linkerd.io/'),
        endpoints: endpoints.map((e) => e.view.target),
      });
    }
  }
  const egress = new Map<string, OutboundRequests>();
  for (const [parent, ports] of outbound) {
    if (parent.id.kind !== 'EgressNetwork') continue;
    for (const [port, view] of ports) egress.set(`EgressNetwork ${parent.id.namespace}/${parent.id.name}:${port}`, outboundRequests(index, parent, port, view));
  }
  return { views: out, requests, egress };
}
