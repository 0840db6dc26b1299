/** `cdk8s-linkerd rules` and the rule catalog every report uses: the engine's pack plus the rules front-ends add. */
import { OptionSpec, optionValue, parseArgs } from './args';
import { CliIo } from './io';
import { RuleDescriptor, SUPPRESSION_RULE, ruleCatalog } from '../../analysis/report';
import { ALL_RULES, FLEET_RULES } from '../../analysis/rules';
import { SCHEMA_RULE_DESCRIPTOR } from '../../analysis/rules/schema/crds';

export function knownRules(): RuleDescriptor[] {
  return ruleCatalog(ALL_RULES, FLEET_RULES, [SUPPRESSION_RULE, SCHEMA_RULE_DESCRIPTOR]);
}

const SPECS: Record<string, OptionSpec> = { format: { value: true, choices: ['text', 'json'] } };

function rulesText(rules: RuleDescriptor[]): string {
  const width = Math.max(...rules.map((r) => r.id.length));
  return rules.map((r) => `${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${r.doc.title}\n`).join('');
}

function rulesJson(rules: RuleDescriptor[]): string {
  const list = rules.map((r) => ({ id: r.id, severity: r.severity, title: r.doc.title, why: r.doc.why, fix: r.doc.fix }));
  return `${JSON.stringify({ rules: list }, null, 2)}\n`;
}

export function rulesCommand(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, SPECS);
  const rules = knownRules();
  io.stdout(optionValue(args, 'format') === 'json' ? rulesJson(rules) : rulesText(rules));
  return 0;
}
