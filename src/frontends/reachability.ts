/**
 * Reachability for construct users (and any jsii language): explain a port, diff two versions of the mesh, plan a
 * move to deny — over plain manifests (e.g. `Testing.synth(chart)`, or `MeshReachability.manifestsOf(app)`).
 * Results are plain JSON-serializable structs.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { readContextOptions } from '../analysis/context-options';
import { AnalyzeOptions } from '../analysis/engine';
import { Manifest } from '../analysis/model/manifest';
import { DenyTarget, MeshModel, changeRecord, diffModels, explainModel, explainPort, findPort, meshModel, parseObservedMetrics, planDenyManifests } from '../analysis/reachability';
import { idLabel } from '../util/labels';

/** What the analysis needs to know about the cluster. */
export interface ReachabilityOptions {
  /**
   * The cluster-wide default inbound policy (`proxy.defaultInboundPolicy`).
   * @default "all-unauthenticated"
   */
  readonly defaultInboundPolicy?: string;
  /**
   * The cluster's pod and service networks.
   * @default - the chart's clusterNetworks
   */
  readonly clusterNetworks?: string[];
  /**
   * Where the kubelet's probes come from (`policyController.probeNetworks`): the probe routes Linkerd generates admit
   * these. Narrowed, a probe's verdict is `uncertain` (the node's address is not in the manifests).
   * @default - everywhere (0.0.0.0/0, ::/0), as the chart
   */
  readonly probeNetworks?: string[];
  /**
   * Linkerd identity trust domain.
   * @default "cluster.local"
   */
  readonly trustDomain?: string;
  /**
   * Objects that exist in the cluster but not in the manifests.
   * @default - none
   */
  readonly inventory?: any[];
}

/** Which callers and requests to explain. */
export interface ExplainPortOptions extends ReachabilityOptions {
  /**
   * One caller: `namespace/serviceaccount`, `unauthenticated`, `external`, `kubelet` or `other-meshed`.
   * @default - every caller the manifests know
   */
  readonly caller?: string;
  /**
   * With `path`, only the request class this request falls in.
   * @default "GET"
   */
  readonly method?: string;
  /**
   * A request path, e.g. `/api`.
   * @default - every request class
   */
  readonly path?: string;
}

/** One caller's verdict on one request class. */
export interface ReachabilityVerdict {
  /** The caller, e.g. `mesh-lab/client` or `unauthenticated`. */
  readonly source: string;
  /**
   * The request class: `*` for every request (the default route), a route (`HTTPRoute x`), a generated probe path
   * (`probe GET /health`, admitted by network for every caller), or `(no route)`.
   */
  readonly request: string;
  readonly allowed: boolean;
  /** Allowed only because the policy is `audit` (not a security boundary). */
  readonly audited: boolean;
  readonly because: string;
  /**
   * Refused only if the caller's address is outside the networks admitted, an address the manifests do not say
   * (the kubelet's node, under narrowed probe networks).
   * @default false
   */
  readonly uncertain?: boolean;
  /** The objects that decide, e.g. `AuthorizationPolicy mesh-lab/client-to-orders`. */
  readonly deciders: string[];
}

/** The resolved inbound policy of one workload port and who may call it. */
export interface PortReachability {
  /** `namespace/workload:port`. */
  readonly target: string;
  readonly workload: string;
  readonly meshed: boolean;
  readonly protocol: string;
  /** The Server that governs the port, if any. */
  readonly server?: string;
  readonly accessPolicy?: string;
  readonly defaultPolicy: string;
  readonly defaultPolicyOrigin: string;
  /** Attached routes, or the generated default and probe routes. */
  readonly routes: string[];
  readonly authorizations: string[];
  readonly probes: string[];
  readonly verdicts: ReachabilityVerdict[];
}

/** One change between two versions of the mesh. */
export interface ReachabilityChange {
  /** `authorization`, `route`, `share`, `ignored`, `retry` or `timeout`. */
  readonly kind: string;
  /** E.g. `allowed-to-denied`, `denied-to-allowed`, `changed`, `now-ignored`, `now-retried`. */
  readonly change: string;
  readonly source: string;
  readonly target: string;
  /**
   * The request classes concerned, e.g. `GET /authors.json, HEAD /authors.json` or `every request but GET /health`.
   * @default - every request
   */
  readonly request?: string;
  readonly because: string;
}

