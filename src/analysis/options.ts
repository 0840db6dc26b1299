/** The context an analysis runs in: what the engine cannot read from the manifests themselves. */
import { DefaultInboundPolicy } from '../core/default-inbound-policy';
import { CHART_GLOBAL_EGRESS_NAMESPACE, CHART_OPAQUE_PORTS, CHART_PROBE_NETWORKS } from '../core/vocabulary';
import { KubeObject } from './model/manifest';

/**
 * The six default inbound policies Linkerd knows (chart value `proxy.defaultInboundPolicy` and annotations), in the
 * order of the DefaultInboundPolicy enum, their one home.
 */
export const DEFAULT_INBOUND_POLICIES: readonly string[] = Object.values(DefaultInboundPolicy);

/** The chart's default `clusterNetworks`. */
export const DEFAULT_CLUSTER_NETWORKS = ['10.0.0.0/8', '100.64.0.0/10', '172.16.0.0/12', '192.168.0.0/16', 'fd00::/8'];

export interface AnalysisContext {
  /** Target Kubernetes version, e.g. `1.31`. */
  readonly kubernetesVersion: string;
  /** Gateway API bundle version installed in the cluster, e.g. `v1.2.1`. */
  readonly gatewayApiVersion: string;
  /** Linkerd identity trust domain. */
  readonly trustDomain: string;
  /** CIDRs of the cluster's pod and service networks. */
  readonly clusterNetworks: string[];
  /** The cluster-wide default inbound policy (`proxy.defaultInboundPolicy`). */
  readonly defaultInboundPolicy: string;
  /** Namespace of the Linkerd control plane. */
  readonly controlPlaneNamespace: string;
  /** Where cluster-wide EgressNetworks live (`egress.globalEgressNetworkNamespace`). */
  readonly globalEgressNamespace: string;
  /** The namespace of objects that do not name one (kubectl's `default`, or `--namespace` / `-n`). */
  readonly defaultNamespace: string;
  /** Where probes may come from (`policyController.probeNetworks`): the generated probe routes authorize these. */
  readonly probeNetworks: string[];
  /** The cluster's default opaque ports (`proxy.opaquePorts`), comma-separated ports and ranges. */
  readonly defaultOpaquePorts: string;
  /** Objects that exist in the cluster but are not part of this output (pre-existing Services, ServiceAccounts …). */
  readonly inventory: KubeObject[];
  /** Whether the control plane projects a ServiceAccount token for proxies (`identity.serviceAccountTokenProjection`). */
  readonly serviceAccountTokenProjection: boolean;
  /** Days of certificate validity under which a warning is given. */
  readonly certificateExpiryWarningDays: number;
  /** The ServiceAccount (`namespace/name`) of the Prometheus that scrapes the proxies; else linkerd-viz's, when present. */
  readonly prometheusServiceAccount?: string;
  /**
   * Whether pods get their iptables rules from linkerd2-cni instead of linkerd-init (`cniEnabled`); when unset, read from
   * the control-plane install in the output, else the chart default (false).
   */
  readonly cniEnabled?: boolean;
  /**
   * Whether the injector adds proxies as native sidecars (`proxy.nativeSidecar`); when unset, read from the
   * control-plane install in the output, else the chart default (true in 2.20). Pod annotations override it.
   */
  readonly nativeSidecar?: boolean;
  /** Schedulable nodes in the cluster, when known; else counted from the inventory's Node objects. */
  readonly nodeCount?: number;
  /** Zones (`topology.kubernetes.io/zone`) with schedulable nodes, when known; else counted from the inventory's Node labels. */
  readonly zoneCount?: number;
  /** Worst-case attempts one request may cause at a hop of a chain of declared calls before LKD-CAP-001 warns. */
  readonly maxRetryAmplification: number;
  /**
   * Trust domains (with their control-plane namespaces, as `<control-plane-ns>.<trust-domain>`) of the other clusters
   * of a fleet that share this cluster's anchors: identities written for their workloads are valid here.
   */
  readonly peerIdentitySuffixes: string[];
  /**
   * ServiceAccounts (`namespace/name`) of the other clusters of a fleet whose identities are this cluster's too (the same
   * trust domain and control-plane namespace): a policy here naming one admits their workloads.
   */
  readonly peerServiceAccounts: string[];
  /**
   * Rule IDs whose findings no suppression silences here: a suppression of one is listed as not applied (LKD-META-001),
   * so the team that gates on the checks decides what app teams may waive.
   */
  readonly unsuppressible: string[];
  /** The moment certificates are judged against (tests pin it). */
  readonly now: Date;
}

/** The default of maxRetryAmplification: one request may become ten at a hop before LKD-CAP-001 warns. */
export const DEFAULT_MAX_RETRY_AMPLIFICATION = 10;

export type AnalysisContextInput = Partial<AnalysisContext>;

const SERVICE_ACCOUNT_REF = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/;

/** `namespace/name` of a ServiceAccount, as front-ends accept the Prometheus that scrapes the proxies. */
export function isServiceAccountRef(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 317 && SERVICE_ACCOUNT_REF.test(value);
}

export function resolveContext(input: AnalysisContextInput = {}): AnalysisContext {
  return {
    kubernetesVersion: input.kubernetesVersion ?? '1.31',
    gatewayApiVersion: input.gatewayApiVersion ?? 'v1.2.1',
    trustDomain: input.trustDomain ?? 'cluster.local',
    clusterNetworks: input.clusterNetworks ?? DEFAULT_CLUSTER_NETWORKS,
    defaultInboundPolicy: input.defaultInboundPolicy ?? 'all-unauthenticated',
    controlPlaneNamespace: input.controlPlaneNamespace ?? 'linkerd',
    probeNetworks: input.probeNetworks ?? CHART_PROBE_NETWORKS,
    defaultNamespace: input.defaultNamespace ?? 'default',
    globalEgressNamespace: input.globalEgressNamespace ?? CHART_GLOBAL_EGRESS_NAMESPACE,
    defaultOpaquePorts: input.defaultOpaquePorts ?? CHART_OPAQUE_PORTS,
    inventory: input.inventory ?? [],
    serviceAccountTokenProjection: input.serviceAccountTokenProjection ?? true,
    certificateExpiryWarningDays: input.certificateExpiryWarningDays ?? 60,
    prometheusServiceAccount: input.prometheusServiceAccount,
    cniEnabled: input.cniEnabled,
    nativeSidecar: input.nativeSidecar,
    nodeCount: input.nodeCount,
    zoneCount: input.zoneCount,
    maxRetryAmplification: input.maxRetryAmplification ?? DEFAULT_MAX_RETRY_AMPLIFICATION,
    peerIdentitySuffixes: input.peerIdentitySuffixes ?? [],
    peerServiceAccounts: input.peerServiceAccounts ?? [],
    unsuppressible: input.unsuppressible ?? [],
    now: input.now ?? new Date(),
  };
}
