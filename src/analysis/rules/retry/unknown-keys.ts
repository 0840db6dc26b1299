import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';
import { RETRY_ANNOTATIONS, TIMEOUT_ANNOTATIONS } from '../linkerd-grammar';
import { annotationMap, isRecord } from '../route-helpers';

const KNOWN = [...RETRY_ANNOTATIONS, ...TIMEOUT_ANNOTATIONS] as string[];
const PREFIXES = ['retry.linkerd.io/', 'timeout.linkerd.io/'];

/** Edit distance, to suggest the key the author most likely meant. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

function closest(key: string): string {
  return KNOWN.reduce((best, k) => (distance(key, k) < distance(key, best) ? k : best));
}

function unknownKeys(annotations: unknown): string[] {
  if (!isRecord(annotations)) return [];
  return Object.keys(annotations).filter((k) => PREFIXES.some((p) => k.startsWith(p)) && !KNOWN.includes(k));
}

function report(ctx: RuleContext, subject: IndexedObject, keys: string[], where: string): void {
  for (const key of keys) {
    ctx.report(subject, `${where}annotation ${key} is not a Linkerd key and is ignored; did you mean ${closest(key)}?`,
      { fix: `Rename ${key} to one of ${KNOWN.join(', ')}.` });
  }
}

/** A misspelt key is accepted by Kubernetes and ignored by Linkerd: the setting simply is not there. */
export const unknownRetryKeys: Rule = {
  id: 'LKD-RETRY-006',
  area: RuleArea.RETRY,
  severity: Severity.WARNING,
  doc: {
    title: 'Every retry.linkerd.io/* and timeout.linkerd.io/* annotation key is one Linkerd knows',
    why: 'Annotations are free-form, so `retry.linkerd.io/codes` or `timeout.linkerd.io/requests` are stored without '
      + 'complaint and never read. The retry or timeout the author configured does not exist.',
    fix: `Use only ${[...RETRY_ANNOTATIONS, ...TIMEOUT_ANNOTATIONS].join(', ')}.`,
    badExample: 'metadata:\n  annotations: {retry.linkerd.io/limits: "3"}',
    goodExample: 'metadata:\n  annotations: {retry.linkerd.io/limit: "3"}',
  },
  check(ctx) {
    for (const entry of ctx.index.objects) {
      if (!entry.inventory) report(ctx, entry, unknownKeys(annotationMap(entry.object)), '');
    }
    for (const pod of ctx.index.podTemplates) {
      if (!pod.owner.inventory && pod.owner.id.kind !== 'Pod') report(ctx, pod.owner, unknownKeys(pod.annotations), 'pod template ');
    }
  },
};
