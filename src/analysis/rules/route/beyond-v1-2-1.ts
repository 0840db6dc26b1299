import { compareVersions, parseBundleVersion } from '../../../core/versions';
import { FindingEffect, Severity } from '../../finding';
import { GATEWAY_GROUP, IndexedObject } from '../../model/mesh-index';
import { allRoutes, backendRefs, filtersOf, hasLinkerdParent, isGrpcRoute, isRecord, matchesOf, rules } from '../../model/route-view';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** Rule-level fields added to the standard channel after v1.2.1 (or experimental only). */
const NEWER_RULE_FIELDS = ['name', 'sessionPersistence', 'retry'];
/** Redirect codes beyond v1.2.1's 301/302. */
const NEWER_REDIRECT_CODES = new Set([303, 307, 308]);
/** v1.2.1 GRPCRoute allows 8 matches per rule (later bundles: 64). */
const GRPC_MAX_MATCHES = 8;

function filterProblems(filter: unknown): string[] {
  if (!isRecord(filter)) return [];
  const problems: string[] = [];
  if (filter.type === 'CORS' || filter.cors !== undefined) problems.push('a CORS filter');
  const mirror = filter.requestMirror;
  if (isRecord(mirror) && (mirror.percent !== undefined || mirror.fraction !== undefined)) problems.push('requestMirror.percent/fraction');
  const code = filter.requestRedirect?.statusCode;
  if (NEWER_REDIRECT_CODES.has(code)) problems.push(`requestRedirect.statusCode ${code} (v1.2.1 allows 301 and 302)`);
  return problems;
}

/** `rules[r].filters[f]`, or `rules[r].backendRefs[b].filters[f]` for a backend's filter (b >= 0). */
function filterPath(r: number, b: number, f: number): string {
  return b < 0 ? `rules[${r}].filters[${f}]` : `rules[${r}].backendRefs[${b}].filters[${f}]`;
}

/** Adds the problems of each filter of a rule or backend; most have no filters, so this is usually a no-op. */
function addFilterProblems(problems: string[], holder: unknown, r: number, b: number): void {
  const filters = filtersOf(holder);
  for (let f = 0; f < filters.length; f++) {
    for (const p of filterProblems(filters[f])) problems.push(`${filterPath(r, b, f)}: ${p}`);
  }
}

function ruleProblems(route: IndexedObject, rule: unknown, r: number): string[] {
  if (!isRecord(rule)) return [];
  const problems: string[] = [];
  for (const f of NEWER_RULE_FIELDS) {
    if (rule[f] !== undefined) problems.push(`rules[${r}].${f}`);
  }
  addFilterProblems(problems, rule, r, -1);
  const backends = backendRefs(rule);
  for (let b = 0; b < backends.length; b++) addFilterProblems(problems, backends[b], r, b);
  const matches = matchesOf(rule).length;
  if (isGrpcRoute(route) && matches > GRPC_MAX_MATCHES) {
    problems.push(`rules[${r}].matches has ${matches} entries (v1.2.1 allows ${GRPC_MAX_MATCHES})`);
  }
  return problems;
}

function checkRoute(ctx: RuleContext, route: IndexedObject): void {
  const spec = route.object.spec;
  if (isRecord(spec) && Array.isArray(spec.rules) && spec.rules.length === 0 && !isGrpcRoute(route)) {
    ctx.report(route, 'spec.rules is an explicit empty list: Gateway API v1.5.1+ rejects it (rules needs at least one item) and on '
      + 'v1.2.1 the route has no rule any request can match. Omit rules (defaults to one PathPrefix "/" rule) or add a rule.');
  }
  const linkerdReads = hasLinkerdParent(route, ctx.index);
  // A route only Gateways take is its implementation's: the newer field matters only to an API server still at v1.2.1.
  if (!linkerdReads && declaresNewerBundle(ctx)) return;
  const list = rules(route);
  for (let r = 0; r < list.length; r++) {
    for (const problem of ruleProblems(route, list[r], r)) {
      if (linkerdReads) {
        ctx.report(route, `${problem} is not part of Gateway API v1.2.1; Linkerd 2.20 ignores a route that uses fields or values beyond `
          + 'v1.2.1, and a v1.2.1 API server rejects (or with lax validation drops) it. Remove it.', { effect: FindingEffect.IGNORED });
      } else {
        // Not Linkerd's route: the apply fails loudly on standard v1.2.1 CRDs, and experimental ones may serve the field.
        ctx.report(route, `${problem} is not part of the standard Gateway API v1.2.1 declared as gatewayApiVersion: its API server rejects `
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

/** Linkerd 2.20 is built against v1.2.1 types; newer fields make it ignore the route, not just the field. */
export const beyondGatewayV121: Rule = {
  id: 'LKD-ROUTE-020',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    title: 'Routes use only fields and values of Gateway API v1.2.1 that every supported bundle accepts',
    why: 'Linkerd 2.20 supports bundles v1.2.1-v1.5.1 but reads routes as v1.2.1: a route using a newer field or value (rule '
      + '`name`, `sessionPersistence`, `retry`, mirror `percent`/`fraction`, CORS, redirect 303/307/308) is admitted and then '
      + 'ignored as a whole (linkerd/linkerd2#14846, #14986). An explicit `rules: []` is valid at v1.2.1 but rejected from v1.5.1. '
      + 'A route whose parents are only Gateways is not Linkerd\'s: against a declared v1.2.1 bundle it gets a warning (the '
      + 'apply fails on the standard CRDs; the experimental ones may serve the field), against a newer one nothing.',
    fix: 'Remove the newer field; use Linkerd annotations for retries (retry.linkerd.io/*) and 301/302 for redirects.',
    linkerdSource: 'policy-controller/runtime/src/admission.rs Admission::admit_spec (lenient: Gateway API specs that do not '
      + 'parse are admitted); Gateway API v1.2.1 CRDs',
    badExample: 'rules:\n- name: canary\n  backendRefs: [{name: orders-v2, port: 8080}]',
    goodExample: 'rules:\n- backendRefs: [{name: orders-v2, port: 8080}]',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      if (route.group === GATEWAY_GROUP) checkRoute(ctx, route);
    }
  },
};
