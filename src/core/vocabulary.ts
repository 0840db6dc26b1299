/**
 * Linkerd's and Gateway API's vocabulary that constructs, the model and the rules all use: API groups, the label and
 * annotation keys Linkerd reads (named after linkerd2 `pkg/k8s/labels.go` at version-2.20, whose constants are
 * generated into linkerd-annotations.generated.ts; the keys below that labels.go lacks cite where Linkerd reads them),
 * the keys this library writes for its own checks, and the chart defaults several layers share.
 *
 * The one home for these keys: test/vocabulary.test.ts rejects a `config.linkerd.io/…` key literal anywhere else.
 */
import { LABELS_GO } from './linkerd-annotations.generated';

export const GATEWAY_GROUP = 'gateway.networking.k8s.io';
export const POLICY_GROUP = 'policy.linkerd.io';
/** The API group of ExternalWorkload. */
export const WORKLOAD_GROUP = 'workload.linkerd.io';
export const SERVICE_PROFILE_GROUP = 'linkerd.io';

// ---------------------------------------------------------------------------------------------------------------
// Keys of labels.go, by what they are used for here.

export const INJECT_ANNOTATION = LABELS_GO.ProxyInjectAnnotation;
export const DEFAULT_POLICY_ANNOTATION = LABELS_GO.ProxyDefaultInboundPolicyAnnotation;
export const OPAQUE_PORTS_ANNOTATION = LABELS_GO.ProxyOpaquePortsAnnotation;
export const SKIP_INBOUND_PORTS_ANNOTATION = LABELS_GO.ProxyIgnoreInboundPortsAnnotation;
export const SKIP_OUTBOUND_PORTS_ANNOTATION = LABELS_GO.ProxyIgnoreOutboundPortsAnnotation;
export const REQUIRE_IDENTITY_PORTS_ANNOTATION = LABELS_GO.ProxyRequireIdentityOnInboundPortsAnnotation;
export const NATIVE_SIDECAR_ANNOTATION = LABELS_GO.ProxyEnableNativeSidecarAnnotation;
export const ADMIN_SHUTDOWN_ANNOTATION = LABELS_GO.ProxyAdminShutdownAnnotation;
export const PROXY_UID_ANNOTATION = LABELS_GO.ProxyUIDAnnotation;
/** `config.linkerd.io/proxy-version`: the proxy version the injector uses for a pod or namespace. */
export const PROXY_VERSION_ANNOTATION = LABELS_GO.ProxyVersionOverrideAnnotation;
export const ADMIN_PORT_ANNOTATION = LABELS_GO.ProxyAdminPortAnnotation;
export const INBOUND_PORT_ANNOTATION = LABELS_GO.ProxyInboundPortAnnotation;
export const OUTBOUND_PORT_ANNOTATION = LABELS_GO.ProxyOutboundPortAnnotation;
export const CONTROL_PORT_ANNOTATION = LABELS_GO.ProxyControlPortAnnotation;

/**
 * config.linkerd.io/admission-webhooks is no labels.go constant: the chart's webhook namespaceSelector matches it as a
 * Namespace LABEL (charts/linkerd-control-plane/values.yaml proxyInjector/profileValidator/policyValidator.namespaceSelector).
 */
export const ADMISSION_WEBHOOKS_LABEL = 'config.linkerd.io/admission-webhooks';

/**
 * config.linkerd.io keys that existed in earlier linkerd2 releases and are gone from 2.20's labels.go (found with
 * `git log -S` on pkg/k8s/labels.go), with what to do instead.
 */
export const REMOVED_KEYS: Readonly<Record<string, string>> = {
  'config.linkerd.io/init-image': 'proxy-init ships inside the proxy image since 2.20 (removed from labels.go in 0e9a38d7d); remove it',
  'config.linkerd.io/init-image-version': 'proxy-init ships inside the proxy image since 2.20 (removed from labels.go in 0e9a38d7d); remove it',
  'config.linkerd.io/disable-identity': 'identity can no longer be disabled (removed in 68b63269d); remove it',
  'config.linkerd.io/disable-tap': 'tap moved to the viz extension: use viz.linkerd.io/disable-tap',
  'config.linkerd.io/trace-collector': 'the proxy tracing annotations were removed (cdc57d1af); configure tracing in the chart values (proxy.tracing)',
  'config.alpha.linkerd.io/trace-collector-service-account': 'the proxy tracing annotations were removed (cdc57d1af); configure tracing in the chart values (proxy.tracing)',
};

// ---------------------------------------------------------------------------------------------------------------
// Route and Service annotations the policy controller reads (policy-controller/k8s/index/src/outbound/index.rs
// parse_retry_annotations / parse_timeouts): not labels.go constants.

export const RETRY_HTTP_ANNOTATION = 'retry.linkerd.io/http';
export const RETRY_GRPC_ANNOTATION = 'retry.linkerd.io/grpc';
export const RETRY_LIMIT_ANNOTATION = 'retry.linkerd.io/limit';
export const RETRY_TIMEOUT_ANNOTATION = 'retry.linkerd.io/timeout';
export const TIMEOUT_REQUEST_ANNOTATION = 'timeout.linkerd.io/request';
export const TIMEOUT_RESPONSE_ANNOTATION = 'timeout.linkerd.io/response';
export const TIMEOUT_IDLE_ANNOTATION = 'timeout.linkerd.io/idle';

