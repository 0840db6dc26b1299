/**
 * The checks the typed options make, made again on the MERGED chart values (chart defaults → HA → typed options →
 * identity → additionalValues). `additionalValues` is an escape hatch for keys the typed options do not cover, not a
 * way around a refusal: an issuer scheme without its PEMs, empty trust anchors, an unknown default inbound policy, a
 * smuggled private key or a string where the chart tests a boolean would otherwise reach the cluster unchecked.
 */
import { IConstruct } from 'constructs';
import { parseCertificateBundle, containsPrivateKey, keyMismatchProblem } from '../../core/certificates';
import { controlPlaneValueProblems } from '../../core/chart-values';
import { InputRule, check, fail } from '../../core/errors';
import { leaves, valueAt } from '../../core/helm-values';
import { describeValue } from '../../core/runtime-checks';
import { CertRule, checkAnchorAlgorithms, checkChain, requireCertificates } from '../identity/checks';

/** The chart's default `identity.issuer.scheme` (values.yaml): what applies when the merged values unset it. */
const CHART_DEFAULT_SCHEME = 'linkerd.io/tls';
const SCHEMES = ['linkerd.io/tls', 'kubernetes.io/tls'];
const ISSUER_KEY_PATH = 'identity.issuer.tls.keyPEM';

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** Trust anchors: the chart writes them into `linkerd-identity-trust-roots` unless the CA is external. */
function checkTrustAnchors(scope: IConstruct, values: Record<string, any>, identityValues: Record<string, any>): void {
  if (valueAt(values, 'identity.externalCA') === true) return;
  const pem = values.identityTrustAnchorsPEM;
  check(typeof pem === 'string' && pem.trim() !== '', scope, InputRule.REQUIRED,
    `the merged values have no identityTrustAnchorsPEM (${describeValue(pem)}), but identity.externalCA is not true, so the chart would write an empty trust-roots ConfigMap and no proxy could verify a peer.`,
    'Pass the anchors through LinkerdIdentity.fromCertificates({ trustAnchorsPEM }) (or use fromCertManager()), and do not override identityTrustAnchorsPEM in additionalValues.');
  // The identity's own anchors were checked when it was bound; only a replacement needs the certificate checks again.
  if (pem === identityValues.identityTrustAnchorsPEM) return;
  const anchors = requireCertificates(scope, pem, 'identityTrustAnchorsPEM (merged values)');
  checkAnchorAlgorithms(scope, anchors);
  const issuer = parseCertificateBundle(valueAt(values, 'identity.issuer.tls.crtPEM') ?? '').certificates;
  if (issuer.length === 1) checkChain(scope, issuer[0], anchors);
}

/** The issuer Secret: `linkerd.io/tls` makes the chart create it from crtPEM/keyPEM (Helm `required`). */
function checkIssuer(scope: IConstruct, values: Record<string, any>, writesPrivateKey: boolean, keySupplied: boolean): void {
  const scheme = valueAt(values, 'identity.issuer.scheme') ?? CHART_DEFAULT_SCHEME;
  check(SCHEMES.includes(scheme), scope, InputRule.RANGE, `identity.issuer.scheme ${describeValue(scheme)} (merged values) is not ${SCHEMES.join(' or ')}.`,
    'Set the scheme through LinkerdIdentity.fromCertificates({ scheme: IssuerScheme.KUBERNETES_TLS }) rather than additionalValues.');
  const key = valueAt(values, ISSUER_KEY_PATH);
  const crt = valueAt(values, 'identity.issuer.tls.crtPEM');
  if (scheme === CHART_DEFAULT_SCHEME) {
    check(isSet(crt) && (isSet(key) || keySupplied), scope, CertRule.PRIVATE_KEY,
      `identity.issuer.scheme is linkerd.io/tls in the merged values, so the chart creates the issuer Secret from identity.issuer.tls.crtPEM and keyPEM, but ${isSet(crt) ? 'keyPEM' : 'crtPEM'} is missing (helm would fail with "Please provide the identity issuer ...").`,
      'Use scheme KUBERNETES_TLS and provide Secret linkerd-identity-issuer out of band, or pass issuerPrivateKeyPem with writePrivateKey: true to LinkerdIdentity.fromCertificates.');
  }
  if (isSet(key) && writesPrivateKey && isSet(crt)) {
    const [issuer] = parseCertificateBundle(crt).certificates;
    const mismatch = issuer && typeof key === 'string' ? keyMismatchProblem(key, issuer) : undefined;
    check(mismatch === undefined, scope, CertRule.CHAIN, `${mismatch} (merged values).`, 'Do not override identity.issuer.tls in additionalValues; pass the matching key to the identity.');
  }
}

/** Private keys anywhere in the values: only the one the identity was told to write (writePrivateKey: true) may be there. */
function checkPrivateKeys(scope: IConstruct, values: Record<string, any>, writesPrivateKey: boolean): void {
  const withKey = leaves(values).find(([, value]) => typeof value === 'string' && containsPrivateKey(value));
  check(withKey === undefined || writesPrivateKey, scope, CertRule.PRIVATE_KEY,
    `the merged chart values carry a private key at ${withKey?.[0]} without writePrivateKey: true; it would end up in the synthesized manifests.`,
    'Provide the key out of band (an externally created Secret), or pass it to LinkerdIdentity.fromCertificates with writePrivateKey: true if the output is stored as a secret.');
}

/** The chart-value problems of core/chart-values.ts, the first one thrown, with the fix for the typed options. */
function checkChartValues(scope: IConstruct, values: Record<string, any>): void {
  const [first] = controlPlaneValueProblems(values);
  if (first) fail(scope, first.ruleId, first.problem(' (merged values)'), first.typedFix ?? first.fix);
}

/** Refuses merged control-plane values that the typed options would have refused. */
export function checkMergedValues(
  scope: IConstruct, values: Record<string, any>, identityValues: Record<string, any>, writesPrivateKey: boolean, issuerKeySupplied = false,
): void {
  checkPrivateKeys(scope, values, writesPrivateKey);
  checkIssuer(scope, values, writesPrivateKey, issuerKeySupplied);
  checkTrustAnchors(scope, values, identityValues);
  checkChartValues(scope, values);
}
