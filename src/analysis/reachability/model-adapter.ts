/**
 * The ONE module of reachability/ that reads the policy evaluation (src/analysis/policy) and the mesh index. It turns
 * them into the plain views of views.ts; explain, diff, plan-deny and the picture read only those. Service ports read
 * the outbound model (model/outbound.ts), so what explain says a client is served is what the routing rules judge.
 *
 * Linear in the objects: ports and Service ports are listed once; per port, only the callers its authorizations name
 * (plus the declared callers and a handful of caller classes) are decided, never every identity against every port.
 */
import { rulesCoverAll } from '../../core/route-coverage';
import { CALLS_ANNOTATION, POLICY_GROUP } from '../../core/vocabulary';
import { AnalysisResult } from '../engine';
import { FindingEffect, Severity } from '../finding';
import {
  AuthorizationView, BackendView, CallVerdict, CallerKind, CallerView, DeclaredCallView, IgnoredView, MeshModel, PortPolicyView,
  RouteView, ServicePortView, ServiceRouteView, UnusedRouteView, compareText, idText,
} from './views';
import { authorizationTarget, authorizationTargets } from '../model/inbound/authorizations';
import { httpProbes } from '../model/inbound/probes';
import { resolveContainerPort } from '../model/inbound/servers';
import { InboundRoute, routeFor } from '../model/inbound-routes';
import { proxyAdminPort } from '../model/injector/proxy-ports';
import { ResourceId, annotationsOf } from '../model/manifest';
import { IndexedObject, Injection, MeshIndex, PodTemplate } from '../model/mesh-index';
import { absentService } from '../model/missing-references';
import { specOf } from '../model/objects';
import { OutboundProtocol, PortRoute, ServicePortPolicy, outboundPolicy, servedTo, servedFamilies, servicePortProtocol } from '../model/outbound';
import { isCoreRef, isPolicyRef, refList } from '../model/refs';
import { AnalysisContext } from '../options';
import {
  Caller, Decision, InboundPolicy, PortPolicy, declaredPorts, evaluateInboundPolicy, routeShares, RuleShares,
} from '../policy';
import { parseCalls } from '../rules/policy/declared-calls';

/** The reserved names of the caller classes (none is a valid `namespace/serviceaccount`). */
export const OTHER_MESHED = 'other-meshed';
export const UNAUTHENTICATED = 'unauthenticated';
export const EXTERNAL = 'external';
export const KUBELET = 'kubelet';

/** The ServiceAccount of a namespace-wide caller class (`ns/*`), as `*.ns.serviceaccount...` patterns name it. */
const NOWHERE = '*';
/**
 * The namespace and ServiceAccount of the `other-meshed` representative: a label no identity pattern names, so only
 * patterns that match every identity of the trust domain admit it. (`*` would not do: `*.*.serviceaccount...` names a
 * literal `*` label, core/src/identity_match.rs, and matches nobody.)
 */
const UNNAMED = '\u0000';
/** An address outside every private and carrier-grade range, for the `external` class. */
const OUTSIDE_IP = '203.0.113.7';

/** linkerd-viz's own Prometheus, assumed to scrape when its ServiceAccount is in the input. */
const VIZ_PROMETHEUS = ['linkerd-viz', 'prometheus'];


// ---------------------------------------------------------------------------------------------------------------
// Callers

function identityCaller(namespace: string, serviceAccount: string, workloads: string[] = []): CallerView {
  const key = serviceAccount === NOWHERE ? `${namespace}/*` : `${namespace}/${serviceAccount}`;
  return { key, kind: serviceAccount === NOWHERE ? CallerKind.NAMESPACE : CallerKind.IDENTITY, namespace, serviceAccount, workloads };
}

const CLASS_CALLERS: CallerView[] = [
  { key: OTHER_MESHED, kind: CallerKind.OTHER_MESHED, workloads: [] },
  { key: UNAUTHENTICATED, kind: CallerKind.UNAUTHENTICATED, workloads: [] },
  { key: EXTERNAL, kind: CallerKind.EXTERNAL, workloads: [] },
];

const KUBELET_CALLER: CallerView = { key: KUBELET, kind: CallerKind.KUBELET, workloads: [] };

