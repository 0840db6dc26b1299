import { CHART_PROXY_UID as PROXY_UID, PROXY_UID_ANNOTATION } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { isMeshed } from '../../model/injector/injection';
import { PodTemplate } from '../../model/mesh-index';
import { containersOf, ownPodTemplates, workloadLabel } from '../../model/pod-templates';
import { podOrNamespaceAnnotation } from '../../model/proxy-settings';
import { Rule, RuleContext, RuleArea } from '../../rule';

/** The proxy's UID, which proxy-init exempts from redirection: the pod's or its namespace's proxy-uid, else the chart's. */
function proxyUid(pod: PodTemplate): number {
  const value = podOrNamespaceAnnotation(pod, PROXY_UID_ANNOTATION);
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : PROXY_UID;
}

function isAppContainer(container: any): boolean {
  return !String(container.name ?? '').startsWith('linkerd-');
}

function checkUid(ctx: RuleContext, pod: PodTemplate): void {
  const uid = proxyUid(pod);
  const podUid = pod.spec.securityContext?.runAsUser;
  // Built only when a container matches: the usual pod has none.
  let offenders: string[] | undefined;
  for (const c of containersOf(pod)) {
    if (isAppContainer(c) && (c.securityContext?.runAsUser ?? podUid) === uid) (offenders ??= []).push(String(c.name));
  }
  if (offenders) {
    ctx.report(pod.owner, `container(s) ${offenders.join(', ')} of ${workloadLabel(pod)} run as UID ${uid}, the proxy's UID; the proxy's `
      + 'iptables rules exempt that UID, so their outbound traffic bypasses the proxy (no mTLS, no policy). Use another runAsUser.',
    { severity: Severity.WARNING });
  }
}

function udpPorts(pod: PodTemplate): string[] | undefined {
  let udp: string[] | undefined;
  for (const p of pod.ports) if (p.protocol === 'UDP') (udp ??= []).push(`${p.containerPort}/UDP (${p.container})`);
  return udp;
}

/**
 * Marked for injection, yet the injector leaves it alone (the index says why): it runs without a proxy. Certain for
 * hostNetwork, another sidecar and the webhook's selectors; a skip for want of token projection rests on the install's
 * identity.serviceAccountTokenProjection, which the manifests rarely hold (a warning).
 */
function checkSkipped(ctx: RuleContext, pod: PodTemplate, why: string): void {
  const byInstall = !ctx.context.serviceAccountTokenProjection && pod.spec.hostNetwork !== true
    && ctx.index.injectorWebhookSkips(pod.namespace, pod.labels) === undefined;
  ctx.report(pod.owner, `${workloadLabel(pod)} is marked for injection, but the injector skips it: ${why}; so it runs without a proxy.`,
    byInstall ? { severity: Severity.WARNING } : undefined);
}

function checkPod(ctx: RuleContext, pod: PodTemplate): void {
  const udp = udpPorts(pod);
  if (udp) {
    ctx.report(pod.owner, `${workloadLabel(pod)} declares ${udp.join(', ')}; Linkerd proxies TCP only, so UDP traffic gets no mTLS and no policy.`,
      { severity: Severity.WARNING });
  }
  checkUid(ctx, pod);
}

/** Pod settings that quietly undo meshing for an injected workload. */
export const podHazardsRule: Rule = {
  id: 'LKD-MESH-005',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    certainty: 'No proxy: a pod marked for injection that the injector skips (pkg/inject/report.go Injectable: hostNetwork, '
      + 'another sidecar, the webhook\'s selectors) runs without one. UDP ports and the proxy\'s UID are warnings: what'
      + ' they break depends on the traffic.',
    title: 'Injected pods avoid hostNetwork, UDP, token opt-outs without projection, and the proxy UID',
    why: 'The injector does not inject hostNetwork pods, pods that carry another mesh\'s sidecar, or pods its webhook\'s '
      + 'selectors leave out (by the chart\'s defaults kube-system, cert-manager, namespaces labelled '
      + 'config.linkerd.io/admission-webhooks: disabled, pods labelled linkerd.io/control-plane-component or '
      + 'linkerd.io/cni-resource; or by the selectors the cluster sets, read from a MutatingWebhookConfiguration in the input '
      + 'or the install\'s proxyInjector values), nor, when the control plane does not project tokens '
      + '(identity.serviceAccountTokenProjection: false), pods that mount no ServiceAccount token (automountServiceAccountToken: '
      + 'false on the pod, or on its ServiceAccount); UDP is never proxied; and an app running as the proxy UID (2102) has its outbound '
      + 'traffic exempted from redirection. Each leaves a "meshed" workload partly outside the mesh.',
    fix: 'Drop hostNetwork, keep mesh traffic on TCP, keep the token available, and run apps under a UID other than 2102.',
    linkerdSource: 'pkg/inject/report.go (r *Report) Injectable (hostNetwork, automountServiceAccountToken without token '
      + 'projection), checkUDPPorts; pkg/healthcheck/sidecar.go HasExistingSidecars; charts/linkerd-control-plane/values.yaml '
      + 'proxy.uid 2102, proxyInjector.namespaceSelector and objectSelector (rendered by charts/linkerd-control-plane/'
      + 'templates/proxy-injector-rbac.yaml); '
      + 'charts/partials/templates/_proxy-init.tpl',
    badExample: 'spec:\n  hostNetwork: true\n  securityContext:\n    runAsUser: 2102',
    goodExample: 'spec:\n  securityContext:\n    runAsUser: 10001',
  },
  check(ctx) {
    for (const pod of ownPodTemplates(ctx.index)) {
      if (pod.injectionSkipped !== undefined) checkSkipped(ctx, pod, pod.injectionSkipped);
      else if (isMeshed(pod)) checkPod(ctx, pod);
    }
  },
};
