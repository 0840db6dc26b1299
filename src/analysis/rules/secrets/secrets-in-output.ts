import { scanIndex } from './scan';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea } from '../../rule';

const MAX_SHOWN = 3;

/** An External Secrets object's `spec.data[].secretKey` names a key of the Secret it writes: a name, not a credential. */
const EXTERNAL_SECRET_KEY_NAME = /^spec\.data\[\d+\]\.secretKey$/;

function isKeyName(entry: IndexedObject, path: string): boolean {
  return entry.group === 'external-secrets.io' && EXTERNAL_SECRET_KEY_NAME.test(path);
}

/**
 * Credentials written into manifests: tokens with a known format anywhere, literal values under password-like keys
 * (ConfigMap data, env values, annotations, Helm values, Secret data), base64-encoded private keys outside Secret
 * data. Plain PEM private keys are LKD-CERT-005's. The suppression annotation is the opt-in for output that is
 * itself protected (e.g. encrypted before it is stored).
 */
export const secretsInOutput: Rule = {
  id: 'LKD-SEC-001',
  area: RuleArea.SECRET,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Leaked: a credential written into the output is readable by everyone who reads the output.',
    title: 'No credentials (tokens, passwords, encoded private keys) in the manifests',
    why: 'Synthesized manifests are committed to Git, uploaded as CI artifacts and read by GitOps controllers; a token or '
      + 'password written into them is readable by everyone who can read any of those, for as long as the history exists. '
      + 'A Secret object does not help: its data is only base64. Values that name a Secret are references, not credentials: '
      + '`existingSecret`-style keys, controller annotations ending in `-secret` (ingress-nginx `auth-secret`) holding an '
      + 'object name or `namespace/name`, a Traefik Middleware\'s `secret` fields, and the Vault Agent Injector\'s '
      + 'annotations (Vault paths). Ciphertext made to be committed is not a credential either: a SealedSecret\'s '
      + '`encryptedData`, SOPS `ENC[...]` values. The scan reaches every value and every mapping key at any depth (a key '
      + 'that is a secret is named `<key N>` in reports); base64 is decoded up to 4 levels (Secret `data` and `stringData` '
      + 'alike), and base64 nested deeper is reported as hiding what it holds, as is a YAML document in a string (Helm '
      + 'values) nested deeper than the YAML reader\'s 100 levels.',
    fix: 'Reference the credential instead of writing it: env valueFrom.secretKeyRef, a Secret created out of band '
      + '(External Secrets, Sealed Secrets, kubectl create secret), or a `${VAR}` placeholder resolved at deploy time. '
      + 'Rotate any credential that was committed. If this output is encrypted before it is stored, suppress LKD-SEC-001 on the object with that reason.',
    linkerdSource: 'not Linkerd: secret-handling policy of this library',
    badExample: 'env:\n- name: DB_PASSWORD\n  value: s3cr3t-in-git',
    goodExample: 'env:\n- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: orders-db, key: password}',
  },
  check(ctx) {
    for (const [entry, { secrets }] of scanIndex(ctx.index)) {
      const hits = secrets.filter((h) => !isKeyName(entry, h.path));
      if (hits.length === 0) continue;
      const shown = hits.slice(0, MAX_SHOWN).map((h) => `${h.what} at ${h.path}`).join('; ');
      const more = hits.length > MAX_SHOWN ? ` and ${hits.length - MAX_SHOWN} more` : '';
      ctx.report(entry, `${shown}${more}. The value is not repeated here; whoever can read these manifests can use it.`);
    }
  },
};
