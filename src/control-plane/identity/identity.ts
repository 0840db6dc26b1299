/**
 * How the control plane gets its identity: the trust anchors every proxy trusts and the issuer `linkerd-identity` signs
 * workload certificates with. The install construct asks an identity for chart values and lets it add its own objects.
 */
import { Construct } from 'constructs';
import { IdentityBindOptions, IdentityBinding } from './binding';
import { CertManagerIdentityProps, bindCertManagerIdentity } from './cert-manager-identity';
import { StaticIdentityProps, bindStaticIdentity } from './static-identity';

/** The identity (trust anchors and issuer) of a Linkerd control plane. */
export abstract class LinkerdIdentity {
  /**
   * Certificates you manage yourself: the trust-anchor bundle and the issuer certificate are written to the chart
   * values; the issuer key stays out of the output unless `writePrivateKey` is set. Checked when bound.
   */
  public static fromCertificates(props: StaticIdentityProps): LinkerdIdentity {
    return new StaticLinkerdIdentity(props);
  }

  /**
   * cert-manager issues and renews the issuer from a self-signed trust anchor; trust-manager distributes the
   * anchors as the `linkerd-identity-trust-roots` ConfigMap. No key material appears in the output.
   */
  public static fromCertManager(props: CertManagerIdentityProps = {}): LinkerdIdentity {
    return new CertManagerLinkerdIdentity(props);
  }

  /**
   * Checks the identity, creates its objects under `scope` and returns the chart values. Call once per scope.
   * @internal
   */
  public abstract _bind(scope: Construct, options: IdentityBindOptions): IdentityBinding;
}

class StaticLinkerdIdentity extends LinkerdIdentity {
  constructor(private readonly props: StaticIdentityProps) {
    super();
  }

  public _bind(scope: Construct, options: IdentityBindOptions): IdentityBinding {
    return bindStaticIdentity(scope, this.props, options);
  }
}

class CertManagerLinkerdIdentity extends LinkerdIdentity {
  constructor(private readonly props: CertManagerIdentityProps) {
    super();
  }

  public _bind(scope: Construct, options: IdentityBindOptions): IdentityBinding {
    return bindCertManagerIdentity(scope, this.props, options);
  }
}
