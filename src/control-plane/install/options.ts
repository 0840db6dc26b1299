/**
 * The typed install options: only the chart values that decide how the mesh behaves (section b of the research
 * notes). Everything else stays reachable through `additionalValues`.
 */
import { ZoneSpread } from './fault-domains';
import { ImageDistribution } from './image-distribution';
import { DefaultInboundPolicy } from '../../core/default-inbound-policy';
import { LinkerdVersion } from '../../core/versions';

/** The linkerd2-cni chart, installed before the control plane when given (see `LinkerdInstallOptions.cni`). */
export interface LinkerdCniOptions {
  /**
   * Namespace of the CNI DaemonSet (labelled `pod-security.kubernetes.io/enforce: privileged`, as `linkerd install-cni` does).
   * @default "linkerd-cni"
   */
  readonly namespace?: string;
  /**
   * Any other linkerd2-cni values (e.g. `destCNINetDir`, `destCNIBinDir` for k3s), deep-merged last.
   * @default - none
   */
  readonly additionalValues?: { [key: string]: any };
}

/** What the admission webhooks (proxy injector, sp-validator, policy validator) do when their controller is down. */
export enum WebhookFailurePolicy {
  /** Admit the object unchecked (the chart default): policy resources are then not validated and pods not injected. */
  IGNORE = 'Ignore',
  /** Refuse the request (the HA profile): nothing unvalidated or uninjected gets in, but an outage blocks applies. */
  FAIL = 'Fail',
}

/** Whether the proxy logs HTTP headers (`proxy.logHTTPHeaders`). */
export enum ProxyLogHttpHeaders {
  /** Never (the chart default). */
  OFF = 'off',
  /** Log headers, including credentials and tokens: debugging only. */
  INSECURE = 'insecure',
}

/** Requests and limits for every injected proxy (`proxy.resources`). Kubernetes quantities, e.g. `100m`, `64Mi`. */
export interface ProxyResources {
  /**
   * CPU request.
   * @default - none (the HA profile: 100m)
   */
  readonly cpuRequest?: string;
  /**
   * CPU limit.
   * @default - none
   */
  readonly cpuLimit?: string;
  /**
   * Memory request.
   * @default - none (the HA profile: 20Mi)
   */
  readonly memoryRequest?: string;
  /**
   * Memory limit.
   * @default - none (the HA profile: 250Mi)
   */
  readonly memoryLimit?: string;
}

/** Cluster-wide proxy settings (the `proxy.*` chart values). */
export interface LinkerdProxyOptions {
  /**
   * What the proxy allows on ports no Server selects (`proxy.defaultInboundPolicy`).
   * @default DefaultInboundPolicy.ALL_UNAUTHENTICATED (the chart default)
   */
  readonly defaultInboundPolicy?: DefaultInboundPolicy;
  /**
   * Run proxies as native sidecars (`proxy.nativeSidecar`; new default in 2.20).
   * @default true
   */
  readonly nativeSidecar?: boolean;
  /**
   * Ports proxied without protocol detection (`proxy.opaquePorts`).
   * @default [25, 587, 3306, 4444, 5432, 6379, 9300, 11211] (the chart default)
   */
  readonly opaquePorts?: number[];
  /**
   * Proxy requests and limits; given fields override the HA profile's.
   * @default - none, or the HA profile's with `highAvailability`
   */
  readonly resources?: ProxyResources;
  /**
   * Whether proxies log HTTP headers.
   * @default ProxyLogHttpHeaders.OFF
   */
  readonly logHttpHeaders?: ProxyLogHttpHeaders;
}

/**
 * What to install: the pinned release and the values that matter. Shared by the cdk8s `LinkerdControlPlane` and the
 * CDKTF entry point, so every delivery form gets the same values.
 *
 * Precedence, lowest first: the chart's defaults for the typed options below → the HA profile (with
 * `highAvailability`) → typed options you set → the identity's values → `additionalValues`.
 */
