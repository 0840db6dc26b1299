/**
 * The CLI entry point, free of process globals: `main(argv, io)` returns the exit code. bin.ts wires it to the process.
 * Exit codes: 0 clean, 1 findings at/above --fail-on, 2 bad usage or input (message on stderr, nothing on stdout).
 */
import { analyzeCommand } from './analyze-command';
import { diffCommand } from './diff-command';
import { UsageError } from './errors';
import { explainCommand } from './explain-command';
import { CliIo } from './io';
import { packageInfo } from './package-info';
import { planDenyCommand } from './plan-deny-command';
import { rulesCommand } from './rule-list';
import { MAIN_USAGE } from './usage';
import { ConfigError } from '../../config';
import { InputError } from '../../core/input-error';
import { printableText } from '../../util/terminal-text';

export type { CliIo } from './io';

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

function dispatch(argv: readonly string[], io: CliIo): number {
  const [command, ...rest] = argv;
  switch (command) {
    case 'analyze': return analyzeCommand(rest, io);
    case 'rules': return rulesCommand(rest, io);
    case 'diff': return diffCommand(rest, io);
    case 'explain': return explainCommand(rest, io);
    case 'plan-deny': return planDenyCommand(rest, io);
    // Loaded only when used: it builds constructs (cdk8s, cdk8s-plus-28), which `analyze` never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    case 'import': return (require('./import-command') as typeof import('./import-command')).importCommand(rest, io);
    case 'help': case '--help': case '-h':
      io.stdout(MAIN_USAGE);
      return EXIT_OK;
    case '--version': case '-V':
      io.stdout(`${packageInfo().version}\n`);
      return EXIT_OK;
    case undefined:
      io.stderr(MAIN_USAGE);
      return EXIT_USAGE;
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)} (try --help)`);
  }
}

export function main(argv: readonly string[], io: CliIo): number {
  try {
    return dispatch(argv, io);
  } catch (e: any) {
    // Messages quote file names and input: control characters are printed as escapes.
    if (e instanceof UsageError) io.stderr(`cdk8s-linkerd: ${printableText(e.message)}\n`);
    else if (e instanceof InputError || e instanceof ConfigError) io.stderr(`cdk8s-linkerd: error: ${printableText(e.coded)}\n`);
    // Anything else is a bug or a harness failure: still no partial report, and no stack trace unless asked for (it
    // helps a bug report, not a user).
    else io.stderr(internalErrorText(e, io.env?.CDK8S_LINKERD_DEBUG === '1'));
    return EXIT_USAGE;
  }
}

/** What a bug prints: one line naming it as ours, what to do, and the stack only with CDK8S_LINKERD_DEBUG=1. */
export function internalErrorText(e: any, withStack: boolean): string {
  const message = printableText(String(e?.message ?? e));
  const stack = withStack && typeof e?.stack === 'string' ? `\n${e.stack}` : '';
  return `cdk8s-linkerd: internal error: ${message}. This is a bug in cdk8s-linkerd, not in the input; please report it with `
    + `the input that caused it (CDK8S_LINKERD_DEBUG=1 prints the stack).${stack}\n`;
}
