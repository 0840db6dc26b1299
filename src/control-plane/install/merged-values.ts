/**
 * The checks the typed options make, made again on the MERGED chart values (chart defaults → HA → typed options →
 * identity → additionalValues). `additionalValues` is an escape hatch for keys the typed options do not cover, not a
 * way around a refusal: an issuer scheme without its PEMs, empty trust anchors, an unknown default inbound policy, a
 * smuggled private key or a string where the chart tests a boolean would otherwise reach the cluster unchecked.
 */
import { IConstruct } from 'constructs';
import { ProxyLogHttpHeaders, WebhookFailurePolicy } from './options';
import { parseCertificateBundle, containsPrivateKey, keyMismatchProblem, parseGoDuration } from '../../core/certificates';
import { parseExactCidr } from '../../core/cidr';
import { isDefaultInboundPolicy } from '../../core/default-inbound-policy';
import { InputRule, check } from '../../core/errors';
import { leaves, valueAt } from '../../core/helm-values';
import { isDnsSubdomain } from '../../core/names';
import { describeValue } from '../../core/runtime-checks';
import { CertRule, checkAnchorAlgorithms, checkChain, requireCertificates } from '../identity/checks';

/** The chart's default `identity.issuer.scheme` (values.yaml): what applies when the merged values unset it. */
const CHART_DEFAULT_SCHEME = 'linkerd.io/tls';
const SCHEMES = ['linkerd.io/tls', 'kubernetes.io/tls'];
const ISSUER_KEY_PATH = 'identity.issuer.tls.keyPEM';
const QUANTITY = /^[+]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;
/** Keys the chart tests with `if`: a string "false" is truthy there, so it must be a real boolean. */
const BOOLEAN_KEYS = ['cniEnabled', 'proxy.nativeSidecar', 'identity.externalCA', 'enablePodAntiAffinity', 'enablePodDisruptionBudget'];

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

function checkEnum(scope: IConstruct, values: Record<string, any>, path: string, allowed: readonly string[], ruleId: string): void {
  const value = valueAt(values, path);
  check(value === undefined || allowed.includes(value), scope, ruleId,
    `${path} ${describeValue(value)} (merged values) is not one of ${allowed.join(', ')}.`, `Set ${path} to one of ${allowed.join(', ')}, preferably through the typed option.`);
}

function checkScalars(scope: IConstruct, values: Record<string, any>): void {
  const policy = valueAt(values, 'proxy.defaultInboundPolicy');
  check(policy === undefined || isDefaultInboundPolicy(policy), scope, 'LKD-POL-012',
    `proxy.defaultInboundPolicy ${describeValue(policy)} (merged values) is not one of Linkerd's six policies, so the policy controller cannot parse it.`,
    'Use proxy: { defaultInboundPolicy: DefaultInboundPolicy.DENY } (or another DefaultInboundPolicy value) instead of additionalValues.');
  checkEnum(scope, values, 'proxy.logHTTPHeaders', Object.values(ProxyLogHttpHeaders), InputRule.RANGE);
  checkEnum(scope, values, 'webhookFailurePolicy', Object.values(WebhookFailurePolicy), InputRule.RANGE);
  checkEnum(scope, values, 'proxyInit.iptablesMode', ['nft', 'legacy'], InputRule.RANGE);
  const notBoolean = BOOLEAN_KEYS.find((path) => valueAt(values, path) !== undefined && typeof valueAt(values, path) !== 'boolean');
  check(notBoolean === undefined, scope, InputRule.REQUIRED,
    `${notBoolean} is ${describeValue(notBoolean && valueAt(values, notBoolean))} in the merged values; the chart tests it with "if", where any non-empty string is true.`,
    'Pass true or false (a boolean), preferably through the typed option.');
  const replicas = values.controllerReplicas;
  check(replicas === undefined || (Number.isInteger(replicas) && replicas >= 1 && replicas <= 100), scope, InputRule.RANGE,
    `controllerReplicas ${describeValue(replicas)} (merged values) is not a whole number from 1 to 100.`, 'Use 3 for HA (one per node), 1 otherwise.');
  const trustDomain = values.identityTrustDomain;
  check(trustDomain === undefined || trustDomain === '' || (typeof trustDomain === 'string' && isDnsSubdomain(trustDomain)), scope, InputRule.NAME,
    `identityTrustDomain ${describeValue(trustDomain)} (merged values) is not a DNS name.`, 'Set trustDomain on the control plane instead of additionalValues.');
}

