/**
 * `cdk8s-linkerd analyze`: load the manifests, run the one engine (plus the schema rule with --crds), render one
 * format. Everything that can fail on bad input fails before anything is written, so stdout never holds half a report.
 */
import * as path from 'path';
import { OptionSpec, ParsedArgs, optionValue, parseArgs } from './args';
import { UsageError } from './errors';
import { CliIo } from './io';
import { loadManifests } from './load-manifests';
import { packageInfo } from './package-info';
import { knownRules } from './rule-list';
import { schemaRule } from './schema-rule';
import { ANALYZE_USAGE } from './usage';
import { AnalysisResult, AnalyzeOptions, analyze, findingsAtLeast } from '../../analysis/engine';
import { Severity } from '../../analysis/finding';
import { CONTEXT_OPTIONS, readContextOptions } from '../../analysis/context-options';
import { formatJson, formatMermaid, formatSarif, formatText } from '../../analysis/report';
import { ALL_RULES } from '../../analysis/rules';

export const FORMATS = ['text', 'json', 'sarif', 'mermaid'] as const;
export type Format = typeof FORMATS[number];

/** The options that describe the cluster, shared by every command that runs the engine. */
export const ENGINE_SPECS: Record<string, OptionSpec> = {
  'inventory': { value: true, repeat: true },
  // What the checks are told about the cluster: one table for every front-end (analysis/context-options.ts).
  ...Object.fromEntries(CONTEXT_OPTIONS.map((o) => [o.flag, { value: true }])),
};

const SPECS: Record<string, OptionSpec> = {
  ...ENGINE_SPECS,
  'help': { value: false },
  'crds': { value: true, repeat: true },
  'format': { value: true, choices: FORMATS },
  'fail-on': { value: true, choices: [Severity.ERROR, Severity.WARNING] },
};

/** kubectl's one-letter spellings (`-n NS`) as their long flags. */
export function expandAliases(argv: readonly string[]): string[] {
  const byAlias = new Map(CONTEXT_OPTIONS.filter((o) => o.alias).map((o) => [`-${o.alias}`, `--${o.flag}`]));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') return [...out, ...argv.slice(i)];
    out.push(byAlias.get(argv[i]) ?? argv[i]);
  }
  return out;
}

/** Objects that exist in the cluster but are not in PATH (e.g. `kubectl get svc,sa -A -o yaml` saved to a file). */
function inventory(args: ParsedArgs, cwd: string): Record<string, any>[] | undefined {
  const paths = args.options.get('inventory');
  return paths ? loadManifests(paths, cwd).map((m) => m.object) : undefined;
}

/** The engine options from the cluster options (and --crds, for analyze). */
export function engineOptions(args: ParsedArgs, cwd: string): AnalyzeOptions {
  const crds = (args.options.get('crds') ?? []).map((dir) => path.resolve(cwd, dir));
  const context = readContextOptions((o) => optionValue(args, o.flag), (o, problem) => {
    throw new UsageError(`--${o.flag} ${problem}`);
  });
  return {
    ...context,
    inventory: inventory(args, cwd),
    rules: crds.length > 0 ? [...ALL_RULES, schemaRule(crds)] : undefined,
  };
}

function sarif(result: AnalysisResult): string {
  const { version, informationUri } = packageInfo();
  return formatSarif(result.findings, { rules: knownRules(), toolVersion: version, informationUri, suppressed: result.suppressed });
}

function render(format: Format, result: AnalysisResult): string {
  switch (format) {
    case 'json': return formatJson(result.findings);
    case 'sarif': return sarif(result);
    case 'mermaid': return formatMermaid(result);
    default: return formatText(result.findings, result.suppressed);
  }
}

/** Returns the exit code: 1 when a finding reaches --fail-on, else 0. */
export function analyzeCommand(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(expandAliases(argv), SPECS);
  if (args.flags.has('help')) {
    io.stdout(ANALYZE_USAGE);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError('analyze needs at least one PATH (a YAML file or folder)');
  const options = engineOptions(args, io.cwd);
  const manifests = loadManifests(args.positionals, io.cwd);
  const result = analyze(manifests, options);
  io.stdout(render((optionValue(args, 'format') ?? 'text') as Format, result));
  const threshold = (optionValue(args, 'fail-on') ?? Severity.ERROR) as Severity;
  return findingsAtLeast(result.findings, threshold).length > 0 ? 1 : 0;
}