export const RETRY_ANNOTATIONS = [RETRY_HTTP_ANNOTATION, RETRY_GRPC_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION] as const;
export const TIMEOUT_ANNOTATIONS = [TIMEOUT_REQUEST_ANNOTATION, TIMEOUT_RESPONSE_ANNOTATION, TIMEOUT_IDLE_ANNOTATION] as const;

// ---------------------------------------------------------------------------------------------------------------
// Service and EgressNetwork load-balancer annotations (policy-controller/k8s/index/src/outbound/index.rs
// parse_accrual_config, parse_load_biaser_config; read by balancer-annotations.ts).

export const FAILURE_ACCRUAL = 'balancer.linkerd.io/failure-accrual';
const CONSECUTIVE = 'balancer.linkerd.io/failure-accrual-consecutive';
export const MAX_FAILURES = `${CONSECUTIVE}-max-failures`;
export const MAX_PENALTY = `${CONSECUTIVE}-max-penalty`;
export const MIN_PENALTY = `${CONSECUTIVE}-min-penalty`;
export const JITTER_RATIO = `${CONSECUTIVE}-jitter-ratio`;
/** The prefix of the success-rate keys (`success_rate_key!` in index.rs). */
export const SUCCESS_RATE_PREFIX = 'balancer.alpha.linkerd.io/failure-accrual-success-rate';
export const SUCCESS_RATE_THRESHOLD = `${SUCCESS_RATE_PREFIX}-threshold`;
export const SUCCESS_RATE_WINDOW = `${SUCCESS_RATE_PREFIX}-window`;
export const SUCCESS_RATE_MIN_REQUESTS = `${SUCCESS_RATE_PREFIX}-min-requests`;
export const PENALIZE_FAILURES = 'balancer.alpha.linkerd.io/penalize-failures';
export const LOAD_BIASER_PENALTY = 'balancer.alpha.linkerd.io/load-biaser-penalty';
export const LOAD_BIASER_MAX_RETRY_AFTER = 'balancer.alpha.linkerd.io/load-biaser-max-retry-after';
export const HONOR_RETRY_AFTER = 'balancer.alpha.linkerd.io/failure-accrual-honor-retry-after';

/** Every key of the two balancer families that Linkerd 2.20 reads. */
export const BALANCER_KEYS: readonly string[] = [
  FAILURE_ACCRUAL, MAX_FAILURES, MAX_PENALTY, MIN_PENALTY, JITTER_RATIO, SUCCESS_RATE_THRESHOLD, SUCCESS_RATE_WINDOW,
  SUCCESS_RATE_MIN_REQUESTS, PENALIZE_FAILURES, LOAD_BIASER_PENALTY, LOAD_BIASER_MAX_RETRY_AFTER, HONOR_RETRY_AFTER,
];

// ---------------------------------------------------------------------------------------------------------------
// Annotation keys this library writes for its own checks (shared by constructs and the engine).

/**
 * On a workload: the Services it calls, as `service[.namespace]:port` entries separated by commas. The engine proves
 * each call is allowed by the mesh's inbound policy (LKD-POL-013), so a default-deny rollout cannot cut a declared
 * dependency unnoticed.
 */
export const CALLS_ANNOTATION = 'analysis.cdk8s-linkerd.io/calls';

/**
 * On a workload: the Service ports (and requests) the mesh must refuse it, in the grammar of CALLS_ANNOTATION. The
 * engine proves each refusal against the inbound policy (LKD-POL-026), so a release gate can rely on the wrong identity
 * and the plaintext client being refused by the target's proxy.
 */
export const REFUSED_CALLS_ANNOTATION = 'analysis.cdk8s-linkerd.io/refused-calls';

/** On any object: a JSON list of `{"ruleId": "LKD-…", "reason": "…"}`, the findings of those rules on it suppressed. */
export const SUPPRESS_ANNOTATION = 'analysis.cdk8s-linkerd.io/suppress';

/**
 * On any object, one per rule: `ignore-check.cdk8s-linkerd.io/<RULE-ID>: "<reason>"` suppresses that rule's findings on
 * it, as kube-linter's `ignore-check.kube-linter.io/<check>` does.
 */
export const IGNORE_CHECK_ANNOTATION_PREFIX = 'ignore-check.cdk8s-linkerd.io/';

// ---------------------------------------------------------------------------------------------------------------
// Chart defaults (charts/linkerd-control-plane/values.yaml at version-2.20).

/** The chart's `proxy.opaquePorts`. */
export const CHART_OPAQUE_PORTS = '25,587,3306,4444,5432,6379,9300,11211';
/** The chart's `policyController.probeNetworks`. */
export const CHART_PROBE_NETWORKS = ['0.0.0.0/0', '::/0'];
/** The chart's `egress.globalEgressNetworkNamespace`. */
export const CHART_GLOBAL_EGRESS_NAMESPACE = 'linkerd-egress';
/** The chart's `proxy.ports`: the proxy's own ports on every injected pod unless an annotation moves them. */
export const CHART_PROXY_PORTS = { admin: 4191, control: 4190, inbound: 4143, outbound: 4140 } as const;
/** The chart's `proxy.uid`: the user the proxy runs as. */
export const CHART_PROXY_UID = 2102;
