/**
 * Words and questions about the proxy injector's decision for a pod template (the decision itself is made while the
 * index is built: mesh-index.ts, after linkerd2 pkg/inject/report.go `Injectable`).
 */
import { INJECT_ANNOTATION } from '../../../core/vocabulary';
import { annotationOf, textOf } from '../manifest';
import { Injection, MeshIndex, PodTemplate } from '../mesh-index';

/** Where a pod template's injection decision comes from, for messages. */
export function injectionOrigin(index: MeshIndex, pod: PodTemplate): string {
  if (pod.injectionSkipped !== undefined) return `marked for injection, but the injector skips it: ${pod.injectionSkipped}`;
  const own = textOf(pod.annotations, INJECT_ANNOTATION);
  if (own !== undefined) return `pod template annotation ${INJECT_ANNOTATION}: ${own}`;
  const ns = index.namespace(pod.namespace);
  const nsValue = ns ? annotationOf(ns.object, INJECT_ANNOTATION) : undefined;
  return nsValue === undefined
    ? `neither the pod template nor Namespace ${pod.namespace} sets ${INJECT_ANNOTATION}`
    : `Namespace ${pod.namespace} annotation ${INJECT_ANNOTATION}: ${nsValue}`;
}

export function isMeshed(pod: PodTemplate): boolean {
  return pod.injection === Injection.ENABLED;
}
