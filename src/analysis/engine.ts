/**
 * The one analysis engine behind every front-end: index the manifests once, run every rule, apply suppressions,
 * and return findings in a deterministic order.
 */
import { Finding, Severity, SuppressedFinding, compareFindings, severityAtLeast } from './finding';
import { impliedChartObjects } from './model/chart-objects';
import { clusterFactsOf } from './model/cluster-facts';
import { KubeObject, Manifest } from './model/manifest';
import { MeshIndex } from './model/mesh-index';
import { AnalysisContext, AnalysisContextInput, resolveContext } from './options';
import { AnalysisResult } from './result';
import { Rule } from './rule';
import { ALL_RULES } from './rules';
import { runRules as runEach } from './runner';
import { parseSuppressions } from './suppressions';

export type { AnalysisResult };

export interface AnalyzeOptions extends AnalysisContextInput {
  /** The rules to run; defaults to every registered rule. */
  readonly rules?: Rule[];
}

export const SUPPRESSION_RULE_ID = 'LKD-META-001';

function runRules(rules: Rule[], index: MeshIndex, context: AnalysisContext): Finding[] {
  const findings: Finding[] = [];
  runEach(rules, (report) => ({ index, context, report }), (finding) => findings.push(finding));
  return findings;
}

function resourceKey(f: Finding): string {
  return `${f.resource.apiVersion}|${f.resource.kind}|${f.resource.namespace ?? ''}|${f.resource.name}`;
}

interface SuppressionTable {
  /** Rule ID → reason, per resource key. */
  readonly reasons: Map<string, Map<string, string>>;
  /** LKD-META-001 findings for annotations that cannot be used. */
  readonly problems: Finding[];
}

/** Reads every object's suppression annotation once: the usable ones, and findings for the rest. */
function readSuppressions(index: MeshIndex): SuppressionTable {
  const reasons = new Map<string, Map<string, string>>();
  const problems: Finding[] = [];
  for (const entry of index.objects) {
    if (entry.inventory) continue;
    const parsed = parseSuppressions(entry.object);
    if (parsed.suppressions.length > 0) {
      reasons.set(resourceKey({ resource: entry.id } as Finding), new Map(parsed.suppressions.map((s) => [s.ruleId, s.reason])));
    }
    for (const problem of parsed.problems) {
      problems.push({
        ruleId: SUPPRESSION_RULE_ID,
        severity: Severity.ERROR,
        resource: entry.id,
        message: problem,
        fix: 'Suppress with a rule ID and a reason, e.g. Checks.suppress(construct, "LKD-POL-011", "why this is acceptable").',
        constructPath: entry.source.constructPath,
        file: entry.source.file,
        line: entry.source.line,
      });
    }
  }
  return { reasons, problems };
}

function applySuppressions(findings: Finding[], table: SuppressionTable): { kept: Finding[]; suppressed: SuppressedFinding[] } {
  const kept: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  for (const finding of findings) {
    const reason = table.reasons.get(resourceKey(finding))?.get(finding.ruleId);
    if (reason !== undefined && finding.ruleId !== SUPPRESSION_RULE_ID) suppressed.push({ finding, reason });
    else kept.push(finding);
  }
  return { kept, suppressed };
}

/** Options given explicitly, without the keys left undefined (so they do not hide what the install says). */
function explicitOptions(options: AnalysisContextInput): AnalysisContextInput {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) if (value !== undefined && key !== 'rules') out[key] = value;
  return out as AnalysisContextInput;
}

/** The index of these manifests under what the context says of the cluster (extra objects join the inventory). */
function indexFor(manifests: Manifest[], context: AnalysisContext, extraInventory: KubeObject[] = []): MeshIndex {
  return new MeshIndex(manifests, [...context.inventory, ...extraInventory], context.controlPlaneNamespace, context.defaultNamespace,
    context.serviceAccountTokenProjection);
}

/**
 * The context: explicit options, then what the control-plane install in the manifests says, then the chart's
 * defaults. The index depends on the control-plane namespace (injected pods carry it) and on token projection (without
 * it the injector skips pods that mount no token), so it is built again in the rare case the install says otherwise than
 * assumed.
 */
function contextAndIndex(manifests: Manifest[], options: AnalysisContextInput): { context: AnalysisContext; index: MeshIndex } {
  const explicit = explicitOptions(options);
  let context = resolveContext(explicit);
  let index = indexFor(manifests, context);
  const facts = clusterFactsOf(index);
  if (Object.keys(facts).length > 0) {
    const assumed = context;
    context = resolveContext({ ...facts, ...explicit });
    if (context.controlPlaneNamespace !== assumed.controlPlaneNamespace
      || context.serviceAccountTokenProjection !== assumed.serviceAccountTokenProjection) {
      index = indexFor(manifests, context);
    }
  }
  return { context, index: withChartObjects(manifests, context, index) };
}

/** The index, with what delivered extension charts will create added to the inventory (rebuilt only when there is some). */
function withChartObjects(manifests: Manifest[], context: AnalysisContext, index: MeshIndex): MeshIndex {
  const implied = impliedChartObjects(index);
  if (implied.length === 0) return index;
  return indexFor(manifests, context, implied);
}

/** Analyzes manifests and returns every finding, sorted. */
export function analyze(manifests: Manifest[], options: AnalyzeOptions = {}): AnalysisResult {
  const { context, index } = contextAndIndex(manifests, options);
  const table = readSuppressions(index);
  const raw = [...runRules(options.rules ?? ALL_RULES, index, context), ...table.problems];
  const { kept, suppressed } = applySuppressions(raw, table);
  kept.sort(compareFindings);
  suppressed.sort((a, b) => compareFindings(a.finding, b.finding));
  return { findings: kept, suppressed, index, context };
}

/** Findings at or above a severity threshold. */
export function findingsAtLeast(findings: Finding[], threshold: Severity): Finding[] {
  return findings.filter((f) => severityAtLeast(f.severity, threshold));
}
