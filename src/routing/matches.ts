/**
 * Request matches, validated against Gateway API v1.2.1's rules at construction (the CRD's CEL rules would only
 * reject them at apply time, far from the code that wrote them).
 */
import { IConstruct } from 'constructs';
import { check } from '../core/errors';
import { headerNameError, headerValueError, isAbsolutePath } from '../core/http-syntax';
import { isStruct, optionalBoolean, optionalList, requireInstance, requireStruct } from '../core/runtime-checks';
import { rustRegexError } from '../core/rust-regex';

/** HTTP methods (upper case, as the Gateway API enum spells them). */
export enum HttpMethod {
  GET = 'GET',
  HEAD = 'HEAD',
  POST = 'POST',
  PUT = 'PUT',
  DELETE = 'DELETE',
  CONNECT = 'CONNECT',
  OPTIONS = 'OPTIONS',
  TRACE = 'TRACE',
  PATCH = 'PATCH',
}

const PATH_CHARS = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})+$/;

/** A path match. */
export class PathMatch {
  /** The exact path. */
  public static exact(path: string): PathMatch {
    return new PathMatch('Exact', path);
  }

  /** A path prefix, matched by whole segments. */
  public static prefix(path: string): PathMatch {
    return new PathMatch('PathPrefix', path);
  }

  /** A regular expression (its dialect is implementation-specific). */
  public static regex(pattern: string): PathMatch {
    return new PathMatch('RegularExpression', pattern);
  }

  private constructor(
    /** Exact, PathPrefix or RegularExpression. */
    public readonly type: string,
    /** The path or pattern. */
    public readonly value: string,
  ) {}

  /** @internal */
  public _toKube(scope: IConstruct): Record<string, string> {
    check(typeof this.value === 'string' && this.value.length >= 1 && this.value.length <= 1024, scope, 'LKD-INPUT-006',
      `path ${JSON.stringify(this.value)} must be 1..1024 characters.`, 'Use a shorter path.');
    if (this.type === 'RegularExpression') checkRegex(scope, this.value, 'path regex');
    else checkPlainPath(scope, this.value);
    return { type: this.type, value: this.value };
  }
}

/**
 * Linkerd's admission webhook compiles RegularExpression matches with Rust's regex crate and rejects the route when
 * one does not compile (the API server accepts any string). The check is the one the engine runs on YAML
 * (core/rust-regex.ts, LKD-ROUTE-024): a JS RegExp would accept look-around and back-references and refuse valid Rust.
 */
function checkRegex(scope: IConstruct, pattern: string, what: string): void {
  const problem = rustRegexError(pattern);
  check(problem === undefined, scope, 'LKD-INPUT-006', `${what} ${JSON.stringify(pattern)} ${problem}; Linkerd's admission webhook rejects the route.`,
    'Fix the regular expression (Rust regex syntax: no look-around, no back-references, a literal brace is \\{), or use an Exact/PathPrefix match.');
}

function checkPlainPath(scope: IConstruct, path: string): void {
  const fix = 'Use a normalized absolute path such as /api/v1 (no //, /./, /../, %2F, # or characters outside RFC 3986).';
  check(isAbsolutePath(path), scope, 'LKD-INPUT-006', `path ${JSON.stringify(path)} must start with "/".`, fix);
  const bad = ['//', '/./', '/../', '%2f', '%2F', '#'].find((s) => path.includes(s));
  check(!bad && !path.endsWith('/..') && !path.endsWith('/.') && PATH_CHARS.test(path), scope, 'LKD-INPUT-006',
    `path ${JSON.stringify(path)} is not a normalized path Gateway API accepts.`, fix);
}

/** A header match. */
export interface HeaderMatch {
  /** Header name (an HTTP token; compared case-insensitively). */
  readonly name: string;
  /** The value. */
  readonly value: string;
  /**
   * Treat `value` as a regular expression.
   * @default false
   */
  readonly regex?: boolean;
}

