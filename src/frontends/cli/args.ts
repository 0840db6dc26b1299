/**
 * A small argument parser (the CLI has no dependencies beyond js-yaml): `--name value`, `--name=value`, repeatable
 * options, `--` to end options, and clear errors for unknown or incomplete options.
 */
import { UsageError } from './errors';
import { ownValue } from '../../core/own-keys';

export interface OptionSpec {
  /** Takes a value (otherwise a boolean flag). */
  readonly value: boolean;
  /** May be given more than once (values are collected in order). */
  readonly repeat?: boolean;
  /** Allowed values, when the set is closed. */
  readonly choices?: readonly string[];
}

export interface ParsedArgs {
  readonly options: ReadonlyMap<string, string[]>;
  readonly flags: ReadonlySet<string>;
  readonly positionals: string[];
}

function splitOption(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg.slice(2), undefined] : [arg.slice(2, eq), arg.slice(eq + 1)];
}

function checkChoice(name: string, spec: OptionSpec, value: string): void {
  if (spec.choices && !spec.choices.includes(value)) {
    throw new UsageError(`--${name} must be one of ${spec.choices.join(', ')} (got ${JSON.stringify(value)})`);
  }
}

export function parseArgs(argv: readonly string[], specs: Readonly<Record<string, OptionSpec>>): ParsedArgs {
  const options = new Map<string, string[]>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    // A lone `-` is a positional (stdin), not an option.
    if (!arg.startsWith('--')) {
      if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
      positionals.push(arg);
      continue;
    }
    const [name, inline] = splitOption(arg);
    // `--constructor` or `--toString` name no option: only the table's own keys do.
    const spec: OptionSpec | undefined = ownValue(specs, name);
    if (!spec) throw new UsageError(`unknown option --${name}`);
    if (!spec.value) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      flags.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    checkChoice(name, spec, value);
    const values = options.get(name) ?? [];
    if (values.length > 0 && !spec.repeat) throw new UsageError(`--${name} may be given only once`);
    options.set(name, [...values, value]);
  }
  return { options, flags, positionals };
}

/** The single value of an option, or undefined. */
export function optionValue(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.[0];
}
