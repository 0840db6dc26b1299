/**
 * The two mutations the API server makes to a custom resource before it validates it:
 * pruning of unknown fields and structural defaulting. Both run on a private deep copy.
 *
 * Order matters and follows the API server: prune first (defaults are never applied to
 * fields that get pruned), then drop non-nullable nulls / fill defaults, then validate.
 */
import { fieldPath, indexPath, keyPath, RawIssue } from './issues';
import { cloneJson, isJsonObject, JsonObject, JsonSchema, keepsUnknownFields, propertySchema } from './schema';
import { ownValue } from '../core/own-keys';

const EMBEDDED_RESOURCE_FIELDS = ['apiVersion', 'kind', 'metadata'];

/**
 * Removes fields the schema does not declare and reports each one, the way
 * `kubectl apply --validate=strict` (strict field validation) does.
 * `rootKeep` lists top-level keys every object may carry (apiVersion, kind, metadata).
 */
export function pruneUnknownFields(
  value: unknown,
  schema: JsonSchema,
  path: string,
  issues: RawIssue[],
  rootKeep: readonly string[] = [],
): void {
  if (Array.isArray(value)) {
    pruneArrayItems(value, schema, path, issues);
    return;
  }
  if (!isJsonObject(value)) return;
  // An embedded resource (x-kubernetes-embedded-resource) keeps its own apiVersion/kind/metadata.
  const keep = schema['x-kubernetes-embedded-resource'] ? EMBEDDED_RESOURCE_FIELDS : rootKeep;
  for (const key of Object.keys(value)) {
    if (keep.includes(key)) continue;
    const child = propertySchema(schema, key);
    const childPath = ownValue(schema.properties, key) ? fieldPath(path, key) : keyPath(path, key);
    if (child) {
      pruneUnknownFields(value[key], child, childPath, issues);
    } else if (!keepsUnknownFields(schema)) {
      delete value[key];
      issues.push({ path: fieldPath(path, key), message: `unknown field "${key}"`, rule: 'unknown field' });
    }
  }
}

function pruneArrayItems(value: unknown[], schema: JsonSchema, path: string, issues: RawIssue[]): void {
  if (!schema.items) return;
  value.forEach((item, i) => pruneUnknownFields(item, schema.items as JsonSchema, indexPath(path, i), issues));
}

/**
 * Structural defaulting: a property that is absent (or null without `nullable`) gets a deep copy
 * of its `default`; then every present value is visited, including values that were just
 * defaulted and every array item. A non-nullable null without a default is dropped, as the
 * API server does before defaulting.
 */
export function applyDefaults(value: unknown, schema: JsonSchema): void {
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) applyDefaults(item, schema.items);
    return;
  }
  if (!isJsonObject(value)) return;
  fillAbsentDefaults(value, schema);
  for (const [key, child] of Object.entries(value)) {
    const childSchema = propertySchema(schema, key);
    if (childSchema) applyDefaults(child, childSchema);
  }
}

function fillAbsentDefaults(value: JsonObject, schema: JsonSchema): void {
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const present = Object.prototype.hasOwnProperty.call(value, key);
    const nonNullableNull = present && value[key] === null && prop.nullable !== true;
    if (prop.default !== undefined && (!present || nonNullableNull)) {
      value[key] = cloneJson(prop.default);
    } else if (nonNullableNull) {
      delete value[key];
    }
  }
  dropNullMapValues(value, schema);
}

/** Null values of a non-nullable `additionalProperties` map are dropped as well. */
function dropNullMapValues(value: JsonObject, schema: JsonSchema): void {
  const valueSchema = schema.additionalProperties;
  if (!isJsonObject(valueSchema) || (valueSchema as JsonSchema).nullable === true) return;
  for (const key of Object.keys(value)) {
    if (value[key] === null && !ownValue(schema.properties, key)) delete value[key];
  }
}
