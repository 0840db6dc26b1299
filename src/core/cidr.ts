/**
 * Just enough IP arithmetic for policy checks: Linkerd networks are CIDRs or bare IPs (IPv4 or IPv6),
 * compared as integer ranges. Bigint keeps IPv6 exact.
 */

export interface Cidr {
  readonly family: 4 | 6;
  /** First address of the range (host bits cleared). */
  readonly first: bigint;
  /** Last address of the range. */
  readonly last: bigint;
  readonly prefix: number;
  /** The text it was parsed from, for messages. */
  readonly text: string;
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256n + BigInt(n);
  }
  return value;
}

function hextets(text: string): number[] | undefined {
  if (text === '') return [];
  const out: number[] = [];
  const parts = text.split(':');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    // An IPv4 tail (::ffff:10.0.0.1) stands for the last two hextets.
    if (i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (v4 === undefined) return undefined;
      out.push(Number(v4 / 65536n), Number(v4 % 65536n));
    } else {
      if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
      out.push(parseInt(part, 16));
    }
  }
  return out;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = hextets(halves[0]);
  const tail = halves.length === 2 ? hextets(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...new Array(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return all.reduce((acc, h) => acc * 65536n + BigInt(h), 0n);
}

/** Parses `10.0.0.0/8`, `fd00::/8` or a bare address (a /32 or /128); undefined when it is not one. */
export function parseCidr(text: unknown): Cidr | undefined {
  if (typeof text !== 'string') return undefined;
  const trimmed = text.trim();
  const [addr, prefixText, extra] = trimmed.split('/');
  if (extra !== undefined) return undefined;
  const family: 4 | 6 = addr.includes(':') ? 6 : 4;
  const value = family === 4 ? parseIpv4(addr) : parseIpv6(addr);
  if (value === undefined) return undefined;
  const bits = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  const size = 2n ** BigInt(bits - prefix);
  const first = (value / size) * size;
  const last = first + size - 1n;
  return { family, first, last, prefix, text: trimmed };
}

/**
 * Like parseCidr, but refuses surrounding whitespace and IPv4 fields with a leading zero: Linkerd reads the network
 * fields of its CRDs verbatim with Rust's address parser, which refuses " 10.0.0.0/8" and "203.0.113.05" although
 * they trim or read to valid addresses elsewhere.
 */
export function parseExactCidr(text: unknown): Cidr | undefined {
  if (typeof text !== 'string' || text !== text.trim()) return undefined;
  const address = text.split('/')[0];
  // Rust's Ipv4Addr takes what Go's netip takes: four decimal fields, none with a leading zero.
  if (!address.includes(':') && !goIpv4(address)) return undefined;
  return parseCidr(text);
}

/** Whether the text is one IPv4 or IPv6 address, as Go's and Rust's parsers read it (no spaces, no port). */
export function isIpAddress(text: string): boolean {
  return parseExactCidr(`${text}/${text.includes(':') ? 128 : 32}`) !== undefined;
}

/** Whether `outer` contains every address of `inner`. */
export function cidrContains(outer: Cidr, inner: Cidr): boolean {
  return outer.family === inner.family && outer.first <= inner.first && inner.last <= outer.last;
}

export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  return a.family === b.family && a.first <= b.last && b.first <= a.last;
}

export function cidrEquals(a: Cidr, b: Cidr): boolean {
  return a.family === b.family && a.first === b.first && a.last === b.last;
}

/** An IPv4 address as Go's netip.ParseAddr takes it: four decimal fields 0-255, none with a leading zero. */
function goIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** An IPv6 address as netip.ParseAddr takes it (no zone here: ParseCIDR refuses one), an IPv4 tail included. */
function goIpv6(text: string): boolean {
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.') && !goIpv4(tail)) return false;
  return parseIpv6(text) !== undefined;
}

/**
 * Whether Go's `net.ParseCIDR` reads the text (Linkerd's proxy-init and CNI plugin read skip-subnets with it, after
 * strings.TrimSpace): an address, `/`, a decimal prefix length (leading zeros allowed) no longer than the address.
 */
export function goParsesCidr(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const addr = text.slice(0, slash);
  const mask = text.slice(slash + 1);
  if (!/^\d+$/.test(mask)) return false;
  const v6 = addr.includes(':');
  if (v6 ? !goIpv6(addr) : !goIpv4(addr)) return false;
  return Number(mask) <= (v6 ? 128 : 32);
}
