/**
 * Request classes: the partition of requests that the matches of a port's routes make. Every class is represented by
 * one concrete request (a method and a path), so that one evaluation answers "what happens to this request" for every
 * class, and two evaluations (a diff) can be compared class by class on the same requests.
 *
 * The classes come from the values the matches name — each method, each exact path, each path prefix, each gRPC
 * service and method — crossed with each other, plus "everything else": a method and a path no match names. A
 * request that a class stands for is routed exactly as its representative, since route selection
 * (linkerd2-proxy `http-route` `find`, Gateway API precedence) only looks at those values.
 *
 * A match with header or query-param conditions adds one class more: the requests of its method and path that carry
 * those headers and params (a regular expression's literal source stands for a value it matches; a match whose
 * expression is not a literal adds no class). Every other class stands for requests carrying none of them.
 */
import { compareStrings } from '../../util/compare';
import { RequestMatch, ValueMatch } from '../model/inbound-routes';

/** One representative request and the class it stands for, in words. */
export interface RequestSample {
  readonly method: string;
  readonly path: string;
  /** `GET /authors.json`, `HEAD /books/…`, `other methods /`, `GET other paths`, `books.Books/List`, `GET / with x-canary: 1`. */
  readonly label: string;
  /** Headers it carries (lower-cased names), for a class a header match cuts. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
}

/** Methods tried, in order, for "a method no match names". */
const SPARE_METHODS = ['PATCH', 'OPTIONS', 'TRACE', 'PUT', 'DELETE', 'POST', 'HEAD', 'GET'];
/** A path no prefix other than `/` covers (a dot-segment no application route names). */
const SPARE_PATH = '/.unmatched';
const SPARE_GRPC = '/unmatched.Service/Unmatched';


interface PathValue {
  readonly path: string;
  readonly label: string;
}

function httpPaths(matches: readonly RequestMatch[]): PathValue[] {
  const paths = new Map<string, PathValue>();
  paths.set('/', { path: '/', label: '/' });
  for (const m of matches) {
    if (m.pathExact !== undefined) paths.set(m.pathExact, { path: m.pathExact, label: m.pathExact });
    // A prefix stands for itself and everything under it (Gateway API prefixes match whole segments).
    if (m.pathPrefix !== undefined && m.pathPrefix !== '/' && !paths.has(m.pathPrefix)) paths.set(m.pathPrefix, { path: m.pathPrefix, label: `${m.pathPrefix}…` });
    // A regular expression's literal source, when it is one, is a path it matches; other expressions add no class.
    if (m.pathRegex !== undefined && /^\/[A-Za-z0-9/_.~-]*$/.test(m.pathRegex)) paths.set(m.pathRegex, { path: m.pathRegex, label: m.pathRegex });
  }
  paths.set(SPARE_PATH, { path: SPARE_PATH, label: 'other paths' });
  return [...paths.values()].sort((a, b) => compareStrings(a.path, b.path));
}

const LITERAL = /^[A-Za-z0-9 _./:=~+-]*$/;

/** The values a request must carry to meet conditions, or undefined when an expression has no literal stand-in. */
function carried(conditions: readonly ValueMatch[] | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = Object.create(null);
  for (const c of conditions ?? []) {
    if (c.regex && !LITERAL.test(c.value)) return undefined;
    out[c.name] = c.value;
  }
  return out;
}

/** One class per match with header or query conditions: its method and path, carrying what they ask for. */
function conditionSamples(matches: readonly RequestMatch[], grpcPath?: (m: RequestMatch) => string): RequestSample[] {
  const out = new Map<string, RequestSample>();
  for (const m of matches) {
    if ((m.headers ?? []).length === 0 && (m.queryParams ?? []).length === 0) continue;
    const headers = carried(m.headers);
    const query = carried(m.queryParams);
    if (!headers || !query) continue;
    const method = grpcPath ? 'POST' : m.method ?? 'GET';
    const path = grpcPath ? grpcPath(m) : m.pathExact ?? m.pathPrefix ?? (m.pathRegex !== undefined && LITERAL.test(m.pathRegex) ? m.pathRegex : '/');
    const words = [...(m.headers ?? []).map((h) => `${h.name}: ${h.value}`), ...(m.queryParams ?? []).map((q) => `?${q.name}=${q.value}`)];
    const label = `${grpcPath ? path.slice(1) : `${method} ${path}`} with ${words.join(', ')}`;
    out.set(label, { method, path, label, headers, query });
  }
  return [...out.values()];
}

function httpSamples(matches: readonly RequestMatch[]): RequestSample[] {
  const named = new Set<string>(['GET']);
  for (const m of matches) if (m.method !== undefined) named.add(m.method);
  const methods = [...named].sort(compareStrings).map((method) => ({ method, label: method }));
  const spare = SPARE_METHODS.find((m) => !named.has(m));
  if (spare) methods.push({ method: spare, label: 'other methods' });
  const plain = httpPaths(matches).flatMap((p) => methods.map((m) => ({ method: m.method, path: p.path, label: `${m.label} ${p.label}` })));
  return [...plain, ...conditionSamples(matches)];
}

function grpcSamples(matches: readonly RequestMatch[]): RequestSample[] {
  const out = new Map<string, RequestSample>();
  for (const m of matches) {
    if (m.grpcService === undefined && m.grpcMethod === undefined) continue;
    const service = m.grpcService ?? 'unmatched.Service';
    const method = m.grpcMethod ?? 'Unmatched';
    const label = `${m.grpcService ?? '*'}/${m.grpcMethod ?? '*'}`;
    out.set(label, { method: 'POST', path: `/${service}/${method}`, label });
  }
  out.set('other', { method: 'POST', path: SPARE_GRPC, label: 'other gRPC methods' });
  const grpcPath = (m: RequestMatch) => `/${m.grpcService ?? 'unmatched.Service'}/${m.grpcMethod ?? 'Unmatched'}`;
  return [...[...out.values()].sort((a, b) => compareStrings(a.path, b.path)), ...conditionSamples(matches, grpcPath)];
}

/**
 * One representative request per request class of a port whose routes have these matches (the matches of both
 * sides of a diff, so both partitions are refined by one set of requests). gRPC ports (every call a POST to
 * `/service/method`) are partitioned by service and method.
 */
export function requestSamples(matches: readonly RequestMatch[], grpc: boolean): RequestSample[] {
  return grpc ? grpcSamples(matches) : httpSamples(matches);
}

/** The class a request (`--method`, `--path`) falls in, named as its sample would be when no class names it. */
export function requestLabel(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
