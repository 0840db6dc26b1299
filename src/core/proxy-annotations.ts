/**
 * Which of linkerd2's label/annotation keys (pkg/k8s/labels.go, generated into linkerd-annotations.generated.ts) are
 * READ, by whom and from which object, at tag version-2.20. Hand-written from the code; each entry cites the function.
 *
 * The proxy injector (controller/proxy-injector/webhook.go `Inject`) is a mutating webhook on Pod and Service CREATE
 * (charts/linkerd-control-plane/templates/proxy-injector-rbac.yaml). It reads the POD's annotations
 * (pkg/inject/inject.go `GetAnnotationOverrides` → `ApplyAnnotationOverrides`) and, for the keys in
 * `ProxyAnnotations` / `ProxyAlphaConfigAnnotations` plus linkerd.io/inject, copies the NAMESPACE's value onto pods that
 * lack their own (`AppendNamespaceAnnotations`, `GetConfigOverride`). A Deployment's (or any workload's) own metadata
 * is never part of the admission request for a pod, so nothing there is read.
 */
import { LABELS_GO, LABELS_GO_KEYS, LABELS_GO_PREFIXES, LabelsGoName } from './linkerd-annotations.generated';
import { goBool } from './linkerd-grammar';
import { REMOVED_KEYS } from './vocabulary';

/** The objects a key is read from. */
export enum KeySite {
  /** A Pod's annotations, i.e. a workload's pod template annotations. */
  POD = 'pod',
  /** A Namespace's annotations (inherited by the pods the injector admits). */
  NAMESPACE = 'namespace',
  /** A Service's annotations. */
  SERVICE = 'service',
  /** An ExternalWorkload's annotations (policy controller). */
  EXTERNAL_WORKLOAD = 'external-workload',
  /** An EgressNetwork's annotations (the outbound index reads them as a Service's). */
  EGRESS_NETWORK = 'egress-network',
}

/** One key that Linkerd 2.20 reads as an annotation. */
export interface ReadKey {
  readonly goName: LabelsGoName;
  readonly key: string;
  readonly sites: readonly KeySite[];
  /** The linkerd2 function(s) that read it. */
  readonly readBy: string;
  /** For a form labels.go marks deprecated: the key its comment says to use instead (Linkerd prefers it when both are set). */
  readonly replacedBy?: string;
}

const POD_NS = [KeySite.POD, KeySite.NAMESPACE];
const POD = [KeySite.POD];
const APPLY = 'pkg/inject/inject.go ApplyAnnotationOverrides';
const INHERITED = `${APPLY}; namespace value copied by AppendNamespaceAnnotations`;

/** The replacement labels.go names in a `Deprecated: use X instead` comment, as a key. */
function replacementOf(goName: LabelsGoName): string | undefined {
  const replacedBy = LABELS_GO_KEYS.find((k) => k.goName === goName)?.replacedBy;
  return replacedBy ? (LABELS_GO as Record<string, string>)[replacedBy] : undefined;
}

function read(goName: LabelsGoName, sites: readonly KeySite[], readBy: string): ReadKey {
  const replacedBy = replacementOf(goName);
  return { goName, key: LABELS_GO[goName], sites, readBy, ...(replacedBy ? { replacedBy } : {}) };
}

