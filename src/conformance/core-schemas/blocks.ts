/** Building blocks of the core kinds' structural schemas (core-schemas.ts): scalars, quantities, ports, labels, references. */
import { JsonSchema, ValidationRule } from '../schema';

export const str: JsonSchema = { type: 'string' };

export const bool: JsonSchema = { type: 'boolean' };

export const int: JsonSchema = { type: 'integer' };

export const nonNegative: JsonSchema = { type: 'integer', minimum: 0 };

export const positive: JsonSchema = { type: 'integer', minimum: 1 };

export const strings: JsonSchema = { type: 'array', items: str };

/** A part of the API accepted without further checks (not modelled here). */
export const open: JsonSchema = { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true };

export const named = (format: string): JsonSchema => ({ type: 'string', format });

export const oneOfStrings = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });

export const list = (items: JsonSchema, extra: Partial<JsonSchema> = {}): JsonSchema => ({ type: 'array', items, ...extra });

export const mapList = (items: JsonSchema, ...keys: string[]): JsonSchema => ({
  'type': 'array', items, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys,
});

export const obj = (
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  rules: ValidationRule[] = [],
): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  ...(rules.length > 0 ? { 'x-kubernetes-validations': rules } : {}),
});

/** Resource quantities ("500m", "1Gi", 2): a number or a quantity string. */
const QUANTITY_PATTERN = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

export const quantity: JsonSchema = { anyOf: [{ type: 'number' }, { type: 'string', pattern: QUANTITY_PATTERN }] };

export const quantityMap: JsonSchema = { type: 'object', additionalProperties: quantity };

export const portNumber: JsonSchema = { type: 'integer', minimum: 1, maximum: 65535 };

/** A port given by number (1-65535) or by container port name (IANA_SVC_NAME, ≤15 chars). */
export const portRef: JsonSchema = { 'x-kubernetes-int-or-string': true, 'minimum': 1, 'maximum': 65535, 'format': 'k8s-iana-svc-name' };

export const protocol: JsonSchema = { type: 'string', enum: ['TCP', 'UDP', 'SCTP'], default: 'TCP' };

/** Integer or percentage ("25%"), as used by rollout and disruption budgets. */
export const intOrPercent: JsonSchema = { 'x-kubernetes-int-or-string': true, 'minimum': 0, 'pattern': '^[0-9]+%$' };

const QUALIFIED_NAME_RE = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$';

/** Label maps outside the object's own metadata (selectors, templates): keys and values are checked. */
export const labels: JsonSchema = {
  'type': 'object',
  'additionalProperties': named('k8s-label-value'),
  'x-kubernetes-validations': [{ rule: `self.all(k, k.matches('${QUALIFIED_NAME_RE}'))`, message: 'label keys must be qualified names ([prefix/]name)' }],
};

export const labelSelector = obj({
  matchLabels: labels,
  matchExpressions: list(obj({
    key: named('k8s-qualified-name'),
    operator: oneOfStrings('In', 'NotIn', 'Exists', 'DoesNotExist'),
    values: strings,
  }, ['key', 'operator'], [{
    rule: "self.operator in ['In', 'NotIn'] ? has(self.values) && size(self.values) > 0 : !has(self.values) || size(self.values) == 0",
    message: 'values must be non-empty for In/NotIn and empty for Exists/DoesNotExist',
    fieldPath: '.values',
  }])),
});

export const localObjectReference = obj({ name: str });

export const keySelector = obj({ key: str, name: str, optional: bool }, ['key']);
