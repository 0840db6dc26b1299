/**
 * Routes on a Server (inbound): Gateway API HTTPRoutes / GRPCRoutes whose parent is a `policy.linkerd.io` Server, so
 * that AuthorizationPolicies can target one route of a port instead of the whole port. Linkerd's inbound index
 * (policy-controller/k8s/index/src/inbound/index.rs) reads both `policy.linkerd.io` and `gateway.networking.k8s.io`
 * HTTPRoutes; the gateway v1 kind is written here, as for Service routes. It serves a Server's HTTPRoutes to HTTP/1,
 * HTTP/2 and detected ports and its GRPCRoutes only to gRPC ports (grpc/src/inbound.rs, `to_server`); opaque and TLS
 * ports carry no routes. A Server parentRef never names a port or section and stays in the route's namespace
 * (inbound/routes.rs rejects them otherwise).
 */
import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { IServer, ProxyProtocol } from './server';
import { MeshResource, MeshResourceProps, ResolvedMetadata, metadataFor } from '../base';
import { claimServerReference } from '../checks/claims';
import { InputRule, check } from '../core/errors';
import * as l1 from '../imports/gateway.networking.k8s.io';
import { GrpcRouteMatch, HttpRouteMatch, renderGrpcMatch, renderHttpMatch } from '../routing/matches';
import { RouteFamily, UnmatchedRequests, checkUnmatchedValue, coverageKey, registerCoverage, rulesCoverAll, validateUnmatched } from '../routing/unmatched';

const MAX_RULES = 16;

/** One rule of a route on a Server. */
export interface ServerHttpRouteRule {
  /**
   * Requests the rule applies to (any one of them).
   * @default - every request
   */
  readonly matches?: HttpRouteMatch[];
}

/** One rule of a gRPC route on a Server. */
export interface ServerGrpcRouteRule {
  /**
   * Calls the rule applies to (any one of them; at most 8).
   * @default - every call
   */
  readonly matches?: GrpcRouteMatch[];
}

/** What routes on a Server take. */
export interface ServerRouteProps extends MeshResourceProps {
  /** The Server whose inbound traffic the route divides (the parent). */
  readonly server: IServer;
  /**
   * What happens to requests no rule matches. Once any route attaches to a Server, Linkerd drops its default routes
   * and refuses what no route matches; `ROUTE_TO_SERVICE` writes a match-all route beside this one (without this
   * route's authorizations: policies on the Server still apply to it).
   * @default - synth fails (LKD-ROUTE-025) when every rule has matches and no route of the app on the Server matches the rest
   */
  readonly unmatched?: UnmatchedRequests;
  /**
   * Name of the match-all companion route `UnmatchedRequests.ROUTE_TO_SERVICE` writes.
   * @default `<name>-unmatched`
   */
  readonly unmatchedRouteName?: string;
}

/** Props for a ServerHttpRoute. */
export interface ServerHttpRouteProps extends ServerRouteProps {
  /**
   * The rules.
   * @default - none yet; add with addRule()
   */
  readonly rules?: ServerHttpRouteRule[];
}

/** Props for a ServerGrpcRoute. */
export interface ServerGrpcRouteProps extends ServerRouteProps {
  /**
   * The rules.
   * @default - none yet; add with addRule()
   */
  readonly rules?: ServerGrpcRouteRule[];
}

const HTTP_PROTOCOLS = [ProxyProtocol.UNKNOWN, ProxyProtocol.HTTP1, ProxyProtocol.HTTP2];

/** What both inbound route kinds share: the Server parent, the namespace, the protocol and the unmatched check. */
export abstract class ServerRoute extends MeshResource {
  /** @internal */
  protected readonly _rules: Record<string, any>[] = [];

  /** @internal */
  protected _setUp(
    props: ServerRouteProps & { readonly rules?: unknown[] }, family: RouteFamily, kind: string,
  ): { metadata: ResolvedMetadata; spec: any } {
    check(typeof props.server?.name === 'string', this, InputRule.REQUIRED, 'server is required.', 'Pass server: the Server (or Server.fromServerName(...)).');
    const metadata = metadataFor(this, { ...props, namespace: props.namespace ?? props.server.namespace });
    check(props.server.namespace === undefined || props.server.namespace === metadata.namespace, this, 'LKD-ROUTE-022',
      `the route is in namespace ${metadata.namespace}, its Server ${props.server.name} in ${props.server.namespace}; Linkerd ignores a Server parent in another namespace.`,
      'Create the route in the Server\'s namespace.');
    this.checkProtocol(props.server.proxyProtocol, family, kind);
    claimServerReference(this, props.server);
    check(props.rules === undefined || (Array.isArray(props.rules) && props.rules.every((r) => typeof r === 'object' && r !== null)), this, InputRule.REQUIRED,
      'rules must be a list of { matches } objects.', 'Pass rules: [{ matches: [...] }], or add them with addRule().');
    checkUnmatchedValue(this, props.unmatched);
    const key = coverageKey(family, `server:${metadata.namespace ?? ''}/${props.server.name}`);
    const ownCoversAll = () => rulesCoverAll(this._rules, family);
    registerCoverage(this, key, '', ownCoversAll);
    this.node.addValidation({
      validate: () => (this._rules.length === 0
        ? [`${InputRule.REQUIRED}: ${kind} ${this.name} has no rules. Fix: add a rule with addRule().`]
        : validateUnmatched(this, {
          unmatched: props.unmatched, what: `${kind} ${this.name}`, parent: `Server ${props.server.name}`, key, clients: '', ownCoversAll, outcome: 'is refused',
        })),
    });
    // group and kind are always written: the Gateway API would default them to a Gateway. No port, no sectionName.
    const parentRef = { group: 'policy.linkerd.io', kind: 'Server', name: props.server.name };
    const spec = Lazy.any({ produce: () => ({ parentRefs: [parentRef], rules: this._rules.length ? [...this._rules] : undefined }) });
    return { metadata, spec };
  }

