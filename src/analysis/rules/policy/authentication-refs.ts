import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { serviceAccountIdentityExists } from '../../model/identity/service-accounts';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { missingReference } from '../../model/missing-references';
import { specOf } from '../../model/objects';
import { isCoreRef, isPolicyRef, kindIs, ObjectRef, refText } from '../../model/refs';
import { Rule, RuleContext, RuleArea } from '../../rule';
import { reportRefusal } from '../refusal';

type RefClass = 'meshtls' | 'network' | 'serviceaccount' | undefined;

/**
 * Reports what the policy validator refuses. Where it does not run (a namespace its selectors leave out), the policy
 * is applied and the policy controller, which reads the references the same way, ignores it whole.
 */
function refuse(ctx: RuleContext, policy: IndexedObject, problem: string, webhook: string, indexLog: string): void {
  reportRefusal(ctx, policy, { problem, rejected: webhook, noun: 'the AuthorizationPolicy', ignored: `and the policy controller ignores it whole (${indexLog}).` });
}

const UNSUPPORTED = '"Invalid authorization policy": unsupported authentication target';

/** Built only for a finding: most references are fine. */
function refPath(i: number): string {
  return `spec.requiredAuthenticationRefs[${i}]`;
}

function checkRef(ctx: RuleContext, policy: IndexedObject, ref: ObjectRef, i: number): RefClass {
  const ns = ref.namespace ?? policy.id.namespace;
  const index: MeshIndex = ctx.index;
  if (isPolicyRef(ref, 'MeshTLSAuthentication') || isPolicyRef(ref, 'NetworkAuthentication')) {
    const kind = kindIs(ref, 'MeshTLSAuthentication') ? 'MeshTLSAuthentication' : 'NetworkAuthentication';
    if (!index.get(POLICY_GROUP, kind, ns, String(ref.name))) {
      const sure = missingReference(index, POLICY_GROUP, kind, String(ns ?? ''), String(ref.name));
      ctx.report(policy, `${refPath(i)} names ${kind} ${ns}/${ref.name}, which does not exist${sure.hint}; the policy controller ignores the whole `
        + 'AuthorizationPolicy ("illegal AuthorizationPolicy") until it does.', { effect: FindingEffect.IGNORED, severity: sure.severity });
    }
    return kind === 'MeshTLSAuthentication' ? 'meshtls' : 'network';
  }
  if (isCoreRef(ref, 'ServiceAccount')) {
    if (!serviceAccountIdentityExists(index, ctx.context, String(ns ?? ''), String(ref.name))) {
      // Linkerd turns the reference into an identity string without looking the ServiceAccount up
      // (inbound/index.rs policy_client_authz): the policy works as soon as the account exists.
      const sure = missingReference(index, '', 'ServiceAccount', String(ns ?? ''), String(ref.name));
      ctx.report(policy, `${refPath(i)} names ServiceAccount ${ns}/${ref.name}, which exists neither in this output nor in the inventory${sure.hint}; `
        + 'until it exists, no client presents that identity.', { severity: sure.severity });
    }
    return 'serviceaccount';
  }
  if (kindIs(ref, 'MeshTLSAuthentication') || kindIs(ref, 'NetworkAuthentication')) {
    refuse(ctx, policy, `${refPath(i)} is ${refText(ref)}: a missing or other group means core`, 'the webhook rejects it. Set group: policy.linkerd.io.', UNSUPPORTED);
  } else if (kindIs(ref, 'ServiceAccount')) {
    refuse(ctx, policy, `${refPath(i)} is ${refText(ref)}`, 'a ServiceAccount reference must omit the group (or use "" / "core").', UNSUPPORTED);
  } else {
    refuse(ctx, policy, `${refPath(i)} is ${refText(ref)}`, 'only MeshTLSAuthentication, NetworkAuthentication (policy.linkerd.io) and '
      + 'ServiceAccount (core) are accepted.', UNSUPPORTED);
  }
  return undefined;
}

type RefCounts = Record<NonNullable<RefClass>, number>;

