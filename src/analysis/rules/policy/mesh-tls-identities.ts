import { identityProblem } from '../../../core/identity';
import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { serviceAccountIdentityExists } from '../../model/identity/service-accounts';
import { IndexedObject } from '../../model/mesh-index';
import { missingReference } from '../../model/missing-references';
import { specOf } from '../../model/objects';
import { isCoreRef, kindIs, refList, refText } from '../../model/refs';
import { Rule, RuleContext, RuleArea } from '../../rule';

function checkIdentities(ctx: RuleContext, authn: IndexedObject, identities: unknown): void {
  if (!Array.isArray(identities) || identities.length === 0) {
    ctx.report(authn, 'spec.identities must be a non-empty list of identity strings.', { effect: FindingEffect.REJECTED });
    return;
  }
  identities.forEach((identity, i) => {
    const problem = identityProblem(identity);
    if (problem) ctx.report(authn, `spec.identities[${i}] ${JSON.stringify(identity)} ${problem}; the webhook rejects it.`, { effect: FindingEffect.REJECTED });
  });
}

/** Built only for a finding: most references are fine. */
function identityRefPath(i: number): string {
  return `spec.identityRefs[${i}]`;
}

function checkIdentityRefs(ctx: RuleContext, authn: IndexedObject, identityRefs: unknown): void {
  if (!Array.isArray(identityRefs) || identityRefs.length === 0) {
    ctx.report(authn, 'spec.identityRefs must be a non-empty list of ServiceAccount or Namespace references.', { effect: FindingEffect.REJECTED });
    return;
  }
  refList(identityRefs).forEach((ref, i) => {
    if (isCoreRef(ref, 'ServiceAccount')) {
      const ns = ref.namespace ?? authn.id.namespace ?? '';
      if (!serviceAccountIdentityExists(ctx.index, ctx.context, String(ns), String(ref.name))) {
        const sure = missingReference(ctx.index, '', 'ServiceAccount', String(ns), String(ref.name));
        ctx.report(authn, `${identityRefPath(i)} names ServiceAccount ${ns}/${ref.name}, which exists neither in this output nor in the inventory${sure.hint}; `
          + 'no workload can present that identity.', { severity: sure.severity });
      }
    } else if (isCoreRef(ref, 'Namespace')) {
      if (ref.namespace !== undefined) ctx.report(authn, `${identityRefPath(i)} is a Namespace reference with a namespace field; the webhook rejects it. Remove \`namespace\`.`, { effect: FindingEffect.REJECTED });
    } else if (kindIs(ref, 'ServiceAccount') || kindIs(ref, 'Namespace')) {
      ctx.report(authn, `${identityRefPath(i)} is ${refText(ref)}; ServiceAccount and Namespace references must omit the group (or use "" / "core").`, { effect: FindingEffect.REJECTED });
    } else {
      ctx.report(authn, `${identityRefPath(i)} is ${refText(ref)}; only ServiceAccount and Namespace references are accepted.`, { effect: FindingEffect.REJECTED });
    }
  });
}

/** MeshTLSAuthentication: one of identities/identityRefs, valid identity grammar, existing ServiceAccounts. */
export const meshTlsIdentitiesRule: Rule = {
  id: 'LKD-POL-003',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED],
  doc: {
    certainty: 'Rejected: policy-controller/runtime/src/admission.rs validate_identity_ref and validation.rs '
      + 'validate_identity refuse the identities; ServiceAccounts the analysis cannot see are warnings or info.',
    title: 'MeshTLSAuthentication lists valid identities or existing ServiceAccount/Namespace refs',
    why: 'The CRD requires exactly one of identities and identityRefs. The webhook rejects identities that are neither DNS-like '
      + 'names (with an optional leading "*" label) nor SPIFFE IDs, and identityRefs of any kind but ServiceAccount or Namespace '
      + '(a Namespace ref without a namespace field). A ServiceAccount that does not exist is accepted but matches no client.',
    fix: 'Prefer identityRefs to ServiceAccounts you create; write identities as <sa>.<ns>.serviceaccount.identity.<cp-ns>.<trust-domain>.',
    linkerdSource: 'policy-controller/runtime/src/admission.rs Validate<MeshTLSAuthenticationSpec>::validate, '
      + 'validate_identity_ref; policy-controller/runtime/src/validation.rs validate_identity; '
      + 'policy-controller/k8s/index/src/inbound/meshtls_authentication.rs Spec::try_from_resource',
    badExample: 'spec:\n  identities: ["Client.mesh-lab"]\n  identityRefs: [{kind: Deployment, name: client}]',
    goodExample: 'spec:\n  identityRefs:\n  - kind: ServiceAccount\n    name: client',
  },
  check(ctx) {
    for (const authn of ctx.index.own(POLICY_GROUP, 'MeshTLSAuthentication')) {
      const spec = specOf(authn);
      const hasIdentities = spec.identities !== undefined;
      const hasRefs = spec.identityRefs !== undefined;
      if (hasIdentities === hasRefs) {
        ctx.report(authn, hasIdentities
          ? 'spec sets both identities and identityRefs; the CRD requires exactly one. Keep one list.'
          : 'spec sets neither identities nor identityRefs; the CRD requires exactly one.', { effect: FindingEffect.REJECTED });
        if (!hasIdentities) continue;
      }
      if (hasIdentities) checkIdentities(ctx, authn, spec.identities);
      if (hasRefs) checkIdentityRefs(ctx, authn, spec.identityRefs);
    }
  },
};
