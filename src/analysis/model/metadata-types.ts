/**
 * The types Kubernetes requires of object metadata (k8s.io/apimachinery pkg/apis/meta/v1 ObjectMeta): `name`,
 * `namespace` and `generateName` are strings, `labels` and `annotations` maps of strings. kubectl, Helm and the API
 * server decode every object's metadata into that struct and refuse the object when a value has another type ("json:
 * cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"); null decodes as empty. The
 * API server decodes a built-in kind whole, so its pod template metadata and its label selector map are held to the
 * same types. YAML makes this easy to get wrong: `version: 2` and `prometheus.io/scrape: true` are a number and a boolean.
 */
import { KubeObject, podTemplateMetadataPath, podTemplateOf } from './manifest';
import { isRecord } from '../../util/json';

const TEXT_FIELDS = ['name', 'namespace', 'generateName'];
const MAP_FIELDS = ['labels', 'annotations'];

/**
 * API groups whose kinds the API server decodes whole, pod template and selector included, into typed structs (a
 * custom resource such as an Argo Rollout keeps its template as its CRD's schema says).
 */
const TYPED_TEMPLATE_GROUPS: ReadonlySet<string> = new Set(['', 'apps', 'batch']);

/** A value in words for a message: `2 (a number)`, `true (a boolean)`, `a list`, `a map`. */
function described(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `${String(value)} (a ${typeof value})`;
}

/** Whether a value decodes into a Go string: text, or null (read as empty). */
function decodesAsText(value: unknown): boolean {
  return typeof value === 'string' || value === undefined || value === null;
}

/** Whether a labels or annotations value decodes into map[string]string. */
function decodesAsTextMap(map: unknown): boolean {
  if (map === undefined || map === null) return true;
  if (typeof map !== 'object' || Array.isArray(map)) return false;
  for (const key in map) {
    if (!decodesAsText((map as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * Whether a metadata value decodes into ObjectMeta's fields: the test every object and pod template takes, in plain
 * loops and without a message or a list (almost all pass; metadataProblems then says what is wrong).
 */
function decodes(metadata: unknown): boolean {
  if (metadata === undefined || metadata === null) return true;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) return false;
  const m = metadata as Record<string, unknown>;
  return decodesAsText(m.name) && decodesAsText(m.namespace) && decodesAsText(m.generateName)
    && decodesAsTextMap(m.labels) && decodesAsTextMap(m.annotations);
}

/** What the decoder refuses in one metadata value, each as `<path> is <value>`; `path` names the metadata field. */
function metadataProblems(metadata: unknown, path: string, out: string[]): void {
  if (decodes(metadata)) return;
  if (!isRecord(metadata)) {
    out.push(`${path} is ${described(metadata)}, not a map`);
    return;
  }
  for (const field of TEXT_FIELDS) {
    const value = metadata[field];
    if (!decodesAsText(value)) out.push(`${path}.${field} is ${described(value)}`);
  }
  for (const field of MAP_FIELDS) {
    if (!decodesAsTextMap(metadata[field])) mapProblems(metadata[field], `${path}.${field}`, out);
  }
}

/** What the decoder refuses in a map of strings at `path`: the map itself, or each value of another type. */
function mapProblems(map: unknown, path: string, out: string[]): void {
  if (!isRecord(map)) {
    out.push(`${path} is ${described(map)}, not a map of strings`);
    return;
  }
  for (const key of Object.keys(map)) {
    if (!decodesAsText(map[key])) out.push(`${path} ${key} is ${described(map[key])}`);
  }
}

/**
 * Whether the API server decodes the object whole into a typed struct, beyond the metadata every object has: the
 * built-in groups' kinds (a Pod's template is the object itself).
 */
function decodedWhole(obj: KubeObject, group: string): boolean {
  return TYPED_TEMPLATE_GROUPS.has(group) && obj.kind !== 'Pod';
}

/** A CronJob's job template, the other metadata it carries beside its pod template. */
function jobTemplateOf(obj: KubeObject): unknown {
  return obj.kind === 'CronJob' ? obj.spec?.jobTemplate : undefined;
}

/**
 * The label selector map a built-in kind keeps beside its metadata, which the API server decodes as map[string]string
 * too: a Service's and a ReplicationController's `spec.selector`, a Deployment's and the other workloads'
 * `spec.selector.matchLabels` (selectorPath); undefined for other kinds. Read for every Service and workload as the
 * index adds it, so no object is built for the answer.
 */
function selectorMapOf(obj: KubeObject, group: string): unknown {
  if (group === '') return obj.kind === 'Service' || obj.kind === 'ReplicationController' ? obj.spec?.selector : undefined;
  return WORKLOAD_SELECTOR_GROUPS.has(group) && obj.kind !== 'CronJob' ? obj.spec?.selector?.matchLabels : undefined;
}

/** Where selectorMapOf read the map, for messages. */
function selectorPath(group: string): string {
  return group === '' ? 'spec.selector' : 'spec.selector.matchLabels';
}

const WORKLOAD_SELECTOR_GROUPS: ReadonlySet<string> = new Set(['apps', 'batch']);

/**
 * Whether kubectl, Helm and the API server decode the object's metadata (and a built-in workload's template metadata):
 * the test the index puts every object to when it adds it (almost all pass; metadataTypeProblems says what fails).
 */
export function metadataDecodes(obj: KubeObject, group: string): boolean {
  if (!decodes(obj.metadata)) return false;
  if (!decodedWhole(obj, group)) return true;
  if (!decodesAsTextMap(selectorMapOf(obj, group))) return false;
  const template = podTemplateOf(obj);
  const jobTemplate = jobTemplateOf(obj);
  return (!isRecord(template) || decodes(template.metadata)) && (!isRecord(jobTemplate) || decodes(jobTemplate.metadata));
}

/**
 * Everything in an object's metadata, and in a built-in workload's pod template metadata, whose type makes kubectl,
 * Helm and the API server refuse the object; empty when there is nothing.
 */
export function metadataTypeProblems(obj: KubeObject, group: string): readonly string[] {
  const out: string[] = [];
  metadataProblems(obj.metadata, 'metadata', out);
  if (!decodedWhole(obj, group)) return out;
  const selector = selectorMapOf(obj, group);
  if (!decodesAsTextMap(selector)) mapProblems(selector, selectorPath(group), out);
  const jobTemplate = jobTemplateOf(obj);
  if (isRecord(jobTemplate)) metadataProblems(jobTemplate.metadata, 'spec.jobTemplate.metadata', out);
  const template = podTemplateOf(obj);
  if (isRecord(template)) metadataProblems(template.metadata, podTemplateMetadataPath(obj.kind), out);
  return out;
}
