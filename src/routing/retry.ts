import { Duration } from 'cdk8s';
import { IConstruct } from 'constructs';
import { annotationDuration } from '../core/durations';
import { InputRule, check } from '../core/errors';
import { optionalStruct, requireList } from '../core/runtime-checks';
import {
  RETRY_GRPC_ANNOTATION, RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION, TIMEOUT_IDLE_ANNOTATION,
  TIMEOUT_REQUEST_ANNOTATION, TIMEOUT_RESPONSE_ANNOTATION,
} from '../core/vocabulary';

/** An HTTP response status (or class) that is retried. */
export class RetryStatus {
  /** Any 5xx response. */
  public static readonly SERVER_ERRORS = new RetryStatus('5xx');
  /** 502, 503 and 504. */
  public static readonly GATEWAY_ERRORS = new RetryStatus('gateway-error');

  /** One status code, 100..599. */
  public static code(code: number): RetryStatus {
    return new RetryStatus(code, code);
  }

  /**
   * A range of status codes, inclusive, within 100..599 (Linkerd's `status_min`..`status_max`).
   * @param min the lowest status code retried
   * @param max the highest status code retried
   */
  public static range(min: number, max: number): RetryStatus {
    return new RetryStatus(min, max);
  }

  private constructor(private readonly from: number | string, private readonly to?: number) {}

  /** Validates and renders one item of `retry.linkerd.io/http`. @internal */
  public _render(scope: IConstruct): string {
    if (this === RetryStatus.SERVER_ERRORS || this === RetryStatus.GATEWAY_ERRORS) return this.from as string;
    const from = this.from as number;
    const to = this.to ?? from;
    const inRange = (n: unknown) => Number.isInteger(n) && (n as number) >= 100 && (n as number) <= 599;
    check(inRange(from) && inRange(to) && from <= to, scope, 'LKD-RETRY-002',
      `retry status ${from}${to !== from ? `-${to}` : ''} is not a code or ascending range within 100..599.`, 'Use codes between 100 and 599.');
    return this.from === to ? String(this.from) : `${this.from}-${to}`;
  }
}

/** gRPC status codes Linkerd can retry on. */
export enum GrpcRetryCode {
  /** CANCELLED. */
  CANCELLED = 'cancelled',
  /** DEADLINE_EXCEEDED. */
  DEADLINE_EXCEEDED = 'deadline-exceeded',
  /** INTERNAL. */
  INTERNAL = 'internal',
  /** RESOURCE_EXHAUSTED. */
  RESOURCE_EXHAUSTED = 'resource-exhausted',
  /** UNAVAILABLE. */
  UNAVAILABLE = 'unavailable',
}

/** Retries for HTTP traffic (`retry.linkerd.io/*`). Only for idempotent requests: the proxy retries any method. */
export interface HttpRetry {
  /** The statuses that are retried. */
  readonly statuses: RetryStatus[];
  /**
   * Maximum retries per request.
   * @default 1 (Linkerd's default when any retry annotation is set)
   */
  readonly limit?: number;
  /**
   * Timeout of each attempt.
   * @default - none
   */
  readonly timeout?: Duration;
}

/** Retries for gRPC traffic (`retry.linkerd.io/grpc`). */
export interface GrpcRetry {
  /** The status codes that are retried. */
  readonly codes: GrpcRetryCode[];
  /**
   * Maximum retries per request.
   * @default 1
   */
  readonly limit?: number;
  /**
   * Timeout of each attempt.
   * @default - none
   */
  readonly timeout?: Duration;
}

/** Timeouts for every request of a route (`timeout.linkerd.io/*`). */
export interface RouteTimeouts {
  /**
   * Total time for a request, including retries.
   * @default - none
   */
  readonly request?: Duration;
  /**
   * Time until the response starts.
   * @default - none
   */
  readonly response?: Duration;
  /**
   * Idle time allowed on the stream.
   * @default - none
   */
  readonly idle?: Duration;
}

function limitAndTimeout(scope: IConstruct, limit: number | undefined, timeout: Duration | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (limit !== undefined) {
    check(Number.isInteger(limit) && limit >= 1 && limit <= 65535, scope, 'LKD-RETRY-002', `retry limit ${JSON.stringify(limit)} is outside 1..65535.`,
      'Use a small positive integer (retries multiply load).');
    out[RETRY_LIMIT_ANNOTATION] = String(limit);
  }
  if (timeout !== undefined) out[RETRY_TIMEOUT_ANNOTATION] = annotationDuration(scope, timeout, 'retry timeout');
  return out;
}

export function httpRetryAnnotations(scope: IConstruct, retry: HttpRetry | undefined): Record<string, string> {
  if (retry === undefined) return {};
  optionalStruct(scope, retry, 'retry');
  requireList(scope, retry.statuses, 'retry.statuses', (s) => s instanceof RetryStatus, 'RetryStatus values');
  check(Array.isArray(retry.statuses) && retry.statuses.length > 0, scope, InputRule.REQUIRED, 'retry.statuses is empty.', 'List the statuses to retry, e.g. [RetryStatus.GATEWAY_ERRORS].');
  // Items are joined without spaces: Linkerd does not trim them, so "5xx, 429" would be rejected.
  const statuses = retry.statuses.map((s) => s._render(scope)).join(',');
  return { [RETRY_HTTP_ANNOTATION]: statuses, ...limitAndTimeout(scope, retry.limit, retry.timeout) };
}

export function grpcRetryAnnotations(scope: IConstruct, retry: GrpcRetry | undefined): Record<string, string> {
  if (retry === undefined) return {};
  optionalStruct(scope, retry, 'retry');
  const known = new Set<string>(Object.values(GrpcRetryCode));
  check(Array.isArray(retry.codes) && retry.codes.length > 0 && retry.codes.every((c) => known.has(c)), scope, 'LKD-RETRY-002',
    'retry.codes must list GrpcRetryCode values.', 'Use e.g. [GrpcRetryCode.UNAVAILABLE].');
  return { [RETRY_GRPC_ANNOTATION]: [...new Set(retry.codes)].join(','), ...limitAndTimeout(scope, retry.limit, retry.timeout) };
}

export function timeoutAnnotations(scope: IConstruct, timeouts: RouteTimeouts | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  optionalStruct(scope, timeouts, 'timeouts');
  if (timeouts?.request) out[TIMEOUT_REQUEST_ANNOTATION] = annotationDuration(scope, timeouts.request, 'request timeout');
  if (timeouts?.response) out[TIMEOUT_RESPONSE_ANNOTATION] = annotationDuration(scope, timeouts.response, 'response timeout');
  if (timeouts?.idle) out[TIMEOUT_IDLE_ANNOTATION] = annotationDuration(scope, timeouts.idle, 'idle timeout');
  return out;
}
