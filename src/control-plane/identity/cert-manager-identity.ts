/** Identity issued by cert-manager and distributed by trust-manager, as Linkerd's automatic-rotation guide sets it up. */
import { ApiObject, Duration, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { IdentityBindOptions, IdentityBinding } from './binding';
import { CertRule, checkAnchorAlgorithms, requireCertificates, warnAtSynth } from './checks';
import { issuerDuration } from './go-duration';
import { ISSUER_SECRET_NAME, IssuerScheme } from './static-identity';
import { TRUST_ROOTS_CONFIGMAP, TRUST_ROOTS_KEY, bundlePem } from '../../core/certificates';
import { formatGoDuration } from '../../core/duration-format';
import { wholeMillis } from '../../core/durations';
import { check } from '../../core/errors';
import { validateLabelName, validateObjectName } from '../../core/names';
import { optionalString, requireStruct } from '../../core/runtime-checks';

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
   * Validity of the trust anchor. An anchor change is a planned rotation (TrustAnchorRotation), so the default is long;
   * Linkerd's guide uses 8760h with renewBefore 7320h, which renews the root 60 days after issue.
   * @default Duration.hours(87600) (ten years)
   */
  readonly trustAnchorDuration?: Duration;
  /**
   * How long before expiry cert-manager renews the trust anchor.
   * @default Duration.hours(8760) (renewal nine years after issue)
   */
  readonly trustAnchorRenewBefore?: Duration;
  /**
   * Generate a new anchor key when cert-manager renews the anchor (`privateKey.rotationPolicy: Always`). A new key is a
   * new root that no proxy trusts yet, so a renewal becomes an unplanned anchor rotation; with the default (Never) a
   * renewal keeps the key and every issued certificate keeps chaining to it.
   * @default false
   */
  readonly rotateTrustAnchorKey?: boolean;
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
   * Name of the Secret (in `certManagerNamespace`) holding the previous anchor, kept in the bundle during a rotation.
   * Giving it says the Secret exists (you create it out of band, e.g. by copying the old anchor Secret); the Bundle
   * then reads it. A fresh install leaves it and `previousAnchorPem` unset: trust-manager refuses a Bundle whose
   * source Secret does not exist, and nothing would create it.
   * @default "linkerd-previous-anchor" when `previousAnchorPem` is given; otherwise the Bundle has no previous anchor
   */
  readonly previousAnchorSecretName?: string;
  /**
   * The previous anchor's certificate (PEM, public part only), during a rotation. The Secret
   * `previousAnchorSecretName` is then created with only `tls.crt` and added to the Bundle.
   * @default - no previous anchor
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

export const CERT_MANAGER_API_VERSION = 'cert-manager.io/v1';
export const TRUST_MANAGER_API_VERSION = 'trust.cert-manager.io/v1alpha1';
/** The Bundle's name is the ConfigMap's name, and the chart and proxy injector read exactly this one. */
export const TRUST_ROOTS_NAME = TRUST_ROOTS_CONFIGMAP;
/** trust-manager copies the bundle only into namespaces with this label; the control-plane namespace must carry it. */
export const CONTROL_PLANE_NAMESPACE_LABEL = 'linkerd.io/is-control-plane';

/** cert-manager's webhook refuses a Certificate shorter than this, or renewing less than 5 minutes ahead. */
const MIN_DURATION_MS = 3_600_000;
const MIN_RENEW_BEFORE_MS = 300_000;

/** Every setting with its default filled in; durations as milliseconds. */
interface Resolved {
  readonly namespace: string;
  readonly certManagerNamespace: string;
  readonly rootIssuerName: string;
  readonly trustAnchorName: string;
  readonly trustAnchorCommonName: string;
  readonly anchorDuration: number;
  readonly anchorRenewBefore: number;
  readonly clusterIssuerName: string;
  readonly issuerCommonName: string;
  readonly issuerDuration: number;
  readonly issuerRenewBefore: number;
  /** The previous-anchor Secret the Bundle reads, when there is one. */
  readonly previousAnchorSecretName?: string;
  readonly rotateTrustAnchorKey: boolean;
}

function resolve(scope: Construct, props: CertManagerIdentityProps, options: IdentityBindOptions): Resolved {
  const ms = (d: Duration | undefined, fallback: Duration, what: string) => wholeMillis(scope, d ?? fallback, what);
  const name = (value: string | undefined, fallback: string, what: string) => validateObjectName(scope, value ?? fallback, what);
  return {
    namespace: validateLabelName(scope, options.namespace, 'namespace'),
    certManagerNamespace: validateLabelName(scope, props.certManagerNamespace ?? 'cert-manager', 'certManagerNamespace'),
    rootIssuerName: name(props.rootIssuerName, 'linkerd-trust-root-issuer', 'rootIssuerName'),
    trustAnchorName: name(props.trustAnchorName, 'linkerd-trust-anchor', 'trustAnchorName'),
    trustAnchorCommonName: optionalString(scope, props.trustAnchorCommonName, 'trustAnchorCommonName') ?? 'root.linkerd.cluster.local',
    anchorDuration: ms(props.trustAnchorDuration, Duration.hours(87600), 'trustAnchorDuration'),
    anchorRenewBefore: ms(props.trustAnchorRenewBefore, Duration.hours(8760), 'trustAnchorRenewBefore'),
    clusterIssuerName: name(props.clusterIssuerName, 'linkerd-identity-issuer', 'clusterIssuerName'),
    issuerCommonName: optionalString(scope, props.issuerCommonName, 'issuerCommonName') ?? `identity.${options.namespace}.${options.trustDomain}`,
    issuerDuration: ms(props.issuerDuration, Duration.hours(48), 'issuerDuration'),
    issuerRenewBefore: ms(props.issuerRenewBefore, Duration.hours(25), 'issuerRenewBefore'),
    previousAnchorSecretName: props.previousAnchorSecretName !== undefined || props.previousAnchorPem !== undefined
      ? name(props.previousAnchorSecretName, 'linkerd-previous-anchor', 'previousAnchorSecretName') : undefined,
    rotateTrustAnchorKey: props.rotateTrustAnchorKey === true,
  };
}

function checkRenewal(scope: Construct, what: string, duration: number, renewBefore: number): void {
  check(duration >= MIN_DURATION_MS, scope, CertRule.LIFETIME, `${what} duration ${formatGoDuration(duration)} is shorter than 1h; cert-manager refuses it.`,
    `Give the ${what} a duration of at least 1h.`);
  check(renewBefore >= MIN_RENEW_BEFORE_MS && renewBefore < duration, scope, CertRule.LIFETIME,
    `${what} renewBefore ${formatGoDuration(renewBefore)} must be at least 5m and shorter than its duration ${formatGoDuration(duration)}; cert-manager refuses it.`,
    `Set the ${what} renewBefore between 5m and its duration (defaults: 87600h/8760h for the anchor, 48h/25h for the issuer).`);
}

/**
 * An issuer signed just before the anchor renews lives on for `issuerDuration` while the old anchor has only
 * `renewBefore` left; if it lives longer, it outlives the anchor that signed it.
 */
function checkLifetimes(scope: Construct, r: Resolved): void {
  checkRenewal(scope, 'trust anchor', r.anchorDuration, r.anchorRenewBefore);
  checkRenewal(scope, 'identity issuer', r.issuerDuration, r.issuerRenewBefore);
  if (r.issuerDuration > r.anchorRenewBefore) {
    warnAtSynth(scope, CertRule.LIFETIME, `the identity issuer (${formatGoDuration(r.issuerDuration)}) can outlive the trust anchor that signed it, `
      + `which has only ${formatGoDuration(r.anchorRenewBefore)} left when cert-manager renews it. Shorten issuerDuration or lengthen trustAnchorRenewBefore.`);
  }
}

/** cdk8s stamps the Chart's namespace on every object; a cluster-scoped one must not carry it. */
function clusterScoped(obj: ApiObject): ApiObject {
  if (obj.metadata.namespace !== undefined) obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  return obj;
}

function certificate(scope: Construct, id: string, name: string, namespace: string, spec: Record<string, any>): ApiObject {
  return new ApiObject(scope, id, { apiVersion: CERT_MANAGER_API_VERSION, kind: 'Certificate', metadata: { name, namespace }, spec } as any);
}

/** ECDSA P-256 keys (what Linkerd requires), re-generated on every renewal (cert-manager 1.18 changed the default). */
const PRIVATE_KEY = { algorithm: 'ECDSA', size: 256, rotationPolicy: 'Always' };

function trustAnchorObjects(scope: Construct, r: Resolved): ApiObject[] {
  const rootIssuer = new ApiObject(scope, 'TrustRootIssuer', {
    apiVersion: CERT_MANAGER_API_VERSION,
    kind: 'Issuer',
    metadata: { name: r.rootIssuerName, namespace: r.certManagerNamespace },
    spec: { selfSigned: {} },
  } as any);
  const anchor = certificate(scope, 'TrustAnchor', r.trustAnchorName, r.certManagerNamespace, {
    isCA: true,
    commonName: r.trustAnchorCommonName,
    secretName: r.trustAnchorName,
    duration: formatGoDuration(r.anchorDuration),
    renewBefore: formatGoDuration(r.anchorRenewBefore),
    // A renewal that keeps the key keeps every proxy's trust; a new key is an anchor rotation and must be planned.
    privateKey: { ...PRIVATE_KEY, rotationPolicy: r.rotateTrustAnchorKey ? 'Always' : 'Never' },
    issuerRef: { name: r.rootIssuerName, kind: 'Issuer', group: 'cert-manager.io' },
  });
  const clusterIssuer = clusterScoped(new ApiObject(scope, 'IdentityClusterIssuer', {
    apiVersion: CERT_MANAGER_API_VERSION,
    kind: 'ClusterIssuer',
    metadata: { name: r.clusterIssuerName },
    spec: { ca: { secretName: r.trustAnchorName } },
  } as any));
  return [rootIssuer, anchor, clusterIssuer];
}

function issuerCertificate(scope: Construct, r: Resolved): ApiObject {
  return certificate(scope, 'IdentityIssuer', ISSUER_SECRET_NAME, r.namespace, {
    secretName: ISSUER_SECRET_NAME,
    isCA: true,
    commonName: r.issuerCommonName,
    dnsNames: [r.issuerCommonName],
    duration: formatGoDuration(r.issuerDuration),
    renewBefore: formatGoDuration(r.issuerRenewBefore),
    privateKey: PRIVATE_KEY,
    usages: ['cert sign', 'crl sign', 'server auth', 'client auth'],
    issuerRef: { name: r.clusterIssuerName, kind: 'ClusterIssuer', group: 'cert-manager.io' },
  });
}

/**
 * The current anchor, and during a rotation the previous one too, so a rotation never leaves proxies trusting only one.
 * The previous-anchor source is there only when its Secret is known to exist.
 */
function trustBundle(scope: Construct, r: Resolved): ApiObject {
  return clusterScoped(new ApiObject(scope, 'TrustRootsBundle', {
    apiVersion: TRUST_MANAGER_API_VERSION,
    kind: 'Bundle',
    metadata: { name: TRUST_ROOTS_NAME },
    spec: {
      sources: [
        { secret: { name: r.trustAnchorName, key: 'tls.crt' } },
        ...(r.previousAnchorSecretName ? [{ secret: { name: r.previousAnchorSecretName, key: 'tls.crt' } }] : []),
      ],
      target: {
        configMap: { key: TRUST_ROOTS_KEY },
        namespaceSelector: { matchLabels: { [CONTROL_PLANE_NAMESPACE_LABEL]: 'true' } },
      },
    },
  } as any));
}

/** The previous-anchor Secret with the public certificate only: trust-manager needs tls.crt, never the key. */
function previousAnchorSecret(scope: Construct, r: Resolved, pem: string): ApiObject {
  const anchors = requireCertificates(scope, pem, 'previousAnchorPem');
  checkAnchorAlgorithms(scope, anchors);
  return new ApiObject(scope, 'PreviousAnchorSecret', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: r.previousAnchorSecretName, namespace: r.certManagerNamespace },
    type: 'Opaque',
    data: { 'tls.crt': Buffer.from(bundlePem(anchors), 'utf8').toString('base64') },
  } as any);
}

export function bindCertManagerIdentity(scope: Construct, props: CertManagerIdentityProps, options: IdentityBindOptions): IdentityBinding {
  requireStruct(scope, props, 'LinkerdIdentity.fromCertManager() props');
  const r = resolve(scope, props, options);
  checkLifetimes(scope, r);
  const apiObjects = [...trustAnchorObjects(scope, r), issuerCertificate(scope, r), trustBundle(scope, r)];
  if (props.previousAnchorPem !== undefined) apiObjects.push(previousAnchorSecret(scope, r, props.previousAnchorPem));
  return {
    values: {
      identityTrustDomain: options.trustDomain,
      identity: {
        externalCA: true,
        issuer: {
          scheme: IssuerScheme.KUBERNETES_TLS,
          issuanceLifetime: issuerDuration(scope, props.issuanceLifetime ?? Duration.hours(24), 'issuanceLifetime'),
          clockSkewAllowance: issuerDuration(scope, props.clockSkewAllowance ?? Duration.seconds(20), 'clockSkewAllowance'),
        },
      },
    },
    apiObjects,
    writesPrivateKey: false,
  };
}
