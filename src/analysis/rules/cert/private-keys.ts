import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea } from '../../rule';
import { containsPrivateKey } from '../cert-helpers';

const MAX_DEPTH = 32;
const MAX_PATHS = 3;

function pathOf(segments: Array<string | number>): string {
  return segments.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_][\w]*$/.test(s) ? `.${s}` : `['${s}']`)).join('');
}

/**
 * Every object of every run is walked, so the path is only spelled out for a hit (the segments are a shared stack),
 * and a node shared through YAML aliases is visited once (an alias bomb must not turn into exponential work).
 */
function walk(value: unknown, segments: Array<string | number>, found: string[], seen = new Set<object>()): void {
  if (segments.length > MAX_DEPTH) return;
  if (typeof value === 'object' && value !== null) {
    if (seen.has(value)) return;
    seen.add(value);
  }
  if (typeof value === 'string') {
    if (containsPrivateKey(value)) found.push(pathOf(segments));
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      segments.push(i);
      walk(value[i], segments, found, seen);
      segments.pop();
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const k in value) {
      segments.push(k);
      walk((value as Record<string, unknown>)[k], segments, found, seen);
      segments.pop();
    }
  }
}

/** Secret `data` and ConfigMap `binaryData` are base64: decode them before looking. */
function encodedPaths(entry: IndexedObject): string[] {
  const section = entry.id.kind === 'Secret' ? 'data' : entry.id.kind === 'ConfigMap' ? 'binaryData' : undefined;
  const values = section ? entry.object[section] : undefined;
  if (entry.group !== '' || typeof values !== 'object' || values === null) return [];
  return Object.entries(values)
    .filter(([, v]) => typeof v === 'string' && containsPrivateKey(Buffer.from(v, 'base64').toString('utf8')))
    .map(([k]) => `${section}['${k}']`);
}

export function privateKeyPaths(entry: IndexedObject): string[] {
  const found: string[] = [];
  walk(entry.object, [], found);
  return [...found.map((p) => p.replace(/^\./, '')), ...encodedPaths(entry)];
}

/** A private key in the manifests is readable by anyone who can read Git, CI logs or the GitOps controller. */
export const privateKeyInOutput: Rule = {
  id: 'LKD-CERT-005',
  area: RuleArea.CERT,
  severity: Severity.ERROR,
  doc: {
    title: 'No private key in the synthesized output',
    why: 'Manifests end up in Git, CI artifacts and GitOps controllers. Whoever reads the Linkerd issuer key can mint '
      + 'any mesh identity and pass every AuthorizationPolicy.',
    fix: 'Provide the key out of band (cert-manager, an external secret store, `kubectl create secret`); if the output '
      + 'is itself stored as a secret, suppress LKD-CERT-005 on the object with a reason.',
    badExample: "kind: Secret\nmetadata: {name: linkerd-identity-issuer}\nstringData:\n  tls.key: '-----BEGIN EC PRIVATE KEY-----...'",
    goodExample: 'kind: Certificate  # cert-manager writes the Secret in the cluster\nspec: {secretName: linkerd-identity-issuer, isCA: true}',
  },
  check(ctx) {
    for (const entry of ctx.index.objects) {
      if (entry.inventory) continue;
      const paths = privateKeyPaths(entry);
      if (paths.length === 0) continue;
      const shown = paths.slice(0, MAX_PATHS).join(', ') + (paths.length > MAX_PATHS ? ` and ${paths.length - MAX_PATHS} more` : '');
      ctx.report(entry, `a PEM private key is written at ${shown}.`);
    }
  },
};
