import { POLICY_GROUP } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { Rule, RuleArea } from '../../rule';

const SERVER_CURRENT = 'policy.linkerd.io/v1beta3';
const POLICY_ROUTE_CURRENT = 'policy.linkerd.io/v1beta3';

/**
 * The versions the linkerd-crds chart of 2.20 marks `deprecated: true` (kubectl prints their deprecationWarning on apply);
 * the other legacy versions are served without a flag, merely superseded. A test reads the CRDs to keep this true.
 */
export const CRD_DEPRECATED_VERSIONS: Readonly<Record<string, readonly string[]>> = {
  'servers.policy.linkerd.io': ['v1alpha1', 'v1beta1'],
  'serverauthorizations.policy.linkerd.io': ['v1alpha1'],
  'httproutes.policy.linkerd.io': [],
};

function deprecatedByCrd(plural: string, apiVersion: string): boolean {
  return (CRD_DEPRECATED_VERSIONS[plural] ?? []).includes(apiVersion.slice(apiVersion.indexOf('/') + 1));
}

/** Kinds and versions Linkerd 2.20 still serves but that are superseded. */
export const legacyKindsRule: Rule = {
  id: 'LKD-POL-015',
  area: RuleArea.POLICY,
  severity: Severity.INFO,
  doc: {
    certainty: 'Deprecated: Linkerd 2.20 still serves and reads these kinds and versions (server_authorization.rs '
      + 'ServerAuthz::from_resource); the 2.20 CRDs flag Server v1alpha1 and v1beta1 and ServerAuthorization v1alpha1'
      + ' deprecated. An SMI TrafficSplit is info too: Linkerd\'s own guides (automatic-failover, multicluster) apply '
      + 'it with the linkerd-smi extension installed, and what it needs is that extension, outside the manifests.',
    title: 'No legacy policy kinds or versions (ServerAuthorization, old Server/HTTPRoute versions, ServiceProfile, SMI TrafficSplit)',
    why: 'ServerAuthorization is superseded by AuthorizationPolicy with MeshTLSAuthentication/NetworkAuthentication; Server '
      + 'before v1beta3 has no accessPolicy; policy.linkerd.io HTTPRoute before v1beta3 and ServiceProfile are legacy. A '
      + 'ServiceProfile with routes or dstOverrides for a Service also makes Linkerd ignore the HTTPRoutes on that Service. An SMI '
      + 'TrafficSplit (split.smi-spec.io) is read by no part of Linkerd itself since 2.11: only the separate linkerd-smi '
      + 'extension installs its CRD and acts on it, so without it the apply fails and no traffic is split.',
    fix: 'Move to Server policy.linkerd.io/v1beta3, AuthorizationPolicy, and Gateway API HTTPRoute/GRPCRoute (weighted '
      + 'backendRefs for a split).',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/server_authorization.rs ServerAuthz::from_resource (legacy, still '
      + 'read); controller/api/destination/server.go (s *server) GetProfile, which serves service profiles; CHANGES.md '
      + '(stable-2.11: "the linkerd-smi extension is now required to use TrafficSplit")',
    badExample: 'apiVersion: policy.linkerd.io/v1beta1\nkind: ServerAuthorization',
    goodExample: 'apiVersion: policy.linkerd.io/v1alpha1\nkind: AuthorizationPolicy',
  },
  check(ctx) {
    for (const authz of ctx.index.own(POLICY_GROUP, 'ServerAuthorization')) {
      const flag = deprecatedByCrd('serverauthorizations.policy.linkerd.io', authz.id.apiVersion)
        ? ` (${authz.id.apiVersion} is marked deprecated in the 2.20 CRD)` : '';
      ctx.report(authz, `ServerAuthorization is legacy${flag}; express it as an AuthorizationPolicy targeting the Server with a `
        + 'MeshTLSAuthentication and/or NetworkAuthentication.');
    }
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      if (server.id.apiVersion !== SERVER_CURRENT) {
        const how = deprecatedByCrd('servers.policy.linkerd.io', server.id.apiVersion) ? 'the deprecated (by the 2.20 CRD)' : 'the older';
        ctx.report(server, `Server uses ${how} ${server.id.apiVersion}; use ${SERVER_CURRENT}, which adds accessPolicy (default deny).`);
      }
    }
    for (const route of ctx.index.own(POLICY_GROUP, 'HTTPRoute')) {
      if (route.id.apiVersion !== POLICY_ROUTE_CURRENT) {
        ctx.report(route, `HTTPRoute uses ${route.id.apiVersion}; use ${POLICY_ROUTE_CURRENT} or gateway.networking.k8s.io/v1.`);
      }
    }
    for (const split of ctx.index.own('split.smi-spec.io', 'TrafficSplit')) {
      ctx.report(split, 'TrafficSplit (SMI) is read by no part of Linkerd 2.20 itself: only the separate linkerd-smi extension installs '
        + 'its CRD and acts on it. Without that extension the apply fails; express the split as an HTTPRoute with weighted backendRefs '
        + '(the TrafficSplit construct writes one).');
    }
    for (const profile of ctx.index.own('linkerd.io', 'ServiceProfile')) {
      ctx.report(profile, 'ServiceProfile is the legacy way to configure routes, retries and timeouts; use HTTPRoute/GRPCRoute with '
        + 'retry.linkerd.io/* and timeout.linkerd.io/* annotations (while it exists it overrides routes on its Service, see LKD-ROUTE-019).');
    }
  },
};