/** Every key Linkerd 2.20 reads from annotations, with where it reads it. */
export const READ_KEYS: readonly ReadKey[] = [
  // Injection itself: pkg/inject/report.go disabledByAnnotation reads the pod's, then the namespace's value.
  read('ProxyInjectAnnotation', POD_NS, 'pkg/inject/report.go disabledByAnnotation; ' + INHERITED),
  // In ProxyAnnotations: read on the pod, inherited from the namespace.
  read('ProxyAdminPortAnnotation', POD_NS, INHERITED),
  read('ProxyControlPortAnnotation', POD_NS, INHERITED),
  read('ProxyEnableDebugAnnotation', POD_NS, `${INHERITED}; injectPodSpec`),
  read('ProxyEnableExternalProfilesAnnotation', POD_NS, INHERITED),
  read('ProxyImagePullPolicyAnnotation', POD_NS, INHERITED),
  read('ProxyInboundPortAnnotation', POD_NS, INHERITED),
  read('ProxyOutboundPortAnnotation', POD_NS, INHERITED),
  read('ProxyPodInboundPortsAnnotation', POD_NS, INHERITED),
  read('ProxyCPULimitAnnotation', POD_NS, INHERITED),
  read('ProxyCPURequestAnnotation', POD_NS, INHERITED),
  read('ProxyImageAnnotation', POD_NS, INHERITED),
  read('ProxyAdminShutdownAnnotation', POD_NS, INHERITED),
  read('ProxyLogFormatAnnotation', POD_NS, INHERITED),
  read('ProxyLogLevelAnnotation', POD_NS, INHERITED),
  read('ProxyLogHTTPHeaders', POD_NS, INHERITED),
  read('ProxyMemoryLimitAnnotation', POD_NS, INHERITED),
  read('ProxyMemoryRequestAnnotation', POD_NS, INHERITED),
  read('ProxyEphemeralStorageLimitAnnotation', POD_NS, INHERITED),
  read('ProxyEphemeralStorageRequestAnnotation', POD_NS, INHERITED),
  read('ProxyUIDAnnotation', POD_NS, INHERITED),
  read('ProxyGIDAnnotation', POD_NS, INHERITED),
  read('ProxyVersionOverrideAnnotation', POD_NS, INHERITED),
  read('ProxyRequireIdentityOnInboundPortsAnnotation', [...POD_NS, KeySite.EXTERNAL_WORKLOAD],
    `${INHERITED}; policy-controller/k8s/index/src/inbound/workload.rs Settings::from_metadata`),
  read('ProxyIgnoreInboundPortsAnnotation', POD_NS, INHERITED),
  read('ProxyOpaquePortsAnnotation', [...POD_NS, KeySite.SERVICE, KeySite.EXTERNAL_WORKLOAD, KeySite.EGRESS_NETWORK],
    `${INHERITED}; CreateOpaquePortsPatch (Services); policy-controller inbound/workload.rs Settings::from_metadata, outbound/index.rs (Services, EgressNetworks)`),
  read('ProxyIgnoreOutboundPortsAnnotation', POD_NS, INHERITED),
  read('ProxyEnableHostnameLabels', POD_NS, INHERITED),
  read('ProxyOutboundConnectTimeout', POD_NS, INHERITED),
  read('ProxyInboundConnectTimeout', POD_NS, INHERITED),
  read('ProxyAwait', POD_NS, INHERITED),
  read('ProxyDefaultInboundPolicyAnnotation', [...POD_NS, KeySite.EXTERNAL_WORKLOAD],
    `${INHERITED}; policy-controller/k8s/index/src/inbound/workload.rs Settings::from_metadata (Pods and ExternalWorkloads)`),
  read('ProxySkipSubnetsAnnotation', POD_NS, INHERITED),
  read('ProxyAccessLogAnnotation', POD_NS, INHERITED),
  read('ProxyShutdownGracePeriodAnnotation', POD_NS, INHERITED),
  read('ProxyOutboundDiscoveryCacheUnusedTimeout', POD_NS, INHERITED),
  read('ProxyInboundDiscoveryCacheUnusedTimeout', POD_NS, INHERITED),
  read('ProxyDisableOutboundProtocolDetectTimeout', POD_NS, INHERITED),
  read('ProxyDisableInboundProtocolDetectTimeout', POD_NS, INHERITED),
  read('ProxyEnableNativeSidecarAnnotation', POD_NS, INHERITED),
  // Merged by env var name: chart values < namespace < pod.
  read('ProxyAdditionalEnvAnnotation', POD_NS, 'pkg/inject/inject.go MergeAdditionalEnv'),
  // ProxyAlphaConfigAnnotations: read and inherited like the above. The alpha key is the ONLY form of this setting.
  read('ProxyWaitBeforeExitSecondsAnnotation', POD_NS, INHERITED),
  read('ProxyEnableNativeSidecarAnnotationAlpha', POD_NS, `${INHERITED} (only when neither the stable nor the beta key is set)`),
  // Read on the pod only: not in ProxyAnnotations, so a namespace value is not copied to pods.
  read('ProxyEnableNativeSidecarAnnotationBeta', POD, `${APPLY} (only when the stable key is not set)`),
  read('ProxyEnableGatewayAnnotation', POD, APPLY),
  read('ProxyCPURatioLimitAnnotation', POD, APPLY),
  read('DebugImageAnnotation', POD, APPLY),
  read('DebugImageVersionAnnotation', POD, APPLY),
  read('DebugImagePullPolicyAnnotation', POD, APPLY),
  read('CloseWaitTimeoutAnnotation', POD, 'pkg/inject/inject.go injectProxyInit'),
];

