/**
 * LKD-MESH-003, settings that only make sense together: proxy requests above limits (the API server refuses the pod),
 * waitBeforeExitSeconds against the termination grace period, and closeWaitTimeout (linkerd2 pkg/inject/inject.go).
 * The rule itself is ../config-annotations.ts.
 */
import { LABELS_GO, LabelsGoName } from '../../../../core/linkerd-annotations.generated';
import { parseGoDuration } from '../../../../core/linkerd-grammar';
import { quantityAbove } from '../../../../core/quantities';
import { Severity } from '../../../finding';
import { isMeshed } from '../../../model/injector/injection';
import { controlPlaneInstalls } from '../../../model/installs';
import { textOf } from '../../../model/manifest';
import { carriesLinkerdProxy, PodTemplate } from '../../../model/mesh-index';
import { cniEnabledOf, nativeSidecarOf, podOrNamespaceAnnotation, proxyInitRunsAsRoot } from '../../../model/proxy-settings';
import { RuleContext } from '../../../rule';

const WAIT_BEFORE_EXIT = LABELS_GO.ProxyWaitBeforeExitSecondsAnnotation;

const CLOSE_WAIT = LABELS_GO.CloseWaitTimeoutAnnotation;

/** Each proxy resource: its name in messages, its chart value under proxy.resources, and its two annotations. */
const RESOURCE_PAIRS: ReadonlyArray<readonly [string, string, LabelsGoName, LabelsGoName]> = [
  ['CPU', 'cpu', 'ProxyCPURequestAnnotation', 'ProxyCPULimitAnnotation'],
  ['memory', 'memory', 'ProxyMemoryRequestAnnotation', 'ProxyMemoryLimitAnnotation'],
  ['ephemeral storage', 'ephemeral-storage', 'ProxyEphemeralStorageRequestAnnotation', 'ProxyEphemeralStorageLimitAnnotation'],
];

/** One side of a request/limit pair as the injector ends up with it, and where it came from. */
interface ResourceValue {
  readonly value: string;
  readonly source: string;
}

/**
 * The proxy's request above its limit: the API server refuses the pod (a request must not exceed its limit). Each
 * value is the pod's own or its namespace's annotation, as the injector reads them, else the install's
 * proxy.resources value (ApplyAnnotationOverrides replaces only what an annotation sets; _resources.tpl writes both).
 */
export function checkResourcePairs(ctx: RuleContext, pod: PodTemplate, where: string): void {
  for (const [resource, chartKey, requestName, limitName] of RESOURCE_PAIRS) {
    const requestKey = LABELS_GO[requestName];
    const limitKey = LABELS_GO[limitName];
    const ownRequest = podOrNamespaceAnnotation(pod, requestKey);
    const ownLimit = podOrNamespaceAnnotation(pod, limitKey);
    // Both from the install: its own values, refused for every pod alike; that is not this pod's annotation. Asked first,
    // since it rules out the usual pod (no proxy resource annotations) without reading the install.
    if (ownRequest === undefined && ownLimit === undefined) continue;
    const request = resourceValue(ctx, ownRequest, requestKey, chartKey, 'request');
    const limit = resourceValue(ctx, ownLimit, limitKey, chartKey, 'limit');
    if (!request || !limit || quantityAbove(request.value, limit.value) !== true) continue;
    const pair = ownRequest !== undefined
      ? `${request.source} ${JSON.stringify(request.value)} is above ${limit.source} ${JSON.stringify(limit.value)}`
      : `${limit.source} ${JSON.stringify(limit.value)} is below ${request.source} ${JSON.stringify(request.value)}`;
    ctx.report(pod.owner, `${where} ${pair}: the injector writes both into the proxy container, and the API server refuses a pod whose `
      + `${resource} request exceeds its limit.`, { severity: Severity.ERROR });
  }
}

