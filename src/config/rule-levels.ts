/**
 * The config file's `rules:` table applied to a result: a rule set to `off` reports nothing (its suppressed findings
 * go too, there is nothing left to suppress), any other level replaces the severity of the rule's findings. Applied
 * after the analysis, so it covers every rule the same way: the pack, the fleet rules and the schema rule.
 */
import { Finding, Severity, SuppressedFinding, compareFindings } from '../analysis/finding';

export type RuleLevel = 'off' | Severity;

export interface LevelledResult {
  readonly findings: Finding[];
  readonly suppressed: SuppressedFinding[];
}

export function applyRuleLevels<T extends LevelledResult>(result: T, levels: ReadonlyMap<string, RuleLevel>): T {
  if (levels.size === 0) return result;
  const level = (f: Finding): Finding | undefined => {
    const wanted = levels.get(f.ruleId);
    if (wanted === undefined) return f;
    if (wanted === 'off') return undefined;
    return wanted === f.severity ? f : { ...f, severity: wanted };
  };
  const findings = result.findings.map(level).filter((f): f is Finding => f !== undefined).sort(compareFindings);
  const suppressed = result.suppressed.flatMap((s) => {
    const f = level(s.finding);
    return f ? [{ ...s, finding: f }] : [];
  });
  return { ...result, findings, suppressed };
}
