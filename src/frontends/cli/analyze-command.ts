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
import { DEFAULT_INBOUND_POLICIES, isServiceAccountRef } from '../../analysis/options';
import { formatJson, formatMermaid, formatSarif, formatText } from '../../analysis/report';
import { ALL_RULES } from '../../analysis/rules';
import { parseCidr } from '../../core/cidr';

export const FORMATS = ['text', 'json', 'sarif', 'mermaid'] as const;
export type Format = typeof FORMATS[number];

/** The options that describe the cluster, shared by every command that runs the engine. */
export const ENGINE_SPECS: Record<string, OptionSpec> = {
  'inventory': { value: true, repeat: true },
  'cluster-networks': { value: true },
  'kubernetes-version': { value: true },
  'gateway-api-version': { value: true },
  'trust-domain': { value: true },
  'prometheus': { value: true },
  'default-inbound-policy': { value: true, choices: DEFAULT_INBOUND_POLICIES },
};

const SPECS: Record<string, OptionSpec> = {
  ...ENGINE_SPECS,
  'help': { value: false },
  'crds': { value: true, repeat: true },
  'format': { value: true, choices: FORMATS },
  'fail-on': { value: true, choices: [Severity.ERROR, Severity.WARNING] },
};

const VERSION = /^v?\d+\.\d+(\.\d+)?$/;

function versionOption(args: ParsedArgs, name: string): string | undefined {
  const value = optionValue(args, name);
  if (value !== undefined && !VERSION.test(value)) throw new UsageError(`--${name} must look like 1.31 or v1.2.1 (got ${JSON.stringify(value)})`);
  return value;
}

/** CIDRs as a comma-separated list, each checked, so a typo is a usage error rather than a silent mismatch. */
function clusterNetworks(args: ParsedArgs): string[] | undefined {
  const value = optionValue(args, 'cluster-networks');
  if (value === undefined) return undefined;
  const cidrs = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = cidrs.filter((c) => !parseCidr(c));
  if (cidrs.length === 0 || bad.length > 0) throw new UsageError(`--cluster-networks must be a comma-separated list of CIDRs (bad: ${bad.join(', ') || 'empty'})`);
  return cidrs;
}

/** Objects that exist in the cluster but are not in PATH (e.g. `kubectl get svc,sa -A -o yaml` saved to a file). */
function inventory(args: ParsedArgs, cwd: string): Record<string, any>[] | undefined {
  const paths = args.options.get('inventory');
  return paths ? loadManifests(paths, cwd).map((m) => m.object) : undefined;
}

function prometheus(args: ParsedArgs): string | undefined {
  const value = optionValue(args, 'prometheus');
  if (value !== undefined && !isServiceAccountRef(value)) throw new UsageError(`--prometheus must be NAMESPACE/SERVICEACCOUNT (got ${JSON.stringify(value)})`);
  return value;
}

/** The engine options from the cluster options (and --crds, for analyze). */
export function engineOptions(args: ParsedArgs, cwd: string): AnalyzeOptions {
  const crds = (args.options.get('crds') ?? []).map((dir) => path.resolve(cwd, dir));
  const trustDomain = optionValue(args, 'trust-domain');
  if (trustDomain !== undefined && trustDomain.trim() === '') throw new UsageError('--trust-domain must not be empty');
  return {
    // The engine's own default has no leading "v" (1.31); accept both spellings.
    kubernetesVersion: versionOption(args, 'kubernetes-version')?.replace(/^v/, ''),
    gatewayApiVersion: versionOption(args, 'gateway-api-version'),
    trustDomain,
    defaultInboundPolicy: optionValue(args, 'default-inbound-policy'),
    clusterNetworks: clusterNetworks(args),
    inventory: inventory(args, cwd),
    prometheusServiceAccount: prometheus(args),
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
  const args = parseArgs(argv, SPECS);
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
