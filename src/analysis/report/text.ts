/**
 * Human-readable report: one line per finding (`file:line: severity ruleId Kind ns/name: message (fix: …)`), a
 * summary line, and the suppressed findings with their reasons, so the audit trail is visible in every run.
 */
import { Finding, SuppressedFinding } from '../finding';
import { HelpUri } from './help-uri';
import { countFindings, locationLabel, resourceLabel } from './summary';
import { printableLine } from '../../util/terminal-text';

/** In a fleet report every line starts with its cluster, so `grep '^\[cluster west\]'` gives one cluster's findings. */
function clusterPrefix(f: Finding): string {
  return f.cluster !== undefined ? `[cluster ${f.cluster}] ` : '';
}

// Names, files, messages and reasons come from the input: control characters are printed as escapes, never raw.
function findingLine(f: Finding): string {
  return printableLine(`${clusterPrefix(f)}${locationLabel(f)}: ${f.severity} ${f.ruleId} ${resourceLabel(f)}: ${f.message} (fix: ${f.fix})`);
}

function suppressedLine(s: SuppressedFinding): string {
  const f = s.finding;
  return `  ${printableLine(`${clusterPrefix(f)}${locationLabel(f)}: ${f.severity} ${f.ruleId} ${resourceLabel(f)}: ${f.message} (reason: ${s.reason})`)}`;
}

function summaryLine(findings: readonly Finding[], suppressed: readonly SuppressedFinding[]): string {
  const counts = countFindings(findings);
  const parts = [`${counts.errors} errors`, `${counts.warnings} warnings`];
  if (counts.infos > 0) parts.push(`${counts.infos} info`);
  if (suppressed.length > 0) parts.push(`${suppressed.length} suppressed`);
  return parts.join(', ');
}

/** With `helpUri` (the CLI's --verbose), each finding is followed by its rule's documentation link. */
export function formatText(findings: readonly Finding[], suppressed: readonly SuppressedFinding[] = [], helpUri?: HelpUri): string {
  const lines = findings.flatMap((f) => (helpUri ? [findingLine(f), `  see ${helpUri(f.ruleId)}`] : [findingLine(f)]));
  lines.push(summaryLine(findings, suppressed));
  if (suppressed.length > 0) {
    lines.push('suppressed:');
    lines.push(...suppressed.map(suppressedLine));
  }
  return `${lines.join('\n')}\n`;
}