/** Keys the injector WRITES onto the pods it injects; a user setting them changes nothing (they are overwritten). */
export const INJECTOR_WRITTEN: readonly LabelsGoName[] = [
  'CreatedByAnnotation', // controller/proxy-injector/webhook.go Inject
  'ProxyVersionAnnotation', // pkg/inject/inject.go injectObjectMeta
  'ProxyTrustRootSHA', // injectObjectMeta
  'ControllerNSLabel', // NewResourceConfig
  'WorkloadNamespaceLabel', // populateMeta
  'ProxyDeploymentLabel', 'ProxyReplicationControllerLabel', 'ProxyReplicaSetLabel', 'ProxyJobLabel',
  'ProxyDaemonSetLabel', 'ProxyStatefulSetLabel', 'ProxyCronJobLabel', // populateMeta
];

/** labels.go keys read by components other than the proxy injector (or by the injector as labels), with a reader. */
export const OTHER_READERS: Readonly<Partial<Record<LabelsGoName, string>>> = {
  LinkerdExtensionLabel: 'cli/cmd/check.go, controller/heartbeat/heartbeat.go (Namespace label)',
  ControllerComponentLabel: 'pkg/inject/inject.go IsControlPlaneComponent, pkg/healthcheck/healthcheck.go (pod label)',
  TracingNameLabel: 'pkg/inject/inject.go ApplyAnnotationOverrides (pod label, trace service name)',
  TracingInstanceLabel: 'pkg/inject/inject.go ApplyAnnotationOverrides (pod label, trace service name)',
  DefaultExportedServiceSelector: 'multicluster/service-mirror/cluster_watcher.go (Service label)',
  DefaultFederatedServiceSelector: 'multicluster/cmd/service-mirror/main.go (Service label)',
  MirroredResourceLabel: 'multicluster/service-mirror/cluster_watcher.go (written and read by the service mirror)',
  MirroredGatewayLabel: 'multicluster/cmd/check.go, viz/metrics-api/gateways.go',
  MirroredHeadlessSvcNameLabel: 'multicluster/service-mirror/cluster_watcher_headless.go',
  RemoteClusterNameLabel: 'controller/api/destination/watcher/port_publisher.go, multicluster/service-mirror',
  RemoteDiscoveryLabel: 'controller/api/destination/server.go, multicluster/service-mirror',
  RemoteServiceLabel: 'controller/api/destination/server.go, multicluster/service-mirror',
  RemoteDiscoveryAnnotation: 'controller/api/destination/federated_service_watcher.go',
  LocalDiscoveryAnnotation: 'controller/api/destination/federated_service_watcher.go',
  RemoteResourceVersionAnnotation: 'multicluster/service-mirror/cluster_watcher.go',
  RemoteServiceFqName: 'controller/api/destination/watcher/port_publisher.go, multicluster/service-mirror',
  RemoteGatewayIdentity: 'controller/api/destination/watcher/port_publisher.go, multicluster/service-mirror',
  GatewayIdentity: 'multicluster/cmd/link-gen.go (read from the gateway Service)',
  GatewayProbePeriod: 'multicluster/cmd/link-gen.go (read from the gateway Service)',
  GatewayProbePath: 'multicluster/cmd/link-gen.go (read from the gateway Service)',
};

/** labels.go constants shaped like keys that are values, not label or annotation keys. */
export const NOT_METADATA_KEYS: readonly LabelsGoName[] = [
  'IdentityIssuerSchemeLinkerd', // the issuer Secret's scheme value (controller/cmd/identity/main.go)
  'MirrorSecretType', // a Secret type (multicluster/cmd/link.go)
];

const BY_KEY = new Map(READ_KEYS.map((k) => [k.key, k]));
const GO_BY_KEY = new Map(LABELS_GO_KEYS.map((k) => [k.key, k]));

/** The proxy-configuration prefix families (config.linkerd.io, its alpha and beta forms). */
export const PROXY_CONFIG_PREFIXES: readonly string[] = [
  LABELS_GO_PREFIXES.ProxyConfigAnnotationsPrefix,
  LABELS_GO_PREFIXES.ProxyConfigAnnotationsPrefixAlpha,
  LABELS_GO_PREFIXES.ProxyConfigAnnotationsPrefixBeta,
];

