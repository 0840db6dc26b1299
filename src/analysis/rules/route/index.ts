/** The rules about routes and their parents and backends (LKD-ROUTE-*): one file per rule, listed here once. */
import { admissionWebhook } from './admission-webhook';
import { ambiguousMatches } from './ambiguous-matches';
import { backendExists } from './backend-exists';
import { backendKind } from './backend-kind';
import { backendPort } from './backend-port';
import { backendSanity } from './backend-sanity';
import { beyondGatewayV121 } from './beyond-v1-2-1';
import { consumerRoute } from './consumer-route';
import { gatewayApiVersion } from './gateway-api-version';
import { ignoredTimeouts } from './ignored-timeouts';
import { inboundRouteFields } from './inbound-route-fields';
import { kindConflict } from './kind-conflict';
import { layer4AndEgress } from './layer4-and-egress';
import { meshHostnames } from './mesh-hostnames';
import { missingParents } from './missing-parents';
import { omittedParentGroup } from './omitted-parent-group';
import { parentClusterIp } from './parent-cluster-ip';
import { parentExists } from './parent-exists';
import { parentPort } from './parent-port';
import { ruleTimeouts } from './rule-timeouts';
import { serverParentScope } from './server-parent-scope';
import { serviceProfileWins } from './service-profile';
import { serviceSelectsPods } from './service-selects-pods';
import { unknownAppProtocol } from './unknown-app-protocol';
import { unmatchedRequests } from './unmatched-requests';
import { unservedProtocol } from './unserved-protocol';
import { unsupportedFilters } from './unsupported-filters';
import { backendWeights } from './weights';
import { Rule } from '../../rule';

export const ROUTE_RULES: Rule[] = [
  admissionWebhook, ambiguousMatches, backendExists, backendKind, backendPort, backendSanity, beyondGatewayV121, consumerRoute, gatewayApiVersion,
  ignoredTimeouts, inboundRouteFields, kindConflict, layer4AndEgress, meshHostnames, missingParents, omittedParentGroup, parentClusterIp,
  parentExists, parentPort, ruleTimeouts, serverParentScope, serviceProfileWins, serviceSelectsPods, unknownAppProtocol, unmatchedRequests,
  unservedProtocol, unsupportedFilters, backendWeights,
];
