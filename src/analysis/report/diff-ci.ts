/**
 * `diff` in the formats CI systems read: GitHub workflow commands (a change that `--fail-on` names is an `::error`,
 * any other a `::notice`, shown on the pull request) and JUnit XML (a test case per change, failed when `--fail-on`
 * names it). A diff change has no file or line: it is about what two whole trees do, not about one object.
 */
import { escapeData, escapeProperty } from './github';
import { xmlText } from './junit';
import { DiffFailOn, MeshChange, MeshDiff, changeMatches } from '../reachability';

function title(c: MeshChange): string {
  return `${c.kind} ${c.change}`;
}

function subject(c: MeshChange): string {
  return `${c.source} -> ${c.target}${c.request !== undefined ? ` ${c.request}` : ''}`;
}

const failing = (c: MeshChange, failOn?: DiffFailOn): boolean => failOn !== undefined && changeMatches(c, failOn);

export function formatDiffGithub(diff: MeshDiff, failOn?: DiffFailOn): string {
  const lines = diff.changes.map((c) => `::${failing(c, failOn) ? 'error' : 'notice'} title=${escapeProperty(title(c))}::`
    + escapeData(`${subject(c)}: ${c.because}`));
  const failed = diff.changes.filter((c) => failing(c, failOn)).length;
  lines.push(`cdk8s-linkerd diff: ${diff.changes.length} changes, ${failed} matching --fail-on`);
  return `${lines.join('\n')}\n`;
}

export function formatDiffJunit(diff: MeshDiff, failOn?: DiffFailOn): string {
  const failures = diff.changes.filter((c) => failing(c, failOn)).length;
  const cases = diff.changes.map((c) => {
    const open = `    <testcase classname="${xmlText(title(c))}" name="${xmlText(subject(c))}">`;
    const body = failing(c, failOn)
      ? `      <failure type="${xmlText(c.kind)}" message="${xmlText(c.because)}">${xmlText(`${subject(c)}: ${c.because}`)}</failure>`
      : `      <system-out>${xmlText(c.because)}</system-out>`;
    return [open, body, '    </testcase>'].join('\n');
  });
  // No change is a passing run: one case says so, as a report with no test cases reads as "nothing ran".
  if (cases.length === 0) cases.push('    <testcase classname="diff" name="no request of any caller is treated differently"/>');
  return ['<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cdk8s-linkerd diff" tests="${cases.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="cdk8s-linkerd diff" tests="${cases.length}" failures="${failures}" errors="0">`,
    ...cases, '  </testsuite>', '</testsuites>', ''].join('\n');
}
