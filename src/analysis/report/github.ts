/**
 * GitHub Actions workflow commands: `::error file=…,line=…,title=LKD-…::message` per finding (warnings as
 * `::warning`, information as `::notice`), which GitHub shows on the pull request's diff, then the summary line.
 * Escaped as the runner reads them: in the message %, CR and LF; in properties also `:` and `,`.
 */
import { Finding, SuppressedFinding } from '../finding';
import { HelpUri } from './help-uri';
import { countFindings, resourceLabel } from './summary';

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(f: Finding): string {
  return f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'notice';
}

function findingCommand(f: Finding, helpUri?: HelpUri): string {
  const props: string[] = [];
  if (f.file) props.push(`file=${escapeProperty(f.file.replace(/\\/g, '/'))}`);
  if (f.file && f.line) props.push(`line=${f.line}`);
  props.push(`title=${escapeProperty(`${f.ruleId}${f.cluster !== undefined ? ` [cluster ${f.cluster}]` : ''}`)}`);
  const see = helpUri ? `\nSee ${helpUri(f.ruleId)}` : '';
  const message = `${resourceLabel(f)}: ${f.message}\nFix: ${f.fix}${see}`;
  return `::${command(f)} ${props.join(',')}::${escapeData(message)}`;
}

export function formatGithub(findings: readonly Finding[], suppressed: readonly SuppressedFinding[] = [], helpUri?: HelpUri): string {
  const counts = countFindings(findings);
  const summary = `cdk8s-linkerd: ${counts.errors} errors, ${counts.warnings} warnings, ${counts.infos} info, ${suppressed.length} suppressed`;
  return `${[...findings.map((f) => findingCommand(f, helpUri)), summary].join('\n')}\n`;
}
