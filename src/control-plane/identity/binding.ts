/** What an identity hands the control-plane install when it is bound to it. */
import { ApiObject } from 'cdk8s';

/** Where the identity is bound: the control plane's namespace and trust domain. */
export interface IdentityBindOptions {
  /** Namespace of the Linkerd control plane (e.g. `linkerd`). */
  readonly namespace: string;
  /** The identity trust domain (e.g. `cluster.local`). */
  readonly trustDomain: string;
  /**
   * The delivery fills in `identity.issuer.tls.keyPEM` at deploy time (a Flux `valuesFrom` entry targeting it, or one
   * merging a whole values document), so the output need not carry the issuer key.
   * @default false
   */
  readonly issuerKeySuppliedAtDeploy?: boolean;
}

/** The result of binding an identity to a control-plane install. */
export interface IdentityBinding {
  /**
   * Helm values for the `linkerd-control-plane` chart, nested as the chart expects: `identityTrustAnchorsPEM`,
   * `identityTrustDomain`, `identity.externalCA`, `identity.issuer.{scheme,issuanceLifetime,clockSkewAllowance}`,
   * `identity.issuer.tls.crtPEM` (and `keyPEM` only when the private key was explicitly opted in).
   */
  readonly values: { [key: string]: any };
  /** The Kubernetes objects the identity created (cert-manager, trust-manager, Secrets); apply them before the chart. */
  readonly apiObjects: ApiObject[];
  /**
   * True when `values` or `apiObjects` carry the issuer's private key (only after `writePrivateKey: true`). Whoever
   * writes `values` into an object should then suppress LKD-CERT-005 on it with a reason.
   */
  readonly writesPrivateKey: boolean;
}
