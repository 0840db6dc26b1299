/**
 * `cdk8s-linkerd analyze`: load the manifests, run the one engine (plus the schema rule with --crds), render one
 * format. Everything that can fail on bad input fails before anything is written, so stdout never holds half a report.
 */
import * as path from 'path';
import { OptionSpec, ParsedArgs, optionValue, parseArgs } from './args';
import { CONFIG_SPECS, cliConfig, cliHelpUri } from './cli-config';
import { UsageError } from './errors';
import { loadInputs } from './input-files';
import { CliIo } from './io';
import { loadManifests } from './load-manifests';
import { packageInfo } from './package-info';
import { outputTargets, writeOutputs } from './report-outputs';
import { knownRules } from './rule-list';
import { ANALYZE_USAGE } from './usage';
import { CONTEXT_OPTIONS, readContextOptions } from '../../analysis/context-options';
import { AnalysisResult, AnalyzeOptions, analyze, findingsAtLeast } from '../../analysis/engine';
import { Finding, Severity, SuppressedFinding } from '../../analysis/finding';
import { FleetClusterInput, analyzeFleet, fleetInputProblem } from '../../analysis/fleet';
import { HelpUri, formatGithub, formatJson, formatJunit, formatMermaid, formatSarif, formatText } from '../../analysis/report';
import { ALL_RULES } from '../../analysis/rules';
import { schemaRule } from '../../analysis/rules/schema/crds';
import { CheckConfig, EMPTY_CONFIG, applyRuleLevels, mergeContext } from '../../config';

export const FORMATS = ['text', 'json', 'sarif', 'mermaid', 'junit', 'github'] as const;
export type Format = typeof FORMATS[number];

/** The options that describe the cluster, shared by every command that runs the engine. */
export const ENGINE_SPECS: Record<string, OptionSpec> = {
  inventory: { value: true, repeat: true },
  // What the checks are told about the cluster: one table for every front-end (analysis/context-options.ts).
  ...Object.fromEntries(CONTEXT_OPTIONS.map((o) => [o.flag, { value: true }])),
};

