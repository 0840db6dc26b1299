/**
 * Where YAML 1.1 and YAML 1.2 read the same unquoted scalar differently. This tool reads YAML 1.2 (core schema);
 * kubectl and Helm read through sigs.k8s.io/yaml (go-yaml v2, YAML 1.1 rules), PyYAML-based tools through YAML 1.1 too.
 * So `port: 0443` is analysed as 443 here and applied as 291 (octal) by kubectl; `enabled: yes` is a string here and
 * the boolean true there. Each such scalar becomes a Yaml11Reading, reported by LKD-MESH-013.
 */
import { Yaml11Reading } from '../../analysis/model/manifest';

const KUBECTL = 'kubectl and Helm (go-yaml v2) and PyYAML';
const PYYAML = 'PyYAML and other YAML 1.1 readers (not kubectl)';

const YAML11_TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON']);
const YAML11_FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
/** YAML 1.1 base-60 integers and floats (`1:30` is 90). */
const SEXAGESIMAL = /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/;
/** YAML 1.1 octal (`0443`), which YAML 1.2 reads as decimal. */
const OCTAL_11 = /^[-+]?0[0-7_]+$/;
/** YAML 1.2 octal (`0o17`), a string in YAML 1.1. */
const OCTAL_12 = /^[-+]?0o[0-7]+$/;
/** Digits with `_` separators: an integer in YAML 1.1, a string in YAML 1.2. */
const UNDERSCORE_INT = /^[-+]?[0-9][0-9_]*_[0-9_]*$/;

function sexagesimalValue(text: string): number {
  const negative = text.startsWith('-');
  let value = 0;
  for (const part of text.replace(/^[-+]/, '').replace(/_/g, '').split(':')) value = value * 60 + Number(part);
  return negative ? -value : value;
}

function octalValue(text: string): number {
  const digits = text.replace(/_/g, '');
  const value = parseInt(digits.replace(/^[-+]/, ''), 8);
  return digits.startsWith('-') ? -value : value;
}

/** How YAML 1.1 reads a plain scalar that YAML 1.2 read as `value`, when the two differ. */
function differentReading(text: string, value: unknown): { yaml11: string; readers: string } | undefined {
  if (typeof value === 'string') {
    if (YAML11_TRUE.has(text)) return { yaml11: 'true (a boolean)', readers: KUBECTL };
    if (YAML11_FALSE.has(text)) return { yaml11: 'false (a boolean)', readers: KUBECTL };
    if (UNDERSCORE_INT.test(text)) return { yaml11: `${Number(text.replace(/_/g, ''))} (a number)`, readers: KUBECTL };
    if (SEXAGESIMAL.test(text)) return { yaml11: `${sexagesimalValue(text)} (base 60)`, readers: PYYAML };
    return undefined;
  }
  if (typeof value === 'number') {
    if (OCTAL_11.test(text)) {
      const octal = octalValue(text);
      return octal === value ? undefined : { yaml11: `${octal} (octal)`, readers: KUBECTL };
    }
    if (OCTAL_12.test(text)) return { yaml11: `"${text}" (a string)`, readers: KUBECTL };
  }
  return undefined;
}

function isDigitOrSign(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d;
}

/** Whether a string value (as YAML 1.2 read it) could read differently in YAML 1.1, judged on the value alone. */
function stringMayDiffer(value: string): boolean {
  if (value.length <= 3) return YAML11_TRUE.has(value) || YAML11_FALSE.has(value);
  if (value.length > 32 || !isDigitOrSign(value.charCodeAt(0))) return false;
  return value.includes('_') || value.includes(':');
}

function leadingZero(input: string, i: number): boolean {
  const c = input.charCodeAt(i);
  return c === 0x30 || ((c === 0x2b || c === 0x2d) && input.charCodeAt(i + 1) === 0x30);
}

/**
 * The reading of one scalar node, from the text between its open and close positions; undefined (nothing allocated)
 * for the usual scalar. This runs on every scalar the reader closes, so the value decides first, the text only after.
 */
export function yaml11Reading(input: string, start: number, end: number, value: unknown, line: number): Yaml11Reading | undefined {
  const isString = typeof value === 'string';
  if (isString ? !stringMayDiffer(value) : typeof value !== 'number') return undefined;
  let i = start;
  while (i < end && (input.charCodeAt(i) === 0x20 || input.charCodeAt(i) === 0x09)) i++;
  if (i >= end || end - i > 32) return undefined;
  // Quoted, block, tagged or anchored scalars read alike in both: only plain ones, which begin with the value itself.
  if (isString ? !input.startsWith(value, i) : !leadingZero(input, i)) return undefined;
  const text = input.slice(i, end).trimEnd();
  if (isString && value !== text) return undefined;
  const differs = differentReading(text, value);
  return differs && { line, text, yaml12: JSON.stringify(value), ...differs };
}
