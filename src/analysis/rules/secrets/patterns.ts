/**
 * What a secret looks like in a manifest: well-known token formats (recognisable by their prefix, so few false
 * positives), and literal values under keys that name a password. Pure functions; no secret value ever leaves here,
 * only the kind of secret.
 */

import { isDnsLabel, isDnsSubdomain } from '../../../core/names';

/** A token format, by the name reports use. */
interface TokenPattern {
  readonly name: string;
  readonly pattern: RegExp;
}

/** Prefixed formats only: each is documented by its vendor, and the prefix keeps random text from matching. */
const TOKEN_PATTERNS: TokenPattern[] = [
  { name: 'a GitHub token', pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{60,}/ },
  { name: 'a Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/ },
  { name: 'an AWS access key ID', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  // header.payload.signature, each base64url; the header and payload of a JWT are JSON objects, so they start "eyJ".
  { name: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
];

/** Every string of every object is looked at: one cheap test for any prefix before the precise patterns. */
const ANY_TOKEN_PREFIX = /gh[opusr]_|github_pat_|xox[abprs]-|AKIA|ASIA|eyJ/;

/** The kind of token in `text`, if it holds one. */
export function tokenKind(text: string): string | undefined {
  // The shortest format (xox?- plus 10) is 15 characters; most manifest strings are names and labels, shorter still.
  if (text.length < 15 || !ANY_TOKEN_PREFIX.test(text)) return undefined;
  return TOKEN_PATTERNS.find((t) => t.pattern.test(text))?.name;
}

/** Key names whose value is a credential, compared without case and separators (DB_PASSWORD, db.password, apiKey). */
const CREDENTIAL_KEY = /(?:password|passwd|passphrase|pwd|secret|token|apikey|accesskey|secretkey|privatekey|clientsecret|credentials?)$/;
/**
 * Keys that end like a credential but hold a reference or a setting (existingSecret: my-secret, useToken: "true"), and
 * the Vault Agent Injector's annotations (`vault.hashicorp.com/agent-inject-secret-<file>: <vault path>`), whose values
 * are Vault paths, templates and roles, never the secret.
 */
const NOT_A_CREDENTIAL = /^(?:existing|use|create|enable|enabled|mount|auto|skip|require|with|vaulthashicorpcom)/;

/**
 * Fields of known kinds whose name ends like a credential but whose value is the name of a Secret object: a Link's
 * `clusterCredentialsSecret` (multicluster.linkerd.io, written by `linkerd multicluster link-gen`), and Linkerd's chart
 * values `*.injectCaFromSecret` (the cert-manager.io/inject-ca-from-secret annotation of the webhooks: proxy-injector-rbac.yaml,
 * destination-rbac.yaml, linkerd-viz tap) and linkerd-viz's `prometheusCredsSecret` (a volume's secretName: metrics-api.yaml).
 */
const SECRET_NAME_FIELDS = new Set(['clustercredentialssecret', 'injectcafromsecret', 'prometheuscredssecret']);

/**
 * The same, by API group: Traefik's Middleware names a Secret in `basicAuth.secret`, `digestAuth.secret` (and its TLS
 * options in `secret` fields), so there `secret: authsecret` is a reference.
 */
const SECRET_NAME_FIELDS_BY_GROUP = new Map<string, ReadonlySet<string>>([
  ['traefik.io', new Set(['secret'])],
  ['traefik.containo.us', new Set(['secret'])],
]);

/** Whether, on an object of this API group, `key` names a Secret object (its value is no credential). */
export function namesSecretField(group: string, key: string): boolean {
  const fields = SECRET_NAME_FIELDS_BY_GROUP.get(group);
  return fields !== undefined && fields.has(normalizedKey(key));
}

function normalizedKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Keys repeat across objects (name, image, port …): each is judged once per process. */
const credentialKeys = new Map<string, boolean>();

/** Whether a key (or env var name) names a credential. */
export function isCredentialKey(key: string): boolean {
  let known = credentialKeys.get(key);
  if (known === undefined) {
    const k = normalizedKey(key);
    known = CREDENTIAL_KEY.test(k) && !NOT_A_CREDENTIAL.test(k) && !SECRET_NAME_FIELDS.has(k);
    if (credentialKeys.size < 10_000) credentialKeys.set(key, known);
  }
  return known;
}

/**
 * Controller annotations whose name ends in `-secret` name a Secret object, as `name` or `namespace/name`
 * (ingress-nginx `auth-secret`, `auth-tls-secret`, `proxy-ssl-secret`; Traefik and HAProxy `auth-secret`). Only the
 * prefixed form (`<prefix>/<name>`) counts: env var names and Helm value keys cannot contain `/`.
 */
const SECRET_REFERENCE_ANNOTATION = /\/[a-z0-9.]*(?:-[a-z0-9.]+)*-secret$/i;

/** Whether `value` under `key` names a Secret object (`name` or `namespace/name`) rather than holding a credential. */
export function namesSecretObject(key: string, value: string): boolean {
  if (!SECRET_REFERENCE_ANNOTATION.test(key)) return false;
  const [first, second, ...rest] = value.trim().split('/');
  if (rest.length > 0) return false;
  return second === undefined ? isDnsSubdomain(first) : isDnsLabel(first) && isDnsSubdomain(second);
}

/**
 * Values that are not the secret itself: empty, a reference to be substituted later (`${VAR}`, `$(VAR)`, `{{ .x }}`,
 * `ref+vault://…`), SOPS ciphertext (`ENC[AES256_GCM,data:…]`, committed by design and decrypted at apply time), or a
 * boolean spelled as text (a setting such as `token: "true"`).
 */
export function isReference(value: string): boolean {
  const v = value.trim();
  return v === ''
    || /^\$\{[^}]*\}$/.test(v) || /^\$\([^)]*\)$/.test(v) || /^\{\{.*\}\}$/s.test(v) || /^ref\+[a-z0-9]+:\/\//i.test(v)
    || /^ENC\[[A-Z0-9_]+,data:[^\]]*\]$/.test(v)
    || /^(?:true|false|yes|no|null|~)$/i.test(v);
}

/** base64 of "-----BEGIN": how an encoded PEM block starts. */
export const ENCODED_PEM_START = 'LS0tLS1CRUdJT';

/** Decoded text of a value that looks like base64 of a PEM block, else undefined (cheap check first). */
export function decodedPem(value: string): string | undefined {
  if (!value.includes(ENCODED_PEM_START)) return undefined; // the common case, without allocating a trimmed copy
  const v = value.trim();
  if (!v.startsWith(ENCODED_PEM_START) || !/^[A-Za-z0-9+/=\s]+$/.test(v)) return undefined;
  return Buffer.from(v, 'base64').toString('utf8');
}

/**
 * One native search for everything a plain (not base64) string must contain to be a secret itself: a PEM marker, an
 * encoded PEM, a token prefix. Built from the patterns above so the two cannot drift; a string without any of them is
 * a finding only as the literal value of a credential key, or by what a YAML document in it holds (the scan finds
 * those by their key: Helm values written as a string).
 */
const MAY_HOLD_SECRET = new RegExp(['PRIVATE KEY-----', ENCODED_PEM_START, ANY_TOKEN_PREFIX.source].join('|'));

/** Every marker and token is at least this long. */
const SHORTEST_MARKER = 15;

export function mayHoldSecret(text: string): boolean {
  return text.length >= SHORTEST_MARKER && MAY_HOLD_SECRET.test(text);
}

