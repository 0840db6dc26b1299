/**
 * Grammar of the identities Linkerd accepts in MeshTLSAuthentication.spec.identities (from its admission rules):
 * a DNS-like name with an optional leading "*" label, a lone "*", or a SPIFFE ID. Shared by constructs and the engine.
 */

// validation.rs DNS_LIKE_IDENTITY_REGEX: a first label that is "*" or a DNS label, then DNS labels (none starts or ends with "-").
const DNS_LIKE = /^(\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SPIFFE = /^spiffe:\/\/([^/]*)(\/.*)?$/;
const TRUST_DOMAIN = /^[a-z0-9._-]+$/;
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Why an identity string is not one Linkerd accepts, or undefined when it is fine. */
export function identityProblem(identity: unknown): string | undefined {
  if (typeof identity !== 'string') return 'is not a string';
  const spiffe = SPIFFE.exec(identity);
  if (spiffe) {
    if (!TRUST_DOMAIN.test(spiffe[1])) return 'has a SPIFFE trust domain with characters other than lowercase letters, digits, ".", "-", "_"';
    const path = spiffe[2];
    if (path === undefined) return undefined;
    const segments = path.slice(1).split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..' || !SEGMENT.test(s))) {
      return 'has a SPIFFE path with an empty, "." or ".." segment, a trailing slash or a character outside letters, digits, ".", "-", "_"';
    }
    return undefined;
  }
  return DNS_LIKE.test(identity) ? undefined
    : 'is neither a DNS-like name (lowercase labels of letters, digits and inner "-", optionally starting with a "*" label, or just "*") nor a spiffe:// ID';
}

/** Whether Linkerd's admission webhook accepts `value` as a mesh identity. */
export function isValidMeshIdentity(value: unknown): boolean {
  return identityProblem(value) === undefined;
}

/** The mesh identity of a ServiceAccount: `<sa>.<ns>.serviceaccount.identity.<control-plane-ns>.<trust-domain>`. */
export function serviceAccountIdentity(serviceAccount: string, namespace: string, trustDomain = 'cluster.local', controlPlaneNamespace = 'linkerd'): string {
  return `${serviceAccount}.${namespace}.serviceaccount.identity.${controlPlaneNamespace}.${trustDomain}`;
}
