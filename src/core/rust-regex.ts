/**
 * Which regular expressions Rust's `regex` crate (1.12, regex-syntax 0.8, the version linkerd2's policy controller
 * locks at version-2.20) refuses to compile. Linkerd's admission webhook compiles every RegularExpression path, header
 * and query-parameter match with `Regex::new` and rejects the route when that fails.
 *
 * This is a checker, not an engine: it walks the pattern the way regex-syntax's parser does and reports only errors
 * that parser certainly raises. Where the answer depends on things it does not model (Unicode class names, size and
 * nesting limits, the `x` flag's whitespace rules, `\b{...}` word boundaries), it says nothing. A JavaScript RegExp is
 * not a substitute: it accepts look-around, back-references, `x{` and `[\b]`, which Rust refuses, and refuses `a**`,
 * `(?i)` and `[[:alpha:]]`-style nesting, which Rust accepts. Pure; shared by the route constructs and the engine.
 */

/** Rust's `char::is_whitespace` (Unicode White_Space), which regex-syntax's parse_decimal trims around a repetition count. */
const RUST_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*';
const COUNTED_REPETITION = new RegExp(`^\\{${RUST_SPACE}(\\d+)${RUST_SPACE}(,(?:${RUST_SPACE}(\\d+)${RUST_SPACE})?)?\\}`);

/** regex-syntax's escapable ASCII characters: every non-alphanumeric ASCII character except `<` and `>` (word boundaries). */
function isEscapable(c: string): boolean {
  const code = c.codePointAt(0)!;
  return code < 0x80 && !/[0-9A-Za-z<>]/.test(c);
}

const SINGLE_LETTER_ESCAPES = new Set(['a', 'f', 't', 'n', 'r', 'v']);
const ASSERTION_ESCAPES = new Set(['A', 'z', 'b', 'B', '<', '>']);
const PERL_CLASSES = new Set(['d', 's', 'w', 'D', 'S', 'W']);
const FLAGS = new Set(['i', 'm', 's', 'U', 'u', 'R', 'x']);
const ASCII_CLASSES = new Set(['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space',
  'upper', 'word', 'xdigit']);
const SPECIAL_CHARS: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

/** Thrown inside the walk to stop at the first certain error; never escapes this module. */
class RegexError extends Error {}
/** Thrown when the walk meets syntax it does not model; the pattern is then not judged. */
class Unjudged extends Error {}

/** What one escape is: a literal (with its code point when known), a class, or an assertion. */
interface Escape {
  readonly kind: 'literal' | 'class' | 'assertion';
  readonly codePoint?: number;
  readonly next: number;
}

class Walker {
  private readonly chars: string[];
  private readonly names = new Set<string>();

  constructor(pattern: string) {
    this.chars = Array.from(pattern);
  }

  public run(): void {
    const groups: number[] = [];
    // What the next repetition operator would apply to: nothing (start, after `(` or `|`), a flags group, or an atom.
    let last: 'none' | 'flags' | 'atom' = 'none';
    let i = 0;
    const n = this.chars.length;
    while (i < n) {
      const c = this.chars[i];
      switch (c) {
        case '(': {
          const opened = this.group(i);
          if (opened.flagsOnly) {
            last = 'flags';
          } else {
            groups.push(i);
            last = 'none';
          }
          i = opened.next;
          break;
        }
        case ')':
          if (groups.length === 0) throw new RegexError('has a ")" without a matching "("');
          groups.pop();
          last = 'atom';
          i++;
          break;
        case '|':
          last = 'none';
          i++;
          break;
        case '[':
          i = this.bracketClass(i);
          last = 'atom';
          break;
        case '?':
        case '*':
        case '+':
          if (last !== 'atom') throw new RegexError(`has a repetition operator "${c}" with nothing to repeat`);
          i++;
          if (this.chars[i] === '?') i++;
          break;
        case '{':
          if (last !== 'atom') throw new RegexError('has a repetition "{" with nothing to repeat');
          i = this.countedRepetition(i);
          break;
        case '\\': {
          const escape = this.escape(i, false);
          i = escape.next;
          last = 'atom';
          break;
        }
        default:
          last = 'atom';
          i++;
      }
    }
    if (groups.length > 0) throw new RegexError('has a "(" that is never closed');
  }

  /** A `(` construct: look-around (refused), a named group, flags, a non-capturing or a plain group. */
  private group(start: number): { next: number; flagsOnly: boolean } {
    const at = (k: number) => this.chars[start + k];
    if (at(1) !== '?') return { next: start + 1, flagsOnly: false };
    if (at(2) === '=' || at(2) === '!' || (at(2) === '<' && (at(3) === '=' || at(3) === '!'))) {
      throw new RegexError('uses look-around ((?=, (?!, (?<=, (?<!), which Rust\'s regex crate does not support');
    }
    if (at(2) === 'P' && at(3) === '<') return { next: this.captureName(start + 4), flagsOnly: false };
    if (at(2) === '<') return { next: this.captureName(start + 3), flagsOnly: false };
    if (at(2) === 'P') throw new RegexError('has "(?P" not followed by "<name>" (named groups are (?P<name>...) or (?<name>...))');
    return this.flags(start + 2);
  }

