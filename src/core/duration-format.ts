/**
 * The one module that writes durations as text: in one unit, as Linkerd's annotations and Gateway API timeouts need
 * them (Linkerd reads exactly one integer and one unit, policy-controller/k8s/index/src/outbound/index.rs
 * parse_duration), and as Go's `time.Duration.String()` prints them for chart values and cert-manager specs.
 * Parsing is in linkerd-grammar.ts; the construct-side checks that refuse a duration are in durations.ts.
 */

/** A duration unit: its suffix and its length in milliseconds. */
export interface DurationUnit { readonly suffix: string; readonly ms: number }

/** Linkerd's annotation units, largest first. */
export const ANNOTATION_UNITS: readonly DurationUnit[] = [
  { suffix: 'd', ms: 86_400_000 }, { suffix: 'h', ms: 3_600_000 }, { suffix: 'm', ms: 60_000 }, { suffix: 's', ms: 1000 }, { suffix: 'ms', ms: 1 },
];

/**
 * A millisecond count in the largest unit that divides it exactly with at most `maxAmount` of that unit (`0s` for
 * zero); undefined when no unit can write it.
 */
export function formatInOneUnit(ms: number, units: readonly DurationUnit[], maxAmount: number): string | undefined {
  if (ms === 0) return '0s';
  for (const unit of units) {
    if (ms % unit.ms === 0 && ms / unit.ms <= maxAmount) return `${ms / unit.ms}${unit.suffix}`;
  }
  return undefined;
}

/** A millisecond count written the way a person would set it in an annotation. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1_000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

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
