/** Identity from certificates the user manages: the PEMs go to the chart values, the issuer key stays out by default. */
import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { IdentityBindOptions, IdentityBinding } from './binding';
import {
  CertRule, checkAnchorAlgorithms, checkChain, checkIssuerAlgorithm, checkValidity, expiryPolicy, requireCertificates,
  requireIssuerChain, warnIfIssuerOutlivesAnchors,
} from './checks';
import { issuerDuration } from './go-duration';
import { suppressOn } from '../../checks/register';
import { ISSUER_SECRET, ParsedCertificate, bundlePem, keyMismatchProblem } from '../../core/certificates';
import { InputRule, check } from '../../core/errors';
import { optionalBoolean, requireStruct } from '../../core/runtime-checks';

/** How the issuer Secret `linkerd-identity-issuer` is laid out (chart value `identity.issuer.scheme`). */
export enum IssuerScheme {
  /** The chart creates the Secret from `identity.issuer.tls.crtPEM`/`keyPEM` (keys `crt.pem`/`key.pem`). */
  LINKERD_TLS = 'linkerd.io/tls',
  /** The Secret (`tls.crt`, `tls.key`, `ca.crt`) is supplied out of band, e.g. by cert-manager or a secret store. */
  KUBERNETES_TLS = 'kubernetes.io/tls',
}

/** Props for `LinkerdIdentity.fromCertificates`. */
export interface StaticIdentityProps {
  /** The trust-anchor bundle: one or more PEM certificates (ECDSA P-256, or RSA 2048/4096). */
  readonly trustAnchorsPem: string;
  /**
   * The issuer certificate (PEM): an intermediate CA with an ECDSA P-256 key, signed by an anchor in the bundle, or by
   * intermediate CAs that follow it in this PEM (leaf first) up to one.
   */
  readonly issuerCertificatePem: string;
  /**
   * How the issuer Secret is provided.
   * @default IssuerScheme.KUBERNETES_TLS (Secret `linkerd-identity-issuer` with tls.crt/tls.key/ca.crt provided out of band)
   */
  readonly scheme?: IssuerScheme;
  /**
   * The issuer private key (PEM). It is written to the output only together with `writePrivateKey: true`.
   * @default - none: the key is provided out of band
   */
  readonly issuerPrivateKeyPem?: string;
  /**
   * Explicit consent to write `issuerPrivateKeyPem` into the synthesized output (chart values for
   * `IssuerScheme.LINKERD_TLS`, a `kubernetes.io/tls` Secret for `IssuerScheme.KUBERNETES_TLS`).
   * Anyone who can read the manifests can then mint mesh identities.
   * @default false
   */
  readonly writePrivateKey?: boolean;
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
  /**
   * Warn when a certificate has fewer than this many days of validity left.
   * @default 60 (as `linkerd check`)
   */
  readonly expiryWarningDays?: number;
  /**
   * Fail instead of warn when a certificate expires within `expiryWarningDays` (`linkerd check` only warns and exits 0).
   * @default false
   */
  readonly failOnExpiryWarning?: boolean;
}

/** Name of the issuer Secret linkerd-identity reads (fixed by the chart). */
export const ISSUER_SECRET_NAME = ISSUER_SECRET;

/** The certificates of a static identity, parsed and checked. */
interface CheckedCertificates {
  readonly anchors: ParsedCertificate[];
  readonly issuer: ParsedCertificate;
  /** CA certificates between the issuer and an anchor, in the order given (a corporate or Vault PKI). */
  readonly intermediates: ParsedCertificate[];
}

function checkCertificates(scope: Construct, props: StaticIdentityProps): CheckedCertificates {
  const anchors = requireCertificates(scope, props.trustAnchorsPem, 'trustAnchorsPem');
  const { issuer, intermediates } = requireIssuerChain(scope, props.issuerCertificatePem, 'issuerCertificatePem');
  checkAnchorAlgorithms(scope, anchors);
  checkIssuerAlgorithm(scope, issuer);
  checkChain(scope, issuer, anchors, intermediates);
  const policy = expiryPolicy(scope, props.expiryWarningDays, props.failOnExpiryWarning);
  checkValidity(scope, [
    ...anchors.map((a): [ParsedCertificate, string] => [a, 'trust anchor']),
    [issuer, 'issuer'],
    ...intermediates.map((c): [ParsedCertificate, string] => [c, 'intermediate CA']),
  ], policy);
  warnIfIssuerOutlivesAnchors(scope, issuer, anchors);
  return { anchors, issuer, intermediates };
}

/** The issuer followed by its intermediates, as linkerd-identity reads them from one PEM. */
function issuerChainPem(certs: CheckedCertificates): string {
  return bundlePem([certs.issuer, ...certs.intermediates]);
}

/**
 * The key to write, if any. The key is output only on explicit consent, and a key given without consent is an error
 * rather than silently dropped, so nobody believes it was deployed.
 */