  private captureName(from: number): number {
    let i = from;
    let name = '';
    while (i < this.chars.length && this.chars[i] !== '>') {
      const c = this.chars[i];
      const ascii = c.codePointAt(0)! < 0x80;
      // Non-ASCII letters are judged by Unicode properties this walk does not model: only ASCII characters are checked.
      if (ascii && !(c === '_' || /[A-Za-z]/.test(c) || (i > from && /[0-9.[\]]/.test(c)))) {
        throw new RegexError(`has an invalid character ${JSON.stringify(c)} in a group name`);
      }
      name += c;
      i++;
    }
    if (i >= this.chars.length) throw new RegexError('has a group name that is never closed with ">"');
    if (name === '') throw new RegexError('has an empty group name');
    if (this.names.has(name)) throw new RegexError(`uses the group name ${JSON.stringify(name)} twice`);
    this.names.add(name);
    return i + 1;
  }

  private flags(from: number): { next: number; flagsOnly: boolean } {
    let i = from;
    const seen = new Set<string>();
    let negated = false;
    let lastWasNegation = false;
    let count = 0;
    while (i < this.chars.length && this.chars[i] !== ':' && this.chars[i] !== ')') {
      const c = this.chars[i];
      if (c === '-') {
        if (negated) throw new RegexError('repeats the flag negation "-"');
        negated = true;
        lastWasNegation = true;
      } else {
        if (c === '>') throw new RegexError('uses an atomic group "(?>", which Rust\'s regex crate does not support');
        if (c === '#') throw new RegexError('uses a "(?#" comment, which Rust\'s regex crate does not support');
        if (!FLAGS.has(c)) throw new RegexError(`uses the unknown flag ${JSON.stringify(c)} in "(?${c}" (Rust knows i, m, s, U, u, R, x)`);
        if (c === 'x') throw new Unjudged();
        if (seen.has(c)) throw new RegexError(`repeats the flag ${JSON.stringify(c)}`);
        seen.add(c);
        lastWasNegation = false;
      }
      count++;
      i++;
    }
    if (i >= this.chars.length) throw new RegexError('has a "(?" group that is never closed');
    if (lastWasNegation) throw new RegexError('ends a flag group with a dangling "-"');
    if (this.chars[i] === ')') {
      if (count === 0) throw new RegexError('has an empty "(?)"');
      return { next: i + 1, flagsOnly: true };
    }
    return { next: i + 1, flagsOnly: false };
  }

  /**
   * `{m}`, `{m,}`, `{m,n}` (m <= n); regex-syntax always reads `{` as a repetition, never as a literal. Its decimal
   * parser trims whitespace around each number (`{ 1 , 6 }`), with or without the `x` flag, but a comma followed by
   * whitespace needs a maximum after it (`{1, }` is refused).
   */
  private countedRepetition(start: number): number {
    const rest = this.chars.slice(start, start + 96).join('');
    const m = COUNTED_REPETITION.exec(rest);
    if (!m) {
      // `{,n}` too: regex-syntax accepts it only with `empty_min_range`, which the regex crate never enables.
      throw new RegexError('has a "{" that is not a repetition {m}, {m,} or {m,n} (write \\{ for a literal brace)');
    }
    if (m[3] !== undefined && m[3] !== '' && Number(m[1]) > Number(m[3])) {
      throw new RegexError(`has the repetition {${m[1]},${m[3]}} whose minimum exceeds its maximum`);
    }
    let next = start + Array.from(m[0]).length;
    if (this.chars[next] === '?') next++;
    return next;
  }

  /** One escape sequence starting at the backslash; `inClass` when inside `[...]`. */
  private escape(start: number, inClass: boolean): Escape {
    const c = this.chars[start + 1];
    if (c === undefined) throw new RegexError('ends with a lone backslash');
    if (/[0-9]/.test(c)) {
      throw new RegexError(`uses "\\${c}", a back-reference (or octal escape), which Rust's regex crate does not support`);
    }
    if (c === 'x' || c === 'u' || c === 'U') return this.hexEscape(start, c);
    if (c === 'p' || c === 'P') return this.unicodeClass(start);
    if (PERL_CLASSES.has(c)) return { kind: 'class', next: start + 2 };
    if (isEscapable(c)) return { kind: 'literal', codePoint: c.codePointAt(0), next: start + 2 };
    if (SINGLE_LETTER_ESCAPES.has(c)) return { kind: 'literal', codePoint: SPECIAL_CHARS[c], next: start + 2 };
    if (ASSERTION_ESCAPES.has(c)) {
      if (inClass) throw new RegexError(`uses "\\${c}" inside a character class, where Rust's regex crate does not allow assertions`);
      if (c === 'b' && this.chars[start + 2] === '{') throw new Unjudged();
      return { kind: 'assertion', next: start + 2 };
    }
    if (c === 'k') throw new RegexError('uses "\\k", a named back-reference, which Rust\'s regex crate does not support');
    throw new RegexError(`uses the escape "\\${c}", which Rust's regex crate does not recognize`);
  }