  /**
   * The props of the match-all companion route that `unmatched: UnmatchedRequests.ROUTE_TO_SERVICE` asks for, or
   * undefined.
   * @internal
   */
  protected _companionProps(props: ServerRouteProps, metadata: ResolvedMetadata): ServerRouteProps & { rules: Array<{}> } | undefined {
    if (props.unmatched !== UnmatchedRequests.ROUTE_TO_SERVICE) return undefined;
    return { name: props.unmatchedRouteName ?? `${props.name}-unmatched`, namespace: metadata.namespace, server: props.server, rules: [{}] };
  }

  private checkProtocol(protocol: ProxyProtocol | undefined, family: RouteFamily, kind: string): void {
    if (protocol === undefined) return;
    const carries = family === 'grpc' ? protocol === ProxyProtocol.GRPC : HTTP_PROTOCOLS.includes(protocol);
    const which = protocol === ProxyProtocol.GRPC ? 'only GRPCRoutes (use a ServerGrpcRoute)'
      : protocol === ProxyProtocol.OPAQUE || protocol === ProxyProtocol.TLS ? 'no routes at all (it does not parse HTTP)' : 'only HTTPRoutes (use a ServerHttpRoute)';
    check(carries, this, InputRule.CONFLICT, `a Server with proxyProtocol ${protocol} carries ${which}; Linkerd would ignore this ${kind}.`,
      family === 'grpc' ? 'Attach GRPCRoutes to a Server with proxyProtocol gRPC.' : 'Attach HTTPRoutes to an HTTP/1, HTTP/2 or detected Server.');
  }

  /** @internal */
  protected _checkRuleCount(): void {
    check(this._rules.length < MAX_RULES, this, InputRule.RANGE, `a route holds at most ${MAX_RULES} rules.`, 'Split the rules over several routes.');
  }
}

/**
 * An HTTPRoute on a Server: a part of a port's inbound requests that an AuthorizationPolicy can target
 * (`AuthorizationTarget.httpRoute(route)`), e.g. the probe paths or the admin API.
 */
export class ServerHttpRoute extends ServerRoute {
  public readonly apiObject: ApiObject;
  /** The match-all companion route written for `unmatched: UnmatchedRequests.ROUTE_TO_SERVICE`, if any. */
  public readonly unmatchedRoute?: ServerHttpRoute;

  constructor(scope: Construct, id: string, props: ServerHttpRouteProps) {
    super(scope, id);
    const { metadata, spec } = this._setUp(props, 'http', 'HTTPRoute');
    this.apiObject = new l1.HttpRoute(this, 'Resource', { metadata, spec });
    for (const rule of props.rules ?? []) this.addRule(rule);
    const companion = this._companionProps(props, metadata);
    if (companion) this.unmatchedRoute = new ServerHttpRoute(this, 'Unmatched', companion);
  }

  /** Adds a rule (at most 16 per route). Inbound rules only match: the Server's pods serve them. */
  public addRule(rule: ServerHttpRouteRule): void {
    this._checkRuleCount();
    const where = `rules[${this._rules.length}]`;
    const matches = rule.matches ?? [];
    check(matches.length <= 64, this, InputRule.RANGE, `${where} has ${matches.length} matches; at most 64 are allowed.`, 'Split the rule.');
    this._rules.push({ matches: matches.length ? matches.map((m, i) => renderHttpMatch(this, m, `${where}.matches[${i}]`)) : undefined });
  }
}

/** A GRPCRoute on a gRPC Server: some methods of a port that an AuthorizationPolicy can target (`AuthorizationTarget.grpcRoute`). */
export class ServerGrpcRoute extends ServerRoute {
  public readonly apiObject: ApiObject;
  /** The match-all companion route written for `unmatched: UnmatchedRequests.ROUTE_TO_SERVICE`, if any. */
  public readonly unmatchedRoute?: ServerGrpcRoute;

  constructor(scope: Construct, id: string, props: ServerGrpcRouteProps) {
    super(scope, id);
    const { metadata, spec } = this._setUp(props, 'grpc', 'GRPCRoute');
    this.apiObject = new l1.GrpcRoute(this, 'Resource', { metadata, spec });
    for (const rule of props.rules ?? []) this.addRule(rule);
    const companion = this._companionProps(props, metadata);
    if (companion) this.unmatchedRoute = new ServerGrpcRoute(this, 'Unmatched', companion);
  }

  /** Adds a rule (at most 16 per route). */
  public addRule(rule: ServerGrpcRouteRule): void {
    this._checkRuleCount();
    const where = `rules[${this._rules.length}]`;
    const matches = rule.matches ?? [];
    check(matches.length <= 8, this, InputRule.RANGE, `${where} has ${matches.length} matches; GRPCRoute v1.2.1 allows 8.`, 'Split the rule.');
    this._rules.push({ matches: matches.length ? matches.map((m, i) => renderGrpcMatch(this, m, `${where}.matches[${i}]`)) : undefined });
  }
}
