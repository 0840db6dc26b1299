/**
 * `cdk8s-linkerd diff BASE HEAD`: what HEAD changes against BASE, per caller, target and request class: who may send
 * which request, which route takes it, traffic shares, ignored objects, retries and timeouts. Both sides are read (and refused on bad input) before anything is written.
 */
import { ENGINE_SPECS, engineOptions } from './analyze-command';
import { OptionSpec, optionValue, parseArgs } from './args';
import { UsageError } from './errors';
import { CliIo } from './io';
import { loadManifests } from './load-manifests';
import { packageInfo } from './package-info';
import { DIFF_USAGE } from './usage';
import {
  DiffFailOn, MeshDiff, diffManifests, diffMatches, formatDiffJson, formatDiffMarkdown, formatDiffSarif, formatDiffText,
} from '../../analysis/reachability';

export const DIFF_FORMATS = ['text', 'markdown', 'json', 'sarif'] as const;
const FAIL_ON = Object.values(DiffFailOn);

const SPECS: Record<string, OptionSpec> = {
  ...ENGINE_SPECS,
  'help': { value: false },
  'format': { value: true, choices: DIFF_FORMATS },
  'fail-on': { value: true, choices: FAIL_ON },
};

function render(format: string, diff: MeshDiff): string {
  switch (format) {
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
  const options = engineOptions(args, io.cwd);
  const [basePath, headPath] = args.positionals;
  const base = loadManifests([basePath], io.cwd);
  const head = loadManifests([headPath], io.cwd);
  const diff = diffManifests(base, head, options);
  io.stdout(render(optionValue(args, 'format') ?? 'text', diff));
  const failOn = optionValue(args, 'fail-on') as DiffFailOn | undefined;
  return failOn !== undefined && diffMatches(diff, failOn) ? 1 : 0;
}
