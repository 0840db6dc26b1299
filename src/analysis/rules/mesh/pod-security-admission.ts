import { Severity } from '../../finding';
import { isMeshed } from '../../model/injector/injection';
import { labelOf } from '../../model/manifest';
import { MeshIndex, PodTemplate } from '../../model/mesh-index';
import { ownPodTemplates, workloadLabel } from '../../model/pod-templates';
import { CniFact, cniEnabledOf } from '../../model/proxy-settings';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** The Pod Security Standards levels whose capability lists leave out NET_ADMIN and NET_RAW. */
const REFUSING_LEVELS = new Set(['baseline', 'restricted']);
export const ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';

/** Assumed, not known: a cluster running the CNI would admit these pods, so this is a warning until it is declared. */
const ASSUMED_FIX = 'If the cluster runs linkerd2-cni, declare it (cniEnabled: true, --cni true); otherwise install it before the control plane '
  + '(LinkerdControlPlane cni: {}), or label the namespace pod-security.kubernetes.io/enforce: privileged.';

function enforcedLevel(index: MeshIndex, namespace: string): string | undefined {
  const level = labelOf(index.namespace(namespace)?.object, ENFORCE_LABEL);
  return level !== undefined && REFUSING_LEVELS.has(level) ? level : undefined;
}

function checkPod(ctx: RuleContext, pod: PodTemplate, cni: CniFact, levels: Map<string, string | undefined>): void {
  if (!levels.has(pod.namespace)) levels.set(pod.namespace, enforcedLevel(ctx.index, pod.namespace));
  const level = levels.get(pod.namespace);
  if (!level) return;
  ctx.report(pod.owner, `${workloadLabel(pod)} is injected, and without the CNI plugin (${cni.origin}) the injector adds the linkerd-init init container, `
    + `which needs the NET_ADMIN and NET_RAW capabilities; namespace ${pod.namespace} enforces Pod Security "${level}" (${ENFORCE_LABEL}), `
    + 'which refuses them, so the API server rejects every pod and the workload never starts (only the ReplicaSet\'s events say why).',
  cni.known ? undefined : { severity: Severity.WARNING, fix: ASSUMED_FIX });
}

/** Pod Security admission runs after the proxy injector, so it judges linkerd-init too. */
export const podSecurityAdmissionRule: Rule = {
  id: 'LKD-MESH-011',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Rejected: Pod Security admission refuses the NET_ADMIN and NET_RAW capabilities '
      + 'charts/partials/templates/_proxy-init.tpl gives linkerd-init. Unless the analysis knows whether the CNI '
      + 'plugin is installed, a warning.',
    title: 'Meshed pods in a namespace enforcing Pod Security baseline or restricted need the CNI plugin',
    why: 'Without linkerd2-cni (cniEnabled: false, the chart default) the proxy injector adds the linkerd-init init container (in 2.20 it runs '
      + 'from the proxy image, with a native-sidecar proxy or not), which adds the NET_ADMIN and NET_RAW capabilities to set up iptables '
      + '(charts/partials/templates/_proxy-init.tpl). Pod Security admission validates the pod after mutating admission, and the baseline and '
      + 'restricted levels allow neither capability, so every pod of the workload is rejected at creation. An error when cniEnabled: false '
      + 'is known (declared, or read from the control-plane install); a warning when it is only the chart default assumed.',
    linkerdSource: 'charts/partials/templates/_proxy-init.tpl (NET_ADMIN and NET_RAW of linkerd-init); Kubernetes Pod Security Standards (baseline and restricted refuse added capabilities)',
    fix: 'Install linkerd2-cni before the control plane and set cniEnabled: true (LinkerdControlPlane cni: {} does both), or label the '
      + 'namespace pod-security.kubernetes.io/enforce: privileged (what `linkerd install` does for its own namespaces), or exempt it in the '
      + 'admission configuration.',
    badExample: 'kind: Namespace\nmetadata:\n  name: shop\n  labels:\n    pod-security.kubernetes.io/enforce: restricted\n  annotations:\n    linkerd.io/inject: enabled\n'
      + '# and the control plane has cniEnabled: false',
    goodExample: 'kind: Application\nspec:\n  source:\n    chart: linkerd-control-plane\n    helm:\n      valuesObject:\n        cniEnabled: true\n'
      + '# with linkerd2-cni installed first',
  },
  check(ctx) {
    const cni = cniEnabledOf(ctx.index, ctx.context);
    if (cni.enabled) return;
    const levels = new Map<string, string | undefined>();
    for (const pod of ownPodTemplates(ctx.index)) {
      if (isMeshed(pod)) checkPod(ctx, pod, cni, levels);
    }
  },
};
