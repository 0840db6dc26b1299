/**
 * How an app's entry point ends: a coded error (a construct's MeshConfigError, or a synth that the checks failed)
 * prints once, one line per error and without a stack trace, and the process exits; anything else is a real crash and
 * keeps its stack.
 */
import * as fs from 'fs';

const CODED = /\bLKD-[A-Z]+-\d{3}\b/;
/** How cdk8s's App.synth() joins the validation errors of all constructs (`[path] message` per line). */
const CDK8S_VALIDATION_HEADER = 'Validation failed with the following errors:';

/**
 * The lines to print for an error that names a rule ID, or undefined for any other error. cdk8s's `[path] ` prefix is
 * kept where it names a construct and dropped where it is empty (`[]`: the App-wide checks, whose lines name the
 * construct path themselves).
 */
export function codedErrorLines(e: unknown): string[] | undefined {
  const message = (e as any)?.message;
  if (typeof message !== 'string' || !CODED.test(message)) return undefined;
  if (!message.startsWith(CDK8S_VALIDATION_HEADER)) return [message];
  return message.slice(CDK8S_VALIDATION_HEADER.length).split('\n  ').map((l) => l.trim()).filter((l) => l !== '')
    .map((l) => l.replace(/^\[\] /, ''));
}

/**
 * cdk8s-cli runs the app with CDK8S_OUTDIR (and CDK8S_RECORD_CONSTRUCT_METADATA) set and prints its own stack trace
 * for an app that exits non-zero. An app that leaves no output directory is reported without one ("synthesis failed,
 * app expected to create ...", exit 1), so under cdk8s-cli the (empty) output directory is removed and the app exits 0.
 * Run any other way, the exit code is 1.
 */
function exitCodeAfterCodedError(env: NodeJS.ProcessEnv = process.env): number {
  const outdir = env.CDK8S_OUTDIR;
  if (outdir === undefined || env.CDK8S_RECORD_CONSTRUCT_METADATA === undefined) return 1;
  try {
    if (fs.existsSync(outdir)) fs.rmdirSync(outdir); // only an empty directory: never anything written
  } catch {
    return 1;
  }
  return fs.existsSync(outdir) ? 1 : 0;
}

/**
 * Runs an app's entry point (`runOrExit(() => { const app = new App(); ...; app.synth(); })`). A coded error prints
 * once on stderr (`error: <construct path> <rule ID>: <problem> Fix: <fix>`, no stack) and ends the process: exit 1,
 * or under `cdk8s synth` an exit that makes cdk8s-cli report the failed synthesis without a stack trace of its own.
 * Any other error is rethrown with its stack. For JavaScript and TypeScript apps; in other jsii languages the same
 * coded message arrives as the language's exception.
 */
export function runOrExit(main: () => void): void {
  try {
    main();
  } catch (e) {
    const lines = codedErrorLines(e);
    if (!lines) throw e;
    process.stderr.write(lines.map((l) => `error: ${l}\n`).join(''));
    process.exit(exitCodeAfterCodedError());
  }
}