/** The caller as the policy evaluation takes it. */
function toCaller(view: CallerView): Caller {
  switch (view.kind) {
    case CallerKind.IDENTITY: case CallerKind.NAMESPACE:
      return { meshed: true, namespace: view.namespace, serviceAccount: view.serviceAccount, label: `meshed ${view.key}` };
    case CallerKind.OTHER_MESHED:
      return { meshed: true, namespace: UNNAMED, serviceAccount: UNNAMED, label: 'any other meshed identity' };
    case CallerKind.EXTERNAL:
      return { meshed: false, ip: OUTSIDE_IP, inCluster: false, label: 'an unmeshed client outside the cluster networks' };
    case CallerKind.KUBELET:
      return { meshed: false, inCluster: true, label: 'the kubelet (probes, unauthenticated)' };
    default:
      return { meshed: false, inCluster: true, label: 'an unmeshed (plaintext) client in the cluster' };
  }
}

/** `sa.ns.serviceaccount.identity.<cp>.<td>` → [ns, sa]; `*.ns.serviceaccount...` → [ns, '*']. */
function identityParts(pattern: string): [string, string] | undefined {
  const parts = pattern.split('.');
  if (parts.length < 4 || parts[2] !== 'serviceaccount' || parts[3] !== 'identity') return undefined;
  return [parts[1], parts[0] === '*' ? NOWHERE : parts[0]];
}

// ---------------------------------------------------------------------------------------------------------------
// Words for objects

function workloadText(pod: PodTemplate): string {
  return `${pod.namespace}/${pod.owner.id.name}`;
}

function portTarget(pod: PodTemplate, port: number): string {
  return `${workloadText(pod)}:${port}`;
}

function matchText(match: any): string {
  if (!match || typeof match !== 'object') return 'every request';
  const parts: string[] = [];
  if (typeof match.method === 'string') parts.push(match.method);
  else if (match.method && typeof match.method === 'object') parts.push(`${match.method.service ?? '*'}/${match.method.method ?? '*'}`);
  if (match.path && typeof match.path === 'object') parts.push(`${match.path.value ?? '/'} (${match.path.type ?? 'PathPrefix'})`);
  for (const h of refList(match.headers) as any[]) parts.push(`header ${h.name}: ${h.value}`);
  for (const q of refList(match.queryParams) as any[]) parts.push(`query ${q.name}=${q.value}`);
  return parts.length > 0 ? parts.join(' ') : 'every request';
}

function ruleMatches(rule: any): string[] {
  const matches = Array.isArray(rule?.matches) ? rule.matches : [];
  return matches.map(matchText);
}

function routeMatchTexts(route: IndexedObject): string[] {
  const rules = Array.isArray(specOf(route).rules) ? specOf(route).rules : [];
  return rules.flatMap(ruleMatches);
}

function authenticationWords(index: MeshIndex, policy: IndexedObject): string[] {
  const ns = policy.id.namespace;
  return refList(specOf(policy).requiredAuthenticationRefs).map((ref) => {
    const refNs = ref.namespace ?? ns;
    if (isPolicyRef(ref, 'MeshTLSAuthentication')) {
      const authn = index.get(POLICY_GROUP, 'MeshTLSAuthentication', refNs, String(ref.name));
      if (!authn) return `MeshTLSAuthentication ${ref.name} (missing: Linkerd ignores the policy)`;
      const spec = specOf(authn);
      const who = Array.isArray(spec.identities)
        ? spec.identities.map(String)
        : refList(spec.identityRefs).map((r) => `${r.kind} ${r.namespace ?? authn.id.namespace}/${r.name}`);
      return `MeshTLSAuthentication ${ref.name}: ${who.join(', ') || '(nobody)'}`;
    }
    if (isPolicyRef(ref, 'NetworkAuthentication')) {
      const authn = index.get(POLICY_GROUP, 'NetworkAuthentication', refNs, String(ref.name));
      if (!authn) return `NetworkAuthentication ${ref.name} (missing: Linkerd ignores the policy)`;
      const nets = refList(specOf(authn).networks).map((n: any) => `${n.cidr}${Array.isArray(n.except) ? ` except ${n.except.join(' ')}` : ''}`);
      return `NetworkAuthentication ${ref.name}: ${nets.join(', ') || '(no network)'}`;
    }
    if (isCoreRef(ref, 'ServiceAccount')) return `ServiceAccount ${refNs}/${ref.name}`;
    return `${String(ref.kind)} ${String(ref.name)} (unsupported)`;
  });
}

