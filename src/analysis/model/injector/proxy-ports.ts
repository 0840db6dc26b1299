/**
 * The ports of the proxy the injector adds to a pod: linkerd2 pkg/inject/inject.go (the proxy container's
 * `linkerd-admin` and `linkerd-proxy` ports from `config.linkerd.io/admin-port` and `inbound-port`) and the chart's
 * defaults (charts/linkerd-control-plane/values.yaml `proxy.ports`, in vocabulary.ts).
 */
import { ADMIN_PORT_ANNOTATION, CHART_PROXY_PORTS, INBOUND_PORT_ANNOTATION } from '../../../core/vocabulary';
import { PodTemplate } from '../mesh-index';
import { podOrNamespaceAnnotation } from '../proxy-settings';

/** The proxy's admin port on an injected pod (`config.linkerd.io/admin-port`, the pod's or its namespace's, else 4191): metrics and probes. */
export function proxyAdminPort(pod: PodTemplate): number {
  return proxyPort(pod, ADMIN_PORT_ANNOTATION, CHART_PROXY_PORTS.admin);
}

/** The proxy's inbound port on an injected pod (`config.linkerd.io/inbound-port`, the pod's or its namespace's, else 4143). */
export function proxyInboundPort(pod: PodTemplate): number {
  return proxyPort(pod, INBOUND_PORT_ANNOTATION, CHART_PROXY_PORTS.inbound);
}

function proxyPort(pod: PodTemplate, annotation: string, fallback: number): number {
  const value = Number(podOrNamespaceAnnotation(pod, annotation));
  return Number.isInteger(value) && value >= 1 && value <= 65535 ? value : fallback;
}
