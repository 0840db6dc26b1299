import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { IAuthentication, MeshTlsAuthentication, NetworkAuthentication } from './authentication';
import { IServer } from './server';
import { IMeshResource, MeshResource, MeshResourceProps, metadataFor } from '../base';
import { claimExisting, claimImportedServiceAccount } from '../checks/claims';
import { InputRule, check, fail } from '../core/errors';
import { validateLabelName, validateObjectName } from '../core/names';
import { describeValue, isNamed, namespaceOf, requireList, requireNamed, requireStruct } from '../core/runtime-checks';
import * as l1 from '../imports/policy.linkerd.io';

const POLICY_GROUP = 'policy.linkerd.io';
const GATEWAY_GROUP = 'gateway.networking.k8s.io';

/** The name of a reference, read without throwing; a missing one is refused where the policy is built. */
function nameOf(ref: unknown): string {
  return (isNamed(ref) ? ref.name : undefined) as string;
}

/** What an AuthorizationPolicy applies to. */
export class AuthorizationTarget {
  /** A Server: every request to its port. */
  public static server(server: IServer): AuthorizationTarget {
    return new AuthorizationTarget(POLICY_GROUP, 'Server', nameOf(server), namespaceOfRef(server), referenceOf(server, 'Server.fromServerName'));
  }

  /** An HTTPRoute (gateway.networking.k8s.io) attached to a Server: only requests matching the route. */
  public static httpRoute(route: IMeshResource): AuthorizationTarget {
    return new AuthorizationTarget(GATEWAY_GROUP, 'HTTPRoute', nameOf(route), namespaceOfRef(route), referenceOf(route, 'AuthorizationTarget.httpRoute of a name'));
  }

  /** A GRPCRoute attached to a Server. */
  public static grpcRoute(route: IMeshResource): AuthorizationTarget {
    return new AuthorizationTarget(GATEWAY_GROUP, 'GRPCRoute', nameOf(route), namespaceOfRef(route), referenceOf(route, 'AuthorizationTarget.grpcRoute of a name'));
  }

  /** Every Server in the policy's own namespace (Linkerd rejects any other namespace). */
  public static namespace(name: string): AuthorizationTarget {
    return new AuthorizationTarget('', 'Namespace', name);
  }

  private constructor(
    /** API group of the target ('' for core). */
    public readonly group: string,
    /** Kind of the target. */
    public readonly kind: string,
    /** Name of the target. */
    public readonly name: string,
    /** The target's namespace, when the construct it came from knows it. */
    private readonly namespace?: string,
    /** The factory of a reference to an object outside this app (not a construct), for the checks. */
    private readonly reference?: string,
  ) {}

  /** Records, for the checks, that the policy `scope` refers to a target outside this app. @internal */
  public _claim(scope: IConstruct): void {
    if (this.reference === undefined || typeof this.name !== 'string') return;
    claimExisting(scope, { group: this.group, kind: this.kind, namespace: this.namespace, name: this.name, factory: this.reference });
  }

  /**
   * Linkerd resolves a targetRef in the policy's own namespace (k8s/index/src/inbound/authorization_policy.rs target,
   * a LocalTargetRef): a target known to live elsewhere is never found.
   * @internal
   */
  public _checkNamespace(scope: IConstruct, policyNamespace: string | undefined): void {
    if (this.namespace === undefined || policyNamespace === undefined || this.namespace === policyNamespace) return;
    fail(scope, 'LKD-POL-001', `the target ${this.kind} ${this.name} is in namespace ${this.namespace}, but the policy is in ${policyNamespace}, `
      + 'and Linkerd looks the target up in the policy\'s own namespace only.', `Create the policy in namespace ${this.namespace}.`);
  }
}

/** The factory to name when a target is a reference rather than a construct of this app. */
function referenceOf(ref: unknown, factory: string): string | undefined {
  return isNamed(ref) && !Construct.isConstruct(ref) ? factory : undefined;
}

/** The namespace of a construct a target or policy refers to, when it has one. */
function namespaceOfRef(ref: unknown): string | undefined {
  const namespace = (ref as IMeshResource | undefined)?.namespace;
  return typeof namespace === 'string' ? namespace : undefined;
}

/** A client authentication an AuthorizationPolicy requires. */
export class Authentication {
  /** Clients with one of the mesh identities of a MeshTlsAuthentication. */
  public static meshTls(authentication: MeshTlsAuthentication): Authentication {
    return new Authentication(POLICY_GROUP, 'MeshTLSAuthentication', authentication,
      authentication instanceof MeshTlsAuthentication ? undefined : `Authentication.meshTls() was given ${describeValue(authentication)}, not a MeshTlsAuthentication`);
  }

  /** Clients from the networks of a NetworkAuthentication. */
  public static network(authentication: NetworkAuthentication): Authentication {
    return new Authentication(POLICY_GROUP, 'NetworkAuthentication', authentication,
      authentication instanceof NetworkAuthentication ? undefined : `Authentication.network() was given ${describeValue(authentication)}, not a NetworkAuthentication`);
  }

