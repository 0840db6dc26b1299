import { ADMIN_SHUTDOWN_ANNOTATION } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { isMeshed } from '../../model/injector/injection';
import { PodTemplate } from '../../model/mesh-index';
import { ownPodTemplates, workloadLabel } from '../../model/pod-templates';
import { nativeSidecarOf, podOrNamespaceAnnotation } from '../../model/proxy-settings';
import { Rule, RuleArea, RuleContext } from '../../rule';

const RUN_TO_COMPLETION = new Set(['Job', 'CronJob']);
const ADMIN_SHUTDOWN = ADMIN_SHUTDOWN_ANNOTATION;

/** Whether the pods are meant to finish: those of Jobs and CronJobs, and bare Pods that never restart. */
function runsToCompletion(pod: PodTemplate): boolean {
  if (RUN_TO_COMPLETION.has(pod.owner.id.kind)) return true;
  return pod.owner.id.kind === 'Pod' && (pod.spec.restartPolicy === 'Never' || pod.spec.restartPolicy === 'OnFailure');
}

function checkPod(ctx: RuleContext, pod: PodTemplate): void {
  const native = nativeSidecarOf(ctx.index, ctx.context, pod);
  if (native.on) return;
  const shutdown = podOrNamespaceAnnotation(pod, ADMIN_SHUTDOWN) === 'enabled'
    ? `; ${ADMIN_SHUTDOWN} is enabled, so the job can end it with a POST to localhost:4191/shutdown (or linkerd-await --shutdown)`
    : '';
  ctx.report(pod.owner, `${workloadLabel(pod)} runs to completion, but its proxy is an ordinary container (${native.origin}): it keeps `
    + `running after the job's containers exit, so the pod never completes and the Job never finishes${shutdown}.`,
  shutdown ? { severity: Severity.INFO } : undefined);
}

/** Without native sidecars the proxy outlives a Job's containers; Linkerd 2.20 turns native sidecars on by default. */
export const jobSidecarRule: Rule = {
  id: 'LKD-MESH-014',
  area: RuleArea.MESH,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: whether the install\'s proxy.nativeSidecar is on where the pod\'s and namespace\'s annotations '
      + 'leave it unset; a Job whose own annotation turns it off never completes.',
    title: 'Meshed Jobs run their proxy as a native sidecar',
    why: 'With proxy.nativeSidecar (true by default in 2.20) the injector adds the proxy as an init container with '
      + 'restartPolicy Always, which Kubernetes stops once the app containers end. With it off (the annotation '
      + 'config.linkerd.io/proxy-enable-native-sidecar: "false", the namespace\'s, or the install\'s value) the proxy is an '
      + 'ordinary container that nothing stops, so a Job\'s pod never completes unless the job shuts the proxy down '
      + 'itself through the admin endpoint (config.linkerd.io/proxy-admin-shutdown: enabled).',
    fix: 'Leave native sidecars on for Jobs and CronJobs (remove the "false"), or enable proxy-admin-shutdown and have the job '
      + 'end with linkerd-await --shutdown or a POST to localhost:4191/shutdown.',
    linkerdSource: 'pkg/inject/inject.go ApplyAnnotationOverrides (ProxyEnableNativeSidecarAnnotation, then the beta and '
      + 'alpha keys); charts/partials/templates/_proxy.tpl (restartPolicy Always with nativeSidecar); '
      + 'charts/linkerd-control-plane/values.yaml proxy.nativeSidecar, proxy.enableShutdownEndpoint',
    badExample: 'kind: Job\nspec:\n  template:\n    metadata:\n      annotations:\n        config.linkerd.io/proxy-enable-native-sidecar: "false"',
    goodExample: 'kind: Job\nspec:\n  template:\n    metadata:\n      annotations:\n        linkerd.io/inject: enabled',
  },
  check(ctx) {
    for (const pod of ownPodTemplates(ctx.index)) if (isMeshed(pod) && runsToCompletion(pod)) checkPod(ctx, pod);
  },
};
