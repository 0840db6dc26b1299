import { formatDuration, parseGatewayDuration, parseLinkerdDuration } from '../../../core/linkerd-grammar';
import { FindingEffect, Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { allRoutes, isGatewayHttpRoute, isRecord, rules } from '../../model/route-view';
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
  if (request !== undefined) checkLinkerdReadable(ctx, route, `${base}.request`, timeouts.request, request);
  if (request !== undefined && backendRequest !== undefined && request !== 0 && backendRequest > request) {
    ctx.report(route, `${base}.backendRequest (${String(timeouts.backendRequest)}) is longer than ${base}.request `
      + `(${String(timeouts.request)}); the Gateway API CRD's validation rule makes the API server reject this. Make backendRequest <= request.`, { effect: FindingEffect.REJECTED });
  }
}

/** Gateway durations and Linkerd durations are different languages; the gap drops timeouts without a word. */
export const ruleTimeouts: Rule = {
  id: 'LKD-ROUTE-014',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED],
  doc: {
    title: 'rules[].timeouts are valid Gateway durations that Linkerd can read, with backendRequest <= request',
    why: 'The HTTPRoute CRD accepts compound durations such as `1m30s`, but Linkerd\'s parser takes one integer and one unit '
      + '(ms, s, m, h, d) and silently drops anything else, so the rule has no timeout at all. A backendRequest longer '
      + 'than a non-zero request timeout is rejected by the API server (a CEL rule of the Gateway API CRD; Linkerd\'s webhook '
      + 'checks timeouts only on policy.linkerd.io HTTPRoutes).',
    fix: 'Write each timeout as one number and one unit (`90s`, `1500ms`, `2m`), and keep backendRequest <= request.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs convert_gateway_rule (parse_duration(..).ok() drops '
      + 'what it cannot read); policy-controller/k8s/index/src/outbound/index.rs parse_duration; Gateway API v1.2.1 HTTPRoute '
      + 'CRD CEL rule (backendRequest <= a non-zero request)',
    badExample: 'rules:\n- timeouts:\n    request: 1m30s\n  backendRefs: [{name: orders-v1, port: 8080}]',
    goodExample: 'rules:\n- timeouts:\n    request: 90s\n  backendRefs: [{name: orders-v1, port: 8080}]',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      if (!isGatewayHttpRoute(route)) continue;
      const list = rules(route);
      for (let r = 0; r < list.length; r++) {
        if (isRecord(list[r]?.timeouts)) checkRule(ctx, route, list[r].timeouts, r);
      }
    }
  },
};
