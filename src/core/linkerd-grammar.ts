/**
 * The small languages Linkerd 2.20 reads from annotations and route fields: durations, retry status lists,
 * gRPC retry codes and retry limits. Pure functions, shared by the analysis rules and (later) by constructs that
 * want to refuse bad values before they are ever synthesized.
 *
 * Each parser mirrors what Linkerd's policy controller accepts, not what the Kubernetes schema accepts: the two
 * differ (e.g. the Gateway API CRD accepts `1m30s`, Linkerd does not), and that gap is what several rules report.
 */

import { lookupTable } from './own-keys';

/** The result of parsing: a value, or the reason it cannot be read. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** Go's strconv.ParseBool: the one spelling of its tokens (the injector and the policy controller's annotations use it). */
export function goBool(value: unknown): boolean | undefined {
  if (typeof value !== 'string') return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/** gRPC status names `retry.linkerd.io/grpc` understands (compared case-insensitively). */
export const GRPC_RETRY_CODES = ['cancelled', 'deadline-exceeded', 'internal', 'resource-exhausted', 'unavailable'] as const;

/** Largest value of a u16, the type Linkerd parses `retry.linkerd.io/limit` into. */
export const MAX_RETRY_LIMIT = 65_535;

// Looked up with the unit as written (`5constructor` has the unit `constructor`): only these keys are units.
const UNIT_MS = lookupTable<bigint>({ ms: 1n, s: 1_000n, m: 60_000n, h: 3_600_000n, d: 86_400_000n });
const MAX_U64 = 2n ** 64n - 1n;

export function ok<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

export function fail<T>(reason: string): Parsed<T> {
  return { ok: false, reason };
}

function requireString(value: unknown): Parsed<string> {
  return typeof value === 'string' ? ok(value) : fail(`must be a string, got ${JSON.stringify(value) ?? String(value)}`);
}

/** Rust's unsigned integer parsing: ASCII digits with an optional leading `+`, nothing else. */
export function parseUnsigned(text: string): bigint | undefined {
  return /^\+?[0-9]+$/.test(text) ? BigInt(text) : undefined;
}

/**
 * Linkerd's duration: one non-negative integer and one unit (`ms`, `s`, `m`, `h`, `d`), or a bare zero;
 * surrounding whitespace is ignored. Fractions, negatives and compound values such as `1m30s` are not durations.
 * The value is in milliseconds.
 */
export function parseLinkerdDuration(value: unknown): Parsed<number> {
  const str = requireString(value);
  if (!str.ok) return str;
  const text = str.value.trim();
  const match = /^(.*?[0-9])([^0-9]*)$/.exec(text);
  if (!match) return fail(`"${str.value}" has no number`);
  const [, magnitudeText, unit] = match;
  const magnitude = parseUnsigned(magnitudeText);
  if (magnitude === undefined) {
    return fail(`"${str.value}" is not one whole number followed by one unit (compound values like 1m30s, fractions and negatives are not accepted)`);
  }
  if (unit === '') {
    return magnitude === 0n ? ok(0) : fail(`"${str.value}" has no unit; use ms, s, m, h or d`);
  }
  const perUnit = UNIT_MS[unit];
  if (perUnit === undefined) return fail(`"${str.value}" has unit "${unit}"; use ms, s, m, h or d`);
  const ms = magnitude * perUnit;
  if (ms > MAX_U64) return fail(`"${str.value}" overflows when converted to milliseconds`);
  return ok(Number(ms));
}

/**
 * The Gateway API (GEP-2257) duration the HTTPRoute CRD validates: one to four parts, each one to five digits
 * followed by `h`, `m`, `s` or `ms`. The value is in milliseconds.
 */
export function parseGatewayDuration(value: unknown): Parsed<number> {
  const str = requireString(value);
  if (!str.ok) return str;
  if (!/^([0-9]{1,5}(h|m|s|ms)){1,4}$/.test(str.value)) {
    return fail(`"${str.value}" is not a Gateway API duration (1-4 parts of up to 5 digits, each followed by h, m, s or ms)`);
  }
  let total = 0;
  for (const part of str.value.matchAll(/([0-9]+)(ms|h|m|s)/g)) {
    total += Number(part[1]) * Number(UNIT_MS[part[2]]);
  }
  return ok(total);
}

/** A signed duration in milliseconds (fractions kept), as linkerd2's `K8sDuration` holds it. */
export interface SignedDuration {
  readonly ms: number;
  readonly negative: boolean;
}

/** Go's units, micro written three ways (u, U+00B5 micro sign, U+03BC Greek mu), in milliseconds. */
const K8S_UNIT_MS = new Map<string, number>([
  ['ns', 1e-6], ['us', 1e-3], ['\u00b5s', 1e-3], ['\u03bcs', 1e-3], ['ms', 1], ['s', 1_000], ['m', 60_000], ['h', 3_600_000],
]);

/**
 * linkerd2's `K8sDuration` (policy-controller/k8s/api/src/duration.rs `from_str`), the type of policy.linkerd.io
 * HTTPRoute `timeouts`: Go's duration syntax (`1h30m`, `1.5s`, `250ms`, `0`), no `d`. The sign is read from the first
 * character, then every leading `+` and `-` is dropped; each part is a number Rust reads as a float and a run of
 * letters naming a unit; a bare `0` is zero, a number without a unit is an error.
 */
export function parseK8sDuration(value: unknown): Parsed<SignedDuration> {
  const str = requireString(value);
  if (!str.ok) return str;
  const negative = str.value.startsWith('-');
  let rest = str.value.replace(/^\++/, '').replace(/^-+/, '');
  let ms = 0;
  while (rest !== '') {
    if (rest === '0') return ok({ ms: 0, negative });
    const part = /^([^\p{L}]*)(\p{L}+)/u.exec(rest);
    if (!part) return fail(`"${str.value}" has a number without a unit; use ns, us, ms, s, m or h`);
    const [whole, number, unit] = part;
    // Rust's f64 parse: digits with one optional point, an optional `+` (an `e` would start the unit). A `-` inside
    // (`5s-3s`) makes Duration::mul_f64 panic in the webhook: no duration either.
    if (!/^\+?(\d+\.?\d*|\.\d+)$/.test(number)) return fail(`"${str.value}" has "${number}" where a number belongs`);
    const perUnit = K8S_UNIT_MS.get(unit);
    if (perUnit === undefined) return fail(`"${str.value}" has unit "${unit}"; use ns, us, ms, s, m or h`);
    ms += Number(number) * perUnit;
    rest = rest.slice(whole.length);
  }
  return ok({ ms, negative });
}

/** An inclusive range of HTTP status codes a retry condition covers. */
export interface StatusRange {
  readonly min: number;
  readonly max: number;
}

function statusCode(text: string): number | undefined {
  const n = parseUnsigned(text);
  return n !== undefined && n >= 100n && n <= 599n ? Number(n) : undefined;
}

function parseRetryCondition(item: string): StatusRange | undefined {
  const lower = item.toLowerCase();
  if (lower === '5xx') return { min: 500, max: 599 };
  if (lower === 'gateway-error') return { min: 502, max: 504 };
  const single = statusCode(item);
  if (single !== undefined) return { min: single, max: single };
  const dash = item.indexOf('-');
  if (dash < 0) return undefined;
  const min = statusCode(item.slice(0, dash));
  const max = statusCode(item.slice(dash + 1));
  return min !== undefined && max !== undefined && min <= max ? { min, max } : undefined;
}

/**
 * `retry.linkerd.io/http`: a comma-separated list of `5xx`, `gateway-error`, a code 100-599 or a range `a-b`
 * with a <= b. Items are not trimmed, so `"5xx, 429"` is invalid because of the space.
 */
export function parseHttpRetryConditions(value: unknown): Parsed<StatusRange[]> {
  const str = requireString(value);
  if (!str.ok) return str;
  const ranges: StatusRange[] = [];
  for (const item of str.value.split(',')) {
    const range = parseRetryCondition(item);
    if (!range) {
      const hint = item !== item.trim() ? ' (items must not contain spaces)' : '';
      return fail(`item "${item}" is not 5xx, gateway-error, a status code 100-599 or a range a-b with a <= b${hint}`);
    }
    ranges.push(range);
  }
  return ok(ranges);
}

/** `retry.linkerd.io/grpc`: a comma-separated list of gRPC status names, case-insensitive, items not trimmed. */
export function parseGrpcRetryCodes(value: unknown): Parsed<string[]> {
  const str = requireString(value);
  if (!str.ok) return str;
  const codes: string[] = [];
  for (const item of str.value.split(',')) {
    const code = item.toLowerCase();
    if (!(GRPC_RETRY_CODES as readonly string[]).includes(code)) {
      const hint = item !== item.trim() ? ' (items must not contain spaces)' : '';
      return fail(`item "${item}" is not one of ${GRPC_RETRY_CODES.join(', ')}${hint}`);
    }
    codes.push(code);
  }
  return ok(codes);
}

/** `retry.linkerd.io/limit`: an unsigned 16-bit integer. Linkerd treats 0 as "not set" (limit 1). */
export function parseRetryLimit(value: unknown): Parsed<number> {
  const str = requireString(value);
  if (!str.ok) return str;
  const n = parseUnsigned(str.value);
  if (n === undefined) return fail(`"${str.value}" is not a whole number`);
  if (n > BigInt(MAX_RETRY_LIMIT)) return fail(`"${str.value}" is larger than ${MAX_RETRY_LIMIT}`);
  return ok(Number(n));
}

/** Go's time.ParseDuration units, in nanoseconds (µ is U+00B5, μ U+03BC). */
const GO_UNIT_NS = new Map<string, number>([['ns', 1], ['us', 1e3], ['\u00b5s', 1e3], ['\u03bcs', 1e3], ['ms', 1e6], ['s', 1e9], ['m', 60e9], ['h', 3600e9]]);
const GO_MAX_NS = 2 ** 63;

/**
 * Go's `time.ParseDuration`, which the proxy injector applies to its duration annotations (pkg/inject/inject.go
 * ApplyAnnotationOverrides): an optional sign, then numbers with an optional fraction, each with a unit (ns, us, µs,
 * ms, s, m, h); "0" alone needs none. The value in milliseconds; negative values are allowed, as Go allows them.
 * cert-manager (`duration`, `renewBefore`), External Secrets (`refreshInterval`) and linkerd-identity (the issuer's
 * `issuanceLifetime`/`clockSkewAllowance`) read their durations with the same function. Anything not a string is none.
 */
export function parseGoDuration(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let ns = 0;
  while (rest !== '') {
    const part = /^(\d*)(?:\.(\d*))?([^\d.]*)/.exec(rest);
    if (!part || (part[1] === '' && (part[2] ?? '') === '')) return undefined;
    const unit = GO_UNIT_NS.get(part[3]);
    if (unit === undefined) return undefined;
    ns += Number(`${part[1] || '0'}.${part[2] ?? ''}0`) * unit;
    if (ns > GO_MAX_NS) return undefined;
    rest = rest.slice(part[0].length);
  }
  return (sign * ns) / 1e6;
}

/** Go's largest int (strconv.Atoi fails above it). */
const GO_MAX_INT = 2n ** 63n - 1n;

/** kube-openapi strfmt's unit spellings, the canonical one first; the last also matches as a prefix ("seconds"). */
const OPENAPI_DURATION_UNITS: readonly (readonly string[])[] = [
  ['ns', 'nano'], ['us', '\u00b5s', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week'],
];

function isOpenApiDurationUnit(unit: string): boolean {
  return OPENAPI_DURATION_UNITS.some((spellings) => spellings.some((s, i) => s === unit || (i === spellings.length - 1 && unit.startsWith(s))));
}

/**
 * Whether the API server admits `text` where a CRD schema says `format: duration` (apiextensions-apiserver
 * pkg/apiserver/validation/formats.go lists it since 1.0; kube-openapi pkg/validation/strfmt/duration.go ParseDuration): Go's
 * time.ParseDuration, else any digits followed by a unit word found anywhere in the text (`1d`, `2 weeks`), unless
 * one of the numbers overflows Go's int. Far looser than what Linkerd reads.
 */
export function isOpenApiDuration(text: string): boolean {
  if (parseGoDuration(text) !== undefined) return true;
  let known = false;
  for (const [, digits, unit] of text.matchAll(/(\d+)[\t\n\f\r ]*([A-Za-z\u00b5]+)/g)) {
    if (BigInt(digits) > GO_MAX_INT) return false;
    known ||= isOpenApiDurationUnit(unit.toLowerCase());
  }
  return known;
}

/** Go's `strconv.Atoi`: an optional sign and decimal digits, nothing around them. */
export function goAtoi(text: string): number | undefined {
  return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** Go's `strconv.ParseInt(text, 10, 32)`: what Atoi reads, within the 32-bit range. */
export function goParseInt32(text: string): number | undefined {
  const n = goAtoi(text);
  return n !== undefined && n >= -(2 ** 31) && n < 2 ** 31 ? n : undefined;
}
