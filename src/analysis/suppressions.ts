/**
 * Suppressions live on the object itself, as an annotation, so the audit trail survives into the YAML and every
 * front-end (constructs, CLI, plugin) honours the same ones. A suppression without a reason is itself an error.
 */
import { KubeObject, annotationsOf } from './model/manifest';
import { compareStrings } from '../util/compare';

export const SUPPRESS_ANNOTATION = 'analysis.cdk8s-linkerd.io/suppress';

export interface Suppression {
  readonly ruleId: string;
  readonly reason: string;
}

export interface ParsedSuppressions {
  readonly suppressions: Suppression[];
  /** Why the annotation could not be used, if it could not. */
  readonly problems: string[];
}

const RULE_ID = /^LKD-[A-Z]+-\d{3}$/;

/** Reads the suppression annotation: a JSON list of `{"ruleId": "...", "reason": "..."}`. */
export function parseSuppressions(obj: KubeObject): ParsedSuppressions {
  const raw = annotationsOf(obj)[SUPPRESS_ANNOTATION];
  if (raw === undefined) return { suppressions: [], problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { suppressions: [], problems: [`annotation ${SUPPRESS_ANNOTATION} is not valid JSON`] };
  }
  if (!Array.isArray(parsed)) return { suppressions: [], problems: [`annotation ${SUPPRESS_ANNOTATION} must be a JSON list`] };
  const suppressions: Suppression[] = [];
  const problems: string[] = [];
  for (const item of parsed) {
    const ruleId = (item as any)?.ruleId;
    const reason = (item as any)?.reason;
    if (typeof ruleId !== 'string' || !RULE_ID.test(ruleId)) {
      problems.push(`suppression ${JSON.stringify(item)} has no valid ruleId (like LKD-ROUTE-001)`);
    } else if (typeof reason !== 'string' || reason.trim().length < 3) {
      problems.push(`suppression of ${ruleId} has no reason; every suppression must say why`);
    } else {
      suppressions.push({ ruleId, reason: reason.trim() });
    }
  }
  return { suppressions, problems };
}

/** Serializes suppressions for the annotation, sorted so output is deterministic. */
export function formatSuppressions(suppressions: Suppression[]): string {
  const sorted = [...suppressions].sort((a, b) => compareStrings(a.ruleId, b.ruleId) || compareStrings(a.reason, b.reason));
  return JSON.stringify(sorted.map((s) => ({ ruleId: s.ruleId, reason: s.reason })));
}
