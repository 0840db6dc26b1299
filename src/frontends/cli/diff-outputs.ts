/**
 * What `diff` takes from the config work: the config file (context options, exclude, the cdk8s files skipped with a
 * note) and `--output FORMAT=FILE`. Kept apart so the diff command itself stays about the diff.
 */
import { ParsedArgs } from './args';
import { CONFIG_SPECS, cliConfig } from './cli-config';
import { loadInputs } from './input-files';
import { CliIo } from './io';
import { outputTargets, writeOutputs } from './report-outputs';
import { Manifest } from '../../analysis/model/manifest';
import { CheckConfig } from '../../config';

export const DIFF_OUTPUT_SPECS = { ...CONFIG_SPECS, output: { value: true, repeat: true } };

export function diffConfig(args: ParsedArgs, io: CliIo): CheckConfig {
  return cliConfig(args, io.cwd);
}

/** One side of the diff, read like analyze reads its PATHs. */
export function diffSide(pathArg: string, io: CliIo, config: CheckConfig): Manifest[] {
  const inputs = loadInputs([pathArg], io.cwd, config);
  for (const note of inputs.notes) io.stderr(`cdk8s-linkerd: ${note}\n`);
  return inputs.manifests;
}

/** Writes the --output reports (rendered first, so a bad one writes nothing). */
export function writeDiffOutputs(args: ParsedArgs, io: CliIo, formats: readonly string[], render: (format: string) => string): void {
  writeOutputs(outputTargets(args.options.get('output'), formats), io.cwd, render);
}
