/**
 * OpenAPI v3 value validation as the API server applies it to a (pruned, defaulted) object.
 * Keywords only constrain values of their own kind (e.g. `pattern` ignores integers), which
 * is what makes `x-kubernetes-int-or-string` + `pattern` work.
 */
import { formatProblems } from './formats';
import { describeValue, fieldPath, indexPath, keyPath, RawIssue } from './issues';
import { isJsonObject, JsonObject, jsonEqual, JsonSchema } from './schema';
import { ownValue } from '../core/own-keys';

/** Issue kinds after which the API server does not run CEL rules (the object shape is not trustworthy). */
export const BLOCKING_KEYWORDS: ReadonlySet<string> = new Set(['type', 'enum']);

export function validateSchema(value: unknown, schema: JsonSchema, path: string, out: RawIssue[]): void {
  if (!checkType(value, schema, path, out)) return;
  checkEnum(value, schema, path, out);
  if (typeof value === 'string') checkString(value, schema, path, out);
  else if (typeof value === 'number') checkNumber(value, schema, path, out);
  else if (Array.isArray(value)) checkArray(value, schema, path, out);
  else if (isJsonObject(value)) checkObject(value, schema, path, out);
  checkCombinators(value, schema, path, out);
}

/** True when the value matches the schema with no issue at all (used by anyOf/oneOf/not). */
function satisfies(value: unknown, schema: JsonSchema, path: string): boolean {
  const scratch: RawIssue[] = [];
  validateSchema(value, schema, path, scratch);
  return scratch.length === 0;
}

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function expectedType(schema: JsonSchema): string | undefined {
  if (schema['x-kubernetes-int-or-string']) return 'integer or string';
  return schema.type;
}

function typeMatches(value: unknown, schema: JsonSchema): boolean {
  if (value === null) return schema.nullable === true || expectedType(schema) === undefined;
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' || Number.isInteger(value);
  switch (schema.type) {
    case undefined: return true;
    case 'object': return isJsonObject(value);
    case 'array': return Array.isArray(value);
    case 'string': return typeof value === 'string';
    case 'boolean': return typeof value === 'boolean';
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return Number.isInteger(value);
  }
}

function checkType(value: unknown, schema: JsonSchema, path: string, out: RawIssue[]): boolean {
  if (typeMatches(value, schema)) return value !== null;
  out.push({ path, message: `must be of type ${expectedType(schema)}, got ${jsonKind(value)}`, rule: 'type' });
  return false;
}

function checkEnum(value: unknown, schema: JsonSchema, path: string, out: RawIssue[]): void {
  if (!schema.enum || schema.enum.some(allowed => jsonEqual(allowed, value))) return;
  const supported = schema.enum.map(describeValue).join(', ');
  out.push({ path, message: `Unsupported value: ${describeValue(value)}: supported values: ${supported}`, rule: 'enum' });
}

const patternCache = new Map<string, RegExp>();

/**
 * Kubernetes compiles `pattern` with Go's RE2. The two dialects agree on the syntax the CRDs
 * use; the one RE2-only construct handled here is a leading inline flag group such as `(?i)`.
 */
export function compilePattern(pattern: string): RegExp {
  let re = patternCache.get(pattern);
  if (!re) {
    const inline = /^\(\?([is]+)\)/.exec(pattern);
    re = inline ? new RegExp(pattern.slice(inline[0].length), inline[1]) : new RegExp(pattern);
    patternCache.set(pattern, re);
  }
  return re;
}

function checkString(value: string, schema: JsonSchema, path: string, out: RawIssue[]): void {
  // Lengths count Unicode code points, like Go's utf8.RuneCountInString.
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    out.push({ path, message: `Too long: may not be longer than ${schema.maxLength} (got ${length})`, rule: 'maxLength' });
  }
  if (schema.minLength !== undefined && length < schema.minLength) {
    out.push({ path, message: `Too short: must be at least ${schema.minLength} characters (got ${length})`, rule: 'minLength' });
  }
  if (schema.pattern !== undefined && !compilePattern(schema.pattern).test(value)) {
    out.push({ path, message: `Invalid value: ${describeValue(value)}: should match '${schema.pattern}'`, rule: 'pattern' });
  }
  if (schema.format !== undefined) {
    for (const problem of formatProblems(schema.format, value)) {
      out.push({ path, message: `Invalid value: ${describeValue(value)}: ${problem}`, rule: 'format' });
    }
  }
}

