import { checkNetworkList } from './networks';
import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { specOf } from '../../model/objects';
import { Rule, RuleArea } from '../../rule';

/** Legacy ServerAuthorization combinations the webhook rejects, or the index drops. */
export const serverAuthorizationConflictsRule: Rule = {
  id: 'LKD-POL-018',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Rejected: policy-controller/runtime/src/admission.rs Validate<ServerAuthorizationSpec> refuses it.',
    title: 'ServerAuthorization names its Server, and its client settings do not contradict each other',
    why: 'The webhook rejects a ServerAuthorization without a spec.server object ({name} or {selector}; a bare Server name as '
      + 'a string does not deserialize), one whose client is both meshTLS and unauthenticated, whose meshTLS is '
      + 'unauthenticatedTLS and also lists identities or serviceAccounts, or whose networks break the cidr/except rules. One '
      + 'whose client authenticates nobody (no unauthenticated: true and no meshTLS, or a meshTLS naming no identity) is '
      + 'accepted, then left out by the policy controller\'s index, so it authorizes nothing.',
    fix: 'Pick one client mode; better, replace the ServerAuthorization with an AuthorizationPolicy (see LKD-POL-015).',
    linkerdSource: 'policy-controller/runtime/src/admission.rs Validate<ServerAuthorizationSpec>::validate; '
      + 'policy-controller/k8s/api/src/policy/server_authorization.rs ServerAuthorizationSpec (server: Server, required); '
      + 'policy-controller/k8s/index/src/inbound/server_authorization.rs client_authz, client_mtls_authn',
    badExample: 'client:\n  unauthenticated: true\n  meshTLS:\n    serviceAccounts: [{name: client}]',
    goodExample: 'client:\n  meshTLS:\n    serviceAccounts: [{name: client}]',
  },
  check(ctx) {
    for (const authz of ctx.index.own(POLICY_GROUP, 'ServerAuthorization')) {
      const server = specOf(authz).server;
      if (server === null || typeof server !== 'object' || Array.isArray(server)) {
        const got = server === undefined ? 'it is missing' : `got ${JSON.stringify(server)}`;
        ctx.report(authz, 'spec.server must be an object naming the Server ({name: ...}) or selecting Servers by label ({selector: ...}); '
          + `${got}. The API server (the CRD's schema) and the webhook refuse it.`, { effect: FindingEffect.REJECTED });
      }
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
      // Admitted by the CRD and the webhook, then refused by the index (server_authorization.rs client_authz,
      // client_mtls_authn), which logs it and leaves the ServerAuthorization out of every policy.
      const dropped = client.unauthenticated === true || mtls?.unauthenticatedTLS === true ? undefined
        : !mtls || typeof mtls !== 'object' ? 'authenticates no client (neither unauthenticated: true nor meshTLS)'
          : !named ? 'has a meshTLS that names no identity or serviceAccount (and is not unauthenticatedTLS)' : undefined;
      if (dropped) {
        ctx.report(authz, `spec.client ${dropped}; the API server and the webhook accept it, but the policy controller refuses to index it, `
          + 'so it authorizes nothing and only a controller log line says why. Name the clients (meshTLS.serviceAccounts or identities).',
        { effect: FindingEffect.IGNORED });
      }
      // Unlike NetworkAuthentication's, this list may be empty: the webhook checks only its entries' exceptions
      // (admission.rs Validate<ServerAuthorizationSpec>), and to_authz sends an empty list as the cluster networks.
      if (client.networks !== undefined && !(Array.isArray(client.networks) && client.networks.length === 0)) {
        checkNetworkList(ctx, authz, client.networks, 'spec.client.networks');
      }
    }
  },
};