  private hexEscape(start: number, c: string): Escape {
    const digits = c === 'x' ? 2 : c === 'u' ? 4 : 8;
    let i = start + 2;
    if (this.chars[i] === '{') {
      let hex = '';
      i++;
      while (i < this.chars.length && this.chars[i] !== '}') hex += this.chars[i++];
      if (i >= this.chars.length || hex === '' || !/^[0-9A-Fa-f]+$/.test(hex)) {
        throw new RegexError(`has an invalid hexadecimal escape "\\${c}{${hex}" (write \\${c}{...} with hex digits)`);
      }
      const value = parseInt(hex, 16);
      // Any number of digits: regex-syntax reads them with u32::from_str_radix, so leading zeros are harmless.
      if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
        throw new RegexError(`has "\\${c}{${hex}}", which is not a Unicode scalar value`);
      }
      return { kind: 'literal', codePoint: value, next: i + 1 };
    }
    const hex = this.chars.slice(i, i + digits).join('');
    if (hex.length < digits || !/^[0-9A-Fa-f]+$/.test(hex)) {
      throw new RegexError(`has an invalid hexadecimal escape "\\${c}${hex}" (\\${c} takes ${digits} hex digits)`);
    }
    const value = parseInt(hex, 16);
    if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) throw new RegexError(`has "\\${c}${hex}", which is not a Unicode scalar value`);
    return { kind: 'literal', codePoint: value, next: i + digits };
  }

  private unicodeClass(start: number): Escape {
    let i = start + 2;
    if (i >= this.chars.length) throw new RegexError('ends in the middle of a Unicode class "\\p"');
    if (this.chars[i] !== '{') return { kind: 'class', next: i + 1 };
    while (i < this.chars.length && this.chars[i] !== '}') i++;
    if (i >= this.chars.length) throw new RegexError('has a Unicode class "\\p{" that is never closed');
    return { kind: 'class', next: i + 1 };
  }

  /** A bracketed class, with regex-syntax's nesting (`[` inside a class opens a nested class), ranges and set operators. */
  private bracketClass(start: number): number {
    let i = this.classOpen(start);
    let depth = 1;
    const n = this.chars.length;
    while (depth > 0) {
      if (i >= n) throw new RegexError('has a "[" character class that is never closed');
      const c = this.chars[i];
      if (c === '[') {
        const ascii = /^\[:\^?([a-z]+):\]/.exec(this.chars.slice(i, i + 16).join(''));
        if (ascii && ASCII_CLASSES.has(ascii[1])) {
          i += ascii[0].length;
          continue;
        }
        i = this.classOpen(i);
        depth++;
        continue;
      }
      if (c === ']') {
        depth--;
        i++;
        continue;
      }
      if ((c === '&' || c === '-' || c === '~') && this.chars[i + 1] === c) {
        i += 2;
        continue;
      }
      i = this.classRange(i);
    }
    return i;
  }

  /** Past `[`, an optional `^`, leading `-`s and a leading `]` (all literal there). */
  private classOpen(start: number): number {
    let i = start + 1;
    if (this.chars[i] === '^') i++;
    let any = false;
    while (this.chars[i] === '-') {
      i++;
      any = true;
    }
    if (!any && this.chars[i] === ']') i++;
    if (i >= this.chars.length) throw new RegexError('has a "[" character class that is never closed');
    return i;
  }

  private classItem(i: number): Escape {
    if (this.chars[i] === '\\') return this.escape(i, true);
    return { kind: 'literal', codePoint: this.chars[i].codePointAt(0), next: i + 1 };
  }

  private classRange(i: number): number {
    const first = this.classItem(i);
    let next = first.next;
    if (next >= this.chars.length) throw new RegexError('has a "[" character class that is never closed');
    if (this.chars[next] !== '-' || this.chars[next + 1] === ']' || this.chars[next + 1] === '-') return next;
    next++;
    if (next >= this.chars.length) throw new RegexError('has a "[" character class that is never closed');
    const second = this.classItem(next);
    if (first.kind !== 'literal' || second.kind !== 'literal') {
      throw new RegexError('has a class range whose end is a class such as \\d (ranges need single characters)');
    }
    if (first.codePoint !== undefined && second.codePoint !== undefined && first.codePoint > second.codePoint) {
      throw new RegexError(`has the class range ${String.fromCodePoint(first.codePoint)}-${String.fromCodePoint(second.codePoint)}, `
        + 'whose start is after its end');
    }
    return second.next;
  }
}

/**
 * Why Rust's `regex` crate refuses `pattern`, or undefined when it compiles or when this check cannot be sure.
 * The reason is a phrase that follows the pattern: `"(?=a)" uses look-around ...`.
 */
export function rustRegexError(pattern: string): string | undefined {
  if (typeof pattern !== 'string') return 'is not a string';
  try {
    new Walker(pattern).run();
    return undefined;
  } catch (e) {
    if (e instanceof RegexError) return e.message;
    if (e instanceof Unjudged) return undefined;
    throw e;
  }
}
