/**
 * Linkerd reads exactly one integer and one unit (`500ms`, `5s`, `2m`); a compound value such as `1m30s` is silently
 * dropped from a route's timeouts. Durations are therefore rendered in the largest unit that divides them exactly,
 * and refused when they cannot be written that way.
 */
import { Duration } from 'cdk8s';
import { IConstruct } from 'constructs';
import { ANNOTATION_UNITS, formatInOneUnit as render } from './duration-format';
import { InputRule, check } from './errors';

/** Gateway API durations know no days, and allow at most 5 digits. */
const GATEWAY_UNITS = ANNOTATION_UNITS.slice(1);
const GATEWAY_MAX_DIGITS = 99_999;

/** Whole milliseconds of a Duration, refusing negative or fractional values. */
export function wholeMillis(scope: IConstruct, duration: Duration, what: string): number {
  check(duration instanceof Duration, scope, InputRule.DURATION, `${what} is not a Duration.`, 'Pass a cdk8s Duration, e.g. Duration.seconds(5).');
  const ms = duration.toMilliseconds({ integral: false });
  check(Number.isInteger(ms) && ms >= 0, scope, InputRule.DURATION,
    `${what} ${duration.toHumanString()} is not a whole, non-negative number of milliseconds.`,
    'Use a whole number of milliseconds or larger units, e.g. Duration.millis(1500).');
  return ms;
}

/** A duration for `retry.linkerd.io/timeout` and `timeout.linkerd.io/*` annotations. */
export function annotationDuration(scope: IConstruct, duration: Duration, what: string): string {
  return render(wholeMillis(scope, duration, what), ANNOTATION_UNITS, Number.MAX_SAFE_INTEGER)!;
}

/** A duration for Gateway API `rules[].timeouts`, in a form both the CRD and Linkerd accept. */
export function gatewayDuration(scope: IConstruct, duration: Duration, what: string): string {
  const ms = wholeMillis(scope, duration, what);
  const text = render(ms, GATEWAY_UNITS, GATEWAY_MAX_DIGITS);
  check(text !== undefined, scope, 'LKD-ROUTE-014', `${what} ${duration.toHumanString()} cannot be written as one Gateway API duration unit.`,
    'Use at most 99999 of a single unit (h, m, s, ms); Linkerd drops compound values like 1m30s.');
  return text;
}
