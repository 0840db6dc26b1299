/**
 * Whether a route's rules match every request: the question behind Linkerd's 404s. Once any route is served on a
 * Service port (or attached to a Server), the default route is gone, and requests no rule matches get 404 (outbound)
 * or are refused (inbound) — linkerd2 policy-controller/grpc/src/outbound/http.rs `base_http_routes`,
 * k8s/index/src/inbound/index.rs `http_routes` / `grpc_routes`. One pure check, used by the route constructs at
 * synth and by the engine (LKD-ROUTE-025) on YAML.
 */
import { isRecord } from '../util/json';

/**
 * Path regexes every request path matches, whichever way the proxy anchors them (every path starts with "/"): the
 * catch-alls people write. Anything subtler is not judged (treated as matching less).
 */
const CATCH_ALL_REGEXES = new Set(['.*', '/.*', '^.*', '^/.*', '.*$', '/.*$', '^.*$', '^/.*$']);

function anyPathMatch(path: unknown): boolean {
  if (path === undefined) return true;
  if (!isRecord(path)) return false;
  const type = path.type ?? 'PathPrefix';
  if (type === 'PathPrefix') return (path.value ?? '/') === '/';
  return type === 'RegularExpression' && typeof path.value === 'string' && CATCH_ALL_REGEXES.has(path.value);
}

/** An HTTP match every request satisfies: no method, headers or query, and the path `/` prefix, a catch-all regex, or none. */
export function httpMatchAll(match: Record<string, any>): boolean {
  const anyPath = anyPathMatch(match.path);
  const none = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0);
  return anyPath && match.method === undefined && none(match.headers) && none(match.queryParams);
}

/** A gRPC match every call satisfies: no method and no headers. */
export function grpcMatchAll(match: Record<string, any>): boolean {
  const noHeaders = match.headers === undefined || (Array.isArray(match.headers) && match.headers.length === 0);
  return match.method === undefined && noHeaders;
}

/** Whether one of the rules matches every request (a rule without matches does; a route without rules too). */
export function rulesCoverAll(rules: unknown, grpc: boolean): boolean {
  if (!Array.isArray(rules) || rules.length === 0) return true;
  const all = grpc ? grpcMatchAll : httpMatchAll;
  return rules.some((r) => !isRecord(r) || !Array.isArray(r.matches) || r.matches.length === 0
    || r.matches.some((m: unknown) => isRecord(m) && all(m)));
}
