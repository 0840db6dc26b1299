import { Construct } from 'constructs';
import { GrpcRoute } from './grpc-route';
import { HttpRoute } from './http-route';
import { GrpcRouteMatch, HttpRouteMatch } from './matches';
import { GrpcRetry, HttpRetry, RouteTimeouts } from './retry';
import { RouteBackend } from './route-backend';
import { ServiceReference } from './service-reference';
import { UnmatchedRequests, checkUnmatchedValue } from './unmatched';
import { MeshResource } from '../base';
import { InputRule, check, fail } from '../core/errors';
import { isStruct, optionalBoolean, requireList, requireStruct } from '../core/runtime-checks';

/** One side of a split. */
export interface SplitBackend {
  /** The Service that receives this share. */
  readonly service: ServiceReference;
  /** Percent of requests, 0..100; all shares add up to 100. */
  readonly percent: number;
  /**
   * The backend Service's port.
   * @default - the split's port
   */
  readonly port?: number;
}

/**
 * A matched part of an HTTP split with its own retries and timeouts. Linkerd reads retries and timeouts per route
 * object (annotations), so each rule becomes a route of its own, with the split's backends and shares.
 */
export interface HttpSplitRule {
  /** Name of the route that carries this rule, e.g. `orders-reads`. */
  readonly name: string;
  /** The requests of this rule (any one of the matches; at least one). */
  readonly matches: HttpRouteMatch[];
  /**
   * Retries for these requests only (match idempotent methods: LKD-RETRY-001).
   * @default - none
   */
  readonly retry?: HttpRetry;
  /**
   * Timeouts for these requests only.
   * @default - none
   */
  readonly timeouts?: RouteTimeouts;
}

/** A matched part of a gRPC split with its own retries and timeouts (one GRPCRoute per rule, as for HTTP). */
export interface GrpcSplitRule {
  /** Name of the route that carries this rule, e.g. `orders-reads`. */
  readonly name: string;
  /** The calls of this rule (any one of the matches; at least one). Name exact methods to retry them (LKD-RETRY-001). */
  readonly matches: GrpcRouteMatch[];
  /**
   * Retries for these calls only.
   * @default - none
   */
  readonly retry?: GrpcRetry;
  /**
   * Timeouts for these calls only.
   * @default - none
   */
  readonly timeouts?: RouteTimeouts;
}

/** What every split takes. */
export interface SplitBaseProps {
  /** Name of the route object for requests no rule matches (all requests when there are no rules). */
  readonly name: string;
  /**
   * Namespace of the routes.
   * @default - the Chart's
   */
  readonly namespace?: string;
  /** The stable Service callers use (the parent). */
  readonly service: ServiceReference;
  /** The stable Service's port. */
  readonly port: number;
  /** The shares; percents must add up to 100. They apply to every rule and to the unmatched requests. */
  readonly backends: SplitBackend[];
  /**
   * Timeouts for requests no rule matches (all requests when there are no rules).
   * @default - none
   */
  readonly timeouts?: RouteTimeouts;
  /**
   * What happens to requests no rule matches, when there are rules. `ROUTE_TO_SERVICE` writes the route `name` with
   * no matches and the same shares, without the rules' retries (Linkerd drops the Service's default route once any
   * route attaches, so without it they would get 404).
   * @default UnmatchedRequests.ROUTE_TO_SERVICE
   */
  readonly unmatched?: UnmatchedRequests;
}

/** Props for a TrafficSplit. */
export interface TrafficSplitProps extends SplitBaseProps {
  /**
   * Split gRPC calls with a GRPCRoute instead of an HTTPRoute.
   * @default false
   * @deprecated use GrpcTrafficSplit, which also takes matched rules
   */
  readonly grpc?: boolean;
  /**
   * Retries for requests no rule matches (all requests when there are no rules; HTTP splits only).
   * @default - none
   */
  readonly httpRetry?: HttpRetry;
  /**
   * gRPC retries (with the deprecated `grpc: true` only).
   * @default - none
   * @deprecated use GrpcTrafficSplit's retry
   */
  readonly grpcRetry?: GrpcRetry;
  /**
   * Matched parts of the traffic with their own retries and timeouts, e.g. the read paths with retries. Each is a
   * route with the split's backends and shares.
   * @default - none: one route for all requests
   */
  readonly rules?: HttpSplitRule[];
}