function checkCounts(ctx: RuleContext, policy: IndexedObject, counts: RefCounts): void {
  const refs = 'spec.requiredAuthenticationRefs';
  const illegal = (what: string) => `"Illegal AuthorizationPolicy; ignoring": policy must not include multiple ${what}`;
  if (counts.meshtls > 1) refuse(ctx, policy, `${refs} lists more than one MeshTLSAuthentication`, 'the webhook allows at most one.', illegal('MeshTLSAuthentications'));
  if (counts.serviceaccount > 1) {
    refuse(ctx, policy, `${refs} lists more than one ServiceAccount`, 'the webhook allows at most one (use a MeshTLSAuthentication with identityRefs for several).',
      illegal('ServiceAccounts'));
  }
  if (counts.meshtls > 0 && counts.serviceaccount > 0) {
    refuse(ctx, policy, `${refs} mixes a MeshTLSAuthentication and a ServiceAccount`, 'the webhook rejects both together. '
      + 'Move the ServiceAccount into the MeshTLSAuthentication\'s identityRefs.', '"Illegal AuthorizationPolicy; ignoring": one identity requirement only');
  }
  if (counts.network > 1) {
    refuse(ctx, policy, `${refs} lists more than one NetworkAuthentication`, 'the webhook allows at most one (merge their networks).', illegal('NetworkAuthentications'));
  }
}

/** requiredAuthenticationRefs: kinds, groups, counts, and the objects exist. */
export const authenticationRefsRule: Rule = {
  id: 'LKD-POL-002',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Rejected: admission.rs Validate<AuthorizationPolicySpec> refuses invalid authentication refs; Never applies:'
      + ' policy-controller/k8s/index/src/inbound/index.rs policy_client_authz skips a policy whose authentication is'
      + ' missing. Refs the analysis cannot see are warnings or info.',
    title: 'AuthorizationPolicy requiredAuthenticationRefs are valid and exist',
    why: 'The webhook allows at most one MeshTLSAuthentication, at most one ServiceAccount (never both) and at most one '
      + 'NetworkAuthentication, and rejects any other kind. Linkerd kinds must carry group policy.linkerd.io because a missing '
      + 'group means core. A reference to a missing authentication is admitted, but the controller then ignores the policy. '
      + 'Where the webhook does not run (a namespace its selectors leave out), what it would refuse is applied, and the '
      + 'policy controller, which reads the references the same way, ignores the whole policy.',
    fix: 'Reference one identity authentication and/or one NetworkAuthentication with explicit groups, and create what you reference.',
    linkerdSource: 'policy-controller/runtime/src/admission.rs Validate<AuthorizationPolicySpec>::validate; '
      + 'policy-controller/k8s/index/src/inbound/authorization_policy.rs authentication_ref; '
      + 'policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::policy_client_authz ("Illegal AuthorizationPolicy; '
      + 'ignoring") and the AuthorizationPolicy apply ("Invalid authorization policy")',
    badExample: 'requiredAuthenticationRefs:\n- kind: MeshTLSAuthentication\n  name: client-sa',
    goodExample: 'requiredAuthenticationRefs:\n- group: policy.linkerd.io\n  kind: MeshTLSAuthentication\n  name: client-sa',
  },
  check(ctx) {
    for (const policy of ctx.index.own(POLICY_GROUP, 'AuthorizationPolicy')) {
      const refs = specOf(policy).requiredAuthenticationRefs;
      if (!Array.isArray(refs)) {
        ctx.report(policy, 'spec.requiredAuthenticationRefs is missing or not a list; the CRD requires it (an empty list means "everyone").');
        continue;
      }
      const counts: RefCounts = { meshtls: 0, network: 0, serviceaccount: 0 };
      refs.forEach((ref, i) => {
        if (!ref || typeof ref !== 'object') {
          ctx.report(policy, `${refPath(i)} is not an object with kind and name.`);
          return;
        }
        const refClass = checkRef(ctx, policy, ref, i);
        if (refClass) counts[refClass]++;
      });
      checkCounts(ctx, policy, counts);
    }
  },
};
