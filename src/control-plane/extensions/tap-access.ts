/**
 * Tap shows request metadata (paths, headers' names, identities) of live traffic, so nobody gets it by default: a
 * TapAccess grants one named subject viz's `linkerd-<viz namespace>-tap-admin` ClusterRole (watch on tap.linkerd.io),
 * cluster-wide or in one namespace only (a RoleBinding: tap authorizes per target namespace).
 */
import { ApiObject, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { LinkerdViz } from './viz';
import { InputRule, check } from '../../core/errors';
import { validateLabelName, validateObjectName } from '../../core/names';

/** Who may tap. */
export class TapSubject {
  /** A user as the API server authenticates it (e.g. an OIDC email). */
  public static user(name: string): TapSubject {
    return new TapSubject('User', name);
  }

  /** A group as the API server authenticates it. */
  public static group(name: string): TapSubject {
    return new TapSubject('Group', name);
  }

  /** A ServiceAccount (e.g. a debugging tool's). */
  public static serviceAccount(namespace: string, name: string): TapSubject {
    return new TapSubject('ServiceAccount', name, namespace);
  }

  private constructor(public readonly kind: string, public readonly name: string, public readonly namespace?: string) {}

  /** @internal */
  public _rbacSubject(scope: Construct): Record<string, string> {
    check(typeof this.name === 'string' && this.name.trim() !== '', scope, InputRule.REQUIRED, `the ${this.kind} subject has no name.`, 'Name the subject.');
    if (this.kind === 'ServiceAccount') {
      return { kind: 'ServiceAccount', name: validateObjectName(scope, this.name, 'subject name'), namespace: validateLabelName(scope, this.namespace!, 'subject namespace') };
    }
    return { kind: this.kind, name: this.name, apiGroup: 'rbac.authorization.k8s.io' };
  }
}

/** Props for TapAccess. */
export interface TapAccessProps {
  /** The viz extension whose tap ClusterRole is granted. */
  readonly viz: LinkerdViz;
  /** Who may tap. */
  readonly subject: TapSubject;
  /**
   * Restrict tapping to this namespace (a RoleBinding there); otherwise every namespace (a ClusterRoleBinding).
   * @default - every namespace
   */
  readonly namespace?: string;
  /**
   * Name of the binding.
   * @default - derived from the construct path
   */
  readonly bindingName?: string;
}

/** A deliberate grant of `linkerd viz tap` to one subject. */
export class TapAccess extends Construct {
  /** The binding object (RoleBinding or ClusterRoleBinding). */
  public readonly binding: ApiObject;

  constructor(scope: Construct, id: string, props: TapAccessProps) {
    super(scope, id);
    check(props.viz instanceof LinkerdViz, this, InputRule.REQUIRED, 'viz is required.', 'Pass the LinkerdViz construct.');
    check(props.subject instanceof TapSubject, this, InputRule.REQUIRED, 'subject is required.',
      'Pass TapSubject.user(...), TapSubject.group(...) or TapSubject.serviceAccount(...).');
    const name = validateObjectName(this, props.bindingName ?? `linkerd-viz-tap-${this.node.addr.slice(0, 10)}`, 'bindingName');
    const namespace = props.namespace === undefined ? undefined : validateLabelName(this, props.namespace, 'namespace');
    this.binding = new ApiObject(this, 'Binding', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: namespace ? 'RoleBinding' : 'ClusterRoleBinding',
      metadata: { name, ...(namespace ? { namespace } : {}), labels: { 'app.kubernetes.io/part-of': 'linkerd-viz' } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: props.viz.tapAdminClusterRole },
      subjects: [props.subject._rbacSubject(this)],
    });
    if (!namespace && this.binding.metadata.namespace !== undefined) this.binding.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    this.node.addDependency(props.viz);
  }
}
