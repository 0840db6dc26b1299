/**
 * The options of MeshChecks (the jsii structs): what the checks are told about the target cluster, and about each
 * cluster of a fleet. The cluster facts are read by the one option table (analysis/context-options.ts).
 */
import { DefaultInboundPolicy } from '../core/default-inbound-policy';

/** What the checks need to know about the target cluster. */
export interface MeshChecksOptions {
  /**
   * Fail synth on warnings too.
   * @default false
   */
  readonly failOnWarnings?: boolean;
  /**
   * Print warnings to stderr during synth.
   * @default - true, except under `cdk8s synth` with the cdk8s-linkerd validation plugin in cdk8s.yaml (the plugin
   * reports them after the manifests are written, so they are printed once)
   */
  readonly printWarnings?: boolean;
  /**
   * Target Kubernetes version.
   * @default "1.31"
   */
  readonly kubernetesVersion?: string;
  /**
   * Gateway API bundle version installed in the cluster.
   * @default "v1.2.1"
   */
  readonly gatewayApiVersion?: string;
  /**
   * Linkerd identity trust domain.
   * @default "cluster.local"
   */
  readonly trustDomain?: string;
  /**
   * The cluster's pod and service networks.
   * @default - the chart's clusterNetworks
   */
  readonly clusterNetworks?: string[];
  /**
   * The cluster-wide default inbound policy (`proxy.defaultInboundPolicy`).
   * @default DefaultInboundPolicy.ALL_UNAUTHENTICATED
   */
  readonly defaultInboundPolicy?: DefaultInboundPolicy;
  /**
   * Whether the control plane projects ServiceAccount tokens for proxies (`identity.serviceAccountTokenProjection`).
   * @default true
   */
  readonly serviceAccountTokenProjection?: boolean;
  /**
   * Certificates with fewer days of validity left get a warning.
   * @default 60
   */
  readonly certificateExpiryWarningDays?: number;
  /**
   * The ServiceAccount (`namespace/name`) of the Prometheus that scrapes the proxies' metrics; LKD-POL-021 checks that
   * every meshed workload lets it in.
   * @default - linkerd-viz's (`linkerd-viz/prometheus`) when that ServiceAccount is synthesized or in the inventory
   */
  readonly prometheusServiceAccount?: string;
  /**
   * Namespace of the Linkerd control plane (injected pods carry it in their labels).
   * @default "linkerd", or the namespace of a control plane in the App
   */
  readonly controlPlaneNamespace?: string;
  /**
   * Where kubelet probes come from (`policyController.probeNetworks`): the probe routes Linkerd generates admit these.
   * @default ["0.0.0.0/0", "::/0"], or the App's control plane's
   */
  readonly probeNetworks?: string[];
  /**
   * The cluster's default opaque ports (`proxy.opaquePorts`), comma-separated ports and ranges.
   * @default - the chart's, or the App's control plane's
   */
  readonly defaultOpaquePorts?: string;
  /**
   * Namespace of the cluster-wide EgressNetworks (`egress.globalEgressNetworkNamespace`).
   * @default "linkerd-egress", or the App's control plane's
   */
  readonly globalEgressNamespace?: string;
  /**
   * The namespace of objects that name none.
   * @default "default"
   */
  readonly defaultNamespace?: string;
  /**
   * Objects that exist in the cluster but are not synthesized here (e.g. pre-existing Services), as plain manifests.
   * @default - none
   */
  readonly inventory?: any[];
  /**
   * Whether pods use linkerd2-cni instead of linkerd-init (LKD-MESH-011).
   * @default - read from the control-plane install in the output, else false
   */
  readonly cniEnabled?: boolean;
  /**
   * Whether the control plane adds proxies as native sidecars (`proxy.nativeSidecar`; LKD-MESH-014). Pod and namespace
   * annotations override it.
   * @default - read from the control-plane install in the output, else true (the Linkerd 2.20 chart default)
   */
  readonly nativeSidecar?: boolean;
  /**
   * Rule IDs whose findings no suppression may silence (`MeshChecks.suppress`, the suppress or ignore-check
   * annotations): such a suppression is reported as not applied. LKD-META-001 and LKD-MESH-009 never can be.
   * @default - none beyond those two
   */
  readonly unsuppressible?: string[];
  /**
   * Schedulable nodes in the cluster (LKD-CP-001 says which fault domains the control plane survives).
   * @default - counted from Nodes in the inventory, else unknown
   */
  readonly nodeCount?: number;
  /**
   * Zones with schedulable nodes (`topology.kubernetes.io/zone`).
   * @default - counted from the inventory's Node labels, else unknown
   */
  readonly zoneCount?: number;
  /**
   * Worst-case attempts one request may cause at a hop of a chain of declared calls (the product of 1 + retry limit
   * along it) before LKD-CAP-001 warns.
   * @default 10
   */
  readonly maxRetryAmplification?: number;
  /**
   * Print informational findings (what the checks could not know) to stderr during synth; they never fail it.
   * @default false
   */
  readonly printInfo?: boolean;
  /**
   * The repository config file (rule levels, failOn, cluster options; see README "Config file"), relative to the
   * working directory. What configure() sets wins over the file; the file wins over the App's control plane.
   * @default - the nearest .cdk8s-linkerd.yaml from the working directory up to the repository root, if any
   */
  readonly configFile?: string;
}

/** What the checks know of one cluster of a fleet. */
export interface ClusterCheckOptions {
  /**
   * The cluster's trust domain.
   * @default "cluster.local"
   */
  readonly trustDomain?: string;
  /**
   * The cluster's control-plane namespace.
   * @default "linkerd"
   */
  readonly controlPlaneNamespace?: string;
}
