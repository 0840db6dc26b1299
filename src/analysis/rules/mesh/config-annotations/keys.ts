/**
 * LKD-MESH-003, keys: unknown, removed, misplaced and unread annotation keys (against linkerd2 pkg/k8s/labels.go and
 * the readers in core/proxy-annotations.ts), with spelling suggestions. The rule itself is ../config-annotations.ts.
 */
import { LABELS_GO, LABELS_GO_KEYS } from '../../../../core/linkerd-annotations.generated';
import { isProxyConfigKey, KeySite, proxyKeyStatus, READ_KEYS, readProxyKeys, UNREAD_KEYS } from '../../../../core/proxy-annotations';
import { editDistance } from '../../../../util/edit-distance';
import { Severity } from '../../../finding';
import { MetadataMap, annotationsOf } from '../../../model/manifest';
import { IndexedObject } from '../../../model/mesh-index';
import { RuleContext } from '../../../rule';

/** The same setting under another family or with/without the proxy- prefix (proxy-enable-gateway is enable-gateway). */
function sameSetting(key: string, known: string): boolean {
  const name = (k: string) => k.slice(k.indexOf('/') + 1).replace(/^proxy-/, '');
  return name(key) === name(known);
}

function suggestion(key: string): string {
  let best: string | undefined;
  let bestDistance = 4;
  for (const known of readProxyKeys()) {
    if (sameSetting(key, known)) return ` Did you mean ${known}?`;
    const d = editDistance(key, known);
    if (d < bestDistance) {
      best = known;
      bestDistance = d;
    }
  }
  return best ? ` Did you mean ${best}?` : '';
}

/** What is wrong with one key, or undefined; `namespace` when the key sits on a Namespace. */
export function keyProblem(key: string, namespace: boolean): string | undefined {
  const status = proxyKeyStatus(key);
  switch (status.kind) {
    case 'unknown':
      return `${key} is not a Linkerd 2.20 annotation (not in linkerd2 pkg/k8s/labels.go); the injector ignores it.${suggestion(key)}`;
    case 'removed':
      return `${key} is not a Linkerd 2.20 annotation any more (gone from pkg/k8s/labels.go): ${status.instead}.`;
    case 'unread':
      return `${key} is defined in linkerd2 pkg/k8s/labels.go (${status.goName}) but nothing in Linkerd 2.20 reads it, so it has no effect; remove it.`;
    case 'read': {
      const entry = status.entry;
      if (namespace && !entry.sites.includes(KeySite.NAMESPACE)) {
        return `${key} is read from pod annotations only (${entry.readBy}); the injector does not copy a Namespace's value to its pods. `
          + 'Put it on the pod templates.';
      }
      if (entry.replacedBy) {
        return `${key} is deprecated (pkg/k8s/labels.go): use ${entry.replacedBy}. Linkerd 2.20 still reads it, but only while ${entry.replacedBy} is not set.`;
      }
      return undefined;
    }
  }
}

/** Proxy keys Linkerd reads, by the name after their prefix (`proxy-await` → config.linkerd.io/proxy-await). */
const READ_KEYS_BY_NAME = new Map<string, string>(READ_KEYS.map((k) => [k.key.slice(k.key.indexOf('/') + 1), k.key]));
READ_KEYS_BY_NAME.set('inject', LABELS_GO.ProxyInjectAnnotation);
READ_KEYS_BY_NAME.set('injection', LABELS_GO.ProxyInjectAnnotation);

/** Every key labels.go defines: none of them is a misspelling, whatever its name. */
const BY_ANY_KEY = new Set<string>(LABELS_GO_KEYS.map((k) => k.key));

/**
 * A key that is not one Linkerd reads but names one of them under another prefix or separator
 * (`linkerd.io/proxy-await`, `config.linkerd.io.opaque-ports`, `inject.linkerd.io`): the injector ignores it. Only keys
 * that mention linkerd.io are looked at, and only a name that is exactly a read key's.
 */
function misplacedKey(key: string): string | undefined {
  // config.* keys are checked one by one above (keyProblem); labels.go keys are what they are.
  if (!key.includes('linkerd.io') || BY_ANY_KEY.has(key) || isProxyConfigKey(key)) return undefined;
  const name = key.slice(Math.max(key.lastIndexOf('/'), key.lastIndexOf('.')) + 1);
  const first = key.split(/[./]/)[0];
  const meant = READ_KEYS_BY_NAME.get(name) ?? READ_KEYS_BY_NAME.get(first);
  return meant !== undefined && meant !== key ? meant : undefined;
}

export function checkMisplacedKeys(
  ctx: RuleContext, subject: IndexedObject, annotations: MetadataMap, where: string, uninjected = false,
): void {
  for (const key of Object.keys(annotations)) {
    const meant = misplacedKey(key);
    if (meant) {
      ctx.report(subject, `${where} ${key} is not a key Linkerd reads, so the injector ignores it; the key is ${meant}.`,
        { severity: uninjected ? Severity.WARNING : Severity.ERROR });
    }
  }
}

/** labels.go keys outside the proxy-config families that nothing reads (the config families are checked above). */
export function checkUnreadKeys(ctx: RuleContext, entry: IndexedObject): void {
  for (const key of Object.keys(annotationsOf(entry.object))) {
    if (UNREAD_KEYS.has(key) && !isProxyConfigKey(key)) {
      ctx.report(entry, `annotation ${key} is defined in linkerd2 pkg/k8s/labels.go but nothing in Linkerd 2.20 reads it, so it has no effect; remove it.`,
        { severity: Severity.ERROR });
    }
  }
}