function privateKeyToWrite(scope: Construct, props: StaticIdentityProps, issuer: ParsedCertificate): string | undefined {
  const key = props.issuerPrivateKeyPem;
  const consent = props.writePrivateKey === true;
  check(key === undefined || consent, scope, CertRule.PRIVATE_KEY,
    'issuerPrivateKeyPem was given without writePrivateKey: true; the key would end up in the synthesized manifests.',
    'Provide the issuer Secret out of band (scheme KUBERNETES_TLS), or set writePrivateKey: true if the output is stored as a secret.');
  check(key !== undefined || !consent, scope, InputRule.REQUIRED, 'writePrivateKey is true but no issuerPrivateKeyPem was given.',
    'Pass issuerPrivateKeyPem, or drop writePrivateKey.');
  if (key === undefined) return undefined;
  const mismatch = keyMismatchProblem(key, issuer);
  check(mismatch === undefined, scope, CertRule.CHAIN, `${mismatch}.`, 'Pass the private key that belongs to issuerCertificatePem.');
  return key;
}

function issuerValues(
  scope: Construct, props: StaticIdentityProps, scheme: IssuerScheme, certs: CheckedCertificates, key: string | undefined,
): Record<string, any> {
  const tls: Record<string, string> = { crtPEM: issuerChainPem(certs) };
  // The chart writes keyPEM into the Secret only for linkerd.io/tls; for kubernetes.io/tls the key goes into our Secret.
  if (key !== undefined && scheme === IssuerScheme.LINKERD_TLS) tls.keyPEM = key;
  return {
    scheme,
    issuanceLifetime: issuerDuration(scope, props.issuanceLifetime ?? Duration.hours(24), 'issuanceLifetime'),
    clockSkewAllowance: issuerDuration(scope, props.clockSkewAllowance ?? Duration.seconds(20), 'clockSkewAllowance'),
    tls,
  };
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** The kubernetes.io/tls issuer Secret, written only when the key was opted in; ca.crt is what `linkerd check` reads. */
function issuerSecret(scope: Construct, namespace: string, certs: CheckedCertificates, key: string): ApiObject {
  const secret = new ApiObject(scope, 'IdentityIssuerSecret', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: ISSUER_SECRET_NAME, namespace },
    type: 'kubernetes.io/tls',
    data: {
      'tls.crt': base64(issuerChainPem(certs)),
      'tls.key': base64(key),
      'ca.crt': base64(bundlePem(certs.anchors)),
    },
  } as any);
  suppressOn(secret, CertRule.PRIVATE_KEY, 'writePrivateKey: true was set explicitly on LinkerdIdentity.fromCertificates');
  return secret;
}

export function bindStaticIdentity(scope: Construct, props: StaticIdentityProps, options: IdentityBindOptions): IdentityBinding {
  requireStruct(scope, props, 'LinkerdIdentity.fromCertificates() props');
  optionalBoolean(scope, props.writePrivateKey, 'writePrivateKey');
  optionalBoolean(scope, props.failOnExpiryWarning, 'failOnExpiryWarning');
  const certs = checkCertificates(scope, props);
  const scheme = props.scheme ?? IssuerScheme.KUBERNETES_TLS;
  check(Object.values(IssuerScheme).includes(scheme), scope, InputRule.RANGE, `scheme ${JSON.stringify(scheme)} is not an IssuerScheme.`,
    'Use IssuerScheme.KUBERNETES_TLS or IssuerScheme.LINKERD_TLS.');
  const key = privateKeyToWrite(scope, props, certs.issuer);
  check(scheme !== IssuerScheme.LINKERD_TLS || key !== undefined || options.issuerKeySuppliedAtDeploy === true, scope, CertRule.PRIVATE_KEY,
    'scheme LINKERD_TLS makes the chart create the issuer Secret from identity.issuer.tls.keyPEM, so the key would have to be in the output, and it was not opted in.',
    'Use scheme KUBERNETES_TLS and create Secret linkerd-identity-issuer (tls.crt, tls.key, ca.crt) out of band, supply the key at deploy time '
    + '(LinkerdDelivery.flux({ valuesFrom: [{ release: "linkerd-control-plane", name, valuesKey: "tls.key", targetPath: "identity.issuer.tls.keyPEM" }] })), '
    + 'or pass issuerPrivateKeyPem with writePrivateKey: true.');
  const apiObjects = key !== undefined && scheme === IssuerScheme.KUBERNETES_TLS ? [issuerSecret(scope, options.namespace, certs, key)] : [];
  return {
    values: {
      identityTrustAnchorsPEM: bundlePem(certs.anchors),
      identityTrustDomain: options.trustDomain,
      identity: { externalCA: false, issuer: issuerValues(scope, props, scheme, certs, key) },
    },
    apiObjects,
    writesPrivateKey: key !== undefined,
  };
}
