/**
 * Machine-readable report. The shape is a contract for scripts, so every key is always present (null when unknown)
 * and keys are written in a fixed order.
 */
import { Finding, SuppressedFinding } from '../finding';
import { HelpUri } from './help-uri';
import { countFindings } from './summary';

function findingJson(f: Finding, withCluster: boolean, helpUri?: HelpUri): Record<string, unknown> {
  return {
    ...(withCluster ? { cluster: f.cluster ?? null } : {}),
    ruleId: f.ruleId,
    severity: f.severity,
    resource: {
      apiVersion: f.resource.apiVersion,
      kind: f.resource.kind,
      namespace: f.resource.namespace ?? null,
      name: f.resource.name,
    },
    message: f.message,
    file: f.file ?? null,
    line: f.line ?? null,
    fix: f.fix,
    helpUri: helpUri ? helpUri(f.ruleId) : null,
  };
}

/**
 * The report; `suppressed` lists every suppressed finding with the object it is on and the reason recorded there, so a
 * script that gates on `findings` also sees what was waived.
 */
export function formatJson(findings: readonly Finding[], suppressed: readonly SuppressedFinding[] = [], helpUri?: HelpUri): string {
  const counts = countFindings(findings);
  // A fleet report names the cluster of every finding; a single-cluster report keeps its shape without the key.
  const withCluster = [...findings, ...suppressed.map((s) => s.finding)].some((f) => f.cluster !== undefined);
  const report = {
    findings: findings.map((f) => findingJson(f, withCluster, helpUri)),
    suppressed: suppressed.map((s) => ({ ...findingJson(s.finding, withCluster, helpUri), reason: s.reason })),
    summary: { errors: counts.errors, warnings: counts.warnings },
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
