/**
 * SARIF 2.1.0 for GitHub code scanning: one run, every known rule in `tool.driver.rules` (so rule help shows even
 * for rules without results), results pointing at the YAML document that holds the object.
 * Suppressed findings are kept as results with an in-source suppression: that is SARIF's own audit trail.
 */
import { Finding, Severity, SuppressedFinding } from '../finding';
import { HelpUri } from './help-uri';
import { RuleDescriptor, ruleName } from './rule-descriptors';
import { resourceLabel } from './summary';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export interface SarifOptions {
  /** Every rule the tool knows; results for rules missing here get a minimal descriptor appended. */
  readonly rules: readonly RuleDescriptor[];
  readonly toolVersion: string;
  readonly informationUri: string;
  readonly suppressed?: readonly SuppressedFinding[];
  /** The documentation link of each rule (`tool.driver.rules[].helpUri`). */
  readonly helpUri?: HelpUri;
}

type SarifLevel = 'error' | 'warning' | 'note';

export function sarifLevel(severity: Severity): SarifLevel {
  return severity === Severity.ERROR ? 'error' : severity === Severity.WARNING ? 'warning' : 'note';
}

function helpText(rule: RuleDescriptor): string {
  const parts = [rule.doc.why, `Fix: ${rule.doc.fix}`];
  if (rule.doc.badExample) parts.push(`Triggers the rule:\n${rule.doc.badExample}`);
  if (rule.doc.goodExample) parts.push(`Fixed:\n${rule.doc.goodExample}`);
  return parts.join('\n\n');
}

function helpMarkdown(rule: RuleDescriptor): string {
  const parts = [rule.doc.why, `**Fix:** ${rule.doc.fix}`];
  if (rule.doc.badExample) parts.push(`Triggers the rule:\n\n\`\`\`yaml\n${rule.doc.badExample}\n\`\`\``);
  if (rule.doc.goodExample) parts.push(`Fixed:\n\n\`\`\`yaml\n${rule.doc.goodExample}\n\`\`\``);
  return parts.join('\n\n');
}

function ruleJson(rule: RuleDescriptor, helpUri?: HelpUri): Record<string, unknown> {
  return {
    id: rule.id,
    name: ruleName(rule),
    shortDescription: { text: rule.doc.title },
    fullDescription: { text: rule.doc.why },
    ...(helpUri ? { helpUri: helpUri(rule.id) } : {}),
    help: { text: helpText(rule), markdown: helpMarkdown(rule) },
    defaultConfiguration: { level: sarifLevel(rule.severity) },
    properties: { tags: ['linkerd', 'kubernetes'] },
  };
}

/** Relative paths stay relative (GitHub resolves them against the checkout); absolute ones become file URIs. */
export function artifactUri(file: string): string {
  const slashed = file.replace(/\\/g, '/');
  const absolute = slashed.startsWith('/') || /^[A-Za-z]:\//.test(slashed);
  const encoded = slashed.split('/').map(encodeURIComponent).join('/');
  if (!absolute) return encoded.replace(/^\.\//, '');
  return /^[A-Za-z]%3A/.test(encoded) ? `file:///${encoded.replace('%3A', ':')}` : `file://${encoded}`;
}

function resultJson(f: Finding, ruleIndex: number, reason?: string): Record<string, unknown> {
  const result: Record<string, unknown> = {
    ruleId: f.ruleId,
    ruleIndex,
    level: sarifLevel(f.severity),
    message: { text: `${f.cluster !== undefined ? `[cluster ${f.cluster}] ` : ''}${resourceLabel(f)}: ${f.message} Fix: ${f.fix}` },
  };
  if (f.cluster !== undefined) result.properties = { cluster: f.cluster };
  if (f.file) {
    result.locations = [{
      physicalLocation: { artifactLocation: { uri: artifactUri(f.file) }, region: { startLine: Math.max(1, f.line ?? 1) } },
      ...(f.constructPath ? { logicalLocations: [{ fullyQualifiedName: f.constructPath, kind: 'resource' }] } : {}),
    }];
  }
  // The annotation on the object is the in-source suppression; its reason is the justification a reviewer reads.
  if (reason !== undefined) result.suppressions = [{ kind: 'inSource', status: 'accepted', justification: reason }];
  return result;
}

/** The catalog plus stand-ins for any result rule it lacks, so every ruleIndex is valid. */
function completeCatalog(rules: readonly RuleDescriptor[], findings: readonly Finding[]): RuleDescriptor[] {
  const all = [...rules];
  const known = new Set(all.map((r) => r.id));
  for (const f of findings) {
    if (known.has(f.ruleId)) continue;
    known.add(f.ruleId);
    all.push({ id: f.ruleId, severity: f.severity, doc: { title: f.ruleId, why: f.message, fix: f.fix } });
  }
  return all;
}

export function formatSarif(findings: readonly Finding[], options: SarifOptions): string {
  const suppressed = options.suppressed ?? [];
  const rules = completeCatalog(options.rules, [...findings, ...suppressed.map((s) => s.finding)]);
  const indexOf = new Map(rules.map((r, i) => [r.id, i]));
  const results = [
    ...findings.map((f) => resultJson(f, indexOf.get(f.ruleId)!)),
    ...suppressed.map((s) => resultJson(s.finding, indexOf.get(s.finding.ruleId)!, s.reason)),
  ];
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'cdk8s-linkerd',
          informationUri: options.informationUri,
          version: options.toolVersion,
          rules: rules.map((r) => ruleJson(r, options.helpUri)),
        },
      },
      results,
    }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