/** Props for a GrpcTrafficSplit. */
export interface GrpcTrafficSplitProps extends SplitBaseProps {
  /**
   * Retries for calls no rule matches (all calls when there are no rules). Retries on every method raise
   * LKD-RETRY-001: put them on rules that name exact methods instead.
   * @default - none
   */
  readonly retry?: GrpcRetry;
  /**
   * Matched methods with their own retries and timeouts. Each is a GRPCRoute with the split's backends and shares.
   * @default - none: one route for all calls
   */
  readonly rules?: GrpcSplitRule[];
}

/** What a split checks before it writes anything: shares, rules, and what is left for the unmatched requests. */
function checkShares(scope: Construct, backends: SplitBackend[]): void {
  requireList(scope, backends, 'backends', (b) => isStruct(b) && b.service instanceof ServiceReference, 'split backends ({ service: ServiceReference, percent })');
  check(Array.isArray(backends) && backends.length > 0, scope, 'LKD-ROUTE-009', 'a split needs backends.', 'List the Services and their percents.');
  backends.forEach((b, i) => {
    if (typeof b.percent !== 'number' || !Number.isInteger(b.percent)) {
      fail(scope, 'LKD-ROUTE-009', `backends[${i}] percent ${JSON.stringify(b.percent)} is not a whole number.`, 'Use whole percents.');
    }
    if (b.percent < 0 || b.percent > 100) {
      fail(scope, 'LKD-ROUTE-009', `backends[${i}] percent ${b.percent} is outside 0..100: a share is a percent of the split's requests.`,
        'Give each backend a share from 0 to 100, the shares adding up to 100.');
    }
  });
  const total = backends.reduce((sum, b) => sum + b.percent, 0);
  if (total !== 100) {
    fail(scope, 'LKD-ROUTE-009',
      `the percents add up to ${total}, not 100.`,
      'Adjust the shares so they sum to exactly 100.');
  }
}

interface SplitRule { readonly name: string; readonly matches: unknown[] }

function checkRules(scope: Construct, props: SplitBaseProps, rules: SplitRule[], unmatchedSettings: boolean): void {
  checkUnmatchedValue(scope, props.unmatched);
  // Other languages can pass anything here; nothing below may throw an uncoded TypeError.
  check(Array.isArray(rules) && rules.every((r) => typeof r === 'object' && r !== null && typeof r.name === 'string'), scope, InputRule.REQUIRED,
    'rules must be a list of { name, matches } objects.', 'Give each rule the name of its route and its matches.');
  const names = new Set<string>([props.name]);
  rules.forEach((rule, i) => {
    if (!(Array.isArray(rule.matches) && rule.matches.length > 0)) {
      fail(scope, InputRule.REQUIRED,
        `rules[${i}] (${rule.name}) has no matches.`,
        'Give each rule the requests it applies to; requests no rule matches are the split\'s own route.');
    }
    if (names.has(rule.name)) {
      fail(scope, InputRule.CONFLICT,
        `rules[${i}] is named ${JSON.stringify(rule.name)} like another route of the split.`,
        'Give each rule its own name, different from the split\'s name.');
    }
    names.add(rule.name);
  });
  const catchAll = rules.length === 0 || props.unmatched !== UnmatchedRequests.NOT_FOUND;
  check(catchAll || !unmatchedSettings, scope, InputRule.CONFLICT,
    'retries or timeouts are set for the unmatched requests, but unmatched is NOT_FOUND, so no route carries them.',
    'Put the retries and timeouts on the rules, or route the unmatched requests (UnmatchedRequests.ROUTE_TO_SERVICE).');
}

/** The backends of every route of a split. A lone backend gets everything: writing "100" would only suggest a missing canary. */
function splitBackends(props: SplitBaseProps): RouteBackend[] {
  const weightOf = (percent: number) => (props.backends.length === 1 ? undefined : percent);
  return props.backends.map((b) => RouteBackend.service(b.service, { port: b.port ?? props.port, weight: weightOf(b.percent) }));
}

/** Whether the split writes its match-all route. */
/**
 * The route of one split rule: its matches at the split's shares, its own retries and timeouts, no catch-all of its own.
 * The split's NOT_FOUND is the author's and is written on the rule routes; otherwise the split's catch-all covers the rest.
 */
