/**
 * The one analysis engine behind every front-end: index the manifests once, run every rule, apply suppressions,
 * and return findings in a deterministic order.
 */
import { Finding, Severity, SuppressedFinding, compareFindings, severityAtLeast } from './finding';
import { impliedChartObjects } from './model/chart-objects';
import { clusterFactsOf } from './model/cluster-facts';
import { KubeObject, Manifest } from './model/manifest';
import { IndexedObject, MeshIndex } from './model/mesh-index';
import { AnalysisContext, AnalysisContextInput, resolveContext } from './options';
import { AnalysisResult } from './result';
import { Rule } from './rule';
import { ALL_RULES } from './rules';
import { runRules as runEach } from './runner';
import {
  IGNORE_CHECK_ANNOTATION_PREFIX, NO_SUPPRESSIONS, ObjectSuppressions, SUPPRESSION_RULE_ID, objectSuppressions,
} from './suppressions';

export type { AnalysisResult };

export interface AnalyzeOptions extends AnalysisContextInput {
  /** The rules to run; defaults to every registered rule. */
  readonly rules?: Rule[];
}

export { SUPPRESSION_RULE_ID };

/** A finding with the object it was reported on: suppressions are read from that object and no other. */
interface Reported {
  readonly finding: Finding;
  readonly subject: IndexedObject;
}

function runRules(rules: Rule[], index: MeshIndex, context: AnalysisContext): Reported[] {
  const reported: Reported[] = [];
  runEach(rules, (report) => ({ index, context, report }), (finding, subject) => reported.push({ finding, subject }));
  return reported;
}

/** What to do about a suppression that cannot be read, and about one that is not applied. */
const UNREADABLE_FIX = 'Suppress with a rule ID and a reason, e.g. MeshChecks.suppress(construct, "LKD-POL-011", "why this is acceptable"), '
  + `or the annotation ${IGNORE_CHECK_ANNOTATION_PREFIX}LKD-POL-011: "why this is acceptable" on the object itself.`;
const NOT_APPLIED_FIX = 'Fix what the finding reports (it stays in the report whatever the annotation says), then remove the suppression.';

/** An LKD-META-001 finding about an object's suppression annotations. */
function suppressionFinding(subject: IndexedObject, message: string, severity: Severity): Finding {
  return {
    ruleId: SUPPRESSION_RULE_ID,
    severity,
    resource: subject.id,
    message,
    fix: severity === Severity.ERROR ? UNREADABLE_FIX : NOT_APPLIED_FIX,
    constructPath: subject.source.constructPath,
    file: subject.source.file,
    line: subject.source.line,
  };
}

/**
 * Reads each object's suppressions once (by the object itself, never by its identity: another copy of it, or an object
 * of the same name in another file, suppresses nothing here). Broken annotations are LKD-META-001 errors; suppressions
 * that are not applied (a rule no one may suppress, or one made unsuppressible) are LKD-META-001 warnings.
 */
export class SuppressionReader {
  private readonly byObject = new Map<object, ObjectSuppressions>();
  private readonly unsuppressible: ReadonlySet<string>;

  constructor(unsuppressible: readonly string[] = []) {
    this.unsuppressible = new Set(unsuppressible);
  }

  public of(subject: IndexedObject): ObjectSuppressions {
    const cached = this.byObject.get(subject.object);
    if (cached) return cached;
    const found = objectSuppressions(subject.object, this.unsuppressible);
    // Only objects with suppressions are kept: every object is read once, and most (often all) have none, which is
    // quick to see again for the few findings on them.
    if (found !== NO_SUPPRESSIONS) this.byObject.set(subject.object, found);
    return found;
  }

  /** The findings about every object's suppressions: what could not be read (errors) and what is not applied (warnings). */
  public findings(index: MeshIndex): Finding[] {
    const out: Finding[] = [];
    for (const entry of index.objects) {
      if (entry.inventory) continue;
      const own = this.of(entry);
      for (const problem of own.problems) out.push(suppressionFinding(entry, problem, Severity.ERROR));
      for (const refused of own.refused) out.push(suppressionFinding(entry, refused, Severity.WARNING));
    }
    return out;
  }

  /** The reason that suppresses this finding on this object, if one does. */
  public reasonFor(finding: Finding, subject: IndexedObject): string | undefined {
    if (finding.ruleId === SUPPRESSION_RULE_ID) return undefined;
    return this.of(subject).reasons.get(finding.ruleId);
  }
}

function applySuppressions(reported: readonly Reported[], reader: SuppressionReader): { kept: Finding[]; suppressed: SuppressedFinding[] } {
  const kept: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  for (const { finding, subject } of reported) {
    const reason = reader.reasonFor(finding, subject);
    if (reason !== undefined) suppressed.push({ finding, reason });
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
  const reader = new SuppressionReader(context.unsuppressible);
  const { kept, suppressed } = applySuppressions(runRules(options.rules ?? ALL_RULES, index, context), reader);
  kept.push(...reader.findings(index));
  kept.sort(compareFindings);
  suppressed.sort((a, b) => compareFindings(a.finding, b.finding));
  return { findings: kept, suppressed, index, context };
}

/** Findings at or above a severity threshold. */
export function findingsAtLeast(findings: Finding[], threshold: Severity): Finding[] {
  return findings.filter((f) => severityAtLeast(f.severity, threshold));
}