export interface LinkerdInstallOptions {
  /**
   * The Linkerd release (chart versions, images, supported cluster versions).
   * @default LinkerdVersion.V2_20
   */
  readonly version?: LinkerdVersion;
  /**
   * Namespace of the control plane.
   * @default "linkerd"
   */
  readonly namespace?: string;
  /**
   * The identity trust domain.
   * @default "cluster.local"
   */
  readonly trustDomain?: string;
  /**
   * Kubernetes version of the target cluster (e.g. `1.31`, `v1.32.4`); refused when below the chart's minimum.
   * @default - the release's minimum ("1.31" for 2.20)
   */
  readonly kubernetesVersion?: string;
  /**
   * Gateway API bundle version the cluster runs (Linkerd does not install it); refused outside the supported range.
   * @default "v1.2.1"
   */
  readonly gatewayApiVersion?: string;
  /**
   * Apply the chart's HA profile (values-ha.yaml): 3 replicas, PDBs, required pod anti-affinity (so at least 3
   * nodes), resources, and webhooks that fail closed.
   * @default false
   */
  readonly highAvailability?: boolean;
  /**
   * Replicas of each control-plane controller (`controllerReplicas`).
   * @default 1, or 3 with `highAvailability`
   */
  readonly controllerReplicas?: number;
  /**
   * What the admission webhooks do when their controller is unavailable.
   * @default WebhookFailurePolicy.IGNORE, or WebhookFailurePolicy.FAIL with `highAvailability`
   */
  readonly webhookFailurePolicy?: WebhookFailurePolicy;
  /**
   * Proxy settings.
   * @default - the chart's
   */
  readonly proxy?: LinkerdProxyOptions;
  /**
   * Use the linkerd2-cni plugin instead of proxy-init (`cniEnabled`); the CNI chart must be installed first. Leave it
   * unset with `cni`: it then follows `cni` (setting it to false next to `cni` is refused).
   * @default false, or true with `cni`
   */
  readonly cniEnabled?: boolean;
  /**
   * Install the linkerd2-cni chart (same pinned version, same delivery form) before the control plane, and set
   * `cniEnabled: true` to match. Meshed pods then need no NET_ADMIN/NET_RAW, so they pass Pod Security `baseline`
   * and `restricted`.
   * @default - no CNI chart is installed
   */
  readonly cni?: LinkerdCniOptions;
  /**
   * Where every image of every chart comes from: `ImageDistribution.mirror('registry.example/linkerd', { digests })`
   * re-homes the control plane, proxy (and proxy-init, which runs from the proxy image), CNI and extension images and
   * pins them by digest.
   * @default ImageDistribution.upstream() (the charts' own registries and tags)
   */
  readonly images?: ImageDistribution;
  /**
   * How controller replicas spread over zones. The chart's HA profile only prefers distinct zones; REQUIRED adds
   * topologySpreadConstraints on topology.kubernetes.io/zone after rendering (Helm in cdk8s and Flux can; an Argo CD
   * Helm source cannot, so REQUIRED is refused there).
   * @default - with `highAvailability`: ZoneSpread.REQUIRED for Helm and Flux, ZoneSpread.PREFERRED for Argo CD and
   * Terraform; otherwise ZoneSpread.NONE
   */
  readonly zoneSpread?: ZoneSpread;
  /**
   * The cluster's pod and service CIDRs (`clusterNetworks`).
   * @default ["10.0.0.0/8", "100.64.0.0/10", "172.16.0.0/12", "192.168.0.0/16", "fd00::/8"] (the chart default)
   */
  readonly clusterNetworks?: string[];
  /**
   * Any other linkerd-control-plane values, deep-merged last (maps merge, lists and scalars replace, null removes a
   * key), so they win over every typed option and the identity. Image overrides must stay pinned.
   * @default - none
   */
  readonly additionalValues?: { [key: string]: any };
  /**
   * Any other linkerd-crds values, deep-merged last over `{ installGatewayAPI: false }`.
   * @default - none
   */
  readonly additionalCrdsValues?: { [key: string]: any };
}
