/**
 * The engine's input: resolved manifests as plain objects, each with where it came from.
 * Nothing here knows about constructs; front-ends fill in `source`.
 */
import { hasOwn, isRecord as isPlainObject } from '../../util/json';

/** A resolved Kubernetes object (parsed YAML or `ApiObject.toJson()`). */
export type KubeObject = Record<string, any>;

/** Where an object came from, so a finding can point the user at it. */
export interface SourceLocation {
  /** Construct path when the object was synthesized by cdk8s. */
  readonly constructPath?: string;
  /** File the object was read from (CLI, plugin). */
  readonly file?: string;
  /** 1-based line of the document's start in `file`. */
  readonly line?: number;
  /** Unquoted scalars of the document that YAML 1.1 readers (kubectl, Helm, PyYAML) read differently (LKD-MESH-013). */
  readonly yaml11Readings?: readonly Yaml11Reading[];
  /**
   * Objects outside this output that the construct which wrote this object refers to as existing in the cluster
   * (`ServiceReference.fromName`, `Server.fromServerName`).
   */
  readonly claims?: readonly ExistingObjectClaim[];
}

/**
 * An object the app's author says exists in the cluster without writing it. The analysis cannot verify it, so a
 * reference to it that it cannot resolve is a warning that names the claim, not an error.
 */
export interface ExistingObjectClaim {
  /** API group ('' for core). */
  readonly group: string;
  readonly kind: string;
  /** Its namespace; when absent, the namespace of the object that carries the claim. */
  readonly namespace?: string;
  readonly name: string;
  /** What made the claim, for messages: the factory and the construct path (`ServiceReference.fromName at lab/Route`). */
  readonly by: string;
}

/** An unquoted scalar that YAML 1.2 (this tool) and YAML 1.1 (kubectl's and Helm's reader, PyYAML) read differently. */
export interface Yaml11Reading {
  /** 1-based line in the file. */
  readonly line: number;
  /** The scalar as written. */
  readonly text: string;
  /** What YAML 1.2 makes of it (as JSON). */
  readonly yaml12: string;
  /** What a YAML 1.1 reader makes of it (as JSON), and why. */
  readonly yaml11: string;
  /** Who reads it that way. */
  readonly readers: string;
}

/** One object given to the engine. */
export interface Manifest {
  readonly object: KubeObject;
  readonly source?: SourceLocation;
}

/** How a finding names the resource it is about. */
export interface ResourceId {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

export function groupOf(apiVersion: string | undefined): string {
  if (!apiVersion) return '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * Kinds the API server keeps outside namespaces (`kubectl api-resources --namespaced=false`, for the groups this tool
 * reads): a namespace written on them is ignored, as cdk8s stamps one on every object of a namespaced Chart. By group,
 * then kind: every object of an analysis is looked up here, and two lookups build no joined key string per object.
 */
const CLUSTER_SCOPED = new Map<string, ReadonlySet<string>>([
  ['', new Set(['Namespace', 'Node', 'PersistentVolume', 'ComponentStatus'])],
  ['rbac.authorization.k8s.io', new Set(['ClusterRole', 'ClusterRoleBinding'])],
  ['apiextensions.k8s.io', new Set(['CustomResourceDefinition'])],
  ['apiregistration.k8s.io', new Set(['APIService'])],
  ['admissionregistration.k8s.io', new Set(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration',
    'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'])],
  ['storage.k8s.io', new Set(['StorageClass', 'CSIDriver', 'CSINode', 'VolumeAttachment'])],
  ['scheduling.k8s.io', new Set(['PriorityClass'])],
  ['node.k8s.io', new Set(['RuntimeClass'])],
  ['networking.k8s.io', new Set(['IngressClass'])],
  ['policy', new Set(['PodSecurityPolicy'])],
  ['certificates.k8s.io', new Set(['CertificateSigningRequest'])],
  ['flowcontrol.apiserver.k8s.io', new Set(['FlowSchema', 'PriorityLevelConfiguration'])],
  ['gateway.networking.k8s.io', new Set(['GatewayClass'])],
  ['cert-manager.io', new Set(['ClusterIssuer'])],
  ['trust.cert-manager.io', new Set(['Bundle'])],
]);

export function isClusterScoped(apiVersion: string, kind: string): boolean {
  return CLUSTER_SCOPED.get(groupOf(apiVersion))?.has(kind) === true;
}

/**
 * Names are coerced to strings: hostile input may put anything there, and findings must still sort and print.
 * An object without `metadata.namespace` is where kubectl would put it: in `defaultNamespace` (`default`, or the
 * `--namespace` given); a cluster-scoped object has no namespace, whatever its metadata says.
 */
