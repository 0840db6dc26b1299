/**
 * The default inbound policy of a pod port no Server claims: linkerd2 policy-controller/k8s/index/src/defaults.rs (the
 * policies), inbound/workload.rs `Settings::from_metadata` (the pod's annotations) and inbound/index.rs
 * `default_inbound_server` (required identity on listed ports).
 */
import { controllerPortSet, portListHas } from '../../../core/port-lists';
import { REQUIRE_IDENTITY_PORTS_ANNOTATION, DEFAULT_POLICY_ANNOTATION } from '../../../core/vocabulary';
import { AnalysisContext, DEFAULT_INBOUND_POLICIES } from '../../options';
import { annotationOf, textOf } from '../manifest';
import { MeshIndex, PodTemplate } from '../mesh-index';
import { workloadLabel } from '../pod-templates';
import { podOrNamespaceAnnotation } from '../proxy-settings';

export type PolicySource = 'pod' | 'namespace' | 'cluster';

export interface EffectiveDefault {
  readonly policy: string;
  readonly source: PolicySource;
  /** Where the value came from, in words, for messages. */
  readonly origin: string;
}

export function isKnownDefaultPolicy(value: unknown): boolean {
  return typeof value === 'string' && (DEFAULT_INBOUND_POLICIES as readonly string[]).includes(value);
}

/**
 * The default inbound policy of an injected pod, resolved the way Linkerd does it:
 * - the proxy injector copies a namespace's `config.linkerd.io/default-inbound-policy` onto pods that do not set it
 *   (linkerd2 controller/proxy-injector/webhook.go, pkg/inject `AppendNamespaceAnnotations`);
 * - the policy controller reads the pod's annotation only (k8s/index/src/inbound/workload.rs `Settings::from_metadata`):
 *   an unparseable value is logged and dropped, so the cluster default applies, not the namespace's;
 * - otherwise the controller's `--default-policy` (chart value `proxy.defaultInboundPolicy`).
 */
export function effectiveDefaultPolicy(index: MeshIndex, pod: PodTemplate, context: AnalysisContext): EffectiveDefault {
  const cluster = (why: string): EffectiveDefault => ({ policy: context.defaultInboundPolicy, source: 'cluster', origin: `the cluster default (chart value proxy.defaultInboundPolicy)${why}` });
  const own = textOf(pod.annotations, DEFAULT_POLICY_ANNOTATION);
  if (own !== undefined) {
    if (isKnownDefaultPolicy(own)) {
      return { policy: own, source: 'pod', origin: `pod annotation ${DEFAULT_POLICY_ANNOTATION} of ${workloadLabel(pod)}` };
    }
    return cluster(`, because the pod annotation value ${JSON.stringify(own)} is not a policy and the policy controller drops it`);
  }
  const ns = index.namespace(pod.namespace);
  const nsValue = ns ? annotationOf(ns.object, DEFAULT_POLICY_ANNOTATION) : undefined;
  if (nsValue !== undefined) {
    if (isKnownDefaultPolicy(nsValue)) {
      return { policy: nsValue, source: 'namespace', origin: `annotation ${DEFAULT_POLICY_ANNOTATION} of Namespace ${pod.namespace}` };
    }
    return cluster(`, because Namespace ${pod.namespace}'s value ${JSON.stringify(nsValue)} is not a policy and is dropped`);
  }
  return cluster('');
}

/**
 * Ports listed in `config.linkerd.io/proxy-require-identity-inbound-ports` (the pod's, or the namespace's, copied by
 * the injector): there an allowing default policy admits only authenticated clients (inbound/index.rs
 * `default_inbound_server`). The policy controller reads the list with parse_portset (inbound/workload.rs
 * `ports_annotation`), so a list with one entry it cannot read requires identity on no port.
 */
export function requiresIdentityOn(pod: PodTemplate, port: number): boolean {
  const value = podOrNamespaceAnnotation(pod, REQUIRE_IDENTITY_PORTS_ANNOTATION);
  const set = value === undefined ? undefined : controllerPortSet(String(value));
  return set !== undefined && portListHas(set, port);
}

/** The authenticated-only form of an allowing default policy. */
export function withRequiredIdentity(policy: string): string {
  if (policy === 'all-unauthenticated') return 'all-authenticated';
  if (policy === 'cluster-unauthenticated') return 'cluster-authenticated';
  return policy;
}
