/**
 * `cdk8s-linkerd import FILE... [--out FILE]`: writes TypeScript that rebuilds the objects of existing YAML with
 * cdk8s-linkerd constructs where one rebuilds an object exactly, and ApiObjects for the rest (src/frontends/import).
 */
import * as fs from 'fs';
import * as path from 'path';
import { OptionSpec, optionValue, parseArgs } from './args';
import { UsageError } from './errors';
import { CliIo } from './io';
import { loadManifests } from './load-manifests';
import { IMPORT_USAGE } from './usage';
import { InputError } from '../../core/input-error';
import { compareStrings } from '../../util/compare';
import { generateImport } from '../import/generate';

const SPECS: Record<string, OptionSpec> = {
  out: { value: true },
  help: { value: false },
};

export function importCommand(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, SPECS);
  if (args.flags.has('help')) {
    io.stdout(IMPORT_USAGE);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError('import needs at least one PATH (a YAML file or folder)');
  const manifests = loadManifests(args.positionals, io.cwd);
  const sources = [...new Set(manifests.map((m) => m.source?.file).filter((f): f is string => typeof f === 'string'))];
  const result = generateImport(manifests.map((m) => m.object), sources);
  const out = optionValue(args, 'out');
  if (out === undefined) {
    io.stdout(result.code);
    return 0;
  }
  const target = path.resolve(io.cwd, out);
  try {
    fs.writeFileSync(target, result.code);
  } catch (e: any) {
    throw new InputError(`${out}: cannot write (${e?.code ?? e?.message ?? e})`, 'Pass --out a file in a folder that exists and is writable.');
  }
  const constructs = Object.entries(result.constructs).sort(([a], [b]) => compareStrings(a, b)).map(([k, n]) => `${n} ${k}`);
  io.stdout(`${out}: ${manifests.length} objects (${[...constructs, `${result.apiObjects} ApiObject`].join(', ')})\n`);
  return 0;
}
