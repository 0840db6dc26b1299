import { lookupTable } from '../../../core/own-keys';
import { VersionTriple, compareVersions, parseBundleVersion } from '../../../core/versions';
import { GATEWAY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { everyRoute } from '../../model/routes/lists';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** The Gateway API bundles Linkerd 2.20 supports (its docs: 1.2.1 recommended, up to 1.5.1). */
const LOWEST: VersionTriple = [1, 2, 1];
const HIGHEST: VersionTriple = [1, 5, 1];

/** Served API versions in the standard channel of every supported bundle. */
const SERVED = lookupTable<string[]>({
  HTTPRoute: [`${GATEWAY_GROUP}/v1`, `${GATEWAY_GROUP}/v1beta1`],
  GRPCRoute: [`${GATEWAY_GROUP}/v1`],
});

function checkBundle(ctx: RuleContext, routes: readonly IndexedObject[]): void {
  const declared = ctx.context.gatewayApiVersion;
  const version = parseBundleVersion(declared);
  if (version && compareVersions(version, LOWEST) >= 0 && compareVersions(version, HIGHEST) <= 0) return;
  const first = routes[0];
  if (!first) return;
  ctx.report(first, `the target cluster's Gateway API bundle is "${declared}", outside the v1.2.1-v1.5.1 range Linkerd 2.20 supports; `
    + `none of the ${routes.length} route(s) in this output can be relied on. Install Gateway API v1.2.1 (recommended) or set gatewayApiVersion.`);
}

function checkApiVersion(ctx: RuleContext, route: IndexedObject): void {
  if (route.group !== GATEWAY_GROUP) return;
  const served = SERVED[route.id.kind];
  if (served && !served.includes(route.id.apiVersion)) {
    ctx.report(route, `apiVersion ${route.id.apiVersion} is not served by the standard Gateway API v1.2.1-v1.5.1 CRDs; use ${served[0]}.`, { effect: FindingEffect.REJECTED });
  } else if (!served) {
    ctx.report(route, `${route.id.kind} exists only in the experimental Gateway API channel (the recommended v1.2.1 standard install `
      + 'does not have it); make sure the cluster installs the experimental CRDs, or the apply fails.', { severity: Severity.WARNING });
  }
}

/** Routes are only as good as the CRD bundle the cluster actually has. */
export const gatewayApiVersion: Rule = {
  id: 'LKD-ROUTE-016',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED],
  doc: {
    certainty: 'Rejected: cli/cmd/install.go checkGatewayAPICRDs and the API server refuse routes of a version the bundle '
      + 'does not serve. A kind only the experimental channel serves is a warning: which channel is installed is '
      + 'outside the manifests.',
    title: 'The declared Gateway API bundle is v1.2.1-v1.5.1 and serves every route kind and version emitted',
    why: 'Linkerd 2.20 works with Gateway API v1.2.1 through v1.5.1 and needs the v1 HTTPRoute and GRPCRoute. `linkerd install` '
      + 'refuses a bundle whose HTTPRoute or GRPCRoute CRD lacks v1 (before v1.1; v1.1.x is outside the documented range '
      + 'but not refused by code), newer ones add fields Linkerd ignores routes for. GRPCRoute v1alpha2 '
      + 'is not served by the standard channel; TLSRoute and TCPRoute exist only in the experimental channel.',
    fix: 'Install Gateway API v1.2.1 (standard), declare it as gatewayApiVersion, and emit HTTPRoute/GRPCRoute at gateway.networking.k8s.io/v1.',
    linkerdSource: 'cli/cmd/install.go checkGatewayAPICRDs, crdIncludesV1 (refuses HTTPRoute/GRPCRoute CRDs without v1); the '
      + 'v1.2.1-v1.5.1 range is Linkerd\'s documented compatibility table, not code',
    badExample: 'apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: GRPCRoute',
    goodExample: 'apiVersion: gateway.networking.k8s.io/v1\nkind: GRPCRoute',
  },
  check(ctx) {
    const routes = everyRoute(ctx.index);
    checkBundle(ctx, routes);
    for (const route of routes) checkApiVersion(ctx, route);
  },
};
