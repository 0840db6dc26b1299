import { ApiObject, Duration, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { HttpRouteMatch, renderHttpMatch } from './matches';
import { HttpRetry, RouteTimeouts, httpRetryAnnotations, timeoutAnnotations } from './retry';
import { RouteBackend } from './route-backend';
import { ServiceRoute, ServiceRouteProps, renderBackends, renderServiceParent, unmatchedRouteName } from './route-base';
import { UnmatchedRequests } from './unmatched';
import { MeshResourceProps, metadataFor } from '../base';
import { gatewayDuration } from '../core/durations';
import { check, fail } from '../core/errors';
import { isStruct, optionalList, requireStruct } from '../core/runtime-checks';
import * as l1 from '../imports/gateway.networking.k8s.io';

/** One rule of an HTTPRoute. */
export interface HttpRouteRule {
  /**
   * Requests the rule applies to (any one of them).
   * @default - every request
   */
  readonly matches?: HttpRouteMatch[];
  /**
   * Where matching requests go.
   * @default - the parent Service itself
   */
  readonly backends?: RouteBackend[];
  /**
   * Timeout for the whole request (Gateway API `timeouts.request`; Linkerd needs a single unit).
   * @default - none
   */
  readonly requestTimeout?: Duration;
}

/** Props for an HttpRoute. */
export interface HttpRouteProps extends MeshResourceProps, ServiceRouteProps {
  /**
   * The rules.
   * @default - none yet; add with addRule()
   */
  readonly rules?: HttpRouteRule[];
  /**
   * Retries for requests of this route. They replace (not merge with) any retry settings on the Service.
   * @default - none
   */
  readonly retry?: HttpRetry;
  /**
   * Timeouts for requests of this route. They replace any timeouts on the Service.
   * @default - none
   */
  readonly timeouts?: RouteTimeouts;
}

/**
 * A Gateway API HTTPRoute (v1) attached to a Service: how the mesh routes calls to that Service port. The example
 * retries the reads and sends every other request to orders unchanged (Linkerd drops a Service port's default route
 * once any route attaches).
 *
 * @exampleMetadata fixture=shop
 * @example
 * new HttpRoute(chart, 'OrdersReads', {
 *   name: 'orders-reads',
 *   service: ordersService,
 *   port: 8080,
 *   rules: [{ matches: [{ path: PathMatch.prefix('/api'), method: HttpMethod.GET }] }],
 *   retry: { statuses: [RetryStatus.range(502, 504)], limit: 2, timeout: Duration.millis(300) },
 *   unmatched: UnmatchedRequests.ROUTE_TO_SERVICE,
 * });
 */
export class HttpRoute extends ServiceRoute {
  public readonly apiObject: ApiObject;
  /** The match-all companion route written for `unmatched: UnmatchedRequests.ROUTE_TO_SERVICE`, if any. */
  public readonly unmatchedRoute?: HttpRoute;
  private readonly rules: Record<string, any>[] = [];
  /** The parent Service's namespace, when not the route's: where Linkerd looks up backends written without one. */
  private readonly parentNamespace?: string;
  /** The route's `timeouts.request` (the timeout.linkerd.io/request annotation), in ms: it hides every rule's. */
  private readonly routeRequestTimeout?: number;

  constructor(scope: Construct, id: string, props: HttpRouteProps) {
    super(scope, id);
    const metadata = metadataFor(this, props);
    const annotations = { ...props.annotations, ...httpRetryAnnotations(this, props.retry), ...timeoutAnnotations(this, props.timeouts) };
    const parentRef = renderServiceParent(this, props, metadata.namespace);
    this.parentNamespace = props.service.namespace;
    this.routeRequestTimeout = props.timeouts?.request?.toMilliseconds();
    this.apiObject = new l1.HttpRoute(this, 'Resource', {
      metadata: { ...metadata, annotations: Object.keys(annotations).length ? annotations : undefined },
      spec: Lazy.any({ produce: () => ({ parentRefs: [parentRef], rules: this.rules.length ? [...this.rules] : undefined }) }) as any,
    });
    for (const rule of optionalList<HttpRouteRule>(this, props.rules, 'rules', isStruct, 'rules ({ matches, backends })') ?? []) this.addRule(rule);
    this._watchUnmatched(props, 'http', 'HTTPRoute', this.rules);
    if (props.unmatched === UnmatchedRequests.ROUTE_TO_SERVICE) {
      // No retries, timeouts or backends: exactly what Linkerd's default route did before this route attached.
      this.unmatchedRoute = new HttpRoute(this, 'Unmatched', {
        name: unmatchedRouteName(props), namespace: props.namespace, service: props.service, port: props.port, rules: [{}],
      });
    }
    this.node.addValidation({
      validate: () => (this.rules.length === 0 ? [`LKD-INPUT-003: HTTPRoute ${this.name} has no rules. Fix: add a rule with addRule().`] : []),
    });
  }

  /** Adds a rule (at most 16 per route). */
  public addRule(rule: HttpRouteRule): void {
    this.checkRuleCount(this.rules.length);
    const where = `rules[${this.rules.length}]`;
    requireStruct(this, rule, where);
    const matches = optionalList<HttpRouteMatch>(this, rule.matches, `${where}.matches`, isStruct, 'match objects') ?? [];
    if (matches.length > 64) {
      fail(this, 'LKD-INPUT-006',
        `${where} has ${matches.length} matches; at most 64 are allowed.`,
        'Split the rule.');
    }
    const rendered: Record<string, any> = {
      matches: matches.length ? matches.map((m, i) => renderHttpMatch(this, m, `${where}.matches[${i}]`)) : undefined,
      backendRefs: renderBackends(this, rule.backends, where, this.namespace, this.parentNamespace),
    };
    // Linkerd reads the annotation before rules[].timeouts.request (outbound/index/http.rs convert_gateway_rule): LKD-ROUTE-018.
    const hidden = rule.requestTimeout !== undefined && this.routeRequestTimeout !== undefined
      && rule.requestTimeout.toMilliseconds() !== this.routeRequestTimeout;
    check(!hidden, this, 'LKD-ROUTE-018',
      `${where} sets requestTimeout, but the route's timeouts.request writes timeout.linkerd.io/request, which Linkerd reads instead, so `
        + 'the rule\'s timeout would be ignored.',
      'Set the request timeout on the rules or on the route, not both.');
    if (rule.requestTimeout) rendered.timeouts = { request: gatewayDuration(this, rule.requestTimeout, `${where} request timeout`) };
    this.rules.push(rendered);
  }
}
