/** CIDR parsing and containment for NetworkAuthentication and EgressNetwork (IPv4 and IPv6, bare IPs allowed). */

export interface Cidr {
  readonly version: 4 | 6;
  /** The network address as a big integer. */
  readonly address: bigint;
  readonly prefix: number;
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

/** Parses `10.0.0.0/8`, `fd00::/8` or a bare IP; undefined when it is not one. */
export function parseCidr(text: string): Cidr | undefined {
  if (typeof text !== 'string') return undefined;
  const [ip, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const version = ip.includes(':') ? 6 : 4;
  const address = version === 4 ? parseIpv4(ip) : parseIpv6(ip);
  const bits = version === 4 ? 32 : 128;
  if (address === undefined) return undefined;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  const hostBits = BigInt(bits - prefix);
  return { version, address: (address >> hostBits) << hostBits, prefix };
}

/** Whether `inner` lies inside `outer` (same family, longer-or-equal prefix, same network bits). */
export function cidrContains(outer: Cidr, inner: Cidr): boolean {
  if (outer.version !== inner.version || inner.prefix < outer.prefix) return false;
  const bits = outer.version === 4 ? 32 : 128;
  const shift = BigInt(bits - outer.prefix);
  return (inner.address >> shift) === (outer.address >> shift);
}

export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  return cidrContains(a, b) || cidrContains(b, a);
}

export function sameCidr(a: Cidr, b: Cidr): boolean {
  return a.version === b.version && a.prefix === b.prefix && a.address === b.address;
}
