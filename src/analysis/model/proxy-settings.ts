/**
 * Proxy settings that change how a pod behaves as a whole, read the way the injector reads them: the pod's own
 * annotations, with its namespace's copied in for the keys the pod lacks (controller/proxy-injector/webhook.go
 * AppendNamespaceAnnotations, pkg/inject/inject.go ProxyAnnotations and ProxyAlphaConfigAnnotations), over the
 * control plane's values.
 */
import { controlPlaneInstalls, isInstallOf, linkerdInstalls } from './installs';
import { textOf } from './manifest';
import { perIndex } from './memo';
import { MeshIndex, PodTemplate } from './mesh-index';
import { LABELS_GO } from '../../core/linkerd-annotations.generated';
import { goBool } from '../../core/linkerd-grammar';
import { AnalysisContext } from '../options';

const STABLE = LABELS_GO.ProxyEnableNativeSidecarAnnotation;
const BETA = LABELS_GO.ProxyEnableNativeSidecarAnnotationBeta;
const ALPHA = LABELS_GO.ProxyEnableNativeSidecarAnnotationAlpha;

/**
 * A proxy setting of a pod as the injector sees it: the pod's own annotation, else its namespace's, which the webhook
 * copies onto pods that lack it (AppendNamespaceAnnotations), for the keys of ProxyAnnotations and
 * ProxyAlphaConfigAnnotations only: ask it for those.
 */
export function podOrNamespaceAnnotation(pod: PodTemplate, key: string): string | undefined {
  return textOf(pod.annotations, key) ?? textOf(pod.namespaceAnnotations, key);
}

export interface NativeSidecar {
  /** Whether the proxy runs as a native sidecar (an init container with restartPolicy Always). */
  readonly on: boolean;
  /** Where that comes from, for messages. */
  readonly origin: string;
}

/**
 * Whether the injector makes a pod's proxy a native sidecar (inject.go ApplyAnnotationOverrides): the stable key when
 * it is set (a value ParseBool cannot read leaves the default, and hides the older keys), else the beta key (read from
 * the pod only), else the alpha key; else the declared option, the install's proxy.nativeSidecar, or the chart's (true
 * in 2.20).
 */
export function nativeSidecarOf(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): NativeSidecar {
  const nsAnnotations = pod.namespaceAnnotations;
  const merged = (key: string, fromNamespace: boolean): { value: string; where: string } | undefined => {
    const own = textOf(pod.annotations, key);
    if (own !== undefined) return { value: own, where: `${key} on the pod template` };
    const inherited = fromNamespace ? textOf(nsAnnotations, key) : undefined;
    return inherited === undefined ? undefined : { value: inherited, where: `${key} on Namespace ${pod.namespace}` };
  };
  const set = merged(STABLE, true) ?? merged(BETA, false) ?? merged(ALPHA, true);
  const parsed = set === undefined ? undefined : goBool(set.value);
  if (set !== undefined && parsed !== undefined) return { on: parsed, origin: `${set.where}: ${set.value}` };
  if (context.nativeSidecar !== undefined) return { on: context.nativeSidecar, origin: `the declared nativeSidecar: ${context.nativeSidecar}` };
  const [install] = controlPlaneInstalls(index);
  const fromInstall = install?.values.proxy?.nativeSidecar;
  if (typeof fromInstall === 'boolean') return { on: fromInstall, origin: `proxy.nativeSidecar: ${fromInstall} in the ${install.source}` };
  return { on: true, origin: 'proxy.nativeSidecar, true by default in Linkerd 2.20' };
}

/** Whether pods get their iptables rules from linkerd2-cni, and who says so. */
export interface CniFact {
  readonly enabled: boolean;
  readonly origin: string;
  /** False when nothing said so and the chart default is assumed. */
  readonly known: boolean;
}

/** cniEnabled as declared, else as the control-plane install in the output sets it, else the chart default (false). */
export function cniEnabledOf(index: MeshIndex, context: AnalysisContext): CniFact {
  if (context.cniEnabled !== undefined) return { enabled: context.cniEnabled, origin: 'the declared cniEnabled', known: true };
  const [install] = controlPlaneInstalls(index);
  if (install && (install.values.cniEnabled !== undefined || install.unseenValues.length === 0)) {
    return { enabled: install.values.cniEnabled === true, origin: `cniEnabled in the ${install.source}`, known: true };
  }
  if (install) {
    return { enabled: false, origin: `assuming the chart default, cniEnabled: false (the ${install.source} also reads ${install.unseenValues.join(', ')}, which this analysis cannot see)`, known: false };
  }
  return { enabled: false, origin: 'assuming the chart default, cniEnabled: false', known: false };
}

/** Go templates' truth (`if`, `not`): false, 0, nil and empty strings, maps and lists are false; all else is true. */
function goTemplateTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return typeof value !== 'object' || Object.keys(value as object).length > 0;
}

/** The install's proxyInit.runAsRoot as the injector's templates test it (the chart's default: false). */
export function proxyInitRunsAsRoot(index: MeshIndex): boolean {
  const [install] = controlPlaneInstalls(index);
  return goTemplateTruthy(install?.values.proxyInit?.runAsRoot);
}

/** The chart's proxyInit.ignoreInboundPorts (Galera's ports). */
export const CHART_IGNORE_INBOUND_PORTS = '4567,4568';

/**
 * The inbound ports proxy-init skips for a pod without its own skip-inbound-ports (nor its namespace's): the
 * install's proxyInit.ignoreInboundPorts, else the chart's (_proxy-init.tpl `--inbound-ports-to-ignore`). A pod's own
 * list replaces it.
 */
export function proxyInitIgnoredInboundPorts(index: MeshIndex): string {
  const [install] = controlPlaneInstalls(index);
  const fromInstall = install?.values.proxyInit?.ignoreInboundPorts;
  return typeof fromInstall === 'string' ? fromInstall : CHART_IGNORE_INBOUND_PORTS;
}

/** The chart that installs the CNI plugin, and its default ignoreInboundPorts. */
const CNI_CHART = 'linkerd2-cni';
const CNI_CHART_IGNORE_INBOUND_PORTS = '';

/**
 * The inbound ports the CNI plugin skips for every pod: the linkerd2-cni install's ignoreInboundPorts, which its
 * chart writes into the plugin's `inbound-ports-to-ignore` (charts/linkerd2-cni/templates/cni-plugin.yaml), else the
 * chart's (none). Unlike proxy-init's, this list stays when a pod has its own: the plugin appends the pod's entries
 * (linkerd2-proxy-init cni-plugin/main.go, `InboundPortsToIgnore = append(...)`).
 */
export const cniIgnoredInboundPorts: (index: MeshIndex) => string = perIndex((index) => {
  const install = linkerdInstalls(index).find((i) => isInstallOf(i, CNI_CHART) && i.values !== undefined);
  const fromInstall = install?.values?.ignoreInboundPorts;
  return typeof fromInstall === 'string' ? fromInstall : CNI_CHART_IGNORE_INBOUND_PORTS;
});