/** What a change does to the mesh. */
export interface ReachabilityDiff {
  readonly changes: ReachabilityChange[];
}

/** Options of a deny plan. */
export interface PlanDenyOptions extends ReachabilityOptions {
  /**
   * The Prometheus that scrapes the proxies (`namespace/serviceaccount`).
   * @default - linkerd-viz/prometheus when that ServiceAccount is in the manifests
   */
  readonly prometheusServiceAccount?: string;
  /**
   * Rows of `linkerd viz edges <type> -o json` (objects with src, src_namespace, dst, dst_namespace, client_id).
   * @default - none
   */
  readonly observedEdges?: any[];
  /**
   * The proxies' inbound authorization results as Prometheus text (`linkerd diagnostics proxy-metrics -n NS WORKLOAD`,
   * or Prometheus /federate for `inbound_http_authz_allow_total` and `inbound_tcp_authz_allow_total`): every call they
   * allowed, including those `audit` allowed as would-be denials, is kept allowed.
   * @default - none
   */
  readonly observedProxyMetrics?: string;
  /**
   * The policy moved to: `deny` or `all-authenticated`.
   * @default "deny"
   */
  readonly policy?: string;
}

/** One call a move to deny would refuse. */
export interface RefusedCall {
  /** `declared`, `observed` or `scrape`. */
  readonly origin: string;
  readonly source: string;
  readonly target: string;
  readonly because: string;
  /**
   * Refused only if the caller's address lies outside the networks a NetworkAuthentication admits (the manifests do not
   * say it); counted as refused.
   * @default false
   */
  readonly uncertain?: boolean;
}

/** What to apply before moving a namespace to deny. */
export interface DenyPlanResult {
  readonly refused: RefusedCall[];
  /** Kubernetes objects (Server, MeshTLSAuthentication, NetworkAuthentication, AuthorizationPolicy, HTTPRoute). */
  readonly objects: any[];
  /** The same as construct code (`ServerAccess.allow(...)`). */
  readonly constructLines: string[];
}

/** The context options MeshReachability takes, read and validated through the one table every front-end uses. */
const REACHABILITY_OPTION_KEYS: ReadonlySet<string> = new Set([
  'defaultInboundPolicy', 'clusterNetworks', 'probeNetworks', 'trustDomain', 'prometheusServiceAccount',
]);

function analyzeOptions(options: ReachabilityOptions | undefined): AnalyzeOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new Error('MeshReachability: options must be an object');
  const given = options as Record<string, unknown>;
  const context = readContextOptions(
    (option) => (REACHABILITY_OPTION_KEYS.has(option.key) ? given[option.key] : undefined),
    (option, problem) => { throw new Error(`MeshReachability: option ${option.key} ${problem}`); },
  );
  return { ...context, inventory: options.inventory };
}

function toManifests(objects: any[], what: string): Manifest[] {
  if (!Array.isArray(objects)) throw new Error(`MeshReachability: ${what} must be a list of Kubernetes objects`);
  return objects.map((object) => ({ object }));
}

function modelOf(objects: any[], options: ReachabilityOptions | undefined, what: string): MeshModel {
  return meshModel(toManifests(objects, what), analyzeOptions(options));
}

