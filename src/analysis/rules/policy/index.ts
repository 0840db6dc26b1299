/** The rules about inbound policy (LKD-POL-*): one file per rule, listed here once. */
import { authenticationRefsRule } from './authentication-refs';
import { authorizationTargetRule } from './authorization-target';
import { declaredCalls } from './declared-calls';
import { egressScope } from './egress-scope';
import { legacyKindsRule } from './legacy-kinds';
import { meshTlsIdentitiesRule } from './mesh-tls-identities';
import { networksRule } from './networks';
import { openAuthorizationRule } from './open-authorization';
import { overlappingServersRule } from './overlapping-servers';
import { plaintextDefaultRule } from './plaintext-default';
import { policyValuesRule } from './policy-values';
import { probePathExposure } from './probe-path-exposure';
import { probesNeedAuthorizationRule } from './probes-need-authorization';
import { prometheusScrapesRule } from './prometheus-scrapes';
import { rateLimitRule } from './rate-limit';
import { rateLimitProtocol } from './rate-limit-protocol';
import { refusedCalls } from './refused-calls';
import { requireIdentityPortsRule } from './require-identity-ports';
import { routeAuthorizationWithoutServerRule } from './route-authorization-without-server';
import { serverAuthorizationConflictsRule } from './server-authorization-conflicts';
import { serverDeniesAllRule } from './server-denies-all';
import { serverParentGroupRule } from './server-parent-ref';
import { serverPortRule } from './server-port';
import { serverSelectorShapeRule } from './server-selector-shape';
import { serverSelectsNothingRule } from './server-selects-nothing';
import { trustDomainRule } from './trust-domain';
import { Rule } from '../../rule';

export const POLICY_RULES: Rule[] = [
  authenticationRefsRule, authorizationTargetRule, declaredCalls, egressScope, legacyKindsRule, meshTlsIdentitiesRule, networksRule,
  openAuthorizationRule, overlappingServersRule, plaintextDefaultRule, policyValuesRule, probePathExposure, probesNeedAuthorizationRule,
  prometheusScrapesRule, rateLimitRule, rateLimitProtocol, refusedCalls, requireIdentityPortsRule, routeAuthorizationWithoutServerRule,
  serverAuthorizationConflictsRule, serverDeniesAllRule, serverParentGroupRule, serverPortRule, serverSelectorShapeRule, serverSelectsNothingRule,
  trustDomainRule,
];
