/**
 * Where YAML 1.1 and YAML 1.2 read the same unquoted scalar differently. This tool reads YAML 1.2 (core schema);
 * kubectl and Helm read through sigs.k8s.io/yaml (go-yaml v2, YAML 1.1 rules), PyYAML-based tools through YAML 1.1 too,
 * each with its own resolver. So `port: 0443` is analysed as 443 here and applied as 291 (octal) by kubectl;
 * `enabled: yes` is a string here and the boolean true there; `replicas: 1_0` is a string here and 10 there. Each such
 * scalar becomes a Yaml11Reading, reported by LKD-MESH-013.
 *
 * The two YAML 1.1 resolvers below are written from their documented behaviour: go-yaml v2's `resolve()` (booleans
 * y/yes/on/… and their negations; for a scalar starting with a digit or sign, underscores removed, then Go's ParseInt
 * with base 0, then its YAML float pattern; timestamps stay strings when decoded into JSON) and PyYAML's implicit
 * resolvers (yaml/resolver.py: bool, int with `_` and base 60, float with `_`, a dot required, a signed exponent).
 */
import { Yaml11Reading } from '../../analysis/model/manifest';

const GO_YAML = 'kubectl and Helm (go-yaml v2)';
const PYYAML = 'PyYAML and other YAML 1.1 readers (not kubectl)';
const BOTH = 'kubectl and Helm (go-yaml v2) and PyYAML';

/** A YAML 1.1 reading: the value and how to describe it. */
interface Reading {
  readonly value: unknown;
  readonly how: string;
}

const GO_TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON']);
const GO_FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
const PY_TRUE = new Set(['yes', 'Yes', 'YES', 'on', 'On', 'ON']);
const PY_FALSE = new Set(['no', 'No', 'NO', 'off', 'Off', 'OFF']);

/** Go's integer literals with base 0 (after go-yaml removed underscores): 0x, 0b, 0o, a leading 0 for octal. */
const GO_INT = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]+|0|[1-9][0-9]*)$/;
/** go-yaml v2's float pattern (yamlStyleFloat), applied after underscores are removed. */
const GO_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/** Infinities and NaN, read alike by YAML 1.2, go-yaml and PyYAML. */
const SPECIAL_FLOAT = /^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/;

const PY_INT = /^[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0[0-7_]+|0|[1-9][0-9_]*)$/;
const PY_BASE60_INT = /^[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+$/;
const PY_FLOAT = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?)$/;
const PY_BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/;

function signOf(text: string): number {
  return text.startsWith('-') ? -1 : 1;
}

function unsigned(text: string): string {
  return text.replace(/^[-+]/, '');
}

/** An integer literal with a base prefix or a leading 0 (octal), or decimal. */
function integerValue(text: string, leadingZeroIsOctal: boolean): number {
  const digits = unsigned(text).toLowerCase();
  let value: number;
  if (digits.startsWith('0x')) value = parseInt(digits.slice(2), 16);
  else if (digits.startsWith('0b')) value = parseInt(digits.slice(2), 2);
  else if (digits.startsWith('0o')) value = parseInt(digits.slice(2), 8);
  else if (leadingZeroIsOctal && digits.length > 1 && digits.startsWith('0')) value = parseInt(digits, 8);
  else value = parseInt(digits, 10);
  return signOf(text) * value;
}

function base60Value(text: string): number {
  let value = 0;
  for (const part of unsigned(text).split(':')) value = value * 60 + Number(part);
  return signOf(text) * value;
}

function describeNumber(text: string, value: number): string {
  const digits = unsigned(text).toLowerCase();
  if (/^0[0-7]+$/.test(digits)) return `${value} (octal)`;
  return `${value} (a number)`;
}

/** How go-yaml v2 (kubectl, Helm) reads a plain scalar, where it could differ from YAML 1.2. */
function goYamlReading(text: string): Reading | undefined {
  if (GO_TRUE.has(text)) return { value: true, how: 'true (a boolean)' };
  if (GO_FALSE.has(text)) return { value: false, how: 'false (a boolean)' };
  // A leading dot: Go's ParseFloat, as YAML 1.2 reads it; infinities and NaN: go-yaml's table, as YAML 1.2 reads them.
  if (!/^[-+0-9]/.test(text) || SPECIAL_FLOAT.test(text)) return undefined;
  const plain = text.replace(/_/g, '');
  if (GO_INT.test(plain)) {
    const value = integerValue(plain, true);
    return { value, how: describeNumber(plain, value) };
  }
  if (GO_FLOAT.test(plain)) return { value: Number(plain), how: `${Number(plain)} (a number)` };
  return { value: text, how: `${JSON.stringify(text)} (a string)` };
}

