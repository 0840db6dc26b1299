/**
 * cdk8s-cli validation plugin: runs the same engine as the constructs and the CLI over the manifests `cdk8s synth`
 * wrote, and reports every finding at or above `failOn` as a violation (which makes `cdk8s synth` exit 2).
 */
import { ValidationContextLike, Violation } from './plugin-types';
import { LinkerdValidationSettings, readProperties } from './properties';
import { AnalysisResult, analyze, findingsAtLeast } from '../../analysis/engine';
import { Finding } from '../../analysis/finding';
import { Manifest } from '../../analysis/model/manifest';
import { countFindings } from '../../analysis/report';
import { ALL_RULES } from '../../analysis/rules';
import { loadManifests, parseManifests, readInput } from '../cli/load-manifests';
import { schemaRule } from '../cli/schema-rule';

/** Construct paths by resource name; names used by more than one object are left out rather than guessed. */
function constructPaths(manifests: Manifest[], metadata: ValidationContextLike['metadata']): Map<string, string> {
  const counts = new Map<string, number>();
  for (const m of manifests) {
    const name = String(m.object.metadata?.name ?? '');
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const paths = new Map<string, string>();
  for (const [name, entry] of Object.entries(metadata ?? {})) {
    if (counts.get(name) === 1 && typeof entry?.path === 'string') paths.set(name, entry.path);
  }
  return paths;
}

function loadSynthesized(context: ValidationContextLike): Manifest[] {
  const manifests = context.manifests.flatMap((file) => parseManifests(readInput({ absolute: file, display: file }), file));
  const paths = constructPaths(manifests, context.metadata);
  return manifests.map((m) => {
    const constructPath = paths.get(String(m.object.metadata?.name ?? ''));
    return constructPath ? { object: m.object, source: { ...m.source, constructPath } } : m;
  });
}

function toViolation(f: Finding): Violation {
  const where = f.constructPath ?? (f.line ? `${f.file}:${f.line}` : f.file ?? '');
  return {
    ruleName: f.ruleId,
    recommendation: `${f.resource.kind} ${f.resource.namespace ? `${f.resource.namespace}/` : ''}${f.resource.name}: ${f.message}`,
    fix: f.fix,
    violatingResources: [{ resourceName: f.resource.name, locations: [where], manifestPath: f.file ?? '' }],
  };
}

function logBelowThreshold(ctx: ValidationContextLike, result: AnalysisResult, failing: Finding[]): void {
  if (!ctx.logger) return;
  for (const f of result.findings) {
    if (!failing.includes(f)) ctx.logger.log(`cdk8s-linkerd ${f.severity}: ${f.ruleId} ${toViolation(f).recommendation}`);
  }
  for (const s of result.suppressed) {
    ctx.logger.log(`cdk8s-linkerd suppressed: ${s.finding.ruleId} on ${s.finding.resource.kind} ${s.finding.resource.name} (reason: ${s.reason})`);
  }
}

export class LinkerdValidation {
  private readonly settings: LinkerdValidationSettings;

  /** cdk8s-cli calls `new LinkerdValidation(properties)` with the `properties` of the cdk8s.yaml entry. */
  constructor(properties: any = {}) {
    this.settings = readProperties(properties);
  }

  public async validate(context: any): Promise<void> {
    const ctx = context as ValidationContextLike;
    const result = this.analyze(loadSynthesized(ctx));
    const failing = findingsAtLeast(result.findings, this.settings.failOn);
    for (const f of failing) ctx.report.addViolation(toViolation(f));
    // Findings below the threshold and suppressions are not violations, but the log keeps them visible.
    logBelowThreshold(ctx, result, failing);
    const counts = countFindings(result.findings);
    ctx.report.submit(failing.length > 0 ? 'failure' : 'success', {
      errors: String(counts.errors),
      warnings: String(counts.warnings),
      suppressed: String(result.suppressed.length),
    });
  }

  private analyze(manifests: Manifest[]): AnalysisResult {
    const s = this.settings;
    return analyze(manifests, {
      ...s.context,
      inventory: s.inventory.length > 0 ? loadManifests(s.inventory, process.cwd()).map((m) => m.object) : undefined,
      rules: s.crds.length > 0 ? [...ALL_RULES, schemaRule(s.crds)] : undefined,
    });
  }
}
