/**
 * The subset of the OpenAPI v3 / Kubernetes "structural schema" dialect that the
 * conformance harness understands. CRDs carry it under
 * `spec.versions[].schema.openAPIV3Schema`; the hand-written core schemas in
 * `core-schemas.ts` use the very same shape so one validator serves both.
 */
import { defineOwn, ownValue } from '../core/own-keys';
import { isRecord } from '../util/json';

/** One entry of `x-kubernetes-validations`. */
export interface ValidationRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  /** Relative JSON path (e.g. `.spec.port` or `.labels['a']`) that the error is reported at. */
  readonly fieldPath?: string;
  /** FieldValueInvalid (the default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate. */
  readonly reason?: string;
  readonly optionalOldSelf?: boolean;
}

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface JsonSchema {
  readonly 'type'?: SchemaType;
  readonly 'description'?: string;
  readonly 'properties'?: Readonly<Record<string, JsonSchema>>;
  readonly 'required'?: readonly string[];
  readonly 'additionalProperties'?: JsonSchema | boolean;
  readonly 'items'?: JsonSchema;
  readonly 'enum'?: readonly unknown[];
  readonly 'pattern'?: string;
  readonly 'format'?: string;
  readonly 'minLength'?: number;
  readonly 'maxLength'?: number;
  readonly 'minimum'?: number;
  readonly 'maximum'?: number;
  readonly 'exclusiveMinimum'?: boolean;
  readonly 'exclusiveMaximum'?: boolean;
  readonly 'multipleOf'?: number;
  readonly 'minItems'?: number;
  readonly 'maxItems'?: number;
  readonly 'uniqueItems'?: boolean;
  readonly 'minProperties'?: number;
  readonly 'maxProperties'?: number;
  readonly 'nullable'?: boolean;
  readonly 'default'?: unknown;
  readonly 'oneOf'?: readonly JsonSchema[];
  readonly 'anyOf'?: readonly JsonSchema[];
  readonly 'allOf'?: readonly JsonSchema[];
  readonly 'not'?: JsonSchema;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-validations'?: readonly ValidationRule[];
}

/** A plain JSON object (what `JSON.parse`/`js-yaml` give for a mapping). */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return isRecord(value);
}

/**
 * The schema that applies to the value under `key` of an object node, or undefined when the key
 * is not declared (an unknown field). `additionalProperties: true` and preserve-unknown-fields
 * objects accept any key, with no schema of their own.
 */
export function propertySchema(schema: JsonSchema, key: string): JsonSchema | undefined {
  const declared = ownValue(schema.properties, key);
  if (declared) return declared;
  if (isJsonObject(schema.additionalProperties)) return schema.additionalProperties as JsonSchema;
  return undefined;
}

/** True when the schema lets arbitrary keys through without pruning them. */
export function keepsUnknownFields(schema: JsonSchema): boolean {
  return schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true;
}

/** Deep copy of JSON data; defaults must never be shared between objects. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as unknown as T;
  if (isJsonObject(value)) {
    const out: JsonObject = {};
    // Keys are the input's: `__proto__` is copied as an own key, never made the copy's prototype.
    for (const [k, v] of Object.entries(value)) defineOwn(out, k, cloneJson(v));
    return out as T;
  }
  return value;
}

/** Structural JSON equality (used by enum, set lists and list-map keys). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every(k => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}
