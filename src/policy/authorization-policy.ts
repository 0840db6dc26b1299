import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { IAuthentication, MeshTlsAuthentication, NetworkAuthentication } from './authentication';
import { IServer } from './server';
import { IMeshResource, MeshResource, MeshResourceProps, metadataFor } from '../base';
import { check } from '../core/errors';
import { validateLabelName } from '../core/names';
import * as l1 from '../imports/policy.linkerd.io';

const POLICY_GROUP = 'policy.linkerd.io';
const GATEWAY_GROUP = 'gateway.networking.k8s.io';

/** What an AuthorizationPolicy applies to. */
export class AuthorizationTarget {
  /** A Server: every request to its port. */
  public static server(server: IServer): AuthorizationTarget {
    return new AuthorizationTarget(POLICY_GROUP, 'Server', server.name);
  }

  /** An HTTPRoute (gateway.networking.k8s.io) attached to a Server: only requests matching the route. */
  public static httpRoute(route: IMeshResource): AuthorizationTarget {
    return new AuthorizationTarget(GATEWAY_GROUP, 'HTTPRoute', route.name);
  }

  /** A GRPCRoute attached to a Server. */
  public static grpcRoute(route: IMeshResource): AuthorizationTarget {
    return new AuthorizationTarget(GATEWAY_GROUP, 'GRPCRoute', route.name);
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
  ) {}
}

/** A client authentication an AuthorizationPolicy requires. */
export class Authentication {
  /** Clients with one of the mesh identities of a MeshTlsAuthentication. */
  public static meshTls(authentication: MeshTlsAuthentication): Authentication {
    return new Authentication(POLICY_GROUP, 'MeshTLSAuthentication', authentication);
  }

  /** Clients from the networks of a NetworkAuthentication. */
  public static network(authentication: NetworkAuthentication): Authentication {
    return new Authentication(POLICY_GROUP, 'NetworkAuthentication', authentication);
  }

  /** Clients running as one ServiceAccount. */
  public static serviceAccount(serviceAccount: kplus.IServiceAccount): Authentication {
    return new Authentication('', 'ServiceAccount', { name: serviceAccount.name, namespace: (serviceAccount as any).metadata?.namespace });
  }

  private constructor(
    /** API group ('' for core). */
    public readonly group: string,
    /** Kind. */
    public readonly kind: string,
    /** The object. */
    public readonly target: IAuthentication,
  ) {}
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
    check(props.target instanceof AuthorizationTarget, this, 'LKD-POL-001', 'target is required.', 'Pass target: AuthorizationTarget.server(server).');
    check(Array.isArray(props.requiredAuthentications), this, 'LKD-POL-002', 'requiredAuthentications is required.',
      'Pass a list (e.g. [Authentication.meshTls(auth)]); an empty list deliberately allows everyone.');
    const metadata = metadataFor(this, props);
    if (props.target.kind === 'Namespace') {
      validateLabelName(this, props.target.name, 'target namespace');
      check(props.target.name === metadata.namespace, this, 'LKD-POL-001',
        `a Namespace target must be the policy's own namespace (${metadata.namespace}), not ${props.target.name}.`,
        'Create the policy in the namespace it protects.');
    }
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
