import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { registerChecks } from '../checks/register';
import { DefaultInboundPolicy, INJECT_ANNOTATION, isDefaultInboundPolicy } from '../core/default-inbound-policy';
import { check } from '../core/errors';
import { validateLabelName } from '../core/names';
import { requireStruct, validateLabels } from '../core/runtime-checks';
import { DEFAULT_POLICY_ANNOTATION as DEFAULT_INBOUND_POLICY_ANNOTATION } from '../core/vocabulary';

/** Props for a MeshedNamespace. */
export interface MeshedNamespaceProps {
  /** Name of the namespace. */
  readonly name: string;
  /**
   * Default inbound policy for every pod port in the namespace that no Server selects.
   * @default - the cluster's `proxy.defaultInboundPolicy` (all-unauthenticated unless the control plane says otherwise)
   */
  readonly defaultInboundPolicy?: DefaultInboundPolicy;
  /**
   * Labels for the namespace.
   * @default - none
   */
  readonly labels?: { [key: string]: string };
}

/**
 * A namespace whose pods Linkerd injects (`linkerd.io/inject: enabled`, an annotation — as a label it does nothing).
 */
export class MeshedNamespace extends Construct {
  /** The cdk8s-plus namespace (escape hatch). */
  public readonly namespace: kplus.Namespace;
  /** The namespace name. */
  public readonly name: string;
  /** The default inbound policy set on the namespace, if any. */
  public readonly defaultInboundPolicy?: DefaultInboundPolicy;

  constructor(scope: Construct, id: string, props: MeshedNamespaceProps) {
    super(scope, id);
    registerChecks(this);
    requireStruct(this, props, 'props');
    this.name = validateLabelName(this, props.name, 'namespace name');
    const labels = validateLabels(this, props.labels, 'labels');
    if (props.defaultInboundPolicy !== undefined) {
      check(isDefaultInboundPolicy(props.defaultInboundPolicy), this, 'LKD-POL-012',
        `defaultInboundPolicy ${JSON.stringify(props.defaultInboundPolicy)} is not one of Linkerd's six policies.`, 'Use a DefaultInboundPolicy value.');
      this.defaultInboundPolicy = props.defaultInboundPolicy;
    }
    const annotations: Record<string, string> = { [INJECT_ANNOTATION]: 'enabled' };
    if (this.defaultInboundPolicy) annotations[DEFAULT_INBOUND_POLICY_ANNOTATION] = this.defaultInboundPolicy;
    this.namespace = new kplus.Namespace(this, 'Resource', { metadata: { name: this.name, annotations, labels: labels && { ...labels } } });
    // A Chart's namespace is stamped on every object, but a Namespace is cluster-scoped and must not carry one.
    if (Chart.of(this).namespace !== undefined) ApiObject.of(this.namespace).addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  }
}
