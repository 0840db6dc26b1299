/** Annotation keys this library writes for its own checks (shared by constructs and the engine). */

/**
 * On a workload: the Services it calls, as `service[.namespace]:port` entries separated by commas. The engine proves
 * each call is allowed by the mesh's inbound policy (LKD-POL-013), so a default-deny rollout cannot cut a declared
 * dependency unnoticed.
 */
export const CALLS_ANNOTATION = 'analysis.cdk8s-linkerd.io/calls';

/** On any object: a JSON list of `{"ruleId": "LKD-…", "reason": "…"}`, the findings of those rules on it suppressed. */
export const SUPPRESS_ANNOTATION = 'analysis.cdk8s-linkerd.io/suppress';

/**
 * On any object, one per rule: `ignore-check.cdk8s-linkerd.io/<RULE-ID>: "<reason>"` suppresses that rule's findings on
 * it, as kube-linter's `ignore-check.kube-linter.io/<check>` does.
 */
export const IGNORE_CHECK_ANNOTATION_PREFIX = 'ignore-check.cdk8s-linkerd.io/';

/**
 * On a workload: the Service ports (and requests) the mesh must refuse it, in the grammar of CALLS_ANNOTATION. The
 * engine proves each refusal against the inbound policy (LKD-POL-026), so a release gate can rely on the wrong identity
 * and the plaintext client being refused by the target's proxy.
 */
export const REFUSED_CALLS_ANNOTATION = 'analysis.cdk8s-linkerd.io/refused-calls';
