/**
 * The Linkerd chart and cert-manager read durations with Go's `time.ParseDuration`, and the chart's own defaults are
 * written the way Go prints them (`24h0m0s`). Rendering the same way keeps values diff-stable against `helm get values`.
 */
import { Duration } from 'cdk8s';
import { IConstruct } from 'constructs';
import { wholeMillis } from '../../core/durations';
import { InputRule, check } from '../../core/errors';

const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60 * MS_PER_SECOND;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;

/** Seconds with Go's formatting: trailing zeros of the fraction dropped (`1.5s`, `20s`). */
function seconds(ms: number): string {
  const whole = Math.floor(ms / MS_PER_SECOND);
  const fraction = ms % MS_PER_SECOND;
  if (fraction === 0) return `${whole}s`;
  return `${whole}.${String(fraction).padStart(3, '0').replace(/0+$/, '')}s`;
}

/** Formats milliseconds like Go's `time.Duration.String()`: `24h0m0s`, `1m30s`, `20s`, `500ms`. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < MS_PER_SECOND) return `${ms}ms`;
  const hours = Math.floor(ms / MS_PER_HOUR);
  const minutes = Math.floor((ms % MS_PER_HOUR) / MS_PER_MINUTE);
  const rest = ms % MS_PER_MINUTE;
  if (hours > 0) return `${hours}h${minutes}m${seconds(rest)}`;
  if (minutes > 0) return `${minutes}m${seconds(rest)}`;
  return seconds(rest);
}

/** A cdk8s Duration as a Go duration string for chart values and cert-manager specs. */
export function goDuration(scope: IConstruct, duration: Duration, what: string): string {
  return formatGoDuration(wholeMillis(scope, duration, what));
}

/**
 * identity.issuer.issuanceLifetime and clockSkewAllowance: linkerd-identity reads zero as "use the default" (one year
 * and 10 s, pkg/tls/ca.go Validity.Window), the opposite of what a zero says, so a zero is refused.
 */
export function issuerDuration(scope: IConstruct, duration: Duration, what: 'issuanceLifetime' | 'clockSkewAllowance'): string {
  const ms = wholeMillis(scope, duration, what);
  check(ms > 0, scope, InputRule.DURATION,
    `${what} is zero, which linkerd-identity reads as its default (${what === 'issuanceLifetime' ? 'one year' : '10s'}; pkg/tls/ca.go Validity.Window).`,
    `Give ${what} a positive duration, or omit it for ${what === 'issuanceLifetime' ? '24h' : '20s'} (the chart's default).`);
  return formatGoDuration(ms);
}
