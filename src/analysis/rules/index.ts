/**
 * The rule pack: every rule the engine runs, in ID order. Adding a rule = one new file plus one line here.
 */
import { unknownAppProtocol } from './route/unknown-app-protocol';
import { unservedProtocol } from './route/unserved-protocol';
import { compareStrings } from '../../util/compare';
import { Rule } from '../rule';
import { certificateAlgorithms } from './cert/algorithms';
import { certificateChain } from './cert/chain';
import { certificateLifetimes } from './cert/lifetimes';
import { privateKeyInOutput } from './cert/private-keys';
import { certificateValidity } from './cert/validity';
import { controlPlaneChartValues } from './control-plane/chart-values';
import { externalCaWithoutTrustRoots } from './control-plane/external-ca';
import { controlPlaneGatewayApi } from './control-plane/gateway-api-version';
import { controlPlaneHa } from './control-plane/high-availability';
import { identityValues } from './control-plane/identity-values';
import { kubernetesVersion } from './control-plane/kubernetes-version';
import { webhookFailurePolicyIgnore } from './control-plane/webhook-failure-policy';
import { configAnnotationsRule } from './mesh/config-annotations';
import { duplicateObjectsRule } from './mesh/duplicate-objects';
import { externalWorkloadEndpointsRule } from './mesh/external-workload-endpoints';
import { jobSidecarRule } from './mesh/job-sidecar';
import { missingServiceAccount } from './mesh/missing-service-account';
import { networkPolicyRule } from './mesh/network-policy';
import { opaquePortsRule } from './mesh/opaque-ports';
import { podHazardsRule } from './mesh/pod-hazards';
import { podSecurityAdmissionRule } from './mesh/pod-security-admission';
import { proxyPortCollisionRule } from './mesh/proxy-port-collision';
import { skippedServerPortRule } from './mesh/skipped-server-port';
import { targetNotInjectedRule } from './mesh/target-not-injected';
import { unknownKindsRule } from './mesh/unknown-kinds';
import { wrongMetadataRule } from './mesh/wrong-metadata';
import { yaml11ReadingsRule } from './mesh/yaml11-readings';
import { authenticationRefsRule } from './policy/authentication-refs';
import { authorizationTargetRule } from './policy/authorization-target';
import { declaredCalls } from './policy/declared-calls';
import { egressScope } from './policy/egress-scope';
import { legacyKindsRule } from './policy/legacy-kinds';
import { meshTlsIdentitiesRule } from './policy/mesh-tls-identities';
import { networksRule } from './policy/networks';
import { openAuthorizationRule } from './policy/open-authorization';
import { overlappingServersRule } from './policy/overlapping-servers';
import { plaintextDefaultRule } from './policy/plaintext-default';
import { policyValuesRule } from './policy/policy-values';
import { probePathExposure } from './policy/probe-path-exposure';
import { probesNeedAuthorizationRule } from './policy/probes-need-authorization';
import { prometheusScrapesRule } from './policy/prometheus-scrapes';
import { rateLimitRule } from './policy/rate-limit';
import { rateLimitProtocol } from './policy/rate-limit-protocol';
import { requireIdentityPortsRule } from './policy/require-identity-ports';
import { routeAuthorizationWithoutServerRule } from './policy/route-authorization-without-server';
import { serverAuthorizationConflictsRule } from './policy/server-authorization-conflicts';
import { serverDeniesAllRule } from './policy/server-denies-all';
import { serverParentGroupRule } from './policy/server-parent-ref';
import { serverPortRule } from './policy/server-port';
import { serverSelectorShapeRule } from './policy/server-selector-shape';
import { serverSelectsNothingRule } from './policy/server-selects-nothing';
import { trustDomainRule } from './policy/trust-domain';
import { annotationGrammar } from './retry/annotation-grammar';
import { failureAccrual } from './retry/failure-accrual';
import { misplacedAnnotations } from './retry/misplaced-annotations';
import { nonIdempotentRetries } from './retry/non-idempotent';
import { retryBudget } from './retry/retry-budget';
import { routeReplacesService } from './retry/route-replaces-service';
import { unknownRetryKeys } from './retry/unknown-keys';
import { admissionWebhook } from './route/admission-webhook';
import { ambiguousMatches } from './route/ambiguous-matches';
import { backendExists } from './route/backend-exists';
import { backendKind } from './route/backend-kind';
import { backendPort } from './route/backend-port';
import { backendSanity } from './route/backend-sanity';
import { beyondGatewayV121 } from './route/beyond-v1-2-1';
import { consumerRoute } from './route/consumer-route';
import { gatewayApiVersion } from './route/gateway-api-version';
import { ignoredTimeouts } from './route/ignored-timeouts';
import { inboundRouteFields } from './route/inbound-route-fields';
import { kindConflict } from './route/kind-conflict';
import { layer4AndEgress } from './route/layer4-and-egress';
import { meshHostnames } from './route/mesh-hostnames';
import { missingParents } from './route/missing-parents';
import { omittedParentGroup } from './route/omitted-parent-group';
import { parentClusterIp } from './route/parent-cluster-ip';
import { parentExists } from './route/parent-exists';
import { parentPort } from './route/parent-port';
import { ruleTimeouts } from './route/rule-timeouts';
import { serverParentScope } from './route/server-parent-scope';
import { serviceProfileWins } from './route/service-profile';
import { serviceSelectsPods } from './route/service-selects-pods';
import { unmatchedRequests } from './route/unmatched-requests';
import { unsupportedFilters } from './route/unsupported-filters';
import { backendWeights } from './route/weights';
import { secretsInOutput } from './secrets/secrets-in-output';
import { pinnedVersions } from './version/pinned';
import { proxyVersionSkew } from './version/proxy-skew';

