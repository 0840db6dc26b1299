/**
 * Typed `config.linkerd.io/*` annotations. They only take effect on the pod template (the injector reads pods), so
 * this module only ever writes them there.
 */
import { IConstruct } from 'constructs';
import { DefaultInboundPolicy, isDefaultInboundPolicy } from '../core/default-inbound-policy';
import { InputRule, check, fail } from '../core/errors';
import { validatePortNumber } from '../core/names';
import { DEFAULT_POLICY_ANNOTATION as DEFAULT_INBOUND_POLICY_ANNOTATION, NATIVE_SIDECAR_ANNOTATION, OPAQUE_PORTS_ANNOTATION, SKIP_INBOUND_PORTS_ANNOTATION, SKIP_OUTBOUND_PORTS_ANNOTATION } from '../core/vocabulary';

/** Proxy settings for one workload's pods. */
export interface ProxyConfig {
  /**
   * Ports whose traffic is proxied without protocol detection (server-speaks-first protocols, e.g. MySQL). An empty
   * list means none: the pods then get neither the namespace's list nor the chart's default one (e.g. an HTTP service
   * on 3306).
   * @default - the namespace's `config.linkerd.io/opaque-ports`, else the chart's default list (25,587,3306,4444,5432,6379,9300,11211)
   */
  readonly opaquePorts?: number[];
  /**
   * Inbound ports that bypass the proxy entirely (no mTLS, no policy). An empty list overrides the namespace's.
   * @default - the namespace's, else none
   */
  readonly skipInboundPorts?: number[];
  /**
   * Outbound ports that bypass the proxy entirely. An empty list overrides the namespace's.
   * @default - the namespace's, else none
   */
  readonly skipOutboundPorts?: number[];
  /**
   * Run the proxy as a native sidecar (an init container with restartPolicy Always).
   * @default - the control plane's `proxy.nativeSidecar` (true in Linkerd 2.20)
   */
  readonly nativeSidecar?: boolean;
  /**
   * The default inbound policy for ports of these pods that no Server selects.
   * @default - the namespace's, else the cluster's
   */
  readonly defaultInboundPolicy?: DefaultInboundPolicy;
}

/**
 * The annotation value for a port list. An empty list is written as "" on purpose: the injector then applies no
 * namespace or default list (pkg/inject/inject.go ApplyAnnotationOverrides, CreateOpaquePortsPatch).
 */
function portList(scope: IConstruct, ports: number[], what: string): string {
  if (!Array.isArray(ports)) {
    fail(scope, InputRule.REQUIRED,
      `${what} is not a list of port numbers.`,
      `Pass ${what}: [3306] (or [] for none), or omit it.`);
  }
  const unique = [...new Set(ports.map((p) => validatePortNumber(scope, p, `${what} entry`)))].sort((a, b) => a - b);
  return unique.join(',');
}

/** The annotations a ProxyConfig stands for, validated. */
export function proxyAnnotations(scope: IConstruct, config: ProxyConfig | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!config) return out;
  if (config.opaquePorts !== undefined) out[OPAQUE_PORTS_ANNOTATION] = portList(scope, config.opaquePorts, 'opaquePorts');
  if (config.skipInboundPorts !== undefined) out[SKIP_INBOUND_PORTS_ANNOTATION] = portList(scope, config.skipInboundPorts, 'skipInboundPorts');
  if (config.skipOutboundPorts !== undefined) out[SKIP_OUTBOUND_PORTS_ANNOTATION] = portList(scope, config.skipOutboundPorts, 'skipOutboundPorts');
  if (config.nativeSidecar !== undefined) {
    check(typeof config.nativeSidecar === 'boolean', scope, InputRule.REQUIRED, 'nativeSidecar must be true or false.', 'Pass a boolean.');
    out[NATIVE_SIDECAR_ANNOTATION] = String(config.nativeSidecar);
  }
  if (config.defaultInboundPolicy !== undefined) {
    if (!isDefaultInboundPolicy(config.defaultInboundPolicy)) {
      fail(scope, 'LKD-POL-012',
        `defaultInboundPolicy ${JSON.stringify(config.defaultInboundPolicy)} is not one of Linkerd's six policies.`,
        'Use a DefaultInboundPolicy value.');
    }
    out[DEFAULT_INBOUND_POLICY_ANNOTATION] = config.defaultInboundPolicy;
  }
  return out;
}
