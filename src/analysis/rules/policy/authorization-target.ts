import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { authorizationTarget, targetObject } from '../../model/inbound/authorizations';
import { missingReference } from '../../model/missing-references';
import { specOf } from '../../model/objects';
import { asRef, kindIs, refText } from '../../model/refs';
import { Rule, RuleArea } from '../../rule';

function unsupportedHint(kind: unknown): string {
  if (kindIs({ kind: String(kind) }, 'Server')) return ' A Server target needs `group: policy.linkerd.io`; a missing group means core.';
  if (kindIs({ kind: String(kind) }, 'HTTPRoute')) return ' An HTTPRoute target needs `group: policy.linkerd.io` or `group: gateway.networking.k8s.io`.';
  if (kindIs({ kind: String(kind) }, 'GRPCRoute')) return ' A GRPCRoute target needs `group: gateway.networking.k8s.io`.';
  if (kindIs({ kind: String(kind) }, 'Namespace')) return ' A Namespace target must omit the group (or use "" / "core").';
  return '';
}

/** AuthorizationPolicy.targetRef: a kind/group the webhook accepts, naming an object that exists. */
export const authorizationTargetRule: Rule = {
  id: 'LKD-POL-001',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Rejected: policy-controller/runtime/src/admission.rs Validate<AuthorizationPolicySpec> refuses other target '
      + 'kinds; Never applies: a missing target makes the policy authorize nothing (authorization_policy.rs target). '
      + 'A target the analysis cannot see is a warning (a near-miss name) or info.',
    title: 'AuthorizationPolicy targetRef is a supported kind and names an existing object',
    why: 'The policy webhook accepts only Server (policy.linkerd.io), HTTPRoute (policy.linkerd.io or gateway.networking.k8s.io), '
      + 'GRPCRoute (gateway.networking.k8s.io) and the policy\'s own Namespace (core). Anything else is rejected at apply time. '
      + 'A target that does not exist is not rejected, but then the policy authorizes nothing and traffic stays denied. '
      + 'targetRef has no namespace field: a policy authorizes only in its own namespace.',
    fix: 'Point targetRef at a Server or route in the same namespace, spelling the group out, or at the policy\'s own Namespace.',
    linkerdSource: 'policy-controller/runtime/src/admission.rs Validate<AuthorizationPolicySpec>::validate; '
      + 'policy-controller/k8s/index/src/inbound/authorization_policy.rs validate, target; '
      + 'policy-controller/k8s/api/src/policy/target_ref.rs LocalTargetRef (no namespace)',
    badExample: 'targetRef:\n  kind: Server\n  name: orders-http',
    goodExample: 'targetRef:\n  group: policy.linkerd.io\n  kind: Server\n  name: orders-http',
  },
  check(ctx) {
    for (const policy of ctx.index.own(POLICY_GROUP, 'AuthorizationPolicy')) {
      const ref = asRef(specOf(policy).targetRef);
      if (!ref) {
        ctx.report(policy, 'spec.targetRef is missing; the CRD requires it. Name the Server, route or Namespace this policy authorizes.', { effect: FindingEffect.REJECTED });
        continue;
      }
      const target = authorizationTarget(policy);
      if (!target) {
        ctx.report(policy, `spec.targetRef ${refText(ref)} is not a supported target; the webhook rejects the policy.${unsupportedHint(ref.kind)}`, { effect: FindingEffect.REJECTED });
        continue;
      }
      const ns = policy.id.namespace ?? '';
      if (ref.namespace !== undefined) {
        // LocalTargetRef has no namespace: a policy authorizes only in its own namespace.
        ctx.report(policy, `spec.targetRef has a namespace (${JSON.stringify(ref.namespace)}), a field it does not have: the API server refuses the `
          + `policy (or, with lax validation, drops the field, and the policy targets ${target.kind} "${target.name}" in its own namespace ${ns}). `
          + 'Create the AuthorizationPolicy in the target\'s namespace and remove targetRef.namespace.', { effect: FindingEffect.REJECTED });
        continue;
      }
      if (target.kind === 'Namespace') {
        if (target.name !== ns) {
          ctx.report(policy, `spec.targetRef names Namespace "${target.name}" but the policy lives in "${ns}"; a Namespace target must be `
            + 'the policy\'s own namespace. Move the policy or retarget it.');
        }
        continue;
      }
      if (!targetObject(ctx.index, policy, target)) {
        const sure = missingReference(ctx.index, target.group, target.kind, ns, target.name);
        ctx.report(policy, `spec.targetRef names ${target.kind} "${target.name}" (${target.group}), which exists neither in this output nor in `
          + `the inventory of namespace ${ns}${sure.hint}; the policy authorizes nothing.`, { effect: FindingEffect.IGNORED, severity: sure.severity });
      }
    }
  },
};