function targetWords(policy: IndexedObject): string {
  const target = authorizationTarget(policy);
  return target ? `${target.kind} ${target.name}` : 'an unsupported target';
}

// ---------------------------------------------------------------------------------------------------------------
// Who an authorization names

interface Named {
  readonly identities: Set<string>;
  readonly namespaces: Set<string>;
}

function addPattern(named: Named, pattern: unknown): void {
  if (typeof pattern !== 'string' || pattern === '*') return;
  const parts = identityParts(pattern.startsWith('*.') ? pattern : pattern);
  if (!parts) return;
  if (parts[1] === NOWHERE) named.namespaces.add(parts[0]);
  else named.identities.add(`${parts[0]}/${parts[1]}`);
}

function namedBy(index: MeshIndex, policy: IndexedObject, named: Named): void {
  const ns = policy.id.namespace ?? '';
  if (policy.id.kind === 'ServerAuthorization') {
    const mtls = specOf(policy).client?.meshTLS;
    if (!mtls || typeof mtls !== 'object') return;
    for (const p of Array.isArray(mtls.identities) ? mtls.identities : []) addPattern(named, p);
    for (const sa of refList(mtls.serviceAccounts)) named.identities.add(`${sa.namespace ?? ns}/${sa.name}`);
    return;
  }
  for (const ref of refList(specOf(policy).requiredAuthenticationRefs)) {
    const refNs = ref.namespace ?? ns;
    if (isCoreRef(ref, 'ServiceAccount')) named.identities.add(`${refNs}/${ref.name}`);
    if (!isPolicyRef(ref, 'MeshTLSAuthentication')) continue;
    const authn = index.get(POLICY_GROUP, 'MeshTLSAuthentication', refNs, String(ref.name));
    if (!authn) continue;
    const spec = specOf(authn);
    for (const p of Array.isArray(spec.identities) ? spec.identities : []) addPattern(named, p);
    for (const r of refList(spec.identityRefs)) {
      if (isCoreRef(r, 'Namespace')) named.namespaces.add(String(r.name));
      else if (isCoreRef(r, 'ServiceAccount')) named.identities.add(`${r.namespace ?? authn.id.namespace}/${r.name}`);
    }
  }
}

interface ReadAuthorization {
  readonly named: Named;
  readonly target: string;
  readonly requires: string[];
}

/** An authorization is read once, however many ports its Server or namespace covers. */
const authorizationsRead = new WeakMap<IndexedObject, ReadAuthorization>();

function readAuthorization(index: MeshIndex, object: IndexedObject): ReadAuthorization {
  let read = authorizationsRead.get(object);
  if (!read) {
    const named: Named = { identities: new Set(), namespaces: new Set() };
    namedBy(index, object, named);
    const legacy = object.id.kind === 'ServerAuthorization';
    const requires = legacy ? [`client ${JSON.stringify(specOf(object).client ?? null)} (legacy ServerAuthorization)`] : authenticationWords(index, object);
    read = { named, target: legacy ? '' : targetWords(object), requires };
    authorizationsRead.set(object, read);
  }
  return read;
}

// ---------------------------------------------------------------------------------------------------------------
// Inbound: one port

function lookup(index: MeshIndex, id: ResourceId): IndexedObject | undefined {
  const group = id.apiVersion.includes('/') ? id.apiVersion.slice(0, id.apiVersion.indexOf('/')) : '';
  return index.get(group, id.kind, id.namespace, id.name);
}

/** The inbound protocol in words, as the policy evaluation decided it (the Server's, else the pod's opaque-ports). */
function protocolOf(policy: PortPolicy | undefined): string {
  if (policy?.server?.proxyProtocol) return policy.server.proxyProtocol;
  if (policy?.protocol === 'opaque') return 'opaque (config.linkerd.io/opaque-ports)';
  return policy?.server ? 'unknown (detected: HTTP/1, HTTP/2 or opaque TCP)' : 'detected (HTTP/1, HTTP/2 or opaque TCP)';
}