export const ALL_RULES: Rule[] = [
  authorizationTargetRule, authenticationRefsRule, meshTlsIdentitiesRule, trustDomainRule, networksRule, declaredCalls,
  serverSelectsNothingRule, serverPortRule, overlappingServersRule, serverDeniesAllRule, probesNeedAuthorizationRule,
  plaintextDefaultRule, requireIdentityPortsRule,
  prometheusScrapesRule, probePathExposure, egressScope, policyValuesRule, rateLimitRule, rateLimitProtocol, legacyKindsRule,
  serverSelectorShapeRule,
  routeAuthorizationWithoutServerRule, serverAuthorizationConflictsRule, openAuthorizationRule, serverParentGroupRule,
  targetNotInjectedRule, wrongMetadataRule, configAnnotationsRule, opaquePortsRule, podHazardsRule, networkPolicyRule,
  proxyPortCollisionRule, skippedServerPortRule, podSecurityAdmissionRule, unknownKindsRule, yaml11ReadingsRule, jobSidecarRule,
  duplicateObjectsRule, externalWorkloadEndpointsRule,
  missingServiceAccount,
  omittedParentGroup,
  backendWeights,
  parentExists,
  parentClusterIp,
  parentPort,
  consumerRoute,
  backendPort,
  backendExists,
  backendKind,
  backendSanity,
  unsupportedFilters,
  serviceSelectsPods,
  kindConflict,
  ambiguousMatches,
  ruleTimeouts,
  layer4AndEgress,
  gatewayApiVersion,
  missingParents,
  ignoredTimeouts,
  inboundRouteFields,
  serviceProfileWins,
  beyondGatewayV121,
  meshHostnames,
  serverParentScope,
  unmatchedRequests,
  unservedProtocol,
  unknownAppProtocol,
  admissionWebhook,
  nonIdempotentRetries,
  annotationGrammar,
  retryBudget,
  misplacedAnnotations,
  routeReplacesService,
  unknownRetryKeys,
  failureAccrual,
  certificateChain,
  certificateAlgorithms,
  certificateValidity,
  certificateLifetimes,
  privateKeyInOutput,
  secretsInOutput,
  pinnedVersions, proxyVersionSkew,
  controlPlaneHa, webhookFailurePolicyIgnore, controlPlaneChartValues, externalCaWithoutTrustRoots, identityValues, kubernetesVersion,
  controlPlaneGatewayApi,
].sort((a, b) => compareStrings(a.id, b.id));

export function ruleById(id: string): Rule | undefined {
  return ALL_RULES.find((r) => r.id === id);
}
