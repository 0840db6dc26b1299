/**
 * The load-balancer annotations Linkerd 2.20 reads from Services and EgressNetworks: failure accrual (circuit
 * breaking), the load biaser and the Retry-After opt-in. Pure functions mirroring linkerd2
 * policy-controller/k8s/index/src/outbound/index.rs (`parse_accrual_config`, `parse_consecutive_params`,
 * `parse_success_rate_params`, `parse_load_biaser_config`, `parse_bool_annotation`) with the defaults of
 * policy-controller/core/src/outbound.rs. Each parse either gives what the controller would configure or the reason
 * it gives up; the controller then logs a warning and configures none of that block.
 */
import { Parsed, fail, goBool, ok, parseLinkerdDuration, parseUnsigned } from './linkerd-grammar';
import {
  FAILURE_ACCRUAL, JITTER_RATIO, LOAD_BIASER_MAX_RETRY_AFTER, LOAD_BIASER_PENALTY, MAX_FAILURES, MAX_PENALTY, MIN_PENALTY, PENALIZE_FAILURES,
  SUCCESS_RATE_MIN_REQUESTS, SUCCESS_RATE_THRESHOLD, SUCCESS_RATE_WINDOW,
} from './vocabulary';

/** Whether a key is in one of the families (`balancer.linkerd.io/`, `balancer.alpha.linkerd.io/`). */
export function isBalancerKey(key: string): boolean {
  return key.startsWith('balancer.linkerd.io/') || key.startsWith('balancer.alpha.linkerd.io/');
}

export interface SuccessRate {
  readonly threshold: number;
  readonly windowMs: number;
  readonly minRequests: number;
}

export interface FailureAccrual {
  readonly mode: 'consecutive' | 'unified';
  readonly maxFailures: number;
  readonly minPenaltyMs: number;
  readonly maxPenaltyMs: number;
  readonly jitter: number;
  /** Unified mode only. */
  readonly successRate?: SuccessRate;
}

type Annotations = Record<string, unknown>;

const U32_MAX = 4_294_967_295;
const MAX_SUCCESS_RATE_MIN_REQUESTS = 1_000_000;
const MIN_SUCCESS_RATE_WINDOW_MS = 10;

/** A value as the controller reads it: annotations are strings; anything else cannot be read. */
function text(annotations: Annotations, key: string): Parsed<string | undefined> {
  const value = annotations[key];
  if (value === undefined) return ok(undefined);
  return typeof value === 'string' ? ok(value) : fail(`${key} is ${JSON.stringify(value)}, not a string`);
}

/** Rust's `str::parse::<u32>()` of the trimmed value: digits with an optional `+`. */
function u32(annotations: Annotations, key: string, fallback: number): Parsed<number> {
  const raw = text(annotations, key);
  if (!raw.ok || raw.value === undefined) return raw.ok ? ok(fallback) : raw;
  const n = parseUnsigned(raw.value.trim());
  return n !== undefined && n <= BigInt(U32_MAX) ? ok(Number(n)) : fail(`${key} is "${raw.value}", not a whole number from 0 to ${U32_MAX}`);
}

/** Rust's float parse of the trimmed value (`1`, `0.5`, `.5`, `5e-1`, `inf`, `NaN`); NaN and infinities fail the range checks. */
function float(annotations: Annotations, key: string, fallback: number, single = false): Parsed<number> {
  const raw = text(annotations, key);
  if (!raw.ok || raw.value === undefined) return raw.ok ? ok(fallback) : raw;
  const trimmed = raw.value.trim();
  // Rust's str::parse: the jitter ratio is an f32 (parse_consecutive_params), so "100.000001" is 100.0; the threshold an f64.
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return ok(single ? Math.fround(Number(trimmed)) : Number(trimmed));
  if (/^[+-]?(inf|infinity)$/i.test(trimmed)) return ok(trimmed.startsWith('-') ? -Infinity : Infinity);
  if (/^[+-]?nan$/i.test(trimmed)) return ok(NaN);
  return fail(`${key} is "${raw.value}", not a number`);
}

/** Linkerd's annotation duration (one integer, one unit), in milliseconds. */
function duration(annotations: Annotations, key: string, fallbackMs: number): Parsed<number> {
  const raw = text(annotations, key);
  if (!raw.ok || raw.value === undefined) return raw.ok ? ok(fallbackMs) : raw;
  const parsed = parseLinkerdDuration(raw.value);
  return parsed.ok ? parsed : fail(`${key}: ${parsed.reason}`);
}

/** `parse_bool_annotation`: Go's strconv.ParseBool tokens after trimming; absent is false. */
export function parseBalancerBool(annotations: Annotations, key: string): Parsed<boolean> {
  const raw = text(annotations, key);
  if (!raw.ok) return raw;
  if (raw.value === undefined) return ok(false);
  const parsed = goBool(raw.value.trim());
  if (parsed !== undefined) return ok(parsed);
  return fail(`${key} is "${raw.value}", not a boolean such as "true" or "false"`);
}

