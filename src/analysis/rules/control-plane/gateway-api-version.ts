import { LinkerdVersion } from '../../../core/versions';
import { Severity } from '../../finding';
import { linkerdInstalls } from '../../model/installs';
import { everyRoute } from '../../model/routes/lists';
import { Rule, RuleArea } from '../../rule';

/**
 * The control plane's side of the Gateway API range. LKD-ROUTE-016 already reports an unsupported bundle on the
 * output's first route, so this rule speaks only for outputs that install Linkerd and have no routes.
 */
export const controlPlaneGatewayApi: Rule = {
  id: 'LKD-CP-005',
  area: RuleArea.CONTROL_PLANE,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Rejected: cli/cmd/install.go checkGatewayAPICRDs refuses a bundle without the v1 routes, and the policy '
      + 'controller cannot read routes of a bundle outside the range it is built for.',
    title: 'A Linkerd install targets a cluster whose Gateway API bundle is v1.2.1 to v1.5.1',
    why: 'Linkerd does not install the Gateway API (installGatewayAPI is false) but its policy controller reads HTTPRoute and GRPCRoute '
      + 'v1. v1.2.1 to v1.5.1 is the range Linkerd documents for 2.20: older bundles lack what 2.20 expects (`linkerd install` '
      + 'itself refuses only HTTPRoute or GRPCRoute CRDs without v1, i.e. before v1.1), and newer than v1.5.1 is untested. '
      + 'Routes created later are then ignored or rejected.',
    fix: 'Install Gateway API v1.2.1 (standard channel, recommended) before Linkerd and declare it as gatewayApiVersion.',
    linkerdSource: 'cli/cmd/install.go checkGatewayAPICRDs, crdIncludesV1, validateFinalValues (refuses only '
      + 'HTTPRoute/GRPCRoute CRDs without v1); charts/linkerd-crds/values.yaml installGatewayAPI: false; the '
      + 'v1.2.1-v1.5.1 range is Linkerd\'s documented compatibility table, not code',
    badExample: '# MeshChecks.of(app).configure({ gatewayApiVersion: "v1.6.1" }), or --gateway-api-version v1.6.1\nkind: Application\nmetadata: {name: linkerd-control-plane}',
    goodExample: '# MeshChecks.of(app).configure({ gatewayApiVersion: "v1.2.1" })\nkind: Application\nmetadata: {name: linkerd-control-plane}',
  },
  check(ctx) {
    const release = LinkerdVersion.V2_20;
    const declared = ctx.context.gatewayApiVersion;
    if (release.supportsGatewayApi(declared) || everyRoute(ctx.index).length > 0) return;
    const install = linkerdInstalls(ctx.index)[0];
    if (!install) return;
    ctx.report(install.subject, `the target cluster's Gateway API bundle is ${JSON.stringify(declared)}, outside the `
      + `${release.gatewayApiMinVersion}–${release.gatewayApiMaxVersion} range Linkerd ${release.appVersion} supports.`);
  },
};
