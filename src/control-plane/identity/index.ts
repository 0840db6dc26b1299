// The public identity API; the bind* functions and constants stay internal to the control plane.
export { IdentityBindOptions, IdentityBinding } from './binding';
export { LinkerdIdentity } from './identity';
export { IssuerScheme, StaticIdentityProps } from './static-identity';
export { CertManagerIdentityProps } from './cert-manager-identity';
export { RotationStep, ProxyTrust, TrustAnchorRotationProps, TrustAnchorRotation } from './rotation';
export { ExternalIssuerSecret, ExternalIssuerSecretProps, ExternalSecretsApiVersion, SecretStoreKind } from './external-issuer-secret';
