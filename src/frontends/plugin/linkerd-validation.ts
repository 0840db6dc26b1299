/**
 * cdk8s-cli validation plugin: runs the same engine as the constructs and the CLI over the manifests `cdk8s synth`
 * wrote, and reports every finding at or above `failOn` as a violation (which makes `cdk8s synth` exit 2).
 */
import * as path from 'path';
import { ValidationContextLike, Violation } from './plugin-types';
import { AnalyzeOptions, analyze, findingsAtLeast } from '../../analysis/engine';
import { Finding, SuppressedFinding } from '../../analysis/finding';
import { analyzeFleet } from '../../analysis/fleet';
import { Manifest } from '../../analysis/model/manifest';
import { countFindings } from '../../analysis/report';
import { ALL_RULES } from '../../analysis/rules';
import { schemaRule } from '../../analysis/rules/schema/crds';
import { LinkerdValidationSettings, SettingError, missingPaths, readProperties } from '../../checks/plugin-settings';
import { CheckConfig, ConfigError, applyRuleLevels, excludedByConfig, mergeContext, resolveConfig } from '../../config';
import { InputError } from '../../core/input-error';
import { idLabel } from '../../util/labels';
import { printableLine } from '../../util/terminal-text';
import { loadManifests, parseManifests, readInput } from '../cli/load-manifests';

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

/**
 * The synthesized files the config file's `exclude` leaves (as the CLI reads them), each skipped one logged; when it
 * leaves none, nothing would be analysed, which is refused rather than passed.
 */
function filesToAnalyse(context: ValidationContextLike, config: CheckConfig): readonly string[] {
  const kept = context.manifests.filter((file) => {
    if (!excludedByConfig(path.resolve(file), config)) return true;
    context.logger?.log(printableLine(`cdk8s-linkerd note: skipped ${file} (exclude in ${config.file})`));
    return false;
  });
  if (kept.length === 0 && context.manifests.length > 0) {
    throw new InputError(`every synthesized manifest was skipped (${context.manifests.length} by exclude in ${config.file}), nothing was analysed`,
      'Narrow the exclude list of the config file so that it leaves the manifests cdk8s synth writes.');
  }
  return kept;
}

function loadSynthesized(context: ValidationContextLike, config: CheckConfig): Manifest[] {
  const manifests = filesToAnalyse(context, config).flatMap((file) => parseManifests(readInput({ absolute: file, display: file }), file));
  const paths = constructPaths(manifests, context.metadata);
  return manifests.map((m) => {
    const constructPath = paths.get(String(m.object.metadata?.name ?? ''));
    return constructPath ? { object: m.object, source: { ...m.source, constructPath } } : m;
  });
}

function clusterPrefix(f: Finding): string {
  return f.cluster !== undefined ? `[cluster ${f.cluster}] ` : '';
}

function toViolation(f: Finding): Violation {
  const where = f.constructPath ?? (f.line ? `${f.file}:${f.line}` : f.file ?? '');
  return {
    ruleName: f.ruleId,
    // cdk8s-cli prints these on the terminal: names and messages from the input go with their control characters escaped.
    recommendation: printableLine(`${clusterPrefix(f)}${idLabel(f.resource)}: ${f.message}`),
    fix: f.fix,
    violatingResources: [{ resourceName: printableLine(f.resource.name), locations: [printableLine(where)], manifestPath: f.file ?? '' }],
  };
}

interface PluginResult {
  readonly findings: Finding[];
  readonly suppressed: SuppressedFinding[];
}

function logBelowThreshold(ctx: ValidationContextLike, result: PluginResult, failing: Finding[]): void {
  if (!ctx.logger) return;
  for (const f of result.findings) {
    if (!failing.includes(f)) ctx.logger.log(`cdk8s-linkerd ${f.severity}: ${f.ruleId} ${clusterPrefix(f)}${toViolation(f).recommendation}`);
  }
  for (const s of result.suppressed) {
    ctx.logger.log(printableLine(`cdk8s-linkerd suppressed: ${s.finding.ruleId} on ${s.finding.resource.kind} ${s.finding.resource.name} (reason: ${s.reason})`));
  }
}