export function resourceIdOf(obj: KubeObject, defaultNamespace = 'default'): ResourceId {
  return resourceIdIn(obj, groupOf(String(obj.apiVersion ?? '')), defaultNamespace);
}

/** `resourceIdOf` for a caller that already has the object's API group (the index reads it once per object). */
export function resourceIdIn(obj: KubeObject, group: string, defaultNamespace: string): ResourceId {
  const apiVersion = String(obj.apiVersion ?? '');
  const kind = String(obj.kind ?? '');
  const metadata = obj.metadata;
  const namespace = metadata?.namespace;
  const given = namespace === undefined || namespace === null || namespace === '' ? undefined : String(namespace);
  return {
    apiVersion,
    kind,
    namespace: CLUSTER_SCOPED.get(group)?.has(kind) === true ? undefined : given ?? defaultNamespace,
    name: String(metadata?.name ?? ''),
  };
}

/**
 * API groups of files that tools read and never apply to a cluster: kustomize's kustomization and component files, and
 * the cluster configs of k3d and kind. They sit in manifest folders but are not objects of the cluster.
 */
const TOOL_CONFIG_GROUPS = new Set(['kustomize.config.k8s.io', 'k3d.io', 'kind.x-k8s.io']);

export function isToolConfigGroup(group: string): boolean {
  return TOOL_CONFIG_GROUPS.has(group);
}

/** Reference groups that mean "the core API group" (Linkerd and Gateway API both accept these). */
export function isCoreGroup(group: unknown): boolean {
  return group === undefined || group === null || group === '' || (typeof group === 'string' && group.toLowerCase() === 'core');
}

/**
 * Labels or annotations as the manifest holds them. Values are `unknown`: YAML reads `linkerd.io/inject: true` or
 * `version: 2` as a boolean or a number, and the API server refuses such an object (LKD-SCHEMA-002), so no reader may
 * take a value for a string; `textOf` reads one.
 */
export type MetadataMap = Readonly<Record<string, unknown>>;

/** One shared empty map for objects without annotations or labels: read-only, so it is never written through. */
export const NO_METADATA: MetadataMap = Object.freeze({});

/** `metadata.annotations`, or the shared empty map when it is missing or not a map. */
export function annotationsOf(obj: KubeObject | undefined): MetadataMap {
  const annotations = obj?.metadata?.annotations;
  return isPlainObject(annotations) ? annotations : NO_METADATA;
}

/** `metadata.labels`, or the shared empty map when it is missing or not a map. */
export function labelsOf(obj: KubeObject | undefined): MetadataMap {
  const labels = obj?.metadata?.labels;
  return isPlainObject(labels) ? labels : NO_METADATA;
}

/**
 * A label or annotation value as Kubernetes and Linkerd read it: the own value when it is a string, the empty string
 * for null (Go's JSON decoding leaves a map[string]string entry empty), else undefined: a value of another type never
 * reaches the cluster, since kubectl, Helm and the API server refuse the whole object (LKD-SCHEMA-002).
 */
export function textOf(map: MetadataMap, key: string): string | undefined {
  const value = map[key];
  // Object.prototype holds no text, so a string found is the map's own (the own-key test only where it matters).
  if (typeof value === 'string') return value;
  return value === null && hasOwn(map, key) ? '' : undefined;
}

/** The entries textOf reads (string values only), in a prototype-free map: for views that print them. */
export function textEntries(map: MetadataMap): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const key in map) {
    const value = textOf(map, key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** An annotation of the object, read with textOf. */
export function annotationOf(obj: KubeObject | undefined, key: string): string | undefined {
  return textOf(annotationsOf(obj), key);
}

/** The pod template of a workload: a bare Pod is its own, a CronJob's is in its job template. */
export function podTemplateOf(obj: KubeObject): KubeObject | undefined {
  switch (obj.kind) {
    case 'Pod': return obj;
    case 'CronJob': return obj.spec?.jobTemplate?.spec?.template;
    default: return obj.spec?.template;
  }
}

/** Where podTemplateOf finds a workload's pod template metadata, for messages. */
export function podTemplateMetadataPath(kind: string): string {
  return kind === 'CronJob' ? 'spec.jobTemplate.spec.template.metadata' : 'spec.template.metadata';
}

/** A label of the object, read with textOf. */
export function labelOf(obj: KubeObject | undefined, key: string): string | undefined {
  return textOf(labelsOf(obj), key);
}

/** Whether the object has the annotation with a value Kubernetes accepts (see textOf). */
export function hasAnnotation(obj: KubeObject | undefined, key: string): boolean {
  return annotationOf(obj, key) !== undefined;
}
