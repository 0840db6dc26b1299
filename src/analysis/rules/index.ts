/**
 * The rule pack: every rule the engine runs, in ID order. Adding a rule = one new file plus one line here.
 */
import { Rule } from '../rule';
import { omittedParentGroup } from './route/omitted-parent-group';
import { backendWeights } from './route/weights';

export const ALL_RULES: Rule[] = [
  omittedParentGroup,
  backendWeights,
].sort((a, b) => a.id.localeCompare(b.id));

export function ruleById(id: string): Rule | undefined {
  return ALL_RULES.find((r) => r.id === id);
}
