import {
  RequestTimeout, RetrySettings, effectiveRetry, presentKeys, requestTimeoutFor, retryAnnotated, retrySettingsOf, ruleIndexes,
} from './retry-config';
import { formatDuration } from '../../../core/duration-format';
import { parseLinkerdDuration } from '../../../core/linkerd-grammar';
import {
  RETRY_GRPC_ANNOTATION, RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION, TIMEOUT_REQUEST_ANNOTATION,
} from '../../../core/vocabulary';
import { objectLabel } from '../../../util/labels';
import { Severity } from '../../finding';
import { annotationOf } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { allRoutes } from '../../model/routes/lists';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** The problem with this retry/timeout pair, or undefined when every allowed attempt fits in the request timeout. */
function budgetProblem(settings: RetrySettings, request: RequestTimeout): string | undefined {
  const perTry = settings.timeoutMs;
  if (perTry === undefined || request.ms === 0) return undefined;
  const retry = `${RETRY_TIMEOUT_ANNOTATION} ${formatDuration(perTry)}`;
  const budget = `request timeout ${formatDuration(request.ms)} (${request.source})`;
  if (perTry >= request.ms) {
    return `${retry} is not shorter than the ${budget}: the request times out before an attempt does, so no retry is ever made`;
  }
  const attempts = settings.limit + 1;
  if (perTry * attempts <= request.ms) return undefined;
  const fit = Math.floor(request.ms / perTry);
  return `${retry} x ${attempts} attempts (limit ${settings.limit} + the first) = ${formatDuration(perTry * attempts)} exceeds the `
    + `${budget}: at most ${fit} attempt(s) fit, so the limit is never reached`;
}

function checkRoute(ctx: RuleContext, route: IndexedObject): void {
  const settings = effectiveRetry(route, ctx.index);
  if (!settings?.timeoutMs) return;
  const seen = new Set<string>();
  for (const r of ruleIndexes(route)) {
    const request = requestTimeoutFor(route, r, ctx.index);
    const problem = request && budgetProblem(settings, request);
    if (!problem || seen.has(problem)) continue;
    seen.add(problem);
    const from = settings.source === route ? '' : ` (retry settings inherited from ${objectLabel(settings.source)})`;
    ctx.report(route, `${problem}${from}. Lower the retry timeout or the limit, or raise the request timeout.`);
  }
}

const SERVICE_RETRY_KEYS = [RETRY_HTTP_ANNOTATION, RETRY_GRPC_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION];

/** A Service's or EgressNetwork's own pair: the outbound index reads both kinds' annotations alike. */
function checkParent(ctx: RuleContext, parent: IndexedObject): void {
  const keys = presentKeys(parent, SERVICE_RETRY_KEYS);
  // Most Services have no retry keys: skip them before parsing (and failing on) an absent request timeout.
  if (keys.length === 0) return;
  const request = parseLinkerdDuration(annotationOf(parent.object, TIMEOUT_REQUEST_ANNOTATION));
  if (!request.ok) return;
  const source = `${TIMEOUT_REQUEST_ANNOTATION} on the ${parent.id.kind}`;
  const problem = budgetProblem(retrySettingsOf(parent, keys), { ms: request.value, source });
  if (problem) ctx.report(parent, `${problem}. Lower the retry timeout or the limit, or raise the request timeout.`);
}

/** Retry timeouts and request timeouts are set separately; nothing checks that they fit together. */
export const retryBudget: Rule = {
  id: 'LKD-RETRY-003',
  area: RuleArea.RETRY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: how long the backend takes to answer; the attempts that get cut off are those that run long.',
    title: 'All retry attempts fit inside the request timeout',
    why: 'The request timeout bounds the whole call, retries included. If `retry.linkerd.io/timeout` is not shorter than '
      + 'the request timeout, the request expires before any attempt times out and nothing is retried; if timeout x '
      + '(limit + 1) exceeds it, the later attempts are cut off. Either way the configured retries are partly fiction.',
    fix: 'Choose retry timeout x (limit + 1) <= request timeout (leave room for the 25-250 ms backoff).',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs parse_http_retry (retry.linkerd.io/timeout, '
      + 'limit); policy-controller/k8s/index/src/outbound/index.rs parse_timeouts (timeout.linkerd.io/request), read alike on '
      + 'Services and EgressNetworks',
    badExample: 'annotations:\n  retry.linkerd.io/http: 5xx\n  retry.linkerd.io/limit: "3"\n  retry.linkerd.io/timeout: 2s\n  timeout.linkerd.io/request: 5s',
    goodExample: 'annotations:\n  retry.linkerd.io/http: 5xx\n  retry.linkerd.io/limit: "3"\n  retry.linkerd.io/timeout: 1s\n  timeout.linkerd.io/request: 5s',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) checkRoute(ctx, route);
    const annotated = retryAnnotated(ctx.index);
    for (const service of annotated.services) checkParent(ctx, service);
    for (const network of annotated.egressNetworks) checkParent(ctx, network);
  },
};