function probesOn(pod: PodTemplate, port: number): string[] {
  return httpProbes(pod).filter((p) => p.port === port).map((p) => `${p.kind} GET ${p.path}`);
}

function routeView(index: MeshIndex, route: IndexedObject): RouteView {
  return {
    name: `${route.id.kind} ${route.id.name}`,
    id: route.id,
    generated: false,
    matches: routeMatchTexts(route),
    authorizations: authorizationTargets(index).forRoute(route).map((p) => p.id),
  };
}

/** While no route is attached, the policy controller serves a default route and one GET route per probe path. */
function generatedRoutes(pod: PodTemplate, port: number): RouteView[] {
  const probes = [...new Set(httpProbes(pod).filter((p) => p.port === port).map((p) => p.path))].sort(compareText);
  return [
    { name: 'default', generated: true, matches: [], authorizations: [] },
    ...probes.map((path) => ({ name: `probe GET ${path}`, generated: true, matches: [`GET ${path} (Exact)`], authorizations: [] })),
  ];
}

interface PortEntry {
  readonly view: PortPolicyView;
  readonly pod: PodTemplate;
  readonly policy?: PortPolicy;
  readonly routes: IndexedObject[];
}

function portEntry(index: MeshIndex, inbound: InboundPolicy, pod: PodTemplate, port: number, admin = false): PortEntry {
  const policy = inbound.portPolicy(pod, port);
  const server = policy?.server ? lookup(index, policy.server.id) : undefined;
  // The routes the proxy receives (those the Server's protocol serves), not every route attached to the Server.
  const routes = (policy?.routes ?? []).flatMap((r) => (r.route ? [r.route] : []));
  const authorizations: AuthorizationView[] = [];
  const named: Named = { identities: new Set(), namespaces: new Set() };
  for (const id of policy?.authorizations ?? []) {
    const object = lookup(index, id);
    if (!object) continue;
    const read = readAuthorization(index, object);
    for (const i of read.named.identities) named.identities.add(i);
    for (const n of read.named.namespaces) named.namespaces.add(n);
    authorizations.push({
      id,
      target: id.kind === 'ServerAuthorization' ? `Server ${server?.id.name ?? '?'} (legacy)` : read.target,
      requires: read.requires,
    });
  }
  const defaultPolicy = policy?.defaultPolicy;
  const view: PortPolicyView = {
    target: portTarget(pod, port),
    namespace: pod.namespace,
    workload: pod.owner.id,
    port,
    portName: policy?.portName ?? pod.ports.find((p) => p.containerPort === port && p.name)?.name,
    meshed: policy !== undefined,
    skipsProxy: policy?.skipsProxy ?? false,
    server: policy?.server ? { id: policy.server.id, accessPolicy: policy.server.accessPolicy } : undefined,
    shadowedServers: policy?.shadowedServers ?? [],
    protocol: protocolOf(policy),
    routes: routes.map((r) => routeView(index, r)),
    generatedRoutes: policy && routes.length === 0 ? generatedRoutes(pod, port) : [],
    authorizations,
    defaultPolicy: defaultPolicy?.policy ?? 'none (not meshed)',
    defaultPolicyOrigin: defaultPolicy?.origin ?? 'the pods have no proxy',
    defaultPolicySource: defaultPolicy?.source === 'namespace' ? index.namespace(pod.namespace)?.id
      : defaultPolicy?.source === 'pod' ? pod.owner.id : undefined,
    probes: probesOn(pod, port),
    namedCallers: [...named.identities].sort(compareText),
    namedNamespaces: [...named.namespaces].sort(compareText),
    podLabels: pod.labels,
    admin,
  };
  return { view, pod, policy, routes };
}

// ---------------------------------------------------------------------------------------------------------------
// Inbound: verdicts

function verdict(entry: PortEntry, caller: CallerView, request: string, decision: Decision, deciders: ResourceId[]): CallVerdict {
  return {
    source: caller.key,
    target: entry.view.target,
    request,
    allowed: decision.allowed,
    audited: decision.audited === true,
    because: decision.reason,
    ...(!decision.allowed && decision.uncertain ? { uncertain: true } : {}),
    deciders,
  };
}

