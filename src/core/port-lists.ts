/**
 * How Linkerd's components read a list of ports (`opaque-ports`, `skip-inbound-ports`, `skip-outbound-ports`,
 * `proxy-require-identity-inbound-ports`): the policy controller with Rust's parse_portset (linkerd2
 * policy-controller/k8s/index/src/ports.rs), the injector, destination controller and proxy-init with Go's
 * ParsePortRange (pkg/util/portrange.go, pkg/util/parsing.go). Pure grammar: no objects, no defaults.
 */
import { goAtoi } from './linkerd-grammar';

export interface PortList {
  readonly ranges: Array<[number, number]>;
  readonly names: string[];
  readonly errors: string[];
}

const PORT_NAME = /^(?=.*[a-z])[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$/;

function portNumber(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= 65535 ? n : undefined;
}

/**
 * The same few lists (the chart default above all) are read for every pod and Service: parse each once. One cache
 * per mode, keyed by the annotation string itself, so a lookup builds no key. Callers must not modify the result.
 */
const parsedPortLists = { names: new Map<string, PortList>(), numbers: new Map<string, PortList>() };

/** Comma-separated ports and `lo-hi` ranges; named ports only where Linkerd resolves them (opaque-ports on pods). */
export function parsePortList(value: unknown, allowNames: boolean): PortList {
  if (typeof value !== 'string') return parsePortListUncached(value, allowNames);
  const cache = allowNames ? parsedPortLists.names : parsedPortLists.numbers;
  let list = cache.get(value);
  if (!list) {
    list = parsePortListUncached(value, allowNames);
    if (cache.size < 10_000) cache.set(value, list);
  }
  return list;
}

function parsePortListUncached(value: unknown, allowNames: boolean): PortList {
  const out: PortList = { ranges: [], names: [], errors: [] };
  if (typeof value !== 'string') {
    out.errors.push('the value is not a string');
    return out;
  }
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const range = /^(\d+)-(\d+)$/.exec(entry);
    if (range) {
      const lo = portNumber(range[1]);
      const hi = portNumber(range[2]);
      if (lo === undefined || hi === undefined || lo > hi) out.errors.push(`"${entry}" is not a range lo-hi of ports 1-65535`);
      else out.ranges.push([lo, hi]);
      continue;
    }
    const n = portNumber(entry);
    if (n !== undefined) out.ranges.push([n, n]);
    else if (allowNames && PORT_NAME.test(entry)) out.names.push(entry);
    else out.errors.push(`"${entry}" is not a port number 1-65535${allowNames ? ', a range lo-hi or a container port name' : ' or a range lo-hi'}`);
  }
  return out;
}

/**
 * A port list as linkerd2's policy controller reads it (policy-controller/k8s/index/src/ports.rs, `parse_portset`):
 * comma-separated port numbers and `lo-hi` ranges, each part trimmed, around the `-` too ("1 - 5" is ports 1 to 5).
 * It reads no port names. One part it cannot read (a name, 0, a reversed range) fails the whole list, and
 * `ports_annotation` then reads it as no port at all: undefined here. Same cache rules as parsePortList.
 */
export function controllerPortSet(value: string): PortList | undefined {
  let known = controllerPortSets.get(value);
  if (known === undefined) {
    known = controllerPortSetUncached(value) ?? null;
    if (controllerPortSets.size < 10_000) controllerPortSets.set(value, known);
  }
  return known ?? undefined;
}

const controllerPortSets = new Map<string, PortList | null>();

/** Rust's `u16` parse, as NonZeroU16 takes it: digits with an optional `+`, leading zeros allowed, 1 to 65535. */
function controllerPort(text: string): number | undefined {
  const digits = text.trim().replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return undefined;
  const significant = digits.replace(/^0+/, '');
  if (significant.length > 5) return undefined;
  const n = Number(significant || '0');
  return n >= 1 && n <= 65535 ? n : undefined;
}

