import { Construct } from 'constructs';
import { GrpcRoute } from './grpc-route';
import { HttpRoute } from './http-route';
import { GrpcRetry, HttpRetry, RouteTimeouts } from './retry';
import { RouteBackend } from './route-backend';
import { ServiceReference } from './service-reference';
import { MeshResource } from '../base';
import { check } from '../core/errors';
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

/** Props for a TrafficSplit. */
export interface TrafficSplitProps {
  /** Name of the route object. */
  readonly name: string;
  /**
   * Namespace of the route.
   * @default - the Chart's
   */
  readonly namespace?: string;
  /** The stable Service callers use (the parent). */
  readonly service: ServiceReference;
  /** The stable Service's port. */
  readonly port: number;
  /** The shares; percents must add up to 100. */
  readonly backends: SplitBackend[];
  /**
   * Split gRPC calls with a GRPCRoute instead of an HTTPRoute.
   * @default false
   */
  readonly grpc?: boolean;
  /**
   * HTTP retries (HTTP splits only).
   * @default - none
   */
  readonly httpRetry?: HttpRetry;
  /**
   * gRPC retries (gRPC splits only).
   * @default - none
   */
  readonly grpcRetry?: GrpcRetry;
  /**
   * Timeouts.
   * @default - none
   */
  readonly timeouts?: RouteTimeouts;
}

/** A percentage split of a Service's traffic, e.g. 90/10 between two versions: one route with weighted backends. */
export class TrafficSplit extends Construct {
  /** The route created. */
  public readonly route: MeshResource;

  constructor(scope: Construct, id: string, props: TrafficSplitProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    requireList(this, props.backends, 'backends', (b) => isStruct(b) && b.service instanceof ServiceReference, 'split backends ({ service: ServiceReference, percent })');
    optionalBoolean(this, props.grpc, 'grpc');
    check(props.backends.length > 0, this, 'LKD-ROUTE-009', 'a split needs backends.', 'List the Services and their percents.');
    props.backends.forEach((b, i) => check(Number.isInteger(b.percent) && b.percent >= 0 && b.percent <= 100, this, 'LKD-ROUTE-009',
      `backends[${i}] percent ${JSON.stringify(b.percent)} is not an integer 0..100.`, 'Use whole percents.'));
    const total = props.backends.reduce((sum, b) => sum + b.percent, 0);
    check(total === 100, this, 'LKD-ROUTE-009', `the percents add up to ${total}, not 100.`, 'Adjust the shares so they sum to exactly 100.');
    check(!(props.grpc && props.httpRetry) && !(!props.grpc && props.grpcRetry), this, 'LKD-RETRY-004',
      'the retry family does not match the split\'s protocol.', 'Use httpRetry for HTTP splits and grpcRetry for gRPC splits.');
    // A lone backend gets everything whatever its weight; writing "100" would only suggest a missing canary.
    const weightOf = (percent: number) => (props.backends.length === 1 ? undefined : percent);
    const backends = props.backends.map((b) => RouteBackend.service(b.service, { port: b.port ?? props.port, weight: weightOf(b.percent) }));
    const common = { name: props.name, namespace: props.namespace, service: props.service, port: props.port, timeouts: props.timeouts };
    this.route = props.grpc
      ? new GrpcRoute(this, 'Route', { ...common, retry: props.grpcRetry, rules: [{ backends }] })
      : new HttpRoute(this, 'Route', { ...common, retry: props.httpRetry, rules: [{ backends }] });
  }
}
