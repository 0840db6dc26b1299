/**
 * The plain data that explain, diff, plan-deny and the picture read. Only model-adapter.ts builds these from the
 * policy evaluation; everything else in reachability/ sees nothing but these types, so the evaluation behind them can
 * change (per-request inbound model, outbound model per Service port) by re-pointing the adapter alone.
 */
import { FindingEffect } from '../finding';
import { RequestMatch } from '../model/inbound-routes';
import { ResourceId } from '../model/manifest';
import { RequestSample } from '../policy';
import { OutboundRequests } from './outbound-requests';

/** Who calls: a mesh identity, every other identity of a namespace, or a class of callers. */
export enum CallerKind {
  /** A ServiceAccount identity (`namespace/serviceaccount`). */
  IDENTITY = 'identity',
  /** Any identity of one namespace not listed on its own (`namespace/*`). */
  NAMESPACE = 'namespace',
  /** Any meshed identity not listed on its own (`other-meshed`). */
  OTHER_MESHED = 'other-meshed',
  /** A client without a proxy inside the cluster networks (`unauthenticated`). */
  UNAUTHENTICATED = 'unauthenticated',
  /** A client without a proxy outside the cluster networks (`external`). */
  EXTERNAL = 'external',
  /** The kubelet sending probes (`kubelet`): unauthenticated, from the node's address. */
  KUBELET = 'kubelet',
}

export interface CallerView {
  /** How output names the caller: `mesh-lab/client`, `mesh-lab/*`, `other-meshed`, `unauthenticated`, `external`, `kubelet`. */
  readonly key: string;
  readonly kind: CallerKind;
  readonly namespace?: string;
  readonly serviceAccount?: string;
  /** The workloads that run as this caller, when the manifests know them (`Deployment mesh-lab/client`). */
  readonly workloads: string[];
}

export interface RouteView {
  /** `HTTPRoute name`, or `default` / `probe GET /path` for routes the policy controller generates. */
  readonly name: string;
  readonly id?: ResourceId;
  /** True for the default and probe routes Linkerd generates when no route is attached. */
  readonly generated: boolean;
  /** Each match in words (`GET /api (PathPrefix)`); empty means every request. */
  readonly matches: string[];
  /** AuthorizationPolicies that target this route. */
  readonly authorizations: ResourceId[];
}

export interface AuthorizationView {
  readonly id: ResourceId;
  /** What it targets, in words (`Server orders-http`, `Namespace mesh-lab`, `HTTPRoute x`). */
  readonly target: string;
  /** The authentications it requires, in words (`MeshTLSAuthentication client-sa: mesh-lab/client`). */
  readonly requires: string[];
}

/** The resolved inbound policy of one container port of one workload. */
export interface PortPolicyView {
  /** `namespace/workload:port`. */
  readonly target: string;
  readonly namespace: string;
  readonly workload: ResourceId;
  readonly port: number;
  readonly portName?: string;
  /** False when the pods get no proxy: no inbound policy applies. */
  readonly meshed: boolean;
  /** True when `config.linkerd.io/skip-inbound-ports` sends the port around the proxy. */
  readonly skipsProxy: boolean;
  readonly server?: { readonly id: ResourceId; readonly accessPolicy: string };
  /** Other Servers selecting the port, which Linkerd skips. */
  readonly shadowedServers: ResourceId[];
  /** The Server's proxyProtocol, or how the proxy finds the protocol without one. */
  readonly protocol: string;
  /** Routes attached to the Server; when there are none, `generatedRoutes` applies. */
  readonly routes: RouteView[];
  /** The default route and the kubelet probe routes Linkerd generates while no route is attached. */
  readonly generatedRoutes: RouteView[];
  readonly authorizations: AuthorizationView[];
  /** The default inbound policy of the pods (used when no Server selects the port). */
  readonly defaultPolicy: string;
  readonly defaultPolicyOrigin: string;
  /** The object the default policy comes from, when it is one (the Namespace or the workload). */
  readonly defaultPolicySource?: ResourceId;
  /** HTTP probes the kubelet sends to this port (`readinessProbe GET /ready`). */
  readonly probes: string[];
  /** Identities and namespaces the authorizations name: the callers decided differently from `other-meshed`. */
  readonly namedCallers: string[];
  readonly namedNamespaces: string[];
  /** The labels of the workload's pod template (what a new Server can select it by). */
  readonly podLabels: Record<string, string>;
  /** True for the proxy's admin port (metrics, probes of the proxy), which the pod template does not declare. */
  readonly admin: boolean;
}

/** One request class a verdict is about: every request (`*`), one route, or the requests of a probe. */
export interface CallVerdict {
  readonly source: string;
  readonly target: string;
  /** `*` for every request, else the route's name. */
  readonly request: string;
  readonly allowed: boolean;
  /** Allowed only because the policy is `audit`: the proxy logs it as a would-be denial. */
  readonly audited: boolean;
  readonly because: string;
  /**
   * Refused only if the caller's address lies outside the networks admitted (a NetworkAuthentication or the probe
   * networks covering part of the cluster, and an address the manifests do not know, such as the kubelet's node).
   */
  readonly uncertain?: boolean;
  /** The objects that decide (the admitting policy and its authentications, or the Server, Namespace or workload). */
  readonly deciders: ResourceId[];
  /** For one request: the route it lands on (`HTTPRoute x`, `*` for the default route, `probe GET /p`, `(no route)`). */
  readonly route?: string;
}

export interface BackendView {
  /** `namespace/name:port` (port omitted when the reference has none). */
  readonly name: string;
  readonly kind: string;
  readonly weight: number;
  readonly percent: number;
  /** Why this share fails, when the analysis knows it does (a Service backend that does not exist: HTTP 500). */
  readonly fails?: string;
}

