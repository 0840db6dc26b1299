/**
 * The engine's input: resolved manifests as plain objects, each with where it came from.
 * Nothing here knows about constructs; front-ends fill in `source`.
 */

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
  /** Unquoted scalars of the document that YAML 1.1 readers (kubectl, Helm, PyYAML) read differently (LKD-MESH-012). */
  readonly yaml11Readings?: readonly Yaml11Reading[];
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

/** Names are coerced to strings: hostile input may put anything there, and findings must still sort and print. */
export function resourceIdOf(obj: KubeObject): ResourceId {
  const namespace = obj.metadata?.namespace;
  return {
    apiVersion: String(obj.apiVersion ?? ''),
    kind: String(obj.kind ?? ''),
    namespace: namespace === undefined || namespace === null ? undefined : String(namespace),
    name: String(obj.metadata?.name ?? ''),
  };
}

function isPlainObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reference groups that mean "the core API group" (Linkerd and Gateway API both accept these). */
export function isCoreGroup(group: unknown): boolean {
  return group === undefined || group === null || group === '' || (typeof group === 'string' && group.toLowerCase() === 'core');
}

export function annotationsOf(obj: KubeObject | undefined): Record<string, string> {
  const annotations = obj?.metadata?.annotations;
  return isPlainObject(annotations) ? annotations : {};
}

export function labelsOf(obj: KubeObject | undefined): Record<string, string> {
  const labels = obj?.metadata?.labels;
  return isPlainObject(labels) ? labels : {};
}