/** `LKD-INPUT-00N: problem Fix: fix` as the one violation of a run that could not analyse anything. */
function inputViolation(coded: string): Violation {
  const m = /^(LKD-[A-Z]+-\d{3}): (.*?)(?: Fix: (.*))?$/s.exec(coded);
  return {
    ruleName: m?.[1] ?? 'LKD-INPUT-007',
    recommendation: m?.[2] ?? coded,
    fix: m?.[3] ?? '',
    violatingResources: [{ resourceName: 'cdk8s.yaml', locations: ['cdk8s.yaml'], manifestPath: '' }],
  };
}

/**
 * The plugin cdk8s-cli loads from cdk8s.yaml. Bad settings and unreadable files are reported as one coded violation
 * (cdk8s-cli prints its report and exits 2): a throw would reach the user as cdk8s-cli's stack trace.
 */
export class LinkerdValidation {
  private readonly settings?: LinkerdValidationSettings;
  private readonly settingsProblem?: string;

  /** cdk8s-cli calls `new LinkerdValidation(properties)` with the `properties` of the cdk8s.yaml entry. */
  constructor(properties: any = {}) {
    try {
      this.settings = readProperties(properties);
    } catch (e) {
      if (!(e instanceof SettingError)) throw e;
      this.settingsProblem = `${e.ruleId}: ${e.message}. Fix: ${e.fix}`;
    }
  }

  public async validate(context: any): Promise<void> {
    const ctx = context as ValidationContextLike;
    const problems = this.settings ? missingPaths(this.settings) : [this.settingsProblem!];
    if (problems.length > 0) return this.refuse(ctx, problems);
    let result: PluginResult;
    let config: CheckConfig;
    try {
      config = resolveConfig(process.cwd(), this.settings!.config);
      result = applyRuleLevels(this.analyze(loadSynthesized(ctx, config), config), config.rules);
    } catch (e) {
      if (e instanceof InputError || e instanceof ConfigError) return this.refuse(ctx, [e.coded]);
      throw e;
    }
    // The plugin's failOn property wins over the config file's.
    const failOn = this.settings!.failOnGiven ? this.settings!.failOn : config.failOn ?? this.settings!.failOn;
    const failing = findingsAtLeast(result.findings, failOn);
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

  private refuse(ctx: ValidationContextLike, problems: string[]): void {
    for (const problem of problems) ctx.report.addViolation(inputViolation(problem));
    ctx.report.submit('failure', { errors: String(problems.length), analysed: 'nothing' });
  }

  private options(config: CheckConfig): AnalyzeOptions {
    const s = this.settings!;
    return {
      ...mergeContext(config, s.context),
      inventory: s.inventory.length > 0 ? loadManifests(s.inventory, process.cwd()).map((m) => m.object) : undefined,
      rules: s.crds.length > 0 ? [...ALL_RULES, schemaRule(s.crds)] : undefined,
    };
  }

  private analyze(manifests: Manifest[], config: CheckConfig): PluginResult {
    const clusters = this.settings!.clusters;
    if (clusters.length === 0) return analyze(manifests, this.options(config));
    // A fleet: each cluster's file alone, then the fleet rules; files of no cluster are analysed on their own.
    const clusterOf = (m: Manifest) => clusters.find((c) => path.basename(m.source?.file ?? '') === `${c}.k8s.yaml`);
    const options = this.options(config);
    const fleet = analyzeFleet(clusters.map((name) => ({ name, manifests: manifests.filter((m) => clusterOf(m) === name) })), options);
    const rest = manifests.filter((m) => clusterOf(m) === undefined);
    const others = rest.length > 0 ? analyze(rest, options) : { findings: [], suppressed: [] };
    return { findings: [...fleet.findings, ...others.findings], suppressed: [...fleet.suppressed, ...others.suppressed] };
  }
}
