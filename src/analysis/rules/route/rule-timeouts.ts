import { formatDuration } from '../../../core/duration-format';
import { isOpenApiDuration, parseGatewayDuration, parseK8sDuration, parseLinkerdDuration } from '../../../core/linkerd-grammar';
import { POLICY_GROUP } from '../../../core/vocabulary';
import { isRecord } from '../../../util/json';
import { FindingEffect, Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { allRoutes, isGatewayHttpRoute, rules } from '../../model/routes/lists';
import { isOutboundRoute, onlyServerParents } from '../../model/routes/parents';
import { policyValidatorSkips } from '../../model/webhooks';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** Reads one timeout field as the API server would; reports and returns undefined when it would reject it. */
function schemaDuration(ctx: RuleContext, route: IndexedObject, path: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const parsed = parseGatewayDuration(value);
  if (parsed.ok) return parsed.value;
  ctx.report(route, `${path}: ${parsed.reason}; the API server rejects the route.`, { effect: FindingEffect.REJECTED });
  return undefined;
}

function checkLinkerdReadable(ctx: RuleContext, route: IndexedObject, path: string, value: unknown, ms: number): void {
  const linkerd = parseLinkerdDuration(value);
  if (linkerd.ok) return;
  ctx.report(route, `${path} is "${String(value)}": the CRD accepts it, but Linkerd reads only one number with one unit, so it `
    + `silently drops this timeout and the rule runs without one. Write it as "${formatDuration(ms)}".`,
  { fix: `Set ${path} to "${formatDuration(ms)}".` });
}

function checkRule(ctx: RuleContext, route: IndexedObject, timeouts: Record<string, any>, r: number): void {
  const base = `rules[${r}].timeouts`;
  const request = schemaDuration(ctx, route, `${base}.request`, timeouts.request);
  const backendRequest = schemaDuration(ctx, route, `${base}.backendRequest`, timeouts.backendRequest);
  // Only a route whose timeouts Linkerd reads loses one to Linkerd's grammar: a Gateway-only route's is its gateway's
  // business, and a Server's route keeps no timeouts at all (LKD-ROUTE-028).
  if (request !== undefined && isOutboundRoute(route, ctx.index)) checkLinkerdReadable(ctx, route, `${base}.request`, timeouts.request, request);
  if (request !== undefined && backendRequest !== undefined && request !== 0 && backendRequest > request) {
    ctx.report(route, `${base}.backendRequest (${String(timeouts.backendRequest)}) is longer than ${base}.request `
      + `(${String(timeouts.request)}); the Gateway API CRD's validation rule makes the API server reject this. Make backendRequest <= request.`, { effect: FindingEffect.REJECTED });
  }
}

/**
 * Where the policy validator does not run, a timeout it would refuse meets the API server and then the policy
 * controller: the CRD's `format: duration` admits far more than K8sDuration reads, and a route whose duration does
 * not deserialize is never indexed; a negative one deserializes, and the controller uses its magnitude
 * (`Duration::from(K8sDuration)` drops the sign).
 */
/** The fix of every policy.linkerd.io HTTPRoute timeout the webhook would refuse. */
function durationFix(path: string): { fix: string } {
  return { fix: `Set ${path} to a duration such as "10s".` };
}

function reportUnvalidatedDuration(ctx: RuleContext, route: IndexedObject, path: string, value: unknown, problem: Unvalidated): void {
  const { reason, skipped, negative } = problem;
  const fix = durationFix(path);
  if (negative) {
    // Only the request timeout is read (convert_linkerd_rule); LKD-ROUTE-018 says backendRequest does nothing, and
    // LKD-ROUTE-028 that a Server's route reads no timeout.
    if (!path.endsWith('.request') || onlyServerParents(route)) return;
    ctx.report(route, `${path}: ${reason}; ${skipped}, so nothing refuses it, and the policy controller drops the sign: the timeout is `
      + `${String(value).replace(/^[-+]+/, '')}.`, { ...fix, severity: Severity.WARNING });
  } else if (typeof value !== 'string' || !isOpenApiDuration(value)) {
    ctx.report(route, `${path}: ${reason}; the CRD's format: duration refuses it too, so the API server rejects the route.`,
      { ...fix, effect: FindingEffect.REJECTED });
  } else {
    ctx.report(route, `${path}: ${reason}; ${skipped}, so the API server admits the route (its format: duration is looser), but the `
      + 'policy controller cannot read this duration (duration.rs K8sDuration) and never uses the route.', { ...fix, effect: FindingEffect.IGNORED });
  }
}

/** What the webhook would have refused, where it does not run (`skipped` says why). */
interface Unvalidated {
  readonly reason: string;
  readonly skipped: string;
  /** K8sDuration reads it, with a sign; otherwise it does not read it at all. */
  readonly negative: boolean;
}

/** One timeout of a policy.linkerd.io HTTPRoute as the webhook reads it: its milliseconds, or undefined (reported). */
function webhookDuration(ctx: RuleContext, route: IndexedObject, path: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = parseK8sDuration(value);
  const reason = !parsed.ok ? parsed.reason : parsed.value.negative ? `"${String(value)}" is negative` : undefined;
  if (reason === undefined && parsed.ok) return parsed.value.ms;
  const skipped = policyValidatorSkips(ctx.index, route);
  if (skipped !== undefined) {
    reportUnvalidatedDuration(ctx, route, path, value, { reason: reason!, skipped, negative: parsed.ok });
    return undefined;
  }
  ctx.report(route, `${path}: ${reason}; Linkerd's admission webhook rejects the route (a Go duration such as 10s or 1m30s, not negative).`,
    { ...durationFix(path), effect: FindingEffect.REJECTED });
  return undefined;
}

/**
 * policy.linkerd.io/v1beta3 HTTPRoute timeouts (the only version that has them) are checked by Linkerd's webhook, not
 * by a CEL rule: admission.rs `validate_timeouts` wants backendRequest <= request, with no exception for a zero request.
 */
function checkPolicyRule(ctx: RuleContext, route: IndexedObject, timeouts: Record<string, any>, r: number): void {
  const base = `rules[${r}].timeouts`;
  const request = webhookDuration(ctx, route, `${base}.request`, timeouts.request);
  const backendRequest = webhookDuration(ctx, route, `${base}.backendRequest`, timeouts.backendRequest);
  // Where the webhook does not run, the route is applied and the policy controller reads only the request timeout
  // (outbound/index/http.rs convert_linkerd_rule): the route works, and LKD-ROUTE-018 says backendRequest does nothing.
  if (request !== undefined && backendRequest !== undefined && backendRequest > request && policyValidatorSkips(ctx.index, route) === undefined) {
    ctx.report(route, `${base}.backendRequest (${String(timeouts.backendRequest)}) is longer than ${base}.request (${String(timeouts.request)}); `
      + `Linkerd's admission webhook rejects the route${request === 0 ? ' (a request timeout of 0 is no exception here, unlike on Gateway API HTTPRoutes)' : ''}. `
      + 'Make backendRequest <= request.', { effect: FindingEffect.REJECTED });
  }
}

function isPolicyHttpRouteWithTimeouts(route: IndexedObject): boolean {
  return route.group === POLICY_GROUP && route.id.kind === 'HTTPRoute' && route.id.apiVersion === `${POLICY_GROUP}/v1beta3`;
}

/** Gateway durations and Linkerd durations are different languages; the gap drops timeouts without a word. */
export const ruleTimeouts: Rule = {
  id: 'LKD-ROUTE-014',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Ignored: policy-controller/k8s/index/src/outbound/index.rs parse_duration cannot read a compound duration '
      + 'and the rule has no timeout; Rejected: the CRD\'s CEL rule refuses backendRequest above request.',
    title: 'rules[].timeouts are valid Gateway durations that Linkerd can read, with backendRequest <= request',
    why: 'The HTTPRoute CRD accepts compound durations such as `1m30s`, but Linkerd\'s parser takes one integer and one unit '
      + '(ms, s, m, h, d) and silently drops anything else, so the rule has no timeout at all. A backendRequest longer '
      + 'than a non-zero request timeout is rejected by the API server (a CEL rule of the Gateway API CRD). On policy.linkerd.io '
      + 'HTTPRoutes (v1beta3, the only version with timeouts) Linkerd\'s admission webhook checks them instead: Go durations '
      + '(compound values allowed), none negative, and backendRequest <= request even when request is 0. Where that webhook '
      + 'does not run (a namespace its selectors leave out), a backendRequest above request is applied and does no harm: '
      + 'the policy controller reads only the request timeout (convert_linkerd_rule), and LKD-ROUTE-018 says so. There a '
      + 'duration only the CRD\'s looser `format: duration` admits (`1d`, `2 weeks`) is applied, and the policy controller '
      + 'cannot read the route; a negative request timeout is applied and used without its sign (a warning).',
    fix: 'Write each timeout as one number and one unit (`90s`, `1500ms`, `2m`), and keep backendRequest <= request.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs convert_gateway_rule (parse_duration(..).ok() drops '
      + 'what it cannot read); policy-controller/k8s/index/src/outbound/index.rs parse_duration; Gateway API v1.2.1 HTTPRoute '
      + 'CRD CEL rule (backendRequest <= a non-zero request); policy-controller/runtime/src/admission.rs validate_timeouts, '
      + 'policy-controller/k8s/api/src/duration.rs from_str (policy.linkerd.io HTTPRoute); '
      + 'policy-controller/k8s/index/src/outbound/index/http.rs convert_linkerd_rule (only timeouts.request is read; '
      + 'Duration::from(K8sDuration) drops the sign); not Linkerd: the API server\'s `format: duration` check '
      + '(apiextensions-apiserver validates it with kube-openapi strfmt ParseDuration)',
    badExample: 'rules:\n- timeouts:\n    request: 1m30s\n  backendRefs: [{name: orders-v1, port: 8080}]',
    goodExample: 'rules:\n- timeouts:\n    request: 90s\n  backendRefs: [{name: orders-v1, port: 8080}]',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      const check = isGatewayHttpRoute(route) ? checkRule : isPolicyHttpRouteWithTimeouts(route) ? checkPolicyRule : undefined;
      if (!check) continue;
      const list = rules(route);
      for (let r = 0; r < list.length; r++) {
        if (isRecord(list[r]?.timeouts)) check(ctx, route, list[r].timeouts, r);
      }
    }
  },
};