function checkLists(scope: IConstruct, values: Record<string, any>): void {
  const networks = values.clusterNetworks;
  // As the injector reads it: outer commas trimmed, then every item through Go's net.ParseCIDR (no spaces, a prefix length).
  const items = typeof networks === 'string' && networks !== '' ? networks.replace(/^,+|,+$/g, '').split(',') : [];
  const badNetwork = items.find((cidr) => !cidr.includes('/') || parseExactCidr(cidr) === undefined);
  check(networks === undefined || (typeof networks === 'string' && badNetwork === undefined), scope, InputRule.RANGE,
    `clusterNetworks ${describeValue(networks)} (merged values) is not a comma-separated list of CIDRs${badNetwork !== undefined ? ` (${JSON.stringify(badNetwork)})` : ''}.`,
    'Use clusterNetworks: ["10.0.0.0/8", ...] (the typed option) instead of additionalValues.');
  const ports = valueAt(values, 'proxy.opaquePorts');
  const isPort = (p: string) => /^\d+$/.test(p) && Number(p) >= 1 && Number(p) <= 65535;
  const portOrRange = (item: string) => item.split('-').length <= 2 && item.split('-').every(isPort);
  check(ports === undefined || ports === '' || (typeof ports === 'string' && ports.split(',').every(portOrRange)), scope, InputRule.PORT,
    `proxy.opaquePorts ${describeValue(ports)} (merged values) is not a comma-separated list of ports or port ranges.`,
    'Use proxy: { opaquePorts: [3306, 5432] } (the typed option) instead of additionalValues.');
  for (const path of ['proxy.resources.cpu.request', 'proxy.resources.cpu.limit', 'proxy.resources.memory.request', 'proxy.resources.memory.limit']) {
    const q = valueAt(values, path);
    check(q === undefined || q === '' || (typeof q === 'string' && QUANTITY.test(q)), scope, InputRule.RANGE,
      `${path} ${describeValue(q)} (merged values) is not a Kubernetes quantity.`, 'Use a quantity such as "100m", "0.5", "64Mi" or "1Gi".');
  }
  for (const path of ['identity.issuer.issuanceLifetime', 'identity.issuer.clockSkewAllowance']) {
    const d = valueAt(values, path);
    check(d === undefined || parseGoDuration(d) !== undefined, scope, InputRule.DURATION,
      `${path} ${describeValue(d)} (merged values) is not a Go duration.`, 'Use a Go duration such as "24h0m0s" or "20s", preferably through the identity\'s typed option.');
    check(d === undefined || parseGoDuration(d) !== 0, scope, InputRule.DURATION,
      `${path} is zero (merged values), which linkerd-identity reads as its default (pkg/tls/ca.go Validity.Window).`, 'Give it a positive Go duration, or leave it unset for the chart\'s default.');
  }
}

/** Refuses merged control-plane values that the typed options would have refused. */
export function checkMergedValues(
  scope: IConstruct, values: Record<string, any>, identityValues: Record<string, any>, writesPrivateKey: boolean, issuerKeySupplied = false,
): void {
  checkPrivateKeys(scope, values, writesPrivateKey);
  checkIssuer(scope, values, writesPrivateKey, issuerKeySupplied);
  checkTrustAnchors(scope, values, identityValues);
  checkScalars(scope, values);
  checkLists(scope, values);
}