const SPECS: Record<string, OptionSpec> = {
  ...ENGINE_SPECS,
  'help': { value: false },
  'crds': { value: true, repeat: true },
  'cluster': { value: true, repeat: true },
  ...CONFIG_SPECS,
  'format': { value: true, choices: FORMATS },
  'output': { value: true, repeat: true },
  'verbose': { value: false },
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

/** The engine options from the cluster options (and --crds, for analyze); flags win over the config file's. */
export function engineOptions(args: ParsedArgs, cwd: string, config: CheckConfig = EMPTY_CONFIG): AnalyzeOptions {
  const crds = (args.options.get('crds') ?? []).map((dir) => path.resolve(cwd, dir));
  const flags = readContextOptions((o) => optionValue(args, o.flag), (o, problem) => {
    throw new UsageError(`--${o.flag} ${problem}`);
  });
  return {
    ...mergeContext(config, flags),
    inventory: inventory(args, cwd),
    rules: crds.length > 0 ? [...ALL_RULES, schemaRule(crds)] : undefined,
  };
}

/** What every format renders: the findings and the audit trail, with the mesh graph only for one cluster. */
interface Report {
  readonly findings: Finding[];
  readonly suppressed: SuppressedFinding[];
  readonly single?: AnalysisResult;
}

/** How the formats render: the threshold (JUnit failures), the doc links, and --verbose (links in the text). */
interface RenderOptions {
  readonly failOn: Severity;
  readonly helpUri: HelpUri;
  readonly verbose: boolean;
}

function sarif(report: Report, helpUri: HelpUri): string {
  const { version, informationUri } = packageInfo();
  return formatSarif(report.findings, { rules: knownRules(), toolVersion: version, informationUri, suppressed: report.suppressed, helpUri });
}

function render(format: Format, report: Report, options: RenderOptions): string {
  switch (format) {
    case 'json': return formatJson(report.findings, report.suppressed, options.helpUri);
    case 'sarif': return sarif(report, options.helpUri);
    case 'junit': return formatJunit(report.findings, { rules: knownRules(), suppressed: report.suppressed, failOn: options.failOn, helpUri: options.helpUri });
    case 'github': return formatGithub(report.findings, report.suppressed, options.helpUri);
    case 'mermaid':
      if (!report.single) throw new UsageError('--format mermaid draws one cluster; it cannot be combined with --cluster');
      return formatMermaid(report.single);
    default: return formatText(report.findings, report.suppressed, options.verbose ? options.helpUri : undefined);
  }
}

const CLUSTER_ARG = /^([^=]+)=(.+)$/;

/** `--cluster NAME=PATH` (repeatable; the same NAME again adds another PATH to that cluster). */
function clusterInputs(args: ParsedArgs, io: CliIo, config: CheckConfig): FleetClusterInput[] | undefined {
  const values = args.options.get('cluster');
  if (!values) return undefined;
  const paths = new Map<string, string[]>();
  for (const value of values) {
    const m = CLUSTER_ARG.exec(value);
    if (!m) throw new UsageError(`--cluster must be NAME=PATH (got ${JSON.stringify(value)})`);
    paths.set(m[1], [...(paths.get(m[1]) ?? []), m[2]]);
  }
  const names = [...paths.keys()];
  const problem = fleetInputProblem(names.map((name) => ({ name, manifests: [] })));
  if (problem) throw new UsageError(`--cluster: ${problem}`);
  return names.map((name) => {
    const inputs = loadInputs(paths.get(name)!, io.cwd, config);
    for (const note of inputs.notes) io.stderr(`cdk8s-linkerd: ${note}\n`);
    return { name, manifests: inputs.manifests };
  });
}

function runAnalysis(args: ParsedArgs, io: CliIo, config: CheckConfig): Report {
  const cwd = io.cwd;
  const options = engineOptions(args, cwd, config);
  const clusters = clusterInputs(args, io, config);
  if (clusters) {
    if (args.positionals.length > 0) throw new UsageError('with --cluster, give every PATH as NAME=PATH (a bare PATH belongs to no cluster)');
    const fleet = analyzeFleet(clusters, options);
    return { findings: fleet.findings, suppressed: fleet.suppressed };
  }
  if (args.positionals.length === 0) throw new UsageError('analyze needs at least one PATH (a YAML file or folder), or --cluster NAME=PATH');
  const inputs = loadInputs(args.positionals, cwd, config);
  for (const note of inputs.notes) io.stderr(`cdk8s-linkerd: ${note}\n`);
  const result = analyze(inputs.manifests, options);
  return { findings: result.findings, suppressed: result.suppressed, single: result };
}

/** Returns the exit code: 1 when a finding reaches --fail-on, else 0. */
export function analyzeCommand(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(expandAliases(argv), SPECS);
  if (args.flags.has('help')) {
    io.stdout(ANALYZE_USAGE);
    return 0;
  }
  const format = (optionValue(args, 'format') ?? 'text') as Format;
  const outputs = outputTargets(args.options.get('output'), FORMATS);
  const mermaid = format === 'mermaid' || outputs.some((o) => o.format === 'mermaid');
  if (mermaid && args.options.has('cluster')) throw new UsageError('--format mermaid draws one cluster; it cannot be combined with --cluster');
  const config = cliConfig(args, io.cwd);
  // Precedence: --fail-on, then the config file's failOn, then error.
  const failOn = (optionValue(args, 'fail-on') ?? config.failOn ?? Severity.ERROR) as Severity;
  const renderOptions: RenderOptions = { failOn, helpUri: cliHelpUri(args, config), verbose: args.flags.has('verbose') };
  const report = applyRuleLevels(runAnalysis(args, io, config), config.rules);
  const text = render(format, report, renderOptions);
  writeOutputs(outputs, io.cwd, (f) => render(f as Format, report, renderOptions));
  io.stdout(text);
  return findingsAtLeast(report.findings, failOn).length > 0 ? 1 : 0;
}