/** Offline reachability of a mesh: who may call whom, and what a change does to it. */
export class MeshReachability {
  /** The manifests of every ApiObject under a construct (a chart or the whole app), resolved. */
  public static manifestsOf(scope: IConstruct): any[] {
    return scope.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c)).map((o) => o.toJson());
  }

  /**
   * The resolved inbound policy of `target` (`namespace/workload:port`) and, for each caller, allowed or refused
   * per route, and why. Like `linkerd authz`, from the manifests instead of a live cluster.
   */
  public static explain(manifests: any[], target: string, options: ExplainPortOptions = {}): PortReachability {
    const model = explainModel(toManifests(manifests, 'manifests'), analyzeOptions(options));
    const port = findPort(model, target);
    if (typeof port === 'string') throw new Error(`MeshReachability.explain: ${port}`);
    const e = explainPort(model, port, { from: options.caller, method: options.method, path: options.path });
    if (typeof e === 'string') throw new Error(`MeshReachability.explain: ${e}`);
    const routes = port.routes.length > 0 ? port.routes : port.generatedRoutes;
    return {
      target: port.target,
      workload: idLabel(port.workload),
      meshed: port.meshed,
      protocol: port.protocol,
      server: port.server ? idLabel(port.server.id) : undefined,
      accessPolicy: port.server?.accessPolicy,
      defaultPolicy: port.defaultPolicy,
      defaultPolicyOrigin: port.defaultPolicyOrigin,
      routes: routes.map((r) => r.name),
      authorizations: port.authorizations.map((a) => idLabel(a.id)),
      probes: port.probes,
      verdicts: e.verdicts.map((v) => ({
        source: v.source,
        request: v.request,
        allowed: v.allowed,
        audited: v.audited,
        because: v.because,
        ...(v.uncertain ? { uncertain: true } : {}),
        deciders: v.deciders.map(idLabel),
      })),
    };
  }

  /**
   * What `head` changes against `base`, per caller, target and request class: requests allowed → denied and back,
   * routes, retried requests, shares, ignored objects, retry and timeout settings.
   */
  public static diff(base: any[], head: any[], options: ReachabilityOptions = {}): ReachabilityDiff {
    const changes = diffModels(modelOf(base, options, 'base'), modelOf(head, options, 'head')).changes;
    return { changes: changes.map(changeRecord) };
  }

  /**
   * The calls (declared, observed, Prometheus scrapes) that moving `namespace` to `deny` would refuse, and the objects
   * that keep them allowed. `audit` is an observation step, not a security boundary: this plan is what makes deny safe.
   */
  public static planDeny(manifests: any[], namespace: string, options: PlanDenyOptions = {}): DenyPlanResult {
    if (typeof namespace !== 'string' || namespace === '') throw new Error('MeshReachability.planDeny: namespace must be a namespace name');
    return MeshReachability.plan(manifests, namespace, options);
  }

  /** The same for moving the cluster default (`proxy.defaultInboundPolicy`) to deny or all-authenticated. */
  public static planClusterDeny(manifests: any[], options: PlanDenyOptions = {}): DenyPlanResult {
    return MeshReachability.plan(manifests, undefined, options);
  }

  private static plan(manifests: any[], namespace: string | undefined, options: PlanDenyOptions): DenyPlanResult {
    const policy = options.policy ?? DenyTarget.DENY;
    if (policy !== DenyTarget.DENY && policy !== DenyTarget.ALL_AUTHENTICATED) {
      throw new Error(`MeshReachability: policy must be deny or all-authenticated (got ${JSON.stringify(policy)})`);
    }
    const edges = (options.observedEdges ?? []).map((e: any) => ({
      src: String(e?.src ?? ''),
      src_namespace: String(e?.src_namespace ?? ''),
      dst: String(e?.dst ?? ''),
      dst_namespace: String(e?.dst_namespace ?? ''),
      client_id: String(e?.client_id ?? ''),
      server_id: String(e?.server_id ?? ''),
      no_tls_reason: String(e?.no_tls_reason ?? ''),
    }));
    const metrics = options.observedProxyMetrics === undefined ? [] : parseObservedMetrics(String(options.observedProxyMetrics));
    if (typeof metrics === 'string') throw new Error(`MeshReachability: observedProxyMetrics: ${metrics}`);
    const plan = planDenyManifests(toManifests(manifests, 'manifests'), namespace, analyzeOptions(options), edges, policy as DenyTarget, metrics);
    return {
      refused: plan.refused.map((c) => ({
        origin: c.origin, source: c.source, target: c.target, because: c.because, ...(c.uncertain ? { uncertain: true } : {}),
      })),
      objects: plan.objects,
      constructLines: plan.constructLines,
    };
  }
}