function checkNumber(value: number, schema: JsonSchema, path: string, out: RawIssue[]): void {
  if (schema.minimum !== undefined) {
    const ok = schema.exclusiveMinimum ? value > schema.minimum : value >= schema.minimum;
    if (!ok) {
      const bound = schema.exclusiveMinimum ? 'greater than' : 'greater than or equal to';
      out.push({ path, message: `Invalid value: ${value}: must be ${bound} ${schema.minimum}`, rule: 'minimum' });
    }
  }
  if (schema.maximum !== undefined) {
    const ok = schema.exclusiveMaximum ? value < schema.maximum : value <= schema.maximum;
    if (!ok) {
      const bound = schema.exclusiveMaximum ? 'less than' : 'less than or equal to';
      out.push({ path, message: `Invalid value: ${value}: must be ${bound} ${schema.maximum}`, rule: 'maximum' });
    }
  }
  if (schema.multipleOf !== undefined && !Number.isInteger(value / schema.multipleOf)) {
    out.push({ path, message: `Invalid value: ${value}: must be a multiple of ${schema.multipleOf}`, rule: 'multipleOf' });
  }
}

function checkArray(value: unknown[], schema: JsonSchema, path: string, out: RawIssue[]): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    out.push({ path, message: `Too many: ${value.length}: must have at most ${schema.maxItems} items`, rule: 'maxItems' });
  }
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    out.push({ path, message: `Too few: ${value.length}: must have at least ${schema.minItems} items`, rule: 'minItems' });
  }
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set' || schema.uniqueItems) checkSetList(value, path, out);
  if (listType === 'map') checkMapList(value, schema['x-kubernetes-list-map-keys'] ?? [], path, out);
  if (schema.items) value.forEach((item, i) => validateSchema(item, schema.items as JsonSchema, indexPath(path, i), out));
}

/** `x-kubernetes-list-type: set`: every item must be unique. */
function checkSetList(value: unknown[], path: string, out: RawIssue[]): void {
  value.forEach((item, i) => {
    if (value.slice(0, i).some(earlier => jsonEqual(earlier, item))) {
      out.push({ path: indexPath(path, i), message: `Duplicate value: ${describeValue(item)}`, rule: 'x-kubernetes-list-type' });
    }
  });
}

/** `x-kubernetes-list-type: map`: the tuple of key fields identifies an item (case-sensitively). */
function checkMapList(value: unknown[], keys: readonly string[], path: string, out: RawIssue[]): void {
  const seen = new Set<string>();
  value.forEach((item, i) => {
    if (!isJsonObject(item)) return; // the type check reports non-objects
    const identity: JsonObject = {};
    for (const key of keys) if (item[key] !== undefined) identity[key] = item[key];
    const token = JSON.stringify(keys.map(key => item[key] ?? null));
    if (seen.has(token)) {
      out.push({ path: indexPath(path, i), message: `Duplicate value: ${describeValue(identity)}`, rule: 'x-kubernetes-list-map-keys' });
    }
    seen.add(token);
  });
}

function checkObject(value: JsonObject, schema: JsonSchema, path: string, out: RawIssue[]): void {
  for (const key of schema.required ?? []) {
    if (value[key] === undefined) out.push({ path: fieldPath(path, key), message: 'Required value', rule: 'required' });
  }
  const count = Object.keys(value).length;
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    out.push({ path, message: `Too many: ${count}: must have at most ${schema.maxProperties} properties`, rule: 'maxProperties' });
  }
  if (schema.minProperties !== undefined && count < schema.minProperties) {
    out.push({ path, message: `Too few: ${count}: must have at least ${schema.minProperties} properties`, rule: 'minProperties' });
  }
  const mapValues = isJsonObject(schema.additionalProperties) ? schema.additionalProperties as JsonSchema : undefined;
  for (const [key, child] of Object.entries(value)) {
    const declared = ownValue(schema.properties, key);
    if (declared) validateSchema(child, declared, fieldPath(path, key), out);
    else if (mapValues) validateSchema(child, mapValues, keyPath(path, key), out);
  }
}

/** Short text for a combinator branch, e.g. `{required: [podSelector]}`. */
function describeBranch(branch: JsonSchema): string {
  const { description: _ignored, ...rest } = branch;
  return describeValue(rest);
}

function checkCombinators(value: unknown, schema: JsonSchema, path: string, out: RawIssue[]): void {
  for (const branch of schema.allOf ?? []) validateSchema(value, branch, path, out);
  if (schema.anyOf && !schema.anyOf.some(branch => satisfies(value, branch, path))) {
    const options = schema.anyOf.map(describeBranch).join(', ');
    out.push({ path, message: `must validate at least one schema (anyOf): ${options}`, rule: 'anyOf' });
  }
  if (schema.oneOf) {
    const matched = schema.oneOf.filter(branch => satisfies(value, branch, path)).length;
    if (matched !== 1) {
      const options = schema.oneOf.map(describeBranch).join(', ');
      out.push({ path, message: `must validate one and only one schema (oneOf), but ${matched} matched: ${options}`, rule: 'oneOf' });
    }
  }
  if (schema.not && satisfies(value, schema.not, path)) {
    out.push({ path, message: `must not validate the schema (not): ${describeBranch(schema.not)}`, rule: 'not' });
  }
}
