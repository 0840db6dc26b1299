/**
 * Base of every L2 construct here (it also registers the App's checks: the one validation hook), in cdk8s-plus's pattern: the L1 ApiObject is a child called `Resource`, names are
 * explicit (never hashed, because other objects refer to them by name), and specs are built lazily so `add*` methods
 * keep working after construction.
 */
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { registerChecks } from './checks/register';
import { validateLabelName, validateObjectName } from './core/names';
import { requireStruct, validateAnnotations, validateLabels } from './core/runtime-checks';

/** Props every mesh resource takes. */
export interface MeshResourceProps {
  /** metadata.name of the object; explicit because other objects refer to it by name. */
  readonly name: string;
  /**
   * Namespace of the object.
   * @default - the namespace of the enclosing Chart
   */
  readonly namespace?: string;
  /**
   * Extra labels.
   * @default - none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Extra annotations.
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/** A reference to a named, namespaced object. */
export interface IMeshResource {
  /** metadata.name. */
  readonly name: string;
  /** The namespace, if known. */
  readonly namespace?: string;
}

/** A construct that synthesizes one object and takes part in the App's checks. */
export abstract class MeshResource extends Construct implements IMeshResource {
  /** The L1 object (escape hatch). */
  public abstract readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    registerChecks(this);
  }

  public get name(): string {
    return this.apiObject.metadata.name!;
  }

  public get namespace(): string | undefined {
    return this.apiObject.metadata.namespace;
  }
}

/** The metadata a MeshResource writes. */
export interface ResolvedMetadata {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

/** Validated metadata for a MeshResource's L1 object. */
export function metadataFor(scope: Construct, props: MeshResourceProps): ResolvedMetadata {
  requireStruct(scope, props, 'props');
  validateObjectName(scope, props.name);
  const namespace = props.namespace ?? Chart.of(scope).namespace;
  if (namespace !== undefined) validateLabelName(scope, namespace, 'namespace');
  const labels = validateLabels(scope, props.labels, 'labels');
  const annotations = validateAnnotations(scope, props.annotations, 'annotations');
  return { name: props.name, namespace, labels: labels && { ...labels }, annotations: annotations && { ...annotations } };
}