function controllerPortSetUncached(value: string): PortList | undefined {
  const out: PortList = { ranges: [], names: [], errors: [] };
  for (const part of value.split(',')) {
    const dash = part.indexOf('-');
    if (dash < 0) {
      if (part.trim() === '') continue;
      const port = controllerPort(part);
      if (port === undefined) return undefined;
      out.ranges.push([port, port]);
      continue;
    }
    const lo = controllerPort(part.slice(0, dash));
    const hi = controllerPort(part.slice(dash + 1));
    if (lo === undefined || hi === undefined || lo > hi) return undefined;
    out.ranges.push([lo, hi]);
  }
  return out;
}

/** How Linkerd's components read one opaque-ports value; they disagree where the Go and Rust parsers differ. */
export interface OpaquePortsReadings {
  /** The policy controller's reading (parse_portset); undefined when it reads the whole list as no port. */
  readonly controller: PortList | undefined;
  /** Entries written as port names: the injector and destination controller resolve them, parse_portset cannot. */
  readonly names: string[];
  /**
   * Entries that are no name and that the injector and destination controller skip (pkg/util/parsing.go
   * `GetPortRanges`, portrange.go `ParsePortRange`: each entry trimmed, split at every `-`, each bound `strconv.Atoi`
   * without trimming, 0 to 65535, the lower bound first).
   */
  readonly skippedByGo: string[];
}

/**
 * One entry as `ParsePortRange` reads it (linkerd2 pkg/util/portrange.go, and its copy in linkerd2-proxy-init
 * pkg/util/portrange.go): split at every `-`, each bound `strconv.Atoi` without trimming, 0 to 65535, the lower first.
 */
function goPortRange(entry: string): [number, number] | undefined {
  const bounds = entry.split('-');
  if (bounds.length > 2) return undefined;
  const low = goAtoi(bounds[0]);
  const high = bounds.length === 1 ? low : goAtoi(bounds[1]);
  return low !== undefined && high !== undefined && low >= 0 && high <= 65535 && low <= high ? [low, high] : undefined;
}

function goReadsRange(entry: string): boolean {
  return goPortRange(entry) !== undefined;
}

export function opaquePortsReadings(value: string): OpaquePortsReadings {
  const names: string[] = [];
  const skippedByGo: string[] = [];
  const trimmed = value.endsWith(',') ? value.slice(0, -1) : value;
  for (const part of trimmed.split(',')) {
    const entry = part.trim();
    if (PORT_NAME.test(entry)) names.push(entry);
    else if (entry !== '' && !goReadsRange(entry)) skippedByGo.push(entry);
  }
  return { controller: controllerPortSet(value), names, skippedByGo };
}

export function portListHas(list: PortList, port: number, portName?: string): boolean {
  // No destructuring: this runs per Service port and pod, and unoptimized code destructures through the iterator protocol.
  for (const range of list.ranges) if (range[0] <= port && port <= range[1]) return true;
  return portName !== undefined && list.names.includes(portName);
}

/**
 * A skip-inbound-ports or skip-outbound-ports list as the iptables rules are written from it. The injector passes the
 * text on unparsed (pkg/inject/inject.go ApplyAnnotationOverrides, then `--inbound-ports-to-ignore` in
 * charts/partials/templates/_proxy-init.tpl); proxy-init (a pflag string slice: split at commas, nothing trimmed) and
 * the CNI plugin (`strings.Split(value, ",")`) read each entry with `ParsePortRange` (linkerd2-proxy-init
 * pkg/iptables/iptables.go makeMultiportDestinations), and an entry it cannot read is logged and left out, the others
 * kept. So " 6222" (a space after the comma) skips nothing. `errors` holds the entries left out, as written.
 */
export function proxyInitPortList(value: string): PortList {
  let list = proxyInitPortLists.get(value);
  if (!list) {
    list = proxyInitPortListUncached(value);
    if (proxyInitPortLists.size < 10_000) proxyInitPortLists.set(value, list);
  }
  return list;
}

const proxyInitPortLists = new Map<string, PortList>();

function proxyInitPortListUncached(value: string): PortList {
  const out: PortList = { ranges: [], names: [], errors: [] };
  for (const entry of value.split(',')) {
    if (entry === '') continue;
    const range = goPortRange(entry);
    if (range) out.ranges.push(range);
    else out.errors.push(entry);
  }
  return out;
}
