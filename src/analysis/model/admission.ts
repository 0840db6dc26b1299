/**
 * What Linkerd's policy admission webhook (policy-controller/runtime/src/admission.rs at version-2.20) rejects in a
 * route's matches and filters: a pure function of one parsed object, no index needed.
 *
 * The webhook (`linkerd-policy-validator`, charts/linkerd-control-plane/templates/destination-rbac.yaml) intercepts
 * CREATE and UPDATE of policy.linkerd.io HTTPRoutes and gateway.networking.k8s.io HTTPRoutes, GRPCRoutes, TLSRoutes
 * and TCPRoutes in every namespace not labelled `config.linkerd.io/admission-webhooks: disabled`, whatever their
 * parents are. For the HTTP kinds it converts every match and rule filter the way the index does
 * (`Validate<HttpRouteSpec>` / `Validate<gateway::HTTPRouteSpec>` → policy-controller/k8s/index/src/routes/http.rs
 * `try_match`, `path_match`, `header_match`, `query_param_match`, `request_header_modifier`,
 * `response_header_modifier`, `req_redirect`; `Validate<gateway::GRPCRouteSpec>` → routes/grpc.rs `try_match`,
 * `header_match`, the header modifiers) and rejects the object on the first failure.
 *
 * Other rejections of the same webhook are checked by the rules that own those fields, not here: EgressNetwork
 * parents without a port and TLS/TCP routes with other than one rule (LKD-ROUTE-015), retry/timeout annotations that do
 * not parse (LKD-RETRY-002), rule timeouts (LKD-ROUTE-014), Service backends without a port (LKD-ROUTE-006; the
 * Gateway CRD's CEL rule refuses them first), and the policy kinds (LKD-POL-002/-003/-005/-012/-014/-018).
 */
import { headerNameError, headerValueError, isAbsolutePath } from '../../core/http-syntax';
import { rustRegexError } from '../../core/rust-regex';

/** One reason the webhook refuses an object. */
export interface AdmissionRejection {
  /** Where, as a field path: `spec.rules[0].matches[1].path.value`. */
  readonly path: string;
  /** Why, as a sentence that follows the path. */
  readonly reason: string;
  /** The linkerd2 function that refuses it. */
  readonly source: string;
  /** What to write instead. */
  readonly fix: string;
}

const REGEX_FIX = 'Rewrite it in Rust regex syntax (no look-around, back-references or atomic groups; a literal brace is \\{), '
  + 'or use an Exact or PathPrefix match.';
const HEADER_NAME_FIX = 'Use an HTTP token such as x-request-id.';
const HEADER_VALUE_FIX = 'Remove the control characters (a YAML block scalar often adds a trailing newline: use a quoted string).';

const GATEWAY_GROUP = 'gateway.networking.k8s.io';
const POLICY_GROUP = 'policy.linkerd.io';

