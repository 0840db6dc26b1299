/**
 * The Linkerd chart and cert-manager read durations with Go's `time.ParseDuration`, and the chart's own defaults are
 * written the way Go prints them (`24h0m0s`). Rendering the same way keeps values diff-stable against `helm get values`.
 */
import { Duration } from 'cdk8s';
import { IConstruct } from 'constructs';
import { formatGoDuration } from '../../core/duration-format';
import { wholeMillis } from '../../core/durations';
import { InputRule, check } from '../../core/errors';

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