export function renderHeaders(scope: IConstruct, headers: HeaderMatch[] | undefined, where: string): Record<string, string>[] | undefined {
  optionalList(scope, headers, `${where} headers`, isStruct, 'header matches ({ name, value })');
  if (!headers || headers.length === 0) return undefined;
  check(headers.length <= 16, scope, 'LKD-INPUT-006', `${where} has ${headers.length} header matches; at most 16 are allowed.`, 'Match on fewer headers.');
  const seen = new Set<string>();
  return headers.map((h) => {
    check(typeof h.name === 'string' && h.name.length <= 256 && headerNameError(h.name) === undefined, scope, 'LKD-INPUT-006',
      `${where} header name ${JSON.stringify(h.name)} is not an HTTP token.`, 'Use letters, digits and !#$%&\'*+-.^_`|~ only (no spaces or colons).');
    check(!seen.has(h.name.toLowerCase()), scope, 'LKD-INPUT-006', `${where} matches header ${h.name} twice.`,
      'Header names are case-insensitive: match each header once.');
    seen.add(h.name.toLowerCase());
    check(typeof h.value === 'string' && h.value.length >= 1 && h.value.length <= 4096, scope, 'LKD-INPUT-006',
      `${where} header ${h.name} value must be 1..4096 characters.`, 'Give the header a value.');
    if (optionalBoolean(scope, h.regex, `${where} header ${h.name} regex`)) {
      checkRegex(scope, h.value, `${where} header ${h.name} regex`);
    } else {
      // The webhook parses an exact value as an HTTP header value, which refuses control characters (core/http-syntax.ts).
      check(headerValueError(h.value) === undefined, scope, 'LKD-INPUT-006', `${where} header ${h.name} value ${JSON.stringify(h.value)} contains a control character.`,
        'Use printable characters only (no newlines or other control characters).');
    }
    return { name: h.name, value: h.value, type: h.regex ? 'RegularExpression' : 'Exact' };
  });
}

/** An HTTPRoute match: all of its conditions must hold. */
export interface HttpRouteMatch {
  /**
   * The path.
   * @default - any path (PathPrefix /)
   */
  readonly path?: PathMatch;
  /**
   * The method.
   * @default - any method
   */
  readonly method?: HttpMethod;
  /**
   * Headers that must be present.
   * @default - none
   */
  readonly headers?: HeaderMatch[];
}

export function renderHttpMatch(scope: IConstruct, match: HttpRouteMatch, where: string): Record<string, any> {
  requireStruct(scope, match, where);
  if (match.path !== undefined) requireInstance(scope, match.path, PathMatch, `${where} path`, 'Pass PathMatch.prefix("/api") or PathMatch.exact(...).');
  if (match.method !== undefined) {
    check(Object.values(HttpMethod).includes(match.method), scope, 'LKD-INPUT-006', `${where} method ${JSON.stringify(match.method)} is unknown.`, 'Use an HttpMethod value.');
  }
  return { path: match.path?._toKube(scope), method: match.method, headers: renderHeaders(scope, match.headers, where) };
}

const GRPC_SERVICE = /^\.?[A-Za-z_][A-Za-z_0-9]*(\.[A-Za-z_][A-Za-z_0-9]*)*$/;
const GRPC_METHOD = /^[A-Za-z_][A-Za-z_0-9]*$/;

/** A GRPCRoute match. */
export interface GrpcRouteMatch {
  /**
   * Fully qualified service, e.g. `orders.v1.OrderService`.
   * @default - any service
   */
  readonly service?: string;
  /**
   * Method name, e.g. `PlaceOrder`.
   * @default - any method
   */
  readonly method?: string;
  /**
   * Headers that must be present.
   * @default - none
   */
  readonly headers?: HeaderMatch[];
}

export function renderGrpcMatch(scope: IConstruct, match: GrpcRouteMatch, where: string): Record<string, any> {
  requireStruct(scope, match, where);
  if (match.service !== undefined) {
    check(typeof match.service === 'string' && match.service.length <= 1024 && GRPC_SERVICE.test(match.service), scope, 'LKD-INPUT-006',
      `${where} gRPC service ${JSON.stringify(match.service)} is not a dotted name.`, 'Use e.g. orders.v1.OrderService.');
  }
  if (match.method !== undefined) {
    check(typeof match.method === 'string' && match.method.length <= 1024 && GRPC_METHOD.test(match.method), scope, 'LKD-INPUT-006',
      `${where} gRPC method ${JSON.stringify(match.method)} is not an identifier.`, 'Use e.g. PlaceOrder.');
  }
  const method = match.service !== undefined || match.method !== undefined ? { type: 'Exact', service: match.service, method: match.method } : undefined;
  return { method, headers: renderHeaders(scope, match.headers, where) };
}
