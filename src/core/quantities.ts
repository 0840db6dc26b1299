/**
 * Kubernetes quantities as `resource.ParseQuantity` reads them (k8s.io/apimachinery pkg/api/resource/quantity.go) and
 * `Quantity.Cmp` compares them; the proxy injector checks the proxy's resource annotations with them (linkerd2
 * pkg/inject/inject.go ApplyAnnotationOverrides). Pure grammar, shared by every reader.
 */


const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const QUANTITY_SUFFIX = new Map<string, number>([
  ['Ki', 2 ** 10], ['Mi', 2 ** 20], ['Gi', 2 ** 30], ['Ti', 2 ** 40], ['Pi', 2 ** 50], ['Ei', 2 ** 60],
  ['n', 1e-9], ['u', 1e-6], ['m', 1e-3], ['', 1], ['k', 1e3], ['M', 1e6], ['G', 1e9], ['T', 1e12], ['P', 1e15], ['E', 1e18],
]);

/** A Kubernetes quantity as resource.ParseQuantity reads it, as a number (precise enough to compare two). */
export function quantityValue(written: string): number | undefined {
  const m = QUANTITY.exec(written);
  if (!m) return undefined;
  const suffix = m[3] ?? '';
  const scale = QUANTITY_SUFFIX.get(suffix) ?? 10 ** Number(suffix.slice(1));
  return (m[1] === '-' ? -1 : 1) * Number(m[2]) * scale;
}

/** A quantity as an exact product mantissa × 10^tens × 2^twos (binary suffixes are powers of two, the rest of ten). */
interface ExactQuantity {
  readonly mantissa: bigint;
  readonly tens: number;
  readonly twos: number;
}

const DECIMAL_SUFFIX_TENS = new Map<string, number>([['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18]]);

const BINARY_SUFFIX_TWOS = new Map<string, number>([['Ki', 10], ['Mi', 20], ['Gi', 30], ['Ti', 40], ['Pi', 50], ['Ei', 60]]);

/** Exponents beyond this are compared as floats: no proxy resource is written that way, and 10^n must stay small. */
const MAX_EXACT_EXPONENT = 400;

function exactQuantity(written: string): ExactQuantity | undefined {
  const m = QUANTITY.exec(written);
  if (!m) return undefined;
  const [whole, fraction = ''] = m[2].split('.');
  const suffix = m[3] ?? '';
  const tens = (DECIMAL_SUFFIX_TENS.get(suffix) ?? (BINARY_SUFFIX_TWOS.has(suffix) ? 0 : Number(suffix.slice(1)))) - fraction.length;
  if (Math.abs(tens) > MAX_EXACT_EXPONENT) return undefined;
  const digits = BigInt(`${whole || '0'}${fraction}`);
  return { mantissa: m[1] === '-' ? -digits : digits, tens, twos: BINARY_SUFFIX_TWOS.get(suffix) ?? 0 };
}

/**
 * Whether quantity `a` is above `b`, compared exactly as resource.Quantity.Cmp does: "700m" equals "0.7" (as floats
 * 700 × 0.001 is 0.7000000000000001). Undefined when either cannot be read.
 */
export function quantityAbove(a: string, b: string): boolean | undefined {
  const x = exactQuantity(a);
  const y = exactQuantity(b);
  if (!x || !y) {
    const [fx, fy] = [quantityValue(a), quantityValue(b)];
    return fx === undefined || fy === undefined ? undefined : fx > fy;
  }
  const tens = Math.min(x.tens, y.tens);
  const twos = Math.min(x.twos, y.twos);
  const scaled = (q: ExactQuantity) => q.mantissa * 10n ** BigInt(q.tens - tens) * 2n ** BigInt(q.twos - twos);
  return scaled(x) > scaled(y);
}