function decidePort(entry: PortEntry, callerView: CallerView): CallVerdict[] {
  const caller = toCaller(callerView);
  if (!entry.policy) {
    const decision = { allowed: true, reason: `${idText(entry.pod.owner.id)} is not meshed, so no inbound policy applies` };
    return [verdict(entry, callerView, '*', decision, [entry.pod.owner.id])];
  }
  const policy = entry.policy;
  const onRoutes = policy.allowsOnRoutes(caller).filter((d) => d.route.route !== undefined);
  if (onRoutes.length > 0) return onRoutes.map((d) => verdict(entry, callerView, routeName(d.route), d, [...d.deciders]));
  const decision = policy.allows(caller);
  const all = [verdict(entry, callerView, '*', decision, [...(decision.deciders ?? [])])];
  if (callerView.kind !== CallerKind.KUBELET) return all;
  // The kubelet's probes: each probe path as the proxy routes a GET to it (the generated probe route, while no route is attached).
  return [...all, ...entry.view.generatedRoutes.filter((r) => r.name.startsWith(PROBE_PREFIX)).map((r) => {
    const request = policy.allowsRequest(caller, { method: 'GET', path: r.name.slice(PROBE_PREFIX.length) });
    return verdict(entry, callerView, r.name, request, [...(request.deciders ?? [])]);
  })];
}

const PROBE_PREFIX = 'probe GET ';

function routeName(route: InboundRoute): string {
  return route.route ? `${route.route.id.kind} ${route.route.id.name}` : route.generated ?? '*';
}

/** The request class a request lands in, as the proxy routes it (the most specific match of the port's routes). */
function requestClassOf(entry: PortEntry, method: string, path: string): string {
  if (!entry.policy || entry.policy.routes.length === 0) return '*';
  const route = routeFor(entry.policy.routes, { method, path });
  if (!route) return '(no route)';
  if (route.generated === 'probe') return `${PROBE_PREFIX}${path}`;
  return route.route ? routeName(route) : '*';
}

// ---------------------------------------------------------------------------------------------------------------
// Outbound: Service ports

function prefixed(annotations: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(annotations).sort(compareText)) if (key.startsWith(prefix)) out[key] = String(annotations[key]);
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
      index: i, matches: ruleMatches(rule), backends: backendViews(index, shares.get(`${idText(route.id)}#${i}`)), timeouts: timeoutsOf(rule),
    })),
    retries: prefixed(annotations, 'retry.linkerd.io/'),
    timeouts: prefixed(annotations, 'timeout.linkerd.io/'),
  };
}

function serviceProtocol(index: MeshIndex, context: AnalysisContext, service: IndexedObject, sp: any, endpoints: PortEntry[]): string {
  if (typeof sp.appProtocol === 'string') return `${sp.appProtocol} (appProtocol)`;
  const protocol = servicePortProtocol(index, service, sp.port, context);
  // The origin says whose list it is: the Service's annotation, or the injector's (namespace, else cluster defaults).
  if (protocol.protocol === OutboundProtocol.OPAQUE) return `opaque (${protocol.origin})`;
  // Without an appProtocol the client proxy detects the protocol (to_proto: Detect) whatever the endpoints' Server says;
  // the Server's proxyProtocol is told beside it, since it decides what the server side expects.
  const servers = [...new Set(endpoints.map((e) => e.view.server && e.view.protocol).filter((p): p is string => !!p))];
  if (servers.length === 1) return `detected (no appProtocol; the endpoints' Server: ${servers[0]})`;
  return 'detected (HTTP/1, HTTP/2 or opaque TCP)';
}

type EntryOf = (pod: PodTemplate, port: number) => PortEntry | undefined;

/** grpc/src/outbound/http.rs base_http_routes: once a route is served the default route is gone. */
function unmatchedOf(served: readonly IndexedObject[]): { unmatched?: string } {
  if (served.length === 0 || served.some((r) => rulesCoverAll(specOf(r).rules, r.id.kind === 'GRPCRoute'))) return {};
  return { unmatched: 'get HTTP 404 (gRPC: UNIMPLEMENTED): once a route is served, Linkerd drops the default route' };
}