/** One side of a pair: the pod's or its namespace's annotation (`own`), else the install's proxy.resources value. */
function resourceValue(ctx: RuleContext, own: string | undefined, key: string, chartKey: string, side: 'request' | 'limit'): ResourceValue | undefined {
  if (own !== undefined) return { value: String(own), source: key };
  const installed = controlPlaneInstalls(ctx.index)[0]?.values.proxy?.resources?.[chartKey]?.[side];
  return typeof installed === 'string' && installed !== '' ? { value: installed, source: `the install's proxy.resources.${chartKey}.${side}` } : undefined;
}

/** labels.go: the wait "must be smaller than terminationGracePeriodSeconds configured for the Pod" (30 s by default). */
export function checkWaitBeforeExit(ctx: RuleContext, pod: PodTemplate, podWhere: string): void {
  // The injector copies a namespace's wait onto pods without one (it is one of ProxyAlphaConfigAnnotations).
  const value = podOrNamespaceAnnotation(pod, WAIT_BEFORE_EXIT);
  if (value === undefined || !/^\d+$/.test(String(value))) return;
  const own = textOf(pod.annotations, WAIT_BEFORE_EXIT) !== undefined;
  // A namespace's value reaches only the pods the injector injects.
  if (!own && !isMeshed(pod)) return;
  const where = own ? podWhere : `Namespace ${pod.namespace}'s annotation`;
  const native = nativeSidecarOf(ctx.index, ctx.context, pod);
  // "0" asks for no wait, which a native sidecar gives anyway (linkerd-viz's chart writes it on its pods).
  if (native.on && isMeshed(pod) && Number(value) > 0) {
    // _proxy.tpl adds the preStop sleep only to a proxy that is an ordinary container.
    ctx.report(pod.owner, `${where} ${WAIT_BEFORE_EXIT} has no effect: the proxy runs as a native sidecar (${native.origin}), which `
      + 'Kubernetes stops only after the app containers, and the injector adds the wait (a preStop sleep) only to a proxy that is an '
      + 'ordinary container. Remove it.', { severity: Severity.WARNING });
    return;
  }
  const grace = typeof pod.spec.terminationGracePeriodSeconds === 'number' ? pod.spec.terminationGracePeriodSeconds : 30;
  if (Number(value) >= grace) {
    ctx.report(pod.owner, `${where} ${WAIT_BEFORE_EXIT} is ${value} s, not less than the pod's terminationGracePeriodSeconds (${grace}); `
      + 'the kubelet kills the proxy before the wait ends. Raise terminationGracePeriodSeconds or lower the wait.', { severity: Severity.WARNING });
  }
}

/**
 * A close-wait timeout of a second or more makes _proxy-init.tpl pass --timeout-close-wait-secs, which it refuses to
 * render unless proxyInit.runAsRoot is set: the webhook denies the pod. inject.go reads the pod's own annotation only.
 */
export function checkCloseWait(ctx: RuleContext, pod: PodTemplate, where: string): void {
  const value = textOf(pod.annotations, CLOSE_WAIT);
  const ms = value === undefined ? undefined : parseGoDuration(String(value));
  // int64(d.Seconds()): what the template tests, truncated toward zero.
  if (ms === undefined || Math.trunc(ms / 1000) === 0 || carriesLinkerdProxy(pod.spec)) return;
  if (cniEnabledOf(ctx.index, ctx.context).enabled || proxyInitRunsAsRoot(ctx.index)) return;
  ctx.report(pod.owner, `${where} ${CLOSE_WAIT} is ${JSON.stringify(value)}, but proxyInit.runAsRoot is not set: the injector's proxy-init `
    + 'template fails ("proxyInit.runAsRoot must be set to use proxyInit.closeWaitTimeoutSecs") and the webhook denies the pod, so the '
    + 'API server refuses every pod of the workload. Set proxyInit.runAsRoot: true in the install, or remove the annotation.', { severity: Severity.ERROR });
}
