/**
 * How an app's entry point should end: a check that fails prints its coded messages (construct path, rule ID, fix)
 * and exits 1 — no stack trace, nothing written. Anything else is a real crash and keeps its stack.
 */
export function runOrExit(main: () => void): void {
  try {
    main();
  } catch (e: any) {
    const coded = typeof e?.message === 'string' && /LKD-[A-Z]+-\d{3}/.test(e.message);
    if (!coded) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