/** Why a route that names this port is not among the routes every client is served (the outbound model's reading). */
function unusedReason(view: ServicePortPolicy, r: PortRoute): string {
  if (r.unconvertible !== undefined) return `${r.unconvertible}, so the whole route fails conversion: Linkerd never uses it`;
  if (!r.accepted) {
    const by = r.conflictedBy.map((c) => idText(c.id)).join(', ');
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

function servicePorts(index: MeshIndex, context: AnalysisContext, entries: EntryOf): ServicePortView[] {
  const shares = new Map<string, RuleShares>();
  for (const rule of routeShares(index)) shares.set(`${idText(rule.route)}#${rule.ruleIndex}`, rule);
  const outbound = outboundPolicy(index, context);
  const out: ServicePortView[] = [];
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
      const { served, unused } = portRoutes(outbound.get(service)?.get(sp.port));
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
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Declared calls and ignored objects

type ServiceLookup = (target: string) => ServicePortView | undefined;

function declaredCalls(index: MeshIndex, callerOfPod: (pod: PodTemplate) => string, service: ServiceLookup): DeclaredCallView[] {
  const out: DeclaredCallView[] = [];
  for (const pod of index.podTemplates) {
    if (pod.owner.inventory) continue;
    const value = annotationsOf(pod.owner.object)[CALLS_ANNOTATION];
    if (typeof value !== 'string') continue;
    for (const call of parseCalls(value, pod.namespace).calls) {
      const svc = index.service(call.namespace, call.service);
      const number = typeof call.port === 'number' ? call.port
        : (refList(svc ? specOf(svc).ports : []) as any[]).find((p) => p.name === call.port)?.port;
      const text = `${call.namespace}/${call.service}:${call.port}`;
      const view = number === undefined ? undefined : service(`${call.namespace}/${call.service}:${number}`);
      out.push({
        source: callerOfPod(pod),
        workload: pod.owner.id,
        service: text,
        targets: view?.endpoints ?? [],
        problem: !svc ? absentService(index, call.namespace, call.service).reason : !view ? `Service ${call.namespace}/${call.service} has no port ${call.port}`
          : view.endpoints.length === 0 ? `Service ${call.namespace}/${call.service} selects no workload port` : undefined,
      });
    }
  }
  return out;
}

/**
 * Objects Linkerd rejects or drops: the error findings whose rule marks the whole object (Finding.effect). A warning
 * means the rule is not sure (e.g. the referenced object may exist outside the input), so it does not count.
 */
function ignoredObjects(result: AnalysisResult): IgnoredView[] {
  const byObject = new Map<string, IgnoredView>();
  for (const f of result.findings) {
    if (f.effect === undefined || f.severity !== Severity.ERROR) continue;
    const key = `${f.resource.apiVersion}|${idText(f.resource)}`;
    const known = byObject.get(key);
    const reason = `${f.ruleId}: ${f.message}`;
    byObject.set(key, known
      ? {
        ...known,
        reason: `${known.reason}; ${reason}`,
        ruleIds: known.ruleIds.includes(f.ruleId) ? known.ruleIds : [...known.ruleIds, f.ruleId],
        effect: known.effect === FindingEffect.REJECTED ? known.effect : f.effect,
      }
      : { object: f.resource, reason, ruleIds: [f.ruleId], effect: f.effect });
  }
  return [...byObject.values()];
}

// ---------------------------------------------------------------------------------------------------------------
// The model

function callerKeyOf(pod: PodTemplate): string {
  return pod.injection === Injection.ENABLED ? `${pod.namespace}/${pod.serviceAccountName}` : UNAUTHENTICATED;
}

/** The model reachability reads, from one analysis (its index, context and findings). */
export function buildMeshModel(result: AnalysisResult): MeshModel {
  const index = result.index;
  const inbound = evaluateInboundPolicy(index, result.context);
  const byPod = new Map<PodTemplate, Map<number, PortEntry>>();
  const entries: PortEntry[] = [];
  const byTarget = new Map<string, PortEntry>();
  const entryOf = (pod: PodTemplate, port: number): PortEntry | undefined => {
    let ports = byPod.get(pod);
    if (!ports) byPod.set(pod, ports = new Map());
    let entry = ports.get(port);
    if (!entry) {
      entry = portEntry(index, inbound, pod, port);
      ports.set(port, entry);
      if (!byTarget.has(entry.view.target)) byTarget.set(entry.view.target, entry);
    }
    return entry;
  };
  for (const pod of index.podTemplates) {
    if (pod.owner.inventory) continue;
    for (const port of declaredPorts(pod)) entries.push(entryOf(pod, port)!);
  }
  const services = servicePorts(index, result.context, entryOf);
  const adminPorts = index.podTemplates
    .filter((pod) => !pod.owner.inventory && pod.injection === Injection.ENABLED)
    .map((pod) => {
      const entry = portEntry(index, inbound, pod, proxyAdminPort(pod), true);
      if (!byTarget.has(entry.view.target)) byTarget.set(entry.view.target, entry);
      return entry.view;
    });
  const serviceByTarget = new Map(services.map((s) => [s.target, s]));

  const callers = new Map<string, CallerView>();
  for (const pod of index.podTemplates) {
    if (pod.injection !== Injection.ENABLED) continue;
    const key = callerKeyOf(pod);
    const known = callers.get(key);
    const workload = idText(pod.owner.id);
    if (known) known.workloads.push(workload);
    else callers.set(key, identityCaller(pod.namespace, pod.serviceAccountName, [workload]));
  }
  for (const c of CLASS_CALLERS) callers.set(c.key, c);
  callers.set(KUBELET, KUBELET_CALLER);
  const callerOf = (key: string): CallerView => {
    const known = callers.get(key);
    if (known) return known;
    const slash = key.indexOf('/');
    if (slash < 0) throw new Error(`unknown caller ${key}`);
    return identityCaller(key.slice(0, slash), key.slice(slash + 1) === '*' ? NOWHERE : key.slice(slash + 1));
  };

  const calls = declaredCalls(index, callerKeyOf, (t) => serviceByTarget.get(t));
  const declaredBy = new Map<string, Set<string>>();
  for (const call of calls) {
    for (const target of call.targets) {
      let set = declaredBy.get(target);
      if (!set) declaredBy.set(target, set = new Set());
      set.add(call.source);
    }
  }

  const byServer = new Map<string, CallVerdict[]>();
  return {
    ports: entries.map((e) => e.view),
    services,
    callers: [...callers.values()].sort((a, b) => compareText(a.key, b.key)),
    declaredCalls: calls,
    ignored: ignoredObjects(result),
    adminPorts,
    prometheus: result.context.prometheusServiceAccount
      ?? (index.serviceAccount(VIZ_PROMETHEUS[0], VIZ_PROMETHEUS[1]) ? VIZ_PROMETHEUS.join('/') : undefined),
    clusterNetworks: result.context.clusterNetworks,
    port: (target) => byTarget.get(target)?.view,
    service: (target) => serviceByTarget.get(target),
    caller: callerOf,
    relevantCallers(port) {
      const keys = new Set<string>([...port.namedCallers, ...(declaredBy.get(port.target) ?? [])]);
      for (const ns of port.namedNamespaces) keys.add(`${ns}/*`);
      const named = [...keys].sort(compareText).map(callerOf);
      return [...named, ...CLASS_CALLERS.filter((c) => !keys.has(c.key))];
    },
    requestClass(port, method, path) {
      const entry = byTarget.get(port.target);
      return entry ? requestClassOf(entry, method, path) : '*';
    },
    decide(port, caller) {
      const entry = byTarget.get(port.target);
      if (!entry) return [];
      // A Server decides alike for every pod it selects (its reasons name the Server, not the pod): decide once.
      const server = entry.policy && !entry.view.skipsProxy && entry.view.server ? idText(entry.view.server.id) : undefined;
      if (server === undefined || caller.kind === CallerKind.KUBELET) return decidePort(entry, caller);
      const key = `${server}\u0000${caller.key}`;
      let verdicts = byServer.get(key);
      if (!verdicts) byServer.set(key, verdicts = decidePort(entry, caller));
      return verdicts.map((v) => ({ ...v, target: entry.view.target }));
    },
  };
}
