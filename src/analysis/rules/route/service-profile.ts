import { RETRY_ANNOTATIONS, TIMEOUT_ANNOTATIONS, SERVICE_PROFILE_GROUP } from '../../../core/vocabulary';
import { pushTo } from '../../../util/json';
import { objectLabel } from '../../../util/labels';
import { FindingEffect, Severity } from '../../finding';
import { hasAnnotation } from '../../model/manifest';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { allRoutes } from '../../model/routes/lists';
import { serviceParents } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

/**
 * `orders.shop.svc.cluster.local` → `shop/orders`. The destination controller looks profiles up by the full name with
 * the cluster domain (controller/api/destination/server.go profileID), so `orders.shop.svc` alone names no Service;
 * which domain the cluster has is not in the manifests, so any domain counts.
 */
function profiledService(profile: IndexedObject): string | undefined {
  const m = /^([^.]+)\.([^.]+)\.svc\.[^.]/.exec(profile.id.name);
  return m ? `${m[2]}/${m[1]}` : undefined;
}

/**
 * A profile takes over from the policy controller's routes only when it has routes or dstOverrides (linkerd2-proxy
 * v2.359.0, the proxy of Linkerd 2.20: service-profiles `Profile::has_routes_or_targets`, outbound
 * `should_override_policy`): an empty one changes nothing.
 */
function overridesPolicy(profile: IndexedObject): boolean {
  const spec = profile.object.spec;
  const nonEmpty = (v: unknown) => Array.isArray(v) && v.length > 0;
  return typeof spec === 'object' && spec !== null && (nonEmpty(spec.routes) || nonEmpty(spec.dstOverrides));
}

function profilesByService(index: MeshIndex): Map<string, IndexedObject[]> {
  const byService = new Map<string, IndexedObject[]>();
  for (const profile of index.list(SERVICE_PROFILE_GROUP, 'ServiceProfile')) {
    if (!overridesPolicy(profile)) continue;
    const service = profiledService(profile);
    if (service) pushTo(byService, service, profile);
  }
  return byService;
}

/** A profile in the Service's namespace applies to every client; elsewhere only to clients in its own namespace. */
function severityFor(profile: IndexedObject, serviceNamespace: string): Severity {
  return profile.id.namespace === serviceNamespace ? Severity.ERROR : Severity.WARNING;
}

function describeProfile(profile: IndexedObject, serviceNamespace: string): string {
  const scope = profile.id.namespace === serviceNamespace ? 'every client' : `clients in namespace "${profile.id.namespace ?? ''}"`;
  return `${objectLabel(profile)} (applies to ${scope})`;
}

function checkRoutes(ctx: RuleContext, byService: Map<string, IndexedObject[]>): void {
  for (const route of allRoutes(ctx.index)) {
    for (const parent of serviceParents(route, ctx.index)) {
      for (const profile of byService.get(`${parent.namespace}/${parent.name}`) ?? []) {
        ctx.report(route, `parentRefs[${parent.position}] is Service ${parent.namespace}/${parent.name}, which also has `
          + `${describeProfile(profile, parent.namespace)}; the ServiceProfile wins and proxies ignore this route's routing, retries and timeouts.`,
        { effect: FindingEffect.IGNORED, severity: severityFor(profile, parent.namespace) });
      }
    }
  }
}

const RETRY_OR_TIMEOUT_KEYS = [...RETRY_ANNOTATIONS, ...TIMEOUT_ANNOTATIONS];

function checkServices(ctx: RuleContext, byService: Map<string, IndexedObject[]>): void {
  for (const service of ctx.index.own('', 'Service')) {
    const keys = RETRY_OR_TIMEOUT_KEYS.filter((k) => hasAnnotation(service.object, k));
    if (keys.length === 0) continue;
    const namespace = service.id.namespace ?? '';
    for (const profile of byService.get(`${namespace}/${service.id.name}`) ?? []) {
      ctx.report(service, `annotations ${keys.join(', ')} have no effect while ${describeProfile(profile, namespace)} exists: `
        + 'the profile\'s retries and timeouts are used instead.', { severity: severityFor(profile, namespace) });
    }
  }
}

/** ServiceProfiles predate Gateway API routes and silently take precedence over them. */
export const serviceProfileWins: Rule = {
  id: 'LKD-ROUTE-019',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Ignored: with a ServiceProfile the destination controller serves the profile '
      + '(controller/api/destination/server.go GetProfile) and the proxy ignores the routes.',
    title: 'No ServiceProfile exists for a Service that has routes or retry/timeout annotations',
    why: 'When a ServiceProfile (linkerd.io/v1alpha2, named <service>.<namespace>.svc.<cluster-domain>) with routes or '
      + 'dstOverrides exists for a Service, proxies use it and ignore HTTPRoute/GRPCRoute routing, retries and timeouts, '
      + 'including retry.linkerd.io/* and timeout.linkerd.io/* annotations (on opaque traffic only its dstOverrides take over). '
      + 'A profile with neither leaves the policy controller\'s routes in force. Nothing reports the conflict (linkerd/website#1608).',
    fix: 'Delete the ServiceProfile (move its retries/timeouts to annotations on the Service or route), or drop the routes.',
    linkerdSource: 'controller/api/destination/server.go (s *server) GetProfile, (s *server) subscribeToServiceProfile; '
      + 'controller/api/destination/profile_translator.go (pt *profileTranslator) createDestinationProfile, toDstOverrides; '
      + 'the choice is made by linkerd2-proxy release/v2.359.0 (the proxy of version-2.20, .proxy-version), not in this '
      + 'repository: Profile::has_routes_or_targets and should_override_policy in the outbound HTTP stack',
    badExample: 'apiVersion: linkerd.io/v1alpha2\nkind: ServiceProfile\nmetadata: {name: orders.shop.svc.cluster.local, namespace: shop}\n'
      + 'spec:\n  routes:\n  - {name: GET /orders, condition: {method: GET, pathRegex: /orders}}\n---\n'
      + 'kind: HTTPRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, namespace: shop, port: 8080}]}',
    goodExample: 'kind: HTTPRoute\nspec: {parentRefs: [{group: core, kind: Service, name: orders, namespace: shop, port: 8080}]}',
  },
  check(ctx) {
    const byService = profilesByService(ctx.index);
    if (byService.size === 0) return;
    checkRoutes(ctx, byService);
    checkServices(ctx, byService);
  },
};
