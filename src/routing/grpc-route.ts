import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { GrpcRouteMatch, renderGrpcMatch } from './matches';
import { GrpcRetry, RouteTimeouts, grpcRetryAnnotations, timeoutAnnotations } from './retry';
import { RouteBackend } from './route-backend';
import { ServiceRoute, ServiceRouteProps, renderBackends, renderServiceParent, unmatchedRouteName } from './route-base';
import { UnmatchedRequests } from './unmatched';
import { MeshResourceProps, metadataFor } from '../base';
import { check } from '../core/errors';
import { isStruct, optionalList, requireStruct } from '../core/runtime-checks';
import * as l1 from '../imports/gateway.networking.k8s.io';

/** One rule of a GRPCRoute. */
export interface GrpcRouteRule {
  /**
   * Calls the rule applies to (any one of them; at most 8).
   * @default - every call
   */
  readonly matches?: GrpcRouteMatch[];
  /**
   * Where matching calls go.
   * @default - the parent Service itself
   */
  readonly backends?: RouteBackend[];
}

/** Props for a GrpcRoute. */
export interface GrpcRouteProps extends MeshResourceProps, ServiceRouteProps {
  /**
   * The rules.
   * @default - none yet; add with addRule()
   */
  readonly rules?: GrpcRouteRule[];
  /**
   * Retries by gRPC status. They replace any retry settings on the Service.
   * @default - none
   */
  readonly retry?: GrpcRetry;
  /**
   * Timeouts (GRPCRoute has no timeouts field; Linkerd reads these annotations).
   * @default - none
   */
  readonly timeouts?: RouteTimeouts;
}

/** A Gateway API GRPCRoute (v1) attached to a Service. */
export class GrpcRoute extends ServiceRoute {
  public readonly apiObject: ApiObject;
  /** The match-all companion route written for `unmatched: UnmatchedRequests.ROUTE_TO_SERVICE`, if any. */
  public readonly unmatchedRoute?: GrpcRoute;
  private readonly rules: Record<string, any>[] = [];
  /** The parent Service's namespace, when not the route's: where Linkerd looks up backends written without one. */
  private readonly parentNamespace?: string;

  constructor(scope: Construct, id: string, props: GrpcRouteProps) {
    super(scope, id);
    const metadata = metadataFor(this, props);
    const annotations = { ...props.annotations, ...grpcRetryAnnotations(this, props.retry), ...timeoutAnnotations(this, props.timeouts) };
    const parentRef = renderServiceParent(this, props, metadata.namespace);
    this.parentNamespace = props.service.namespace;
    this.apiObject = new l1.GrpcRoute(this, 'Resource', {
      metadata: { ...metadata, annotations: Object.keys(annotations).length ? annotations : undefined },
      spec: Lazy.any({ produce: () => ({ parentRefs: [parentRef], rules: this.rules.length ? [...this.rules] : undefined }) }) as any,
    });
    for (const rule of optionalList<GrpcRouteRule>(this, props.rules, 'rules', isStruct, 'rules ({ matches, backends })') ?? []) this.addRule(rule);
    this._watchUnmatched(props, 'grpc', 'GRPCRoute', this.rules);
    if (props.unmatched === UnmatchedRequests.ROUTE_TO_SERVICE) {
      // No retries, timeouts or backends: exactly what Linkerd's default route did before this route attached.
      this.unmatchedRoute = new GrpcRoute(this, 'Unmatched', {
        name: unmatchedRouteName(props), namespace: props.namespace, service: props.service, port: props.port, rules: [{}],
      });
    }
    this.node.addValidation({
      validate: () => (this.rules.length === 0 ? [`LKD-INPUT-003: GRPCRoute ${this.name} has no rules. Fix: add a rule with addRule().`] : []),
    });
  }

  /** Adds a rule (at most 16 per route). */
  public addRule(rule: GrpcRouteRule): void {
    this.checkRuleCount(this.rules.length);
    const where = `rules[${this.rules.length}]`;
    requireStruct(this, rule, where);
    const matches = optionalList<GrpcRouteMatch>(this, rule.matches, `${where}.matches`, isStruct, 'match objects') ?? [];
    check(matches.length <= 8, this, 'LKD-INPUT-006', `${where} has ${matches.length} matches; GRPCRoute v1.2.1 allows 8.`, 'Split the rule.');
    this.rules.push({
      matches: matches.length ? matches.map((m, i) => renderGrpcMatch(this, m, `${where}.matches[${i}]`)) : undefined,
      backendRefs: renderBackends(this, rule.backends, where, this.namespace, this.parentNamespace),
    });
  }
}
