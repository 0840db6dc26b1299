/**
 * JUnit XML for CI systems that show test reports (GitLab, Jenkins, Azure Pipelines): a test suite per rule, a test
 * case per object the rule reported on (failed when a finding reaches the threshold, skipped when suppressed, passed
 * otherwise with the finding in its output), and one passing case for each rule that found nothing.
 */
import { Finding, Severity, SuppressedFinding, severityAtLeast } from '../finding';
import { HelpUri } from './help-uri';
import { RuleDescriptor } from './rule-descriptors';
import { locationLabel, resourceLabel } from './summary';
import { compareStrings } from '../../util/compare';

export interface JunitOptions {
  readonly rules: readonly RuleDescriptor[];
  readonly suppressed?: readonly SuppressedFinding[];
  /** Findings at or above this severity are failures (default: error). */
  readonly failOn?: Severity;
  readonly helpUri?: HelpUri;
}

/** XML 1.0 text: the five entities, and the control characters XML cannot hold at all replaced by U+FFFD. */
export function xmlText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

interface Case {
  readonly name: string;
  readonly findings: Finding[];
  readonly reasons: string[];
}

function caseName(f: Finding): string {
  return `${f.cluster !== undefined ? `[cluster ${f.cluster}] ` : ''}${resourceLabel(f)}`;
}

function findingText(f: Finding, helpUri?: HelpUri): string {
  const see = helpUri ? `\nsee ${helpUri(f.ruleId)}` : '';
  return `${locationLabel(f)}: ${f.severity} ${f.ruleId} ${resourceLabel(f)}: ${f.message}\nFix: ${f.fix}${see}`;
}

function caseXml(ruleId: string, c: Case, failOn: Severity, helpUri?: HelpUri): string {
  const first = c.findings[0];
  const where = first?.file ? ` file="${xmlText(first.file)}"${first.line ? ` line="${first.line}"` : ''}` : '';
  const open = `    <testcase classname="${xmlText(ruleId)}" name="${xmlText(c.name)}"${where}>`;
  const failing = c.findings.filter((f) => severityAtLeast(f.severity, failOn));
  const body: string[] = [];
  if (failing.length > 0) {
    const text = failing.map((f) => findingText(f, helpUri)).join('\n\n');
    body.push(`      <failure type="${failing[0].severity}" message="${xmlText(failing[0].message)}">${xmlText(text)}</failure>`);
  } else if (c.findings.length === 0 && c.reasons.length > 0) {
    body.push(`      <skipped message="${xmlText(`suppressed: ${c.reasons.join('; ')}`)}"/>`);
  }
  const below = c.findings.filter((f) => !failing.includes(f));
  if (below.length > 0) body.push(`      <system-out>${xmlText(below.map((f) => findingText(f, helpUri)).join('\n\n'))}</system-out>`);
  return body.length === 0 ? `${open.slice(0, -1)}/>` : [open, ...body, '    </testcase>'].join('\n');
}

function casesByRule(findings: readonly Finding[], suppressed: readonly SuppressedFinding[]): Map<string, Map<string, Case>> {
  const byRule = new Map<string, Map<string, Case>>();
  const caseOf = (f: Finding) => {
    const cases = byRule.get(f.ruleId) ?? new Map<string, Case>();
    byRule.set(f.ruleId, cases);
    const name = caseName(f);
    const c = cases.get(name) ?? { name, findings: [], reasons: [] };
    cases.set(name, c);
    return c;
  };
  for (const f of findings) caseOf(f).findings.push(f);
  for (const s of suppressed) caseOf(s.finding).reasons.push(s.reason);
  return byRule;
}

export function formatJunit(findings: readonly Finding[], options: JunitOptions): string {
  const failOn = options.failOn ?? Severity.ERROR;
  const byRule = casesByRule(findings, options.suppressed ?? []);
  const ids = [...new Set([...options.rules.map((r) => r.id), ...byRule.keys()])].sort(compareStrings);
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  const suites = ids.map((id) => {
    const cases = [...(byRule.get(id)?.values() ?? [])].sort((a, b) => compareStrings(a.name, b.name));
    const xml = cases.length > 0 ? cases.map((c) => caseXml(id, c, failOn, options.helpUri)) : [`    <testcase classname="${xmlText(id)}" name="no findings"/>`];
    const suiteFailures = cases.filter((c) => c.findings.some((f) => severityAtLeast(f.severity, failOn))).length;
    const suiteSkipped = cases.filter((c) => c.findings.length === 0 && c.reasons.length > 0).length;
    const suiteTests = Math.max(1, cases.length);
    tests += suiteTests;
    failures += suiteFailures;
    skipped += suiteSkipped;
    return [`  <testsuite name="${xmlText(id)}" tests="${suiteTests}" failures="${suiteFailures}" errors="0" skipped="${suiteSkipped}">`, ...xml, '  </testsuite>'].join('\n');
  });
  const head = `<testsuites name="cdk8s-linkerd" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...suites, '</testsuites>', ''].join('\n');
}
