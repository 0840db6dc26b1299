/** Identity issued by cert-manager and distributed by trust-manager, as Linkerd's automatic-rotation guide sets it up. */
import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { IdentityBindOptions, IdentityBinding } from './binding';

/** Props for `LinkerdIdentity.fromCertManager`. */
export interface CertManagerIdentityProps {
  /**
   * Namespace of cert-manager's trust namespace, where the self-signed root Issuer, the trust-anchor Certificate and
   * its Secrets live (trust-manager reads Bundle sources from its trust namespace).
   * @default "cert-manager"
   */
  readonly certManagerNamespace?: string;
  /**
   * Name of the self-signed Issuer that signs the trust anchor.
   * @default "linkerd-trust-root-issuer"
   */
  readonly rootIssuerName?: string;
  /**
   * Name of the trust-anchor Certificate and of its Secret.
   * @default "linkerd-trust-anchor"
   */
  readonly trustAnchorName?: string;
  /**
   * Common name of the trust anchor.
   * @default "root.linkerd.cluster.local"
   */
  readonly trustAnchorCommonName?: string;
  /**
   * Validity of the trust anchor.
   * @default Duration.hours(8760) (one year)
   */
  readonly trustAnchorDuration?: Duration;
  /**
   * How long before expiry cert-manager renews the trust anchor.
   * @default Duration.hours(7320)
   */
  readonly trustAnchorRenewBefore?: Duration;
  /**
   * Name of the ClusterIssuer that signs the identity issuer with the trust anchor.
   * @default "linkerd-identity-issuer"
   */
  readonly clusterIssuerName?: string;
  /**
   * Common name of the identity issuer.
   * @default "identity.<control-plane namespace>.<trust domain>"
   */
  readonly issuerCommonName?: string;
  /**
   * Validity of the identity issuer.
   * @default Duration.hours(48)
   */
  readonly issuerDuration?: Duration;
  /**
   * How long before expiry cert-manager renews the identity issuer.
   * @default Duration.hours(25)
   */
  readonly issuerRenewBefore?: Duration;
  /**
   * Name of the Secret (in `certManagerNamespace`) holding the previous anchor, kept in the bundle during rotation.
   * @default "linkerd-previous-anchor"
   */
  readonly previousAnchorSecretName?: string;
  /**
   * The previous anchor's certificate (PEM, public part only). When given, the Secret `previousAnchorSecretName` is
   * created with only `tls.crt`; otherwise copy the anchor Secret to it out of band before the Bundle can sync.
   * @default - the Secret is created out of band
   */
  readonly previousAnchorPem?: string;
  /**
   * Lifetime of workload certificates (`identity.issuer.issuanceLifetime`).
   * @default Duration.hours(24)
   */
  readonly issuanceLifetime?: Duration;
  /**
   * Allowed clock skew (`identity.issuer.clockSkewAllowance`).
   * @default Duration.seconds(20)
   */
  readonly clockSkewAllowance?: Duration;
}

export function bindCertManagerIdentity(_scope: Construct, _props: CertManagerIdentityProps, options: IdentityBindOptions): IdentityBinding {
  return {
    values: { identityTrustDomain: options.trustDomain, identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls' } } },
    apiObjects: [],
    writesPrivateKey: false,
  };
}
