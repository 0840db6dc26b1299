import { POLICY_GROUP } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { specOf } from '../../model/objects';
import { Rule, RuleArea } from '../../rule';

/** An empty requiredAuthenticationRefs list is valid and means "everyone, from everywhere, plaintext included". */
export const openAuthorizationRule: Rule = {
  id: 'LKD-POL-019',
  area: RuleArea.POLICY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: the intent, which the manifests do not state; an empty requiredAuthenticationRefs admits '
      + 'everyone (index.rs policy_client_authz) and may be meant.',
    title: 'AuthorizationPolicy with no required authentication opens its target to everyone',
    why: 'requiredAuthenticationRefs: [] passes validation and admits unauthenticated clients from every network. It is easy '
      + 'to write while scaffolding and then forget, leaving a Server as open as the all-unauthenticated default.',
    fix: 'Require a MeshTLSAuthentication or ServiceAccount for meshed callers, or a NetworkAuthentication that limits networks; '
      + 'suppress this finding with a reason if the openness is intended (e.g. a public ingress).',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::policy_client_authz (no authentications: '
      + 'Unauthenticated from 0.0.0.0/0 and ::/0)',
    badExample: 'requiredAuthenticationRefs: []',
    goodExample: 'requiredAuthenticationRefs:\n- {group: policy.linkerd.io, kind: MeshTLSAuthentication, name: clients}',
  },
  check(ctx) {
    for (const policy of ctx.index.own(POLICY_GROUP, 'AuthorizationPolicy')) {
      const refs = specOf(policy).requiredAuthenticationRefs;
      if (Array.isArray(refs) && refs.length === 0) {
        ctx.report(policy, 'spec.requiredAuthenticationRefs is empty, which admits every client, unauthenticated plaintext included, '
          + 'from any network. Require an authentication, or suppress with a reason if this is intended.');
      }
    }
  },
};