/** How PyYAML reads a plain scalar, where it could differ from YAML 1.2. */
function pyYamlReading(text: string): Reading | undefined {
  if (PY_TRUE.has(text)) return { value: true, how: 'true (a boolean)' };
  if (PY_FALSE.has(text)) return { value: false, how: 'false (a boolean)' };
  if (!/^[-+.0-9]/.test(text) || SPECIAL_FLOAT.test(text)) return undefined;
  const plain = text.replace(/_/g, '');
  if (PY_INT.test(text)) {
    const value = integerValue(plain, true);
    return { value, how: describeNumber(plain, value) };
  }
  if (PY_BASE60_INT.test(text) || PY_BASE60_FLOAT.test(text)) return { value: base60Value(plain), how: `${base60Value(plain)} (base 60)` };
  if (PY_FLOAT.test(text)) return { value: Number(plain), how: `${Number(plain)} (a number)` };
  return { value: text, how: `${JSON.stringify(text)} (a string)` };
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}

/** How YAML 1.1 reads a plain scalar that YAML 1.2 read as `value`, when a YAML 1.1 reader differs. */
function differentReading(text: string, value: unknown): { yaml11: string; readers: string } | undefined {
  const go = goYamlReading(text);
  const py = pyYamlReading(text);
  const goDiffers = go !== undefined && !sameValue(go.value, value);
  const pyDiffers = py !== undefined && !sameValue(py.value, value);
  if (goDiffers) return { yaml11: go.how, readers: pyDiffers && sameValue(go.value, py!.value) ? BOTH : GO_YAML };
  if (pyDiffers) return { yaml11: py.how, readers: PYYAML };
  return undefined;
}

/** The longest scalar that can read differently is a number; longer ones are not looked at (see yaml11Reading). */
const LONGEST = 64;

/** Booleans (`yes`, `off`, `y`): short words that YAML 1.2 reads as strings. */
function mayBeBoolean(value: string): boolean {
  return value.length <= 3 && (GO_TRUE.has(value) || GO_FALSE.has(value));
}

function isDigitSignOrDot(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
}

/**
 * Every character a YAML 1.1 number can be written with (digits, sign, dot, `_`, base-60 `:`, exponent, base prefixes,
 * hex digits). A string holding any other character (`1500m`, `2048Mi`, `25%`, `-listen=:8080`) is a string to every
 * reader, so it cannot read differently; resource quantities and flags are most of the strings that start like numbers.
 */
const NUMBER_CHARACTERS = /^[-+0-9a-fA-FxXoO_.:]*$/;

/**
 * Whether a value (as YAML 1.2 read it) could read differently in YAML 1.1, judged on the value alone: a boolean word,
 * or a string or number whose text starts like a number (digits with `_` or `:`, `0o17`, `+.2`, `1e3`, `010`).
 */
function mayDiffer(value: unknown): boolean {
  if (typeof value === 'string') {
    if (value.length === 0 || value.length > LONGEST) return false;
    return mayBeBoolean(value) || (isDigitSignOrDot(value.charCodeAt(0)) && NUMBER_CHARACTERS.test(value));
  }
  return typeof value === 'number';
}

function isSpaceOrBreak(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Whether the text from `start` to `end` (trailing spaces and line breaks aside) is a decimal integer without a leading
 * 0 (`8080`, `3`, `0`): read alike by every reader. Checked in place, without copying the text, as it runs for every
 * number in the input.
 */
function isUsualInteger(input: string, start: number, end: number): boolean {
  let last = end;
  while (last > start && isSpaceOrBreak(input.charCodeAt(last - 1))) last--;
  if (last === start || (input.charCodeAt(start) === 0x30 && last - start > 1)) return false;
  for (let i = start; i < last; i++) if (!isDigit(input.charCodeAt(i))) return false;
  return true;
}

/**
 * The reading of one scalar node, from the text between its open and close positions; undefined (nothing allocated)
 * for the usual scalar. This runs on every scalar the reader closes, so the value decides first, the text only after.
 */
export function yaml11Reading(input: string, start: number, end: number, value: unknown, line: number): Yaml11Reading | undefined {
  if (!mayDiffer(value)) return undefined;
  let i = start;
  while (i < end && (input.charCodeAt(i) === 0x20 || input.charCodeAt(i) === 0x09)) i++;
  if (i >= end || end - i > LONGEST + 8) return undefined;
  // Quoted, block, tagged or anchored scalars read alike in both: only plain ones, which begin with a letter, digit,
  // sign or dot (the value's own first character for a string).
  const first = input.charCodeAt(i);
  if (typeof value === 'string' ? first !== value.charCodeAt(0) : !isDigitSignOrDot(first)) return undefined;
  // The usual number reads alike everywhere: only texts with a sign, dot, exponent, `_` or a leading 0 can differ.
  if (typeof value === 'number' && isUsualInteger(input, i, end)) return undefined;
  const text = input.slice(i, end).trimEnd();
  if (typeof value === 'string' && value !== text) return undefined;
  const differs = differentReading(text, value);
  return differs && { line, text, yaml12: JSON.stringify(value), ...differs };
}
