/**
 * The rule pack: every rule the engine runs, in ID order. Adding a rule = one new file plus one line here.
 */
import { Rule } from '../rule';
import { omittedParentGroup } from './route/omitted-parent-group';
import { backendWeights } from './route/weights';
import { annotationGrammar } from './retry/annotation-grammar';
import { misplacedAnnotations } from './retry/misplaced-annotations';
import { nonIdempotentRetries } from './retry/non-idempotent';
import { retryBudget } from './retry/retry-budget';
import { routeReplacesService } from './retry/route-replaces-service';
import { unknownRetryKeys } from './retry/unknown-keys';
import { ambiguousMatches } from './route/ambiguous-matches';
import { backendExists } from './route/backend-exists';
import { backendKind } from './route/backend-kind';
import { backendPort } from './route/backend-port';
import { backendSanity } from './route/backend-sanity';
import { beyondGatewayV121 } from './route/beyond-v1-2-1';
import { consumerRoute } from './route/consumer-route';
import { gatewayApiVersion } from './route/gateway-api-version';
import { ignoredTimeouts } from './route/ignored-timeouts';
import { kindConflict } from './route/kind-conflict';
import { layer4AndEgress } from './route/layer4-and-egress';
import { meshHostnames } from './route/mesh-hostnames';
import { missingParents } from './route/missing-parents';
import { parentClusterIp } from './route/parent-cluster-ip';
import { parentExists } from './route/parent-exists';
import { parentPort } from './route/parent-port';
import { ruleTimeouts } from './route/rule-timeouts';
import { serverParentScope } from './route/server-parent-scope';
import { serviceProfileWins } from './route/service-profile';
import { unsupportedFilters } from './route/unsupported-filters';

export const ALL_RULES: Rule[] = [
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
  kindConflict,
  ambiguousMatches,
  ruleTimeouts,
  layer4AndEgress,
  gatewayApiVersion,
  missingParents,
  ignoredTimeouts,
  serviceProfileWins,
  beyondGatewayV121,
  meshHostnames,
  serverParentScope,
  nonIdempotentRetries,
  annotationGrammar,
  retryBudget,
  misplacedAnnotations,
  routeReplacesService,
  unknownRetryKeys,
].sort((a, b) => a.id.localeCompare(b.id));

export function ruleById(id: string): Rule | undefined {
  return ALL_RULES.find((r) => r.id === id);
}