const HTTP = 'policy-controller/k8s/index/src/routes/http.rs';
const GRPC = 'policy-controller/k8s/index/src/routes/grpc.rs';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The API group of an apiVersion (`group/version`; core has none). */
function groupOf(apiVersion: unknown): string {
  if (typeof apiVersion !== 'string') return '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The route kinds whose matches and filters the webhook converts (`is_kind` compares case-insensitively). */
export function admissionRouteKind(object: unknown): 'http' | 'grpc' | undefined {
  if (!isObj(object) || typeof object.kind !== 'string') return undefined;
  const group = groupOf(object.apiVersion).toLowerCase();
  const kind = object.kind.toLowerCase();
  if (kind === 'httproute' && (group === GATEWAY_GROUP || group === POLICY_GROUP)) return 'http';
  if (kind === 'grpcroute' && group === GATEWAY_GROUP) return 'grpc';
  return undefined;
}

class Collector {
  public readonly out: AdmissionRejection[] = [];
  public add(path: string, reason: string, source: string, fix: string): void {
    this.out.push({ path, reason, source, fix });
  }

  public regex(path: string, pattern: unknown, source: string): void {
    // A missing or non-string pattern is the CRD's concern (required string); the webhook could not parse the spec.
    if (typeof pattern !== 'string') return;
    const problem = rustRegexError(pattern);
    if (problem) this.add(path, `${JSON.stringify(pattern)} ${problem}, so it does not compile as a Rust regular expression`, source, REGEX_FIX);
  }

  public headerName(path: string, name: unknown, source: string): void {
    if (typeof name !== 'string') return;
    const problem = headerNameError(name);
    if (problem) this.add(path, `${JSON.stringify(name)} ${problem}, so it is not an HTTP header name`, source, HEADER_NAME_FIX);
  }

  public headerValue(path: string, value: unknown, source: string): void {
    if (typeof value !== 'string') return;
    const problem = headerValueError(value);
    if (problem) this.add(path, `${JSON.stringify(value)} ${problem}, so it is not an HTTP header value`, source, HEADER_VALUE_FIX);
  }
}

function isRegexType(type: unknown): boolean {
  return type === 'RegularExpression';
}

/** routes/http.rs path_match: Exact and PathPrefix (the default) must be absolute; RegularExpression must compile. */
function checkPath(c: Collector, base: string, path: unknown): void {
  if (!isObj(path)) return;
  const value = path.value === undefined ? '/' : path.value;
  if (isRegexType(path.type)) {
    c.regex(`${base}.value`, value, `${HTTP} path_match`);
  } else if ((path.type === undefined || path.type === 'Exact' || path.type === 'PathPrefix') && typeof value === 'string' && !isAbsolutePath(value)) {
    c.add(`${base}.value`, `${JSON.stringify(value)} is not an absolute path: ${String(path.type ?? 'PathPrefix')} paths must begin with "/"`,
      `${HTTP} path_match`, 'Start the path with "/", or use a RegularExpression match.');
  }
}

/** header_match (HTTP and gRPC): the name is a HeaderName; an Exact value a HeaderValue, a RegularExpression value a regex. */
function checkHeaderMatches(c: Collector, base: string, headers: unknown, source: string): void {
  list(headers).forEach((h, i) => {
    if (!isObj(h)) return;
    const at = `${base}.headers[${i}]`;
    c.headerName(`${at}.name`, h.name, source);
    if (isRegexType(h.type)) c.regex(`${at}.value`, h.value, source);
    else c.headerValue(`${at}.value`, h.value, source);
  });
}

/** query_param_match: only a RegularExpression value is compiled (names and Exact values are taken as they are). */
function checkQueryParams(c: Collector, base: string, params: unknown): void {
  list(params).forEach((q, i) => {
    if (isObj(q) && isRegexType(q.type)) c.regex(`${base}.queryParams[${i}].value`, q.value, `${HTTP} query_param_match`);
  });
}

/** request_header_modifier / response_header_modifier: add and set are name + value, remove lists names. */
function checkHeaderModifier(c: Collector, base: string, modifier: unknown, source: string): void {
  if (!isObj(modifier)) return;
  for (const op of ['add', 'set']) {
    list(modifier[op]).forEach((h, i) => {
      if (!isObj(h)) return;
      c.headerName(`${base}.${op}[${i}].name`, h.name, source);
      c.headerValue(`${base}.${op}[${i}].value`, h.value, source);
    });
  }
  list(modifier.remove).forEach((name, i) => c.headerName(`${base}.remove[${i}]`, name, source));
}

/** req_redirect: the path modifier must set an absolute replaceFullPath or replacePrefixMatch; the status an HTTP code. */
function checkRedirect(c: Collector, base: string, redirect: unknown): void {
  if (!isObj(redirect)) return;
  const source = `${HTTP} req_redirect`;
  if (redirect.path !== undefined && redirect.path !== null) {
    const path = isObj(redirect.path) ? redirect.path : {};
    const full = path.replaceFullPath;
    const prefix = path.replacePrefixMatch;
    // path_modifier reads replaceFullPath first and ignores replacePrefixMatch when both are set.
    const [field, value] = full !== undefined && full !== null ? ['replaceFullPath', full] : ['replacePrefixMatch', prefix];
    if (value === undefined || value === null) {
      c.add(`${base}.path`, 'sets neither replaceFullPath nor replacePrefixMatch; a RequestRedirect path must set one', `${source} (path_modifier)`,
        'Set replaceFullPath or replacePrefixMatch to a path starting with "/", or remove path.');
    } else if (typeof value === 'string' && !isAbsolutePath(value)) {
      c.add(`${base}.path.${field}`, `${JSON.stringify(value)} is not an absolute path: RequestRedirect paths must begin with "/"`,
        `${source} (path_modifier)`, 'Start the path with "/".');
    }
  }
  const status = redirect.statusCode;
  if (typeof status === 'number' && (!Number.isInteger(status) || status < 100 || status > 999)) {
    c.add(`${base}.statusCode`, `${status} is not an HTTP status code (100-999)`, `${source} (StatusCode::from_u16)`, 'Use 301 or 302.');
  }
}

/**
 * The filter fields each webhook reads. Gateway HTTPRoute and GRPCRoute filters are structs whose present fields are
 * all converted whatever `type` says; a policy.linkerd.io HTTPRoute filter is a tagged enum, so the same fields apply.
 */
function checkFilters(c: Collector, base: string, filters: unknown, kind: 'http' | 'grpc'): void {
  const source = kind === 'http' ? HTTP : GRPC;
  list(filters).forEach((f, i) => {
    if (!isObj(f)) return;
    const at = `${base}.filters[${i}]`;
    checkHeaderModifier(c, `${at}.requestHeaderModifier`, f.requestHeaderModifier, `${source} request_header_modifier`);
    checkHeaderModifier(c, `${at}.responseHeaderModifier`, f.responseHeaderModifier, `${source} response_header_modifier`);
    // GRPCRouteRulesFilters has no requestRedirect: the gRPC webhook never reads one (LKD-ROUTE-011 covers the kind).
    if (kind === 'http') checkRedirect(c, `${at}.requestRedirect`, f.requestRedirect);
  });
}

/** grpc.rs try_match: a RegularExpression method match is refused outright. */
function checkGrpcMethod(c: Collector, base: string, method: unknown): void {
  if (isObj(method) && isRegexType(method.type)) {
    c.add(`${base}.method.type`, 'is RegularExpression, which Linkerd does not support for GRPCRoute methods ("unsupported GRPCRoute method match type")',
      `${GRPC} try_match`, 'Match the method exactly (type: Exact with service and/or method), one match per method.');
  }
}

/**
 * Every reason Linkerd's admission webhook would refuse this route's matches and filters, in field order; empty for
 * an object it admits (or that is not an HTTPRoute / GRPCRoute). The webhook itself stops at the first.
 */
export function admissionRejections(object: unknown): AdmissionRejection[] {
  const kind = admissionRouteKind(object);
  if (!kind || !isObj(object) || !isObj(object.spec)) return [];
  const c = new Collector();
  list(object.spec.rules).forEach((rule, r) => {
    if (!isObj(rule)) return;
    const base = `spec.rules[${r}]`;
    list(rule.matches).forEach((m, j) => {
      if (!isObj(m)) return;
      const at = `${base}.matches[${j}]`;
      if (kind === 'http') {
        checkPath(c, `${at}.path`, m.path);
        checkHeaderMatches(c, at, m.headers, `${HTTP} header_match`);
        checkQueryParams(c, at, m.queryParams);
      } else {
        checkHeaderMatches(c, at, m.headers, `${GRPC} header_match`);
        checkGrpcMethod(c, at, m.method);
      }
    });
    checkFilters(c, base, rule.filters, kind);
  });
  return c.out;
}
