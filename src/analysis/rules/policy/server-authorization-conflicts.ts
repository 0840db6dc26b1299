import { checkNetworkList } from './networks';
import { FindingEffect, Severity } from '../../finding';
import { POLICY_GROUP } from '../../model/mesh-index';
import { specOf } from '../../model/policy-view';
import { Rule, RuleArea } from '../../rule';

/** Legacy ServerAuthorization combinations the webhook rejects. */
export const serverAuthorizationConflictsRule: Rule = {
  id: 'LKD-POL-018',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED],
  doc: {
    title: 'ServerAuthorization client settings do not contradict each other',
    why: 'The webhook rejects a ServerAuthorization whose client is both meshTLS and unauthenticated, whose meshTLS is '
      + 'unauthenticatedTLS and also lists identities or serviceAccounts, or whose networks break the cidr/except rules.',
    fix: 'Pick one client mode; better, replace the ServerAuthorization with an AuthorizationPolicy (see LKD-POL-015).',
    linkerdSource: 'policy-controller/runtime/src/admission.rs Validate<ServerAuthorizationSpec>::validate',
    badExample: 'client:\n  unauthenticated: true\n  meshTLS:\n    serviceAccounts: [{name: client}]',
    goodExample: 'client:\n  meshTLS:\n    serviceAccounts: [{name: client}]',
  },
  check(ctx) {
    for (const authz of ctx.index.own(POLICY_GROUP, 'ServerAuthorization')) {
      const client = specOf(authz).client;
      if (!client || typeof client !== 'object') {
        ctx.report(authz, 'spec.client is missing; a ServerAuthorization must say which clients it admits.', { effect: FindingEffect.REJECTED });
        continue;
      }
      const mtls = client.meshTLS;
      if (mtls && client.unauthenticated === true) {
        ctx.report(authz, 'spec.client sets both meshTLS and unauthenticated: true; the webhook rejects this. Keep one.', { effect: FindingEffect.REJECTED });
      }
      const nonEmpty = (list: unknown) => Array.isArray(list) && list.length > 0;
      const named = nonEmpty(mtls?.identities) || nonEmpty(mtls?.serviceAccounts);
      if (mtls?.unauthenticatedTLS === true && named) {
        ctx.report(authz, 'spec.client.meshTLS sets unauthenticatedTLS: true together with identities/serviceAccounts; the webhook rejects this.', { effect: FindingEffect.REJECTED });
      }
      if (client.networks !== undefined) checkNetworkList(ctx, authz, client.networks, 'spec.client.networks');
    }
  },
};
