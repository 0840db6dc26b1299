import { ApiObject, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { IMeshResource, MeshResource, MeshResourceProps, metadataFor } from '../base';
import { claimImportedServiceAccount } from '../checks/claims';
import { cidrContains, cidrEquals, parseExactCidr } from '../core/cidr';
import { InputRule, check, fail } from '../core/errors';
import { isValidMeshIdentity } from '../core/identity';
import { validateLabelName } from '../core/names';
import { isNamed, namespaceOf, optionalList, requireList, requireNamed, requireStruct } from '../core/runtime-checks';
import * as l1 from '../imports/policy.linkerd.io';

/** Props for a MeshTlsAuthentication. */
export interface MeshTlsAuthenticationProps extends MeshResourceProps {
  /**
   * ServiceAccounts whose mesh identity is accepted.
   * @default - none (add later with addServiceAccount)
   */
  readonly serviceAccounts?: kplus.IServiceAccount[];
  /**
   * Namespaces all of whose identities are accepted.
   * @default - none
   */
  readonly namespaces?: string[];
  /**
   * Identity strings (DNS-like, `*`-prefixed, or SPIFFE IDs). Cannot be combined with ServiceAccounts or namespaces.
   * @default - none
   */
  readonly identities?: string[];
}

/** A reference to an authentication object. */
export interface IAuthentication extends IMeshResource {}

interface IdentityRef { readonly kind: 'ServiceAccount' | 'Namespace'; readonly name: string; readonly namespace?: string }

/**
 * Accepts clients by mesh (mTLS) identity. Exactly one of identity strings or references is allowed, and at least one
 * entry, as Linkerd's CRD requires.
 */
export class MeshTlsAuthentication extends MeshResource implements IAuthentication {
  public readonly apiObject: ApiObject;
  private readonly refs: IdentityRef[] = [];
  private readonly identities: string[] = [];

  constructor(scope: Construct, id: string, props: MeshTlsAuthenticationProps) {
    super(scope, id);
    this.apiObject = new l1.MeshTlsAuthentication(this, 'Resource', {
      metadata: metadataFor(this, props),
      spec: Lazy.any({ produce: () => this.renderSpec() }) as any,
    });
    const isString = (v: unknown) => typeof v === 'string';
    for (const sa of optionalList<kplus.IServiceAccount>(this, props.serviceAccounts, 'serviceAccounts', isNamed, 'ServiceAccounts') ?? []) this.addServiceAccount(sa);
    for (const ns of optionalList<string>(this, props.namespaces, 'namespaces', isString, 'namespace names') ?? []) this.addNamespace(ns);
    for (const identity of optionalList<string>(this, props.identities, 'identities', isString, 'identity strings') ?? []) this.addIdentity(identity);
    this.node.addValidation({
      validate: () => (this.refs.length + this.identities.length === 0
        ? [`${InputRule.REQUIRED}: MeshTLSAuthentication ${this.name} accepts nobody. Fix: add a ServiceAccount, namespace or identity.`]
        : []),
    });
  }

  /** Accepts the identity of a ServiceAccount. */
  public addServiceAccount(serviceAccount: kplus.IServiceAccount): void {
    requireNamed(this, serviceAccount, 'serviceAccount', 'Pass a kplus.ServiceAccount or kplus.ServiceAccount.fromServiceAccountName(...).');
    this.assertNoMix('identityRefs');
    const namespace = namespaceOf(serviceAccount);
    claimImportedServiceAccount(this, serviceAccount, namespace);
    this.refs.push({ kind: 'ServiceAccount', name: serviceAccount.name, namespace: namespace !== this.namespace ? namespace : undefined });
  }

  /** Accepts every identity in a namespace. */
  public addNamespace(namespace: string): void {
    this.assertNoMix('identityRefs');
    this.refs.push({ kind: 'Namespace', name: validateLabelName(this, namespace, 'namespace') });
  }

  /** Accepts an identity string, e.g. `*.mesh-lab.serviceaccount.identity.linkerd.cluster.local`. */
  public addIdentity(identity: string): void {
    this.assertNoMix('identities');
    if (!isValidMeshIdentity(identity)) {
      fail(this, 'LKD-POL-003',
        `identity ${JSON.stringify(identity)} is neither a DNS-like name nor a SPIFFE ID.`,
        'Use e.g. "client.mesh-lab.serviceaccount.identity.linkerd.cluster.local", "*.mesh-lab.serviceaccount.identity.linkerd.cluster.local" or "spiffe://td/ns/x".');
    }
    this.identities.push(identity);
  }

  private assertNoMix(adding: 'identities' | 'identityRefs'): void {
    const other = adding === 'identities' ? this.refs.length : this.identities.length;
    check(other === 0, this, 'LKD-POL-003', 'a MeshTLSAuthentication takes identity strings or ServiceAccount/namespace references, not both.',
      'Split them into two MeshTlsAuthentication objects.');
  }

  private renderSpec(): Record<string, any> {
    if (this.identities.length > 0) return { identities: [...this.identities] };
    return { identityRefs: this.refs.map((r) => ({ kind: r.kind, name: r.name, namespace: r.namespace })) };
  }
}

/** A network a NetworkAuthentication or EgressNetwork covers. */
export class Network {
  /** A CIDR (or bare IP), optionally with exceptions inside it. */
  public static cidr(cidr: string, exceptions?: string[]): Network {
    return new Network(cidr, exceptions ?? []);
  }

  private constructor(
    /** The CIDR. */
    public readonly block: string,
    /** Exceptions inside the CIDR. */
    public readonly exceptions: string[],
  ) {}

  /** Validates and renders. @internal */
  public _toKube(scope: Construct): { cidr: string; except?: string[] } {
    requireList(scope, this.exceptions, `except of ${this.block}`, (v) => typeof v === 'string', 'CIDR strings');
    const outer = parseExactCidr(this.block);
    if (outer === undefined) {
      fail(scope, 'LKD-POL-005',
        `network ${JSON.stringify(this.block)} is not a CIDR or IP.`,
        'Use e.g. "10.0.0.0/8" or "fd00::/8", without spaces.');
    }
    for (const text of this.exceptions) {
      const inner = parseExactCidr(text);
      if (!(inner !== undefined && cidrContains(outer, inner) && !cidrEquals(outer, inner))) {
        fail(scope, 'LKD-POL-005',
          `except ${JSON.stringify(text)} is not a network strictly inside ${this.block}.`,
          'List only sub-networks of the CIDR in except, without spaces.');
      }
    }
    return this.exceptions.length ? { cidr: this.block, except: [...this.exceptions] } : { cidr: this.block };
  }
}

/** Props for a NetworkAuthentication. */
export interface NetworkAuthenticationProps extends MeshResourceProps {
  /** The client networks accepted (at least one). */
  readonly networks: Network[];
}

/** Accepts clients by source network (meshed or not). */
export class NetworkAuthentication extends MeshResource implements IAuthentication {
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: NetworkAuthenticationProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    requireList(this, props.networks, 'networks', (n) => n instanceof Network, 'Network.cidr(...) values');
    check(props.networks.length > 0, this, 'LKD-POL-005', 'networks is empty.', 'List at least one Network.cidr(...).');
    const networks = props.networks.map((n) => n._toKube(this));
    this.apiObject = new l1.NetworkAuthentication(this, 'Resource', { metadata: metadataFor(this, props), spec: { networks } });
  }
}
