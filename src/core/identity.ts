/**
 * Grammar of the identities Linkerd accepts in MeshTLSAuthentication.spec.identities (from its admission rules):
 * a DNS-like name with an optional leading "*" label, a lone "*", or a SPIFFE ID.
 */

const DNS_LIKE_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SPIFFE_TRUST_DOMAIN = /^[a-z0-9._-]+$/;
const SPIFFE_SEGMENT = /^[A-Za-z0-9._-]+$/;

function isDnsLikeIdentity(value: string): boolean {
  if (value === '*') return true;
  const labels = value.split('.');
  return labels.every((label, i) => (i === 0 && label === '*') || DNS_LIKE_LABEL.test(label));
}

function isSpiffeId(value: string): boolean {
  const rest = value.slice('spiffe://'.length);
  const slash = rest.indexOf('/');
  const trustDomain = slash < 0 ? rest : rest.slice(0, slash);
  if (!SPIFFE_TRUST_DOMAIN.test(trustDomain)) return false;
  if (slash < 0) return true;
  const segments = rest.slice(slash + 1).split('/');
  return segments.every((s) => s !== '' && s !== '.' && s !== '..' && SPIFFE_SEGMENT.test(s));
}

/** Whether Linkerd's admission webhook accepts `value` as a mesh identity. */
export function isValidMeshIdentity(value: string): boolean {
  if (typeof value !== 'string' || value.length === 0) return false;
  return value.startsWith('spiffe://') ? isSpiffeId(value) : isDnsLikeIdentity(value);
}

/** The mesh identity of a ServiceAccount: `<sa>.<ns>.serviceaccount.identity.<control-plane-ns>.<trust-domain>`. */
export function serviceAccountIdentity(serviceAccount: string, namespace: string, trustDomain = 'cluster.local', controlPlaneNamespace = 'linkerd'): string {
  return `${serviceAccount}.${namespace}.serviceaccount.identity.${controlPlaneNamespace}.${trustDomain}`;
}
