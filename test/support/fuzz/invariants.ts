/**
 * What Linkerd 2.20 and the API server need from synthesized output, written down independently of the engine so the
 * fuzzer can catch the engine and the constructs agreeing on a mistake. Each check returns readable problems; the
 * CRD schemas and CEL rules are checked separately (conformanceIssues).
 */

type Obj = Record<string, any>;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Gateway API durations as Linkerd reads them: one integer (≤ 5 digits) and one unit. */
const GATEWAY_DURATION = /^\d{1,5}(h|m|s|ms)$/;
/** `timeout.linkerd.io/*` and `retry.linkerd.io/timeout`: one integer and one unit. */
const ANNOTATION_DURATION = /^\d+(ms|s|m|h|d)$/;
const HTTP_STATUS_ITEM = /^(5xx|gateway-error|[1-5]\d\d(-[1-5]\d\d)?)$/;
const GRPC_CODES = new Set(['cancelled', 'deadline-exceeded', 'internal', 'resource-exhausted', 'unavailable']);
const PORT_NAME = /^(?=.*[a-z])[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$/;
/** Header values the proxy can parse (http::HeaderValue): no control characters except tab. */
const HEADER_VALUE = /^[^\x00-\x08\x0a-\x1f\x7f]+$/;
const CIDR = /^[0-9a-fA-F.:]+(\/\d{1,3})?$/;

const ROUTE_KINDS = new Set(['HTTPRoute', 'GRPCRoute']);

function name(o: Obj): string {
  return `${o.kind}/${o.metadata?.name}`;
}

function isPort(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535;
}

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

/** The API server keeps one object per group/kind/namespace/name: a second one silently replaces the first. */
function duplicates(objects: Obj[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const o of objects) {
    const key = `${groupOf(String(o.apiVersion))}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
    if (seen.has(key)) problems.push(`${name(o)}: defined twice (${key}); the later apply replaces the earlier object`);
    seen.add(key);
  }
  return problems;
}

function names(o: Obj): string[] {
  const problems: string[] = [];
  if (!DNS_SUBDOMAIN.test(String(o.metadata?.name ?? ''))) problems.push(`${name(o)}: metadata.name is not a DNS subdomain`);
  const ns = o.metadata?.namespace;
  if (ns !== undefined && !DNS_LABEL.test(String(ns))) problems.push(`${name(o)}: metadata.namespace ${JSON.stringify(ns)} is not a DNS label`);
  return problems;
}

/** A Service reference Linkerd can resolve: a DNS-label name (and namespace) and a port. */
function serviceRefProblems(o: Obj, ref: Obj, where: string): string[] {
  const problems: string[] = [];
  if (!DNS_LABEL.test(String(ref.name ?? ''))) problems.push(`${name(o)}: ${where}.name ${JSON.stringify(ref.name)} can never name a Service`);
  if (ref.namespace !== undefined && !DNS_LABEL.test(String(ref.namespace))) problems.push(`${name(o)}: ${where}.namespace ${JSON.stringify(ref.namespace)} is not a namespace name`);
  if (!isPort(ref.port)) problems.push(`${name(o)}: ${where}.port ${JSON.stringify(ref.port)} is not a port number`);
  return problems;
}

function parentRefs(o: Obj): string[] {
  const problems: string[] = [];
  (o.spec?.parentRefs ?? []).forEach((p: Obj, i: number) => {
    if (p.kind !== 'Service') return;
    // Omitted, the group defaults to gateway.networking.k8s.io and Linkerd ignores the route.
    if (p.group !== 'core' && p.group !== '') problems.push(`${name(o)}: parentRefs[${i}] has group ${JSON.stringify(p.group)}, not core`);
    problems.push(...serviceRefProblems(o, p, `parentRefs[${i}]`));
  });
  return problems;
}

function regexProblem(pattern: string): string | undefined {
  try {
    // Rust spellings JS lacks: named groups with P, inline flags.
    new RegExp(pattern.replace(/\(\?P</g, '(?<').replace(/\(\?[imsxuU-]+\)/g, '').replace(/\(\?[imsxuU-]+:/g, '(?:'));
  } catch (e) {
    return `does not compile (${(e as Error).message})`;
  }
  // Linkerd compiles with Rust's regex crate, which has no look-around and no back-references.
  if (/\(\?<?[=!]|\\[1-9]/.test(pattern)) return 'uses look-around or back-references, which Linkerd\'s regex engine refuses';
  return undefined;
}

function headerProblems(o: Obj, headers: Obj[] | undefined, where: string): string[] {
  return (headers ?? []).flatMap((h, k) => {
    const at = `${where}.headers[${k}]`;
    if (h.type === 'RegularExpression') {
      const problem = regexProblem(String(h.value));
      return problem ? [`${name(o)}: ${at} regex ${JSON.stringify(h.value)} ${problem}`] : [];
    }
    return HEADER_VALUE.test(String(h.value)) ? [] : [`${name(o)}: ${at} value ${JSON.stringify(h.value)} is not a valid HTTP header value`];
  });
}

function matchProblems(o: Obj, rule: Obj, r: number): string[] {
  return (rule.matches ?? []).flatMap((m: Obj, j: number) => {
    const where = `rules[${r}].matches[${j}]`;
    const problems = headerProblems(o, m.headers, where);
    if (m.path?.type === 'RegularExpression') {
      const problem = regexProblem(String(m.path.value));
      if (problem) problems.push(`${name(o)}: ${where}.path regex ${JSON.stringify(m.path.value)} ${problem}`);
    }
    return problems;
  });
}

function backendProblems(o: Obj, rule: Obj, r: number): string[] {
  const backends: Obj[] = rule.backendRefs ?? [];
  const problems = backends.flatMap((b, i) => {
    const where = `rules[${r}].backendRefs[${i}]`;
    const out = serviceRefProblems(o, b, where);
    if (b.weight !== undefined && !(Number.isInteger(b.weight) && b.weight >= 0 && b.weight <= 1_000_000)) out.push(`${name(o)}: ${where}.weight ${JSON.stringify(b.weight)} is invalid`);
    return out;
  });
  if (backends.length > 0 && backends.every((b) => b.weight === 0)) problems.push(`${name(o)}: rules[${r}] weights are all zero`);
  return problems;
}

function ruleTimeouts(o: Obj, rule: Obj, r: number): string[] {
  return Object.entries(rule.timeouts ?? {}).flatMap(([k, v]) => (GATEWAY_DURATION.test(String(v)) ? []
    : [`${name(o)}: rules[${r}].timeouts.${k} ${JSON.stringify(v)} is not one Gateway API duration unit Linkerd reads`]));
}

function retryAnnotationProblems(o: Obj): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries<string>(o.metadata?.annotations ?? {})) {
    const bad = (why: string) => problems.push(`${name(o)}: annotation ${key}: ${JSON.stringify(value)} ${why}`);
    if (key.startsWith('timeout.linkerd.io/') || key === 'retry.linkerd.io/timeout') {
      if (!ANNOTATION_DURATION.test(value)) bad('is not a single-unit duration');
    } else if (key === 'retry.linkerd.io/http') {
      if (!value.split(',').every((item) => HTTP_STATUS_ITEM.test(item))) bad('is not a list of statuses/ranges without spaces');
    } else if (key === 'retry.linkerd.io/grpc') {
      if (!value.split(',').every((item) => GRPC_CODES.has(item))) bad('lists an unknown gRPC code');
    } else if (key === 'retry.linkerd.io/limit') {
      if (!/^[1-9]\d*$/.test(value)) bad('is not a positive integer');
    }
  }
  return problems;
}

function routeProblems(o: Obj): string[] {
  const rules: Obj[] = o.spec?.rules ?? [];
  return [
    ...parentRefs(o),
    ...retryAnnotationProblems(o),
    ...rules.flatMap((rule, r) => [...matchProblems(o, rule, r), ...backendProblems(o, rule, r), ...ruleTimeouts(o, rule, r)]),
  ];
}

function serverProblems(o: Obj): string[] {
  const port = o.spec?.port;
  if (typeof port === 'number') return isPort(port) ? [] : [`${name(o)}: spec.port ${port} is not a port`];
  // A quoted number is a port NAME to Linkerd, and names always contain a letter: it would match nothing.
  return typeof port === 'string' && PORT_NAME.test(port) ? [] : [`${name(o)}: spec.port ${JSON.stringify(port)} is not a container port name`];
}

/** CIDRs as Linkerd parses them: no whitespace, no garbage (the engine's parser is lenient about spaces). */
function networkProblems(o: Obj): string[] {
  return (o.spec?.networks ?? []).flatMap((n: Obj, i: number) => [n.cidr, ...(n.except ?? [])]
    .filter((c) => typeof c !== 'string' || !CIDR.test(c))
    .map((c) => `${name(o)}: spec.networks[${i}] has ${JSON.stringify(c)}, which is not a bare CIDR`));
}

function namespaceTarget(o: Obj): string[] {
  const t = o.spec?.targetRef;
  return t?.kind === 'Namespace' && t.name !== o.metadata?.namespace ? [`${name(o)}: a Namespace target must be the policy's own namespace`] : [];
}

function objectProblems(o: Obj): string[] {
  const problems = names(o);
  if (ROUTE_KINDS.has(o.kind)) problems.push(...routeProblems(o));
  if (o.kind === 'Server') problems.push(...serverProblems(o));
  if (o.kind === 'NetworkAuthentication' || o.kind === 'EgressNetwork') problems.push(...networkProblems(o));
  if (o.kind === 'AuthorizationPolicy') problems.push(...namespaceTarget(o));
  return problems;
}

/** Every problem Linkerd or the API server would have with synthesized objects, beyond their CRD schemas. */
export function linkerdReadsProblems(objects: Obj[]): string[] {
  return [...duplicates(objects), ...objects.flatMap(objectProblems)];
}
