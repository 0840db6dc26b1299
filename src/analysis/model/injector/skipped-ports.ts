/**
 * Inbound ports whose traffic bypasses the proxy: the skip-inbound-ports list as proxy-init or the CNI plugin writes
 * it into iptables (linkerd2 pkg/inject/inject.go ApplyAnnotationOverrides, linkerd2-proxy-init
 * pkg/iptables/iptables.go makeMultiportDestinations).
 */
import { PortList, proxyInitPortList } from '../../../core/port-lists';
import { SKIP_INBOUND_PORTS_ANNOTATION as SKIP_INBOUND_PORTS } from '../../../core/vocabulary';
import { AnalysisContext } from '../../options';
import { textOf } from '../manifest';
import { MeshIndex, PodTemplate } from '../mesh-index';
import { cniEnabledOf, cniIgnoredInboundPorts, podOrNamespaceAnnotation, proxyInitIgnoredInboundPorts } from '../proxy-settings';

/**
 * Ports of a pod whose inbound traffic bypasses the proxy (no mTLS, no policy): those proxy-init reads from the pod's
 * list, or else its namespace's, which the injector copies to the pod (controller/proxy-injector/webhook.go
 * AppendNamespaceAnnotations), or else the cluster's default list.
 */
export function skippedInboundPorts(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): PortList {
  // Runs for every pod port the policy evaluation decides: no message text here (skippedInboundSource).
  const own = podOrNamespaceAnnotation(pod, SKIP_INBOUND_PORTS);
  if (!cniEnabledOf(index, context).enabled) return proxyInitPortList(own === undefined ? proxyInitIgnoredInboundPorts(index) : String(own));
  const cni = cniIgnoredInboundPorts(index);
  return proxyInitPortList(own === undefined ? cni : cni === '' ? String(own) : `${cni},${String(own)}`);
}

/** What sets up the pods' iptables, and so skips their inbound ports: proxy-init, or the CNI plugin in its place. */
export function inboundRedirector(index: MeshIndex, context: AnalysisContext): string {
  return cniEnabledOf(index, context).enabled ? 'the CNI plugin' : 'proxy-init';
}

/** Where a pod's skipped inbound ports come from, in words about the pod ("its own ..."), for messages. */
export function skippedInboundSource(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): string {
  const own = textOf(pod.annotations, SKIP_INBOUND_PORTS) !== undefined ? `its own ${SKIP_INBOUND_PORTS}`
    : podOrNamespaceAnnotation(pod, SKIP_INBOUND_PORTS) !== undefined ? `${SKIP_INBOUND_PORTS} of Namespace ${pod.namespace}` : undefined;
  if (!cniEnabledOf(index, context).enabled) {
    return own ?? `the cluster's proxyInit.ignoreInboundPorts "${proxyInitIgnoredInboundPorts(index)}", with no ${SKIP_INBOUND_PORTS} of its own`;
  }
  const cni = cniIgnoredInboundPorts(index);
  const plugin = `the CNI plugin's ignoreInboundPorts "${cni}"`;
  return own === undefined ? plugin : cni === '' ? own : `${own}, added to ${plugin}`;
}
