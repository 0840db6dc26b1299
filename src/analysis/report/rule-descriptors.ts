/**
 * The documentation of every rule a report can mention. The engine's pack is not the whole list: the engine itself
 * reports malformed suppressions (LKD-META-001) and front-ends add schema findings, so reports take a catalog.
 */
import { compareStrings } from '../../util/compare';
import { SUPPRESSION_RULE_ID } from '../engine';
import { Severity } from '../finding';
import { RuleDoc } from '../rule';

export interface RuleDescriptor {
  readonly id: string;
  readonly severity: Severity;
  readonly doc: RuleDoc;
}

export const SUPPRESSION_RULE: RuleDescriptor = {
  id: SUPPRESSION_RULE_ID,
  severity: Severity.ERROR,
  doc: {
    title: 'Suppressions must name a rule ID and give a reason',
    why: 'A suppression without a valid rule ID or a readable reason (letters or digits once invisible and space characters '
      + 'are removed) hides findings without an audit trail, so it is rejected (an error) and cannot itself be suppressed. '
      + 'A suppression of a rule that cannot be suppressed (LKD-MESH-009, which a copy would use to vouch for itself, or a '
      + 'rule the analysis makes unsuppressible) is not applied and is listed as a warning.',
    fix: 'Set the annotation to a JSON list of {"ruleId": "LKD-…", "reason": "why this is acceptable"} entries, or write '
      + 'ignore-check.cdk8s-linkerd.io/<RULE-ID>: "why this is acceptable"; remove suppressions that are not applied.',
    linkerdSource: 'not Linkerd: suppression policy of this library (analysis.cdk8s-linkerd.io/suppress, '
      + 'ignore-check.cdk8s-linkerd.io/<RULE-ID>, MeshChecks.suppress, the unsuppressible option)',
  },
};

/** Rules by ID, first occurrence wins (so a pack rule overrides a front-end's stand-in), sorted by ID. */
export function ruleCatalog(...groups: ReadonlyArray<readonly RuleDescriptor[]>): RuleDescriptor[] {
  const byId = new Map<string, RuleDescriptor>();
  for (const group of groups) {
    for (const rule of group) if (!byId.has(rule.id)) byId.set(rule.id, { id: rule.id, severity: rule.severity, doc: rule.doc });
  }
  return [...byId.values()].sort((a, b) => compareStrings(a.id, b.id));
}

/** A readable identifier from a title, as SARIF's `name` wants (`Service parentRef must …` → `ServiceParentRefMust…`). */
export function ruleName(rule: RuleDescriptor): string {
  const words = rule.doc.title.replace(/[^A-Za-z0-9]+/g, ' ').trim().split(' ').filter(Boolean);
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return name || rule.id.replace(/[^A-Za-z0-9]/g, '');
}
