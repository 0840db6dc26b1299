/**
 * Text from the input (object names, file names, messages that quote values) printed on a terminal. A carriage return
 * or an escape sequence in an object name could otherwise overwrite or recolour a report line, and a bidi override
 * could make a line read differently from what it says, so every text renderer prints input through these.
 */

/**
 * C0 and C1 controls (CR, LF, ESC, DEL, CSI …), the line and paragraph separators, and the bidi embeddings, overrides
 * and isolates (Trojan Source, CVE-2021-42574).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, except the newline that separates the lines of a multi-line text. */
const UNSAFE_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: ReadonlyMap<string, string> = new Map([['\n', '\\n'], ['\r', '\\r'], ['\t', '\\t']]);

function escapeOne(c: string): string {
  return NAMED.get(c) ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One line of output: every control character, newlines included, written as a visible escape (`\r`, `\u001b`). */
export function printableLine(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** A multi-line text: its newlines kept, every other control character written as a visible escape. */
export function printableText(text: string): string {
  return text.replace(UNSAFE_EXCEPT_NEWLINE, escapeOne);
}
