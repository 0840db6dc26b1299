/**
 * Linkerd's and Gateway API's vocabulary that constructs, the model and the rules all use: API groups and the
 * annotation keys the proxy injector and the policy controller read (linkerd2 `pkg/k8s/labels.go` at version-2.20).
 */
export const GATEWAY_GROUP = 'gateway.networking.k8s.io';
export const POLICY_GROUP = 'policy.linkerd.io';
/** The API group of ExternalWorkload. */
export const WORKLOAD_GROUP = 'workload.linkerd.io';
export const SERVICE_PROFILE_GROUP = 'linkerd.io';
export const INJECT_ANNOTATION = 'linkerd.io/inject';
export const DEFAULT_POLICY_ANNOTATION = 'config.linkerd.io/default-inbound-policy';
export const OPAQUE_PORTS_ANNOTATION = 'config.linkerd.io/opaque-ports';
export const SKIP_INBOUND_PORTS_ANNOTATION = 'config.linkerd.io/skip-inbound-ports';
export const REQUIRE_IDENTITY_PORTS_ANNOTATION = 'config.linkerd.io/proxy-require-identity-inbound-ports';
/** The chart's `proxy.opaquePorts` (linkerd-control-plane values.yaml). */
export const CHART_OPAQUE_PORTS = '25,587,3306,4444,5432,6379,9300,11211';
/** The chart's `policyController.probeNetworks`. */
export const CHART_PROBE_NETWORKS = ['0.0.0.0/0', '::/0'];
/** The chart's `egress.globalEgressNetworkNamespace`. */
export const CHART_GLOBAL_EGRESS_NAMESPACE = 'linkerd-egress';
