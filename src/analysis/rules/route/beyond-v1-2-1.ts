import { compareVersions, parseBundleVersion } from '../../../core/versions';
import { GATEWAY_GROUP } from '../../../core/vocabulary';
import { isRecord } from '../../../util/json';
import { FindingEffect, Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { allRoutes, backendRefs, filtersOf, isGrpcRoute, matchesOf, rules } from '../../model/routes/lists';
import { hasLinkerdParent } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

/**
 * How Linkerd 2.20 reads a field beyond standard v1.2.1. It parses routes with the gateway-api crate 0.16 experimental
 * types (policy-controller/k8s/api/src/lib.rs), which ignore fields they do not know but fail on an enum value they do
 * not know: the route is then dropped whole (linkerd/linkerd2#14846, #14741).
 */
enum Reading {
  /** The crate cannot read it (a filter type newer than v1.2.1): Linkerd drops the route, whatever the bundle. */
  UNREADABLE = 'unreadable',
  /** The crate reads it, Linkerd applies nothing of it: the field silently does nothing, whatever the bundle. */
  UNAPPLIED = 'unapplied',
  /** Read or skipped harmlessly: only a v1.2.1 API server minds it (it rejects the field or value, or drops it). */
  NEWER = 'newer',
}

interface Problem {
  readonly text: string;
  readonly reading: Reading;
}

/** Rule-level fields of the experimental channel that Linkerd parses and does not apply, with what to use instead. */
const UNAPPLIED_RULE_FIELDS: Record<string, string> = {
  retry: 'use the retry.linkerd.io/* annotations',
  sessionPersistence: 'Linkerd balances by latency (EWMA) and has no session affinity',
};
/** Rule-level fields after v1.2.1 standard that Linkerd reads without harm. */
const NEWER_RULE_FIELDS = ['name'];
/** Redirect codes beyond v1.2.1's 301/302 (http::StatusCode::from_u16 takes them). */
const NEWER_REDIRECT_CODES = new Set([303, 307, 308]);
/** Filter types the gateway-api 0.16 crate has no variant for. */
const UNREADABLE_FILTER_TYPES = new Set(['CORS', 'ExternalAuth']);
/** v1.2.1 GRPCRoute allows 8 matches per rule (later bundles: 64). */
const GRPC_MAX_MATCHES = 8;

function filterProblems(filter: unknown): Problem[] {
  if (!isRecord(filter)) return [];
  const problems: Problem[] = [];
  if (UNREADABLE_FILTER_TYPES.has(filter.type) || filter.cors !== undefined) {
    problems.push({ text: `a ${filter.type === 'ExternalAuth' ? 'ExternalAuth' : 'CORS'} filter`, reading: Reading.UNREADABLE });
  }
  const mirror = filter.requestMirror;
  if (isRecord(mirror) && (mirror.percent !== undefined || mirror.fraction !== undefined)) problems.push({ text: 'requestMirror.percent/fraction', reading: Reading.NEWER });
  const code = filter.requestRedirect?.statusCode;
  if (NEWER_REDIRECT_CODES.has(code)) problems.push({ text: `requestRedirect.statusCode ${code} (v1.2.1 allows 301 and 302)`, reading: Reading.NEWER });
  return problems;
}

/** `rules[r].filters[f]`, or `rules[r].backendRefs[b].filters[f]` for a backend's filter (b >= 0). */
function filterPath(r: number, b: number, f: number): string {
  return b < 0 ? `rules[${r}].filters[${f}]` : `rules[${r}].backendRefs[${b}].filters[${f}]`;
}

/** Adds the problems of each filter of a rule or backend; most have no filters, so this is usually a no-op. */
function addFilterProblems(problems: Problem[], holder: unknown, r: number, b: number): void {
  const filters = filtersOf(holder);
  for (let f = 0; f < filters.length; f++) {
    for (const p of filterProblems(filters[f])) problems.push({ ...p, text: `${filterPath(r, b, f)}: ${p.text}` });
  }
}

function ruleProblems(route: IndexedObject, rule: unknown, r: number): Problem[] {
  if (!isRecord(rule)) return [];
  const problems: Problem[] = [];
  for (const f of Object.keys(UNAPPLIED_RULE_FIELDS)) {
    if (rule[f] !== undefined) problems.push({ text: `rules[${r}].${f}`, reading: Reading.UNAPPLIED });
  }
  for (const f of NEWER_RULE_FIELDS) {
    if (rule[f] !== undefined) problems.push({ text: `rules[${r}].${f}`, reading: Reading.NEWER });
  }
  addFilterProblems(problems, rule, r, -1);
  const backends = backendRefs(rule);
  for (let b = 0; b < backends.length; b++) addFilterProblems(problems, backends[b], r, b);
  const matches = matchesOf(rule).length;
  if (isGrpcRoute(route) && matches > GRPC_MAX_MATCHES) {
    problems.push({ text: `rules[${r}].matches has ${matches} entries (v1.2.1 allows ${GRPC_MAX_MATCHES})`, reading: Reading.NEWER });
  }
  return problems;
}

/** What a v1.2.1 API server does with a field or value it does not have. */
const V121_SERVER = 'a v1.2.1 API server rejects (or with lax validation drops) it';

/** A problem on a route Linkerd reads, as it affects that route on the declared bundle. */
function reportForLinkerd(ctx: RuleContext, route: IndexedObject, problem: Problem, newer: boolean): void {
  switch (problem.reading) {
    case Reading.UNREADABLE:
      ctx.report(route, `${problem.text} is newer than the Gateway API v1.2.1 types Linkerd 2.20 reads routes with: the policy controller `
        + 'cannot read the route and ignores it whole (only its log says so). Remove the filter from routes that Linkerd serves.', { effect: FindingEffect.IGNORED });
      return;
    case Reading.UNAPPLIED: {
      const field = problem.text.slice(problem.text.lastIndexOf('.') + 1);
      ctx.report(route, `${problem.text} is read by Linkerd 2.20 but not applied: it does nothing for meshed clients (${UNAPPLIED_RULE_FIELDS[field]})`
        + `${newer ? '' : `, and ${V121_SERVER}`}. Remove it.`);
      return;
    }
    default:
      if (newer) return;
      ctx.report(route, `${problem.text} is not part of Gateway API v1.2.1: ${V121_SERVER}. Remove it, or declare the bundle you install `
        + '(Linkerd 2.20 reads it on v1.3.0-v1.5.1).', { effect: FindingEffect.REJECTED });
  }
}

/** `newer`: the declared bundle is newer than v1.2.1 (`declaresNewerBundle`), read once per check. */
function checkRoute(ctx: RuleContext, route: IndexedObject, newer: boolean): void {
  const spec = route.object.spec;
  if (isRecord(spec) && Array.isArray(spec.rules) && spec.rules.length === 0 && !isGrpcRoute(route)) {
    ctx.report(route, 'spec.rules is an explicit empty list: Gateway API v1.5.1+ rejects it (rules needs at least one item) and on '
      + 'v1.2.1 the route has no rule any request can match. Omit rules (defaults to one PathPrefix "/" rule) or add a rule.');
  }
  const list = rules(route);
  // Whose route it is matters only for a route with a problem, which few have: resolved on the first one.
  let linkerdReads: boolean | undefined;
  for (let r = 0; r < list.length; r++) {
    for (const problem of ruleProblems(route, list[r], r)) {
      linkerdReads ??= hasLinkerdParent(route, ctx.index);
      if (linkerdReads) {
        reportForLinkerd(ctx, route, problem, newer);
      } else if (!newer) {
        // A route only Gateways take is its implementation's: the newer field matters only to an API server still at v1.2.1.
        // Not Linkerd's route: the apply fails loudly on standard v1.2.1 CRDs, and experimental ones may serve the field.
        ctx.report(route, `${problem.text} is not part of the standard Gateway API v1.2.1 declared as gatewayApiVersion: its API server rejects `
          + '(or with lax validation drops) it unless the experimental CRDs are installed. Remove it, or declare the bundle you install.', { severity: Severity.WARNING });
      }
    }
  }
}

/** Whether the cluster's Gateway API bundle is declared newer than v1.2.1 (its CRDs may accept the newer fields). */
function declaresNewerBundle(ctx: RuleContext): boolean {
  const declared = parseBundleVersion(ctx.context.gatewayApiVersion);
  return declared !== undefined && compareVersions(declared, [1, 2, 1]) > 0;
}

/** Linkerd 2.20 reads routes with v1.2.1 experimental types: newer filter types drop the route, newer fields a v1.2.1 server refuses. */
export const beyondGatewayV121: Rule = {
  id: 'LKD-ROUTE-020',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED, FindingEffect.REJECTED],
  doc: {
    certainty: 'Ignored: the policy controller reads routes with the gateway-api 0.16 types (policy-'
      + 'controller/k8s/api/src/lib.rs) and drops a route it cannot read; Rejected where a supported bundle\'s CRD '
      + 'refuses the field. A field only some bundles serve is a warning.',
    title: 'Routes use only fields and values of Gateway API v1.2.1 that every supported bundle accepts',
    why: 'Linkerd 2.20 supports bundles v1.2.1-v1.5.1 and reads routes with the gateway-api crate 0.16 experimental types: it '
      + 'ignores fields it does not know, but a filter type newer than v1.2.1 (CORS, ExternalAuth) makes the route unreadable, '
      + 'and the policy controller ignores it whole on every bundle (linkerd/linkerd2#14846, #14741). Rule `retry` and '
      + '`sessionPersistence` are read but never applied. A rule `name`, mirror `percent`/`fraction`, redirect 303/307/308 '
      + 'and more than 8 GRPCRoute matches are fine from v1.3.0, but a v1.2.1 API server (the bundle assumed unless '
      + 'gatewayApiVersion says otherwise) rejects them. An explicit `rules: []` is valid at v1.2.1 but rejected from v1.5.1. '
      + 'A route whose parents are only Gateways is not Linkerd\'s: against a declared v1.2.1 bundle it gets a warning (the '
      + 'apply fails on the standard CRDs; the experimental ones may serve the field), against a newer one nothing.',
    fix: 'Remove the newer field (or declare the bundle you install); use Linkerd annotations for retries (retry.linkerd.io/*) and '
      + '301/302 for redirects on v1.2.1.',
    linkerdSource: 'policy-controller/k8s/api/src/lib.rs (gateway_api::apis::experimental, crate 0.16.0); '
      + 'policy-controller/runtime/src/admission.rs Admission::admit_spec (lenient: Gateway API specs that do not '
      + 'parse are admitted); policy-controller/k8s/index/src/outbound/index/http.rs (no retry or session persistence); Gateway API v1.2.1 CRDs',
    badExample: 'rules:\n- name: canary\n  backendRefs: [{name: orders-v2, port: 8080}]',
    goodExample: 'rules:\n- backendRefs: [{name: orders-v2, port: 8080}]',
  },
  check(ctx) {
    const newer = declaresNewerBundle(ctx);
    for (const route of allRoutes(ctx.index)) {
      if (route.group === GATEWAY_GROUP) checkRoute(ctx, route, newer);
    }
  },
};
