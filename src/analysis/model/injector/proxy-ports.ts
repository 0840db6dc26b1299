/**
 * The ports and user of the proxy the injector adds to a pod: linkerd2 pkg/inject/inject.go (the proxy container's
 * `linkerd-admin` and `linkerd-proxy` ports from `config.linkerd.io/admin-port` and `inbound-port`) and the chart's
 * defaults (charts/linkerd-control-plane/values.yaml `proxy.ports`, `proxy.uid`).
 */
import { PodTemplate } from '../mesh-index';
import { podOrNamespaceAnnotation } from '../proxy-settings';

export const PROXY_UID = 2102;

/** The proxy's admin port on an injected pod (`config.linkerd.io/admin-port`, the pod's or its namespace's, else 4191): metrics and probes. */
export function proxyAdminPort(pod: PodTemplate): number {
  return proxyPort(pod, 'config.linkerd.io/admin-port', 4191);
}

/** The proxy's inbound port on an injected pod (`config.linkerd.io/inbound-port`, the pod's or its namespace's, else 4143). */
export function proxyInboundPort(pod: PodTemplate): number {
  return proxyPort(pod, 'config.linkerd.io/inbound-port', 4143);
}

function proxyPort(pod: PodTemplate, annotation: string, fallback: number): number {
  const value = Number(podOrNamespaceAnnotation(pod, annotation));
  return Number.isInteger(value) && value >= 1 && value <= 65535 ? value : fallback;
}
