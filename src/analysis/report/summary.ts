/** Counting findings by severity, shared by every report format so their summaries always agree. */
import { idLabel } from '../../util/labels';
import { Finding, Severity } from '../finding';

export interface FindingCounts {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export function countFindings(findings: readonly Finding[]): FindingCounts {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const f of findings) {
    if (f.severity === Severity.ERROR) errors++;
    else if (f.severity === Severity.WARNING) warnings++;
    else infos++;
  }
  return { errors, warnings, infos };
}

/** `Kind ns/name`, or `Kind name` for cluster-scoped objects. */
export function resourceLabel(f: Finding): string {
  return idLabel(f.resource);
}

/** Where a finding points: `file:line`, else the construct path, else a placeholder so columns stay parseable. */
export function locationLabel(f: Finding): string {
  if (f.file) return f.line ? `${f.file}:${f.line}` : f.file;
  return f.constructPath ?? '<unknown>';
}
