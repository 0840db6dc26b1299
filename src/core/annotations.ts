/** Annotation keys this library writes for its own checks (shared by constructs and the engine). */

/**
 * On a workload: the Services it calls, as `service[.namespace]:port` entries separated by commas. The engine proves
 * each call is allowed by the mesh's inbound policy (LKD-POL-013), so a default-deny rollout cannot cut a declared
 * dependency unnoticed.
 */
export const CALLS_ANNOTATION = 'analysis.cdk8s-linkerd.io/calls';