  /** Clients running as one ServiceAccount. */
  public static serviceAccount(serviceAccount: kplus.IServiceAccount): Authentication {
    return new Authentication('', 'ServiceAccount', { name: nameOf(serviceAccount), namespace: namespaceOf(serviceAccount) },
      isNamed(serviceAccount) ? undefined : `Authentication.serviceAccount() was given ${describeValue(serviceAccount)}, not a ServiceAccount`,
      !(serviceAccount instanceof kplus.ServiceAccount));
  }

  private constructor(
    /** API group ('' for core). */
    public readonly group: string,
    /** Kind. */
    public readonly kind: string,
    /** The object. */
    public readonly target: IAuthentication,
    private readonly problem?: string,
    /** True for a ServiceAccount imported by name: cdk8s-plus writes nothing for it, so it lives in the cluster. */
    private readonly imported = false,
  ) {}

  /** Refuses an authentication made from input that is not one (a jsii user's None or wrong object). @internal */
  public _validate(scope: Construct, where: string): void {
    if (this.problem !== undefined) {
      fail(scope, InputRule.REQUIRED,
        `${where}: ${this.problem}.`,
        'Pass Authentication.meshTls(auth), Authentication.network(auth) or Authentication.serviceAccount(sa) with the object itself.');
    }
    requireNamed(scope, this.target, `${where} target`, 'Pass the authentication object (or ServiceAccount) itself.');
    if (this.imported) claimImportedServiceAccount(scope, this.target, this.target.namespace);
  }
}

/** Props for an AuthorizationPolicy. */
export interface AuthorizationPolicyProps extends MeshResourceProps {
  /** What the policy applies to. */
  readonly target: AuthorizationTarget;
  /**
   * What a client must prove. An empty list allows unauthenticated clients from every network.
   */
  readonly requiredAuthentications: Authentication[];
}

/** Allows clients that satisfy every required authentication to reach the target. */
export class AuthorizationPolicy extends MeshResource {
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: AuthorizationPolicyProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    check(props.target instanceof AuthorizationTarget, this, 'LKD-POL-001', 'target is required.', 'Pass target: AuthorizationTarget.server(server).');
    check(Array.isArray(props.requiredAuthentications), this, 'LKD-POL-002', 'requiredAuthentications is required.',
      'Pass a list (e.g. [Authentication.meshTls(auth)]); an empty list deliberately allows everyone.');
    requireList<Authentication>(this, props.requiredAuthentications, 'requiredAuthentications', (a) => a instanceof Authentication,
      'Authentication values (Authentication.meshTls(...), .network(...), .serviceAccount(...))')
      .forEach((a, i) => a._validate(this, `requiredAuthentications[${i}]`));
    const metadata = metadataFor(this, props);
    if (props.target.kind !== 'Namespace') validateObjectName(this, props.target.name, `target ${props.target.kind} name`);
    if (props.target.kind === 'Namespace') {
      validateLabelName(this, props.target.name, 'target namespace');
      if (props.target.name !== metadata.namespace) {
        fail(this, 'LKD-POL-001',
          `a Namespace target must be the policy's own namespace (${metadata.namespace}), not ${props.target.name}.`,
          'Create the policy in the namespace it protects.');
      }
    }
    props.target._checkNamespace(this, metadata.namespace);
    props.target._claim(this);
    this.checkAuthenticationLimits(props.requiredAuthentications);
    this.apiObject = new l1.AuthorizationPolicy(this, 'Resource', {
      metadata,
      spec: {
        targetRef: { group: props.target.group || undefined, kind: props.target.kind, name: props.target.name },
        requiredAuthenticationRefs: props.requiredAuthentications.map((a) => ({
          group: a.group || undefined,
          kind: a.kind,
          name: a.target.name,
          namespace: a.target.namespace !== metadata.namespace ? a.target.namespace : undefined,
        })),
      },
    });
  }

  /** Linkerd's admission limits: ≤1 MeshTLS, ≤1 ServiceAccount, never both, ≤1 Network. */
  private checkAuthenticationLimits(authentications: Authentication[]): void {
    const count = (kind: string) => authentications.filter((a) => a.kind === kind).length;
    const meshTls = count('MeshTLSAuthentication');
    const serviceAccounts = count('ServiceAccount');
    check(meshTls <= 1 && serviceAccounts <= 1 && !(meshTls && serviceAccounts), this, 'LKD-POL-002',
      'an AuthorizationPolicy may require at most one MeshTLSAuthentication or one ServiceAccount, not more and not both.',
      'Put all accepted identities into one MeshTlsAuthentication.');
    check(count('NetworkAuthentication') <= 1, this, 'LKD-POL-002', 'an AuthorizationPolicy may require at most one NetworkAuthentication.',
      'Put all networks into one NetworkAuthentication.');
  }
}
