/**
 * `metadata` is validated the same way for every kind (custom or core): a structural schema for
 * ObjectMeta plus the generic name/label/annotation rules of the API server.
 */
import { isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName, NameCheck } from './formats';
import { fieldPath, keyPath, RawIssue } from './issues';
import { isJsonObject, JsonSchema } from './schema';

const str: JsonSchema = { type: 'string' };
const nullableMap: JsonSchema = { type: 'object', additionalProperties: str, nullable: true };

export const OBJECT_META_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    name: str,
    generateName: str,
    namespace: str,
    uid: str,
    resourceVersion: str,
    selfLink: str,
    generation: { type: 'integer' },
    // Client tools commonly print `creationTimestamp: null`.
    creationTimestamp: { type: 'string', format: 'date-time', nullable: true },
    deletionTimestamp: { type: 'string', format: 'date-time', nullable: true },
    deletionGracePeriodSeconds: { type: 'integer' },
    // Go maps and slices: a JSON null decodes to an empty one, so the API server accepts `annotations:` with no value
    // (rendered charts such as `linkerd viz install` print it).
    labels: nullableMap,
    annotations: nullableMap,
    finalizers: { 'type': 'array', 'items': str, 'x-kubernetes-list-type': 'set', 'nullable': true },
    ownerReferences: {
      type: 'array',
      nullable: true,
      items: {
        type: 'object',
        required: ['apiVersion', 'kind', 'name', 'uid'],
        properties: {
          apiVersion: str,
          kind: str,
          name: str,
          uid: str,
          controller: { type: 'boolean' },
          blockOwnerDeletion: { type: 'boolean' },
        },
      },
    },
    managedFields: { type: 'array', nullable: true, items: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  },
};

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/**
 * The generic ObjectMeta rules: a name (or generateName) is required and must pass the kind's
 * name check (a DNS subdomain unless the kind is stricter), the namespace is a DNS label, and
 * label/annotation keys and values are well-formed.
 */
export function validateObjectMetaRules(meta: unknown, nameCheck: NameCheck, out: RawIssue[]): void {
  if (!isJsonObject(meta)) {
    out.push({ path: 'metadata', message: 'Required value: name or generateName is required', rule: 'required' });
    return;
  }
  const { name, generateName, namespace } = meta;
  if (typeof name !== 'string' && typeof generateName !== 'string') {
    out.push({ path: 'metadata.name', message: 'Required value: name or generateName is required', rule: 'required' });
  }
  if (typeof name === 'string') report(out, 'metadata.name', name, nameCheck, 'name');
  if (typeof namespace === 'string') report(out, 'metadata.namespace', namespace, isDns1123Label, 'namespace');
  validateLabels(meta.labels, out);
  validateAnnotations(meta.annotations, out);
  if (Array.isArray(meta.finalizers)) {
    meta.finalizers.forEach((f, i) => typeof f === 'string' && report(out, `metadata.finalizers[${i}]`, f, isQualifiedName, 'finalizer'));
  }
}

function report(out: RawIssue[], path: string, value: string, check: NameCheck, rule: string): void {
  for (const problem of check(value)) out.push({ path, message: `Invalid value: ${JSON.stringify(value)}: ${problem}`, rule });
}

function validateLabels(labels: unknown, out: RawIssue[]): void {
  if (!isJsonObject(labels)) return;
  const base = fieldPath('metadata', 'labels');
  for (const [key, value] of Object.entries(labels)) {
    report(out, base, key, isQualifiedName, 'label key');
    if (typeof value === 'string') report(out, keyPath(base, key), value, isLabelValue, 'label value');
  }
}

function validateAnnotations(annotations: unknown, out: RawIssue[]): void {
  if (!isJsonObject(annotations)) return;
  const base = fieldPath('metadata', 'annotations');
  let total = 0;
  for (const [key, value] of Object.entries(annotations)) {
    report(out, base, key.toLowerCase(), isQualifiedName, 'annotation key');
    total += key.length + (typeof value === 'string' ? value.length : 0);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) {
    out.push({ path: base, message: `Too long: must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`, rule: 'annotations' });
  }
}

export const DEFAULT_NAME_CHECK: NameCheck = isDns1123Subdomain;
