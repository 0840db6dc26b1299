/**
 * The API groups this library knows and the kinds (and, for Linkerd's groups, the versions) their CRDs serve, so an
 * object of one of these groups with a kind or version that no CRD serves is an error (LKD-MESH-012) instead of being
 * passed over silently: `kubectl apply` refuses it ("no matches for kind"), and no check here applies to it.
 *
 * Linkerd: the served versions of the CRDs Linkerd 2.20 installs, from linkerd2 `version-2.20`
 * charts/linkerd-crds/templates/{policy/*,serviceprofile.yaml,workload/external-workload.yaml} and
 * multicluster/charts/linkerd-multicluster/templates/link-crd.yaml (test/core/served-kinds.test.ts compares this table
 * with those CRDs). Versions are listed oldest first; the last is the one to write.
 *
 * Gateway API: the kinds of the v1.2.1 standard and experimental channels and of the later bundles Linkerd 2.20 supports
 * (up to v1.5.1). Only kinds are checked there: the served versions depend on the installed bundle and channel, and
 * LKD-ROUTE-016 checks the route versions against it.
 */

export const LINKERD_SERVED_VERSIONS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'policy.linkerd.io': {
    AuthorizationPolicy: ['v1alpha1'],
    EgressNetwork: ['v1alpha1'],
    HTTPLocalRateLimitPolicy: ['v1alpha1'],
    HTTPRoute: ['v1alpha1', 'v1beta1', 'v1beta2', 'v1beta3'],
    MeshTLSAuthentication: ['v1alpha1'],
    NetworkAuthentication: ['v1alpha1'],
    Server: ['v1alpha1', 'v1beta1', 'v1beta2', 'v1beta3'],
    ServerAuthorization: ['v1alpha1', 'v1beta1'],
  },
  'linkerd.io': {
    ServiceProfile: ['v1alpha1', 'v1alpha2'],
  },
  'workload.linkerd.io': {
    ExternalWorkload: ['v1alpha1', 'v1beta1'],
  },
  'multicluster.linkerd.io': {
    Link: ['v1alpha1', 'v1alpha2', 'v1alpha3'],
  },
};

export const GATEWAY_API_GROUP = 'gateway.networking.k8s.io';

/** Kinds of gateway.networking.k8s.io in the Gateway API bundles v1.2.1–v1.5.1 (standard and experimental). */
export const GATEWAY_API_KINDS: readonly string[] = [
  'BackendLBPolicy', 'BackendTLSPolicy', 'BackendTrafficPolicy', 'GRPCRoute', 'Gateway', 'GatewayClass', 'HTTPRoute', 'ListenerSet',
  'ReferenceGrant', 'TCPRoute', 'TLSRoute', 'UDPRoute',
];

/** Every group named above. */
export function knownApiGroups(): string[] {
  return [...Object.keys(LINKERD_SERVED_VERSIONS), GATEWAY_API_GROUP];
}

const KINDS_BY_GROUP = new Map<string, readonly string[]>([
  ...Object.entries(LINKERD_SERVED_VERSIONS).map(([group, kinds]) => [group, Object.keys(kinds)] as [string, string[]]),
  [GATEWAY_API_GROUP, GATEWAY_API_KINDS],
]);

/** The kinds of a known group, or undefined for a group this library does not know. */
export function kindsOfGroup(group: string): readonly string[] | undefined {
  return KINDS_BY_GROUP.get(group);
}

/** Served versions of a kind, or undefined when they are not pinned here (Gateway API, unknown kinds). */
export function servedVersions(group: string, kind: string): readonly string[] | undefined {
  const kinds = LINKERD_SERVED_VERSIONS[group];
  return kinds && Object.prototype.hasOwnProperty.call(kinds, kind) ? kinds[kind] : undefined;
}
