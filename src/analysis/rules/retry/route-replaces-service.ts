import { RetryParent, describeKeys, presentKeys, retryBlockKeys, retryKeysOf, retryParents, ruleHasOwnTimeout, ruleIndexes } from './retry-config';
import { TIMEOUT_ANNOTATIONS } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { allRoutes } from '../../model/routes/lists';
import { Rule, RuleArea, RuleContext } from '../../rule';

function checkRetries(ctx: RuleContext, route: IndexedObject, parent: RetryParent, service: IndexedObject): void {
  const kindKeys = retryKeysOf(route);
  const own = retryBlockKeys(route, kindKeys);
  if (own.length === 0) return;
  const lost = retryBlockKeys(service, kindKeys).filter((k) => !own.includes(k));
  if (lost.length === 0) return;
  ctx.report(route, `the route sets ${own.join(', ')}, so Linkerd uses only the route's retry settings: the ${service.id.kind}'s `
    + `${describeKeys(service, lost)} (${parent.label}) no longer applies to this route. `
    + 'Repeat those annotations on the route if they should still hold.');
}

function checkTimeouts(ctx: RuleContext, route: IndexedObject, parent: RetryParent, service: IndexedObject): void {
  const serviceKeys = presentKeys(service, TIMEOUT_ANNOTATIONS);
  if (serviceKeys.length === 0) return;
  const own = presentKeys(route, TIMEOUT_ANNOTATIONS);
  const lost = serviceKeys.filter((k) => !own.includes(k));
  if (lost.length === 0) return;
  const affected = ruleIndexes(route).filter((r) => ruleHasOwnTimeout(route, r));
  if (affected.length === 0) return;
  const where = own.length > 0 ? `the route sets ${own.join(', ')}` : `rules[${affected.join('], rules[')}] set timeouts.request`;
  ctx.report(route, `${where}, so Linkerd ignores every timeout of the ${service.id.kind} for ${own.length > 0 ? 'this route' : 'those rules'}: `
    + `${describeKeys(service, lost)} (${parent.label}) no longer applies. Repeat it on the route if it should still hold.`);
}

/** Route-level settings replace the Service's as a block; users expect a per-key merge. */
export const routeReplacesService: Rule = {
  id: 'LKD-RETRY-005',
  area: RuleArea.RETRY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: whether the author meant the route to replace the Service\'s settings entirely (policy-'
      + 'controller/grpc/src/outbound/http.rs convert_outbound_route does exactly that).',
    title: 'Route retry/timeout settings replace the Service\'s entirely (no per-key merge)',
    why: 'If a route has any retry annotation of its kind, Linkerd uses the route\'s retry settings and none of the '
      + 'Service\'s (or EgressNetwork\'s); if a rule ends up with any timeout, all the parent\'s timeouts are ignored for it. Setting only '
      + '`retry.linkerd.io/limit` on the route silently drops the Service\'s `retry.linkerd.io/http` conditions and timeout.',
    fix: 'Repeat on the route every Service retry/timeout annotation that should still apply, or move all of them to one place.',
    linkerdSource: 'policy-controller/grpc/src/outbound/http.rs convert_outbound_route (the Service\'s timeouts only when the '
      + 'rule\'s are default, the Service\'s retry only when the route has none)',
    badExample: 'kind: Service\nmetadata:\n  annotations: {retry.linkerd.io/http: 5xx, retry.linkerd.io/timeout: 300ms}\n---\n'
      + 'kind: HTTPRoute\nmetadata:\n  annotations: {retry.linkerd.io/limit: "3"}',
    goodExample: 'kind: HTTPRoute\nmetadata:\n  annotations: {retry.linkerd.io/http: 5xx, retry.linkerd.io/timeout: 300ms, retry.linkerd.io/limit: "3"}',
  },
  check(ctx) {
    for (const route of allRoutes(ctx.index)) {
      for (const parent of retryParents(route, ctx.index)) {
        if (!parent.object) continue;
        checkRetries(ctx, route, parent, parent.object);
        checkTimeouts(ctx, route, parent, parent.object);
      }
    }
  },
};