/** True for keys in the proxy-configuration families, and linkerd.io/inject. */
export function isProxyConfigKey(key: string): boolean {
  if (key === LABELS_GO.ProxyInjectAnnotation) return true;
  if (!key.startsWith('config.')) return false;
  const slash = key.indexOf('/');
  return slash > 0 && PROXY_CONFIG_PREFIXES.includes(key.slice(0, slash));
}

/** What Linkerd 2.20 does with one annotation key. */
export type KeyStatus =
  | { readonly kind: 'read'; readonly entry: ReadKey }
  | { readonly kind: 'unread'; readonly goName: string }
  | { readonly kind: 'removed'; readonly instead: string }
  | { readonly kind: 'unknown' };

/** Classifies a key against labels.go and the readers above. */
export function proxyKeyStatus(key: string): KeyStatus {
  const entry = BY_KEY.get(key);
  if (entry) return { kind: 'read', entry };
  const go = GO_BY_KEY.get(key);
  if (go) return { kind: 'unread', goName: go.goName };
  const instead = REMOVED_KEYS[key];
  if (instead) return { kind: 'removed', instead };
  return { kind: 'unknown' };
}

/** The proxy-config keys of labels.go that nothing in Linkerd 2.20 reads (none at 2.20; the test pins that). */
export function unreadProxyConfigKeys(): string[] {
  return LABELS_GO_KEYS.filter((k) => PROXY_CONFIG_PREFIXES.includes(k.prefix) && !BY_KEY.has(k.key)).map((k) => k.key);
}

const ACCOUNTED = new Set<string>([...READ_KEYS.map((k) => k.goName), ...INJECTOR_WRITTEN, ...Object.keys(OTHER_READERS), ...NOT_METADATA_KEYS]);

/**
 * labels.go key constants that no Linkerd 2.20 component reads or writes (`git grep` of the constant outside
 * labels.go and tests): setting them has no effect. At 2.20: mirror.linkerd.io/probe-failure-threshold and
 * mirror.linkerd.io/probe-timeout (the multicluster chart writes only probe-period, and nothing reads the other two).
 */
export const UNREAD_KEYS: ReadonlySet<string> = new Set(LABELS_GO_KEYS.filter((k) => !ACCOUNTED.has(k.goName)).map((k) => k.key));

/** The read keys, for suggestions. */
export function readProxyKeys(): string[] {
  return READ_KEYS.map((k) => k.key);
}

/**
 * The value a pod gets for a key when neither it nor its namespace sets one: the linkerd-control-plane chart's default
 * (charts/linkerd-control-plane/values.yaml at version-2.20), spelled as the annotation would be. Only keys whose
 * default is a single well-defined annotation value are listed; a cluster installed with other values differs.
 */
export const CHART_DEFAULTS: Readonly<Partial<Record<LabelsGoName, string>>> = {
  ProxyAwait: 'enabled', // proxy.await: true
  ProxyAdminShutdownAnnotation: 'disabled', // proxy.enableShutdownEndpoint: false
  ProxyEnableNativeSidecarAnnotation: 'true', // proxy.nativeSidecar: true
  ProxyLogFormatAnnotation: 'plain', // proxy.logFormat: plain
  ProxyLogHTTPHeaders: 'off', // proxy.logHTTPHeaders: "off"
  ProxyEnableExternalProfilesAnnotation: 'false', // proxy.enableExternalProfiles: false
  ProxyDisableOutboundProtocolDetectTimeout: 'false', // proxy.disableOutboundProtocolDetectTimeout: false
  ProxyDisableInboundProtocolDetectTimeout: 'false', // proxy.disableInboundProtocolDetectTimeout: false
  ProxyWaitBeforeExitSecondsAnnotation: '0', // proxy.waitBeforeExitSeconds: 0
};

/** True when two values of one key mean the same to Linkerd (booleans compared as strconv.ParseBool reads them, as inject.go does). */
export function sameKeyValue(a: string, b: string): boolean {
  if (a === b) return true;
  const boolA = goBool(a);
  return boolA !== undefined && boolA === goBool(b);
}

/** The chart default of a key, by key string; undefined when it has none listed. */
export function chartDefault(key: string): string | undefined {
  const entry = BY_KEY.get(key);
  return entry ? CHART_DEFAULTS[entry.goName] : undefined;
}