/** `parse_consecutive_params`: shared by both modes, with the defaults 7 failures, 1s to 60s, jitter 0.5. */
function consecutiveParams(annotations: Annotations): Parsed<Omit<FailureAccrual, 'mode' | 'successRate'>> {
  const maxFailures = u32(annotations, MAX_FAILURES, 7);
  if (!maxFailures.ok) return maxFailures;
  const maxPenaltyMs = duration(annotations, MAX_PENALTY, 60_000);
  if (!maxPenaltyMs.ok) return maxPenaltyMs;
  const minPenaltyMs = duration(annotations, MIN_PENALTY, 1_000);
  if (!minPenaltyMs.ok) return minPenaltyMs;
  const jitter = float(annotations, JITTER_RATIO, 0.5, true);
  if (!jitter.ok) return jitter;
  if (!(minPenaltyMs.value <= maxPenaltyMs.value)) return fail(`${MIN_PENALTY} (${minPenaltyMs.value} ms) exceeds ${MAX_PENALTY} (${maxPenaltyMs.value} ms)`);
  if (!(maxPenaltyMs.value > 0)) return fail(`${MAX_PENALTY} is zero`);
  if (!(jitter.value >= 0)) return fail(`${JITTER_RATIO} is negative (or not a number)`);
  if (!(jitter.value <= 100)) return fail(`${JITTER_RATIO} is greater than 100`);
  return ok({ maxFailures: maxFailures.value, minPenaltyMs: minPenaltyMs.value, maxPenaltyMs: maxPenaltyMs.value, jitter: jitter.value });
}

/**
 * `parse_success_rate_params` (unified mode): threshold 0 to 1 (default 0.8), window above zero (default 10s) and, while
 * the threshold is not 0, at least 10 ms and at most 1,000,000 minimum requests (default 5).
 */
function successRateParams(annotations: Annotations): Parsed<SuccessRate> {
  const threshold = float(annotations, SUCCESS_RATE_THRESHOLD, 0.8);
  if (!threshold.ok) return threshold;
  if (!(threshold.value >= 0 && threshold.value <= 1)) return fail(`${SUCCESS_RATE_THRESHOLD} is ${threshold.value}, not between 0 and 1`);
  const windowMs = duration(annotations, SUCCESS_RATE_WINDOW, 10_000);
  if (!windowMs.ok) return windowMs;
  if (!(windowMs.value > 0)) return fail(`${SUCCESS_RATE_WINDOW} is zero`);
  const active = threshold.value !== 0;
  if (active && windowMs.value < MIN_SUCCESS_RATE_WINDOW_MS) return fail(`${SUCCESS_RATE_WINDOW} is below 10ms`);
  const minRequests = u32(annotations, SUCCESS_RATE_MIN_REQUESTS, 5);
  if (!minRequests.ok) return minRequests;
  if (active && minRequests.value > MAX_SUCCESS_RATE_MIN_REQUESTS) return fail(`${SUCCESS_RATE_MIN_REQUESTS} exceeds 1000000`);
  return ok({ threshold: threshold.value, windowMs: windowMs.value, minRequests: minRequests.value });
}

/** `parse_accrual_config`: undefined without a mode; the mode is `consecutive` or `unified`, exactly. */
export function parseFailureAccrual(annotations: Annotations): Parsed<FailureAccrual | undefined> {
  const mode = text(annotations, FAILURE_ACCRUAL);
  if (!mode.ok) return mode;
  if (mode.value === undefined) return ok(undefined);
  if (mode.value !== 'consecutive' && mode.value !== 'unified') {
    return fail(`${FAILURE_ACCRUAL} is "${mode.value}"; the modes are "consecutive" and "unified" (exactly, no spaces)`);
  }
  const consecutive = consecutiveParams(annotations);
  if (!consecutive.ok) return consecutive;
  if (mode.value === 'consecutive') return ok({ mode: mode.value, ...consecutive.value });
  const successRate = successRateParams(annotations);
  if (!successRate.ok) return successRate;
  return ok({ mode: mode.value, ...consecutive.value, successRate: successRate.value });
}

/** `parse_load_biaser_config` (Services only): off unless penalize-failures is true; the penalty fits a u32 of ms. */
export function parseLoadBiaser(annotations: Annotations): Parsed<{ readonly penaltyMs: number; readonly maxRetryAfterMs: number } | undefined> {
  const enabled = parseBalancerBool(annotations, PENALIZE_FAILURES);
  if (!enabled.ok) return enabled;
  if (!enabled.value) return ok(undefined);
  const penaltyMs = duration(annotations, LOAD_BIASER_PENALTY, 5_000);
  if (!penaltyMs.ok) return penaltyMs;
  if (penaltyMs.value > U32_MAX) return fail(`${LOAD_BIASER_PENALTY} exceeds about 49.7 days (a u32 of milliseconds)`);
  const maxRetryAfterMs = duration(annotations, LOAD_BIASER_MAX_RETRY_AFTER, 300_000);
  if (!maxRetryAfterMs.ok) return maxRetryAfterMs;
  return ok({ penaltyMs: penaltyMs.value, maxRetryAfterMs: maxRetryAfterMs.value });
}