function ruleRouteProps<M, R>(rule: { name: string; matches: M; retry?: R; timeouts?: RouteTimeouts }, backends: RouteBackend[],
  unmatched: UnmatchedRequests | undefined) {
  return {
    name: rule.name,
    retry: rule.retry,
    timeouts: rule.timeouts,
    unmatched: unmatched === UnmatchedRequests.NOT_FOUND ? unmatched : undefined,
    rules: [{ matches: rule.matches, backends }],
  };
}

function writesCatchAll(props: SplitBaseProps, ruleCount: number): boolean {
  return ruleCount === 0 || props.unmatched !== UnmatchedRequests.NOT_FOUND;
}

/**
 * A percentage split of a Service's HTTP traffic, e.g. 90/10 between two versions: routes with weighted backends.
 * With `rules`, matched requests (e.g. the read paths, with retries) get a route each and everything else goes on
 * with the same shares through the split's own match-all route.
 *
 * @exampleMetadata fixture=shop
 * @example
 * new TrafficSplit(chart, 'Split', {
 *   name: 'orders-split',
 *   service: ordersService,
 *   port: 8080,
 *   backends: [{ service: v1, percent: 90 }, { service: v2, percent: 10 }],
 * });
 */
export class TrafficSplit extends Construct {
  /** The route for requests no rule matches (all of them without rules); with NOT_FOUND, the last rule's route. */
  public readonly route: MeshResource;
  /** Every route the split wrote: the rules' first, then the match-all route. */
  public readonly routes: MeshResource[] = [];

  constructor(scope: Construct, id: string, props: TrafficSplitProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    optionalBoolean(this, props.grpc, 'grpc');
    checkShares(this, props.backends);
    check(!(props.grpc && props.httpRetry) && !(!props.grpc && props.grpcRetry), this, 'LKD-RETRY-004',
      'the retry family does not match the split\'s protocol.', 'Use httpRetry for HTTP splits and grpcRetry for gRPC splits.');
    const rules = props.rules ?? [];
    check(!(props.grpc && rules.length > 0), this, InputRule.CONFLICT, 'rules are HTTP matches, but grpc is true.',
      'Use a GrpcTrafficSplit for a gRPC split with rules.');
    checkRules(this, props, rules, props.httpRetry !== undefined || props.timeouts !== undefined);
    const backends = splitBackends(props);
    const common = { namespace: props.namespace, service: props.service, port: props.port };
    this.routes.push(...rules.map((rule) => new HttpRoute(this, `Rule-${rule.name}`, { ...common, ...ruleRouteProps(rule, backends, props.unmatched) })));
    if (writesCatchAll(props, rules.length)) {
      const all = { ...common, name: props.name, timeouts: props.timeouts, rules: [{ backends }] };
      this.routes.push(props.grpc
        ? new GrpcRoute(this, 'Route', { ...all, retry: props.grpcRetry })
        : new HttpRoute(this, 'Route', { ...all, retry: props.httpRetry }));
    }
    this.route = this.routes[this.routes.length - 1];
  }
}

/**
 * A percentage split of a Service's gRPC calls (GRPCRoutes), e.g. a 90/10 canary. With `rules`, matched methods get
 * their own retries and timeouts, and every other call goes on with the same shares, without retries.
 */
export class GrpcTrafficSplit extends Construct {
  /** The route for calls no rule matches (all of them without rules); with NOT_FOUND, the last rule's route. */
  public readonly route: MeshResource;
  /** Every route the split wrote: the rules' first, then the match-all route. */
  public readonly routes: MeshResource[] = [];

  constructor(scope: Construct, id: string, props: GrpcTrafficSplitProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    checkShares(this, props.backends);
    const rules = props.rules ?? [];
    checkRules(this, props, rules, props.retry !== undefined || props.timeouts !== undefined);
    const backends = splitBackends(props);
    const common = { namespace: props.namespace, service: props.service, port: props.port };
    this.routes.push(...rules.map((rule) => new GrpcRoute(this, `Rule-${rule.name}`, { ...common, ...ruleRouteProps(rule, backends, props.unmatched) })));
    if (writesCatchAll(props, rules.length)) {
      this.routes.push(new GrpcRoute(this, 'Route', { ...common, name: props.name, retry: props.retry, timeouts: props.timeouts, rules: [{ backends }] }));
    }
    this.route = this.routes[this.routes.length - 1];
  }
}