export interface ServiceRuleView {
  readonly index: number;
  readonly matches: string[];
  readonly backends: BackendView[];
  /** `request` / `backendRequest` of the rule's `timeouts`. */
  readonly timeouts: Record<string, string>;
}

export interface ServiceRouteView {
  readonly id: ResourceId;
  readonly name: string;
  readonly rules: ServiceRuleView[];
  /** `retry.linkerd.io/*` annotations of the route. */
  readonly retries: Record<string, string>;
  /** `timeout.linkerd.io/*` annotations of the route. */
  readonly timeouts: Record<string, string>;
}

/** The outbound view of one Service port: what a meshed client's proxy does with a request to it. */
export interface ServicePortView {
  /** `namespace/service:port`. */
  readonly target: string;
  readonly namespace: string;
  readonly name: string;
  readonly port: number;
  readonly protocol: string;
  /** The routes every client's proxy is served on this port (the outbound index's reading: status, protocol, kind). */
  readonly routes: ServiceRouteView[];
  /** Routes that name this port but are not served to every client, and why (set only when there are some). */
  readonly unusedRoutes?: UnusedRouteView[];
  /** Set when no route is served to every client: the proxy's default route to the Service's endpoints. */
  readonly defaultRoute?: string;
  /** Set when routes attach and none matches every request: what the requests no rule matches get. */
  readonly unmatched?: string;
  /** Service-level `retry.linkerd.io/*` and `timeout.linkerd.io/*` annotations. */
  readonly retries: Record<string, string>;
  readonly timeouts: Record<string, string>;
  /** The workload ports the Service's endpoints are (`namespace/workload:port`). */
  readonly endpoints: string[];
}

/** A route naming a Service port that the port's clients do not all use. */
export interface UnusedRouteView {
  readonly id: ResourceId;
  readonly name: string;
  readonly reason: string;
}

/** An object Linkerd ignores or rejects, and why (the error findings marked with Finding.effect). */
export interface IgnoredView {
  readonly object: ResourceId;
  /** `RULE-ID: message` of each finding, joined with `; `. */
  readonly reason: string;
  /** The rules that report it, in report order. */
  readonly ruleIds: string[];
  /** `rejected` when any finding says it cannot be applied, else `ignored` (applied, then dropped). */
  readonly effect: FindingEffect;
}

/** A call a workload declares (`addCall`, the calls annotation). */
export interface DeclaredCallView {
  /** The caller key (`mesh-lab/client`, or `unauthenticated` for an unmeshed workload). */
  readonly source: string;
  readonly workload: ResourceId;
  /** `namespace/service:port` as declared. */
  readonly service: string;
  /** The workload ports it lands on (`namespace/workload:port`); empty when the Service cannot be resolved. */
  readonly targets: string[];
  /** Why no target was found, when none was. */
  readonly problem?: string;
}

/** Everything reachability reads about one mesh. */
export interface MeshModel {
  readonly ports: PortPolicyView[];
  readonly services: ServicePortView[];
  /** The callers the manifests know: one per meshed identity, plus the classes. */
  readonly callers: CallerView[];
  readonly declaredCalls: DeclaredCallView[];
  readonly ignored: IgnoredView[];
  /** The proxy admin port of every meshed workload (not in `ports`: no caller but Prometheus and the kubelet uses it). */
  readonly adminPorts: PortPolicyView[];
  /** The Prometheus that scrapes the proxies (`namespace/serviceaccount`), when configured or linkerd-viz's is present. */
  readonly prometheus?: string;
  readonly clusterNetworks: string[];
  /** Workload (`Deployment ns/name`) → the caller its pods present (`ns/serviceaccount`, or `unauthenticated`). */
  readonly workloadCallers: ReadonlyMap<string, string>;
  /** `EgressNetwork ns/name:port` → what a meshed client's proxy does with each request to it. */
  readonly egressPorts: ReadonlyMap<string, OutboundRequests>;
  port(target: string): PortPolicyView | undefined;
  service(target: string): ServicePortView | undefined;
  caller(key: string): CallerView;
  /** The callers worth a line per port: named ones, declared callers, and the classes. Linear in what the port names. */
  relevantCallers(port: PortPolicyView): CallerView[];
  /**
   * Whether a caller gets anywhere on a port: one verdict per attached route, else the Server's for every request (and
   * the probe classes for the kubelet). What the picture and plan-deny read.
   */
  decide(port: PortPolicyView, caller: CallerView): CallVerdict[];
  /**
   * Verdicts of one caller on one port, one per request class: each route, each generated probe path (for every
   * caller: the probe route admits by network, not identity), and `(no route)`. What explain prints.
   */
  decideClasses(port: PortPolicyView, caller: CallerView): CallVerdict[];
  /** The request class a request falls in on a port: `*`, a route's name, a probe route, or `(no route)`. */
  requestClass(port: PortPolicyView, method: string, path: string): string;
  /** The matches of the routes the port's proxy gets (request classes are cut from them); empty when none routes. */
  inboundRequests(port: PortPolicyView): { readonly grpc: boolean; readonly matches: readonly RequestMatch[] };
  /** One request of one caller on a port: allowed, refused, or refused for want of a route. */
  decideRequest(port: PortPolicyView, caller: CallerView, request: RequestSample): CallVerdict;
  /** What a meshed client's proxy does with each request to a Service port (route, backends, retry, timeout). */
  outboundRequests(service: ServicePortView): OutboundRequests | undefined;
}


