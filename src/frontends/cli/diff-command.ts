/**
 * `cdk8s-linkerd diff BASE HEAD`: what HEAD changes against BASE, per caller, target and request class: who may send
 * which request, which route takes it, traffic shares, ignored objects, retries and timeouts. Both sides are read (and refused on bad input) before anything is written.
 */
import { ENGINE_SPECS, engineOptions } from './analyze-command';
import { OptionSpec, optionValue, parseArgs } from './args';
import { DIFF_OUTPUT_SPECS, diffConfig, diffSide, writeDiffOutputs } from './diff-outputs';
import { UsageError } from './errors';
import { CliIo } from './io';
import { packageInfo } from './package-info';
import { DIFF_USAGE } from './usage';
import { analyze } from '../../analysis/engine';
import { diffRefusals, formatRefusalChanges } from '../../analysis/evidence/refusal-diff';
import {
  DiffFailOn, MeshDiff, diffManifests, diffMatches, formatDiffJson, formatDiffMarkdown, formatDiffSarif, formatDiffText,
} from '../../analysis/reachability';
import { formatDiffGithub, formatDiffJunit } from '../../analysis/report/diff-ci';
import { printableText } from '../../util/terminal-text';

export const DIFF_FORMATS = ['text', 'markdown', 'json', 'sarif', 'github', 'junit'] as const;
const FAIL_ON = Object.values(DiffFailOn);

const SPECS: Record<string, OptionSpec> = {
  ...ENGINE_SPECS,
  ...DIFF_OUTPUT_SPECS,
  'help': { value: false },
  'format': { value: true, choices: DIFF_FORMATS },
  'fail-on': { value: true, choices: FAIL_ON },
};

function render(format: string, diff: MeshDiff, failOn?: DiffFailOn): string {
  switch (format) {
    case 'github': return formatDiffGithub(diff, failOn);
    case 'junit': return formatDiffJunit(diff, failOn);
    case 'json': return formatDiffJson(diff);
    case 'markdown': return formatDiffMarkdown(diff);
    case 'sarif': return formatDiffSarif(diff, packageInfo());
    default: return formatDiffText(diff);
  }
}

/** Exit 0, or 1 when a change matches --fail-on. */
export function diffCommand(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, SPECS);
  if (args.flags.has('help')) {
    io.stdout(DIFF_USAGE);
    return 0;
  }
  if (args.positionals.length !== 2) throw new UsageError('diff needs exactly two paths: BASE and HEAD (files or folders)');
  const config = diffConfig(args, io);
  const options = engineOptions(args, io.cwd, config);
  const [basePath, headPath] = args.positionals;
  const base = diffSide(basePath, io, config);
  const head = diffSide(headPath, io, config);
  const diff = diffManifests(base, head, options);
  // Declared refusals whose verdict changes: additive to diff's own output (text), and a refusal now allowed is a
  // change to allowed for --fail-on.
  const refusals = diffRefusals(analyze(base, { ...options, rules: [] }), analyze(head, { ...options, rules: [] }));
  const format = optionValue(args, 'format') ?? 'text';
  const failOn = optionValue(args, 'fail-on') as DiffFailOn | undefined;
  // Names in the text and markdown come from the input: no control character reaches the terminal raw.
  const printable = (f: string, out: string): string => (['json', 'sarif', 'github', 'junit'].includes(f) ? out : printableText(out));
  const rendered = (f: string): string => printable(f, render(f, diff, failOn) + (f === 'text' ? formatRefusalChanges(refusals) : ''));
  writeDiffOutputs(args, io, DIFF_FORMATS, rendered);
  io.stdout(rendered(format));
  const refusalAllowed = refusals.some((r) => r.head === 'allowed') && (failOn === DiffFailOn.TO_ALLOWED || failOn === DiffFailOn.ANY);
  return failOn !== undefined && (diffMatches(diff, failOn) || refusalAllowed) ? 1 : 0;
}
