/**
 * The rule pack, the one registry of rules: each area folder lists its rules in its index.ts, and this file joins
 * the lists. Adding a rule = one new file plus one line in its area's index.ts (docs/architecture.md lists the rest).
 */
import { CERT_RULES } from './cert';
import { CONTROL_PLANE_RULES } from './control-plane';
import { MESH_RULES } from './mesh';
import { MULTICLUSTER_RULES } from './multicluster';
import { POLICY_RULES } from './policy';
import { RETRY_RULES } from './retry';
import { ROUTE_RULES } from './route';
import { SCHEMA_RULES } from './schema';
import { SECRET_RULES } from './secrets';
import { VERSION_RULES } from './version';
import { compareStrings } from '../../util/compare';
import { FleetRule } from '../fleet/fleet-rule';
import { Rule } from '../rule';
import { CAPACITY_RULES } from './capacity';

export { SCHEMA_RULE_DESCRIPTOR, SCHEMA_RULE_ID, schemaRule } from './schema/crds';

/** The rules the engine runs on one cluster's manifests, in ID order. */
export const ALL_RULES: Rule[] = [
  ...CAPACITY_RULES, ...CERT_RULES, ...CONTROL_PLANE_RULES, ...MESH_RULES, ...POLICY_RULES, ...RETRY_RULES, ...ROUTE_RULES, ...SCHEMA_RULES,
  ...SECRET_RULES, ...VERSION_RULES,
].sort((a, b) => compareStrings(a.id, b.id));

/** The rules analyzeFleet runs over every cluster of a fleet at once (LKD-MC-*), in ID order. */
export const FLEET_RULES: FleetRule[] = [...MULTICLUSTER_RULES].sort((a, b) => compareStrings(a.id, b.id));

export function ruleById(id: string): Rule | undefined {
  return ALL_RULES.find((r) => r.id === id);
}
