import { retryAnnotated } from './retry-config';
import { RETRY_ANNOTATIONS, TIMEOUT_ANNOTATIONS } from '../../../core/vocabulary';
import { editDistance } from '../../../util/edit-distance';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';

const KNOWN = [...RETRY_ANNOTATIONS, ...TIMEOUT_ANNOTATIONS] as string[];

function closest(key: string): string {
  return KNOWN.reduce((best, k) => (editDistance(key, k) < editDistance(key, best) ? k : best));
}

/** `prefixed`: the object's retry.linkerd.io/* and timeout.linkerd.io/* keys. */
function report(ctx: RuleContext, subject: IndexedObject, prefixed: readonly string[], where: string): void {
  for (const key of prefixed) {
    if (KNOWN.includes(key)) continue;
    ctx.report(subject, `${where}annotation ${key} is not a Linkerd key and is ignored; did you mean ${closest(key)}?`,
      { fix: `Rename ${key} to one of ${KNOWN.join(', ')}.` });
  }
}

/** A misspelt key is accepted by Kubernetes and ignored by Linkerd: the setting simply is not there. */
export const unknownRetryKeys: Rule = {
  id: 'LKD-RETRY-006',
  area: RuleArea.RETRY,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Ignored: policy-controller/k8s/index/src/outbound/index/http.rs parse_http_retry and index.rs parse_timeouts'
      + ' read only the keys they know; a misspelt key is stored and never read.',
    title: 'Every retry.linkerd.io/* and timeout.linkerd.io/* annotation key is one Linkerd knows',
    why: 'Annotations are free-form, so `retry.linkerd.io/codes` or `timeout.linkerd.io/requests` are stored without '
      + 'complaint and never read. The retry or timeout the author configured does not exist.',
    fix: `Use only ${[...RETRY_ANNOTATIONS, ...TIMEOUT_ANNOTATIONS].join(', ')}.`,
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index/http.rs parse_http_retry; '
      + 'policy-controller/k8s/index/src/outbound/index/grpc.rs parse_grpc_retry; '
      + 'policy-controller/k8s/index/src/outbound/index.rs parse_timeouts (the keys they read)',
    badExample: 'metadata:\n  annotations: {retry.linkerd.io/limits: "3"}',
    goodExample: 'metadata:\n  annotations: {retry.linkerd.io/limit: "3"}',
  },
  check(ctx) {
    const annotated = retryAnnotated(ctx.index);
    for (const [entry, keys] of annotated.objects) report(ctx, entry, keys, '');
    for (const [pod, keys] of annotated.pods) report(ctx, pod.owner, keys, 'pod template ');
  },
};
