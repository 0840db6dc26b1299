/**
 * The linkerd-multicluster extension, pinned to the control plane's release (chart `linkerd-multicluster`, same version
 * and repository as the core charts), delivered by the same form (Helm, Argo CD, Flux) after the core. In 2.20 the
 * chart runs one service-mirror controller per Link (`controllers`), so the Links are declared here.
 */
import { Construct } from 'constructs';
import { FleetCluster } from './fleet';
import { MulticlusterLink, MulticlusterLinkOptions } from './link';
import { MODES, MulticlusterMode } from './mode';
import { registerChecks } from '../checks/register';
import { LinkerdDelivery } from '../control-plane/delivery/delivery';
import { InputRule, check } from '../core/errors';
import { cloneValues, mergeLayers, sortKeys, valueAt } from '../core/helm-values';
import { MULTICLUSTER_CHART, MULTICLUSTER_NAMESPACE } from '../core/multicluster';
import { isDnsSubdomain, validateLabelName } from '../core/names';
import { requireStruct } from '../core/runtime-checks';
import { LinkerdVersion, VersionRule, imageTagProblem } from '../core/versions';
import { isRecord as isPlainObject } from '../util/json';

/** The chart's image tags (empty or unset = the chart's own pinned linkerdVersion). */
const IMAGE_VERSION_KEYS = ['localServiceMirror.image.version', 'controllerDefaults.image.version', 'namespaceMetadata.image.tag'];

/** Props for LinkerdMulticluster. */
export interface LinkerdMulticlusterProps {
  /** How the chart reaches the cluster: the same form as the control plane's. */
  readonly delivery: LinkerdDelivery;
  /**
   * The Linkerd release; the extension chart has the core charts' version.
   * @default LinkerdVersion.V2_20 (linkerd-multicluster 2026.6.3)
   */
  readonly version?: LinkerdVersion;
  /**
   * Gateway or flat network (pod to pod). FLAT_NETWORK installs no gateway.
   * @default MulticlusterMode.GATEWAY
   */
  readonly mode?: MulticlusterMode;
  /**
   * Links from this cluster to others; each gets a Link object and a service-mirror controller.
   * @default - none (the cluster only exports)
   */
  readonly links?: MulticlusterLinkOptions[];
  /**
   * Namespace of the extension.
   * @default "linkerd-multicluster"
   */
  readonly namespace?: string;
  /**
   * Namespace of the control plane (`linkerdNamespace`).
   * @default - the FleetCluster's control-plane namespace, or "linkerd"
   */
  readonly controlPlaneNamespace?: string;
  /**
   * The cluster's identity trust domain (`identityTrustDomain`); must equal the control plane's.
   * @default - the FleetCluster's trust domain, or "cluster.local"
   */
  readonly trustDomain?: string;
  /**
   * Kubernetes version of the cluster (for `helm template --kube-version`).
   * @default - the release's minimum
   */
  readonly kubernetesVersion?: string;
  /**
   * Any other linkerd-multicluster values, deep-merged last. Image overrides must stay pinned.
   * @default - none
   */
  readonly additionalValues?: { [key: string]: any };
}

/** The pinned linkerd-multicluster extension of one cluster, with its Links. */
export class LinkerdMulticluster extends Construct {
  /** The pinned release. */
  public readonly version: LinkerdVersion;
  /** Gateway or flat network. */
  public readonly mode: MulticlusterMode;
  /** Namespace of the extension. */
  public readonly namespace: string;
  /** The Links of this cluster. */
  public readonly links: MulticlusterLink[];
  private readonly resolved: Record<string, any>;

  constructor(scope: Construct, id: string, props: LinkerdMulticlusterProps) {
    super(scope, id);
    registerChecks(this);
    requireStruct(this, props, 'props');
    check(props.delivery instanceof LinkerdDelivery, this, InputRule.REQUIRED, 'delivery is required.',
      'Pass the control plane\'s form: LinkerdDelivery.argoCd(), .flux() or .helm().');
    this.version = props.version ?? LinkerdVersion.V2_20;
    check(this.version instanceof LinkerdVersion, this, VersionRule.PINNED, 'version is not a LinkerdVersion.', 'Pass LinkerdVersion.V2_20.');
    this.mode = props.mode ?? MulticlusterMode.GATEWAY;
    check(MODES.includes(this.mode), this, InputRule.RANGE, `mode ${JSON.stringify(this.mode)} is not a MulticlusterMode.`, 'Use MulticlusterMode.GATEWAY or FLAT_NETWORK.');
    this.namespace = validateLabelName(this, props.namespace ?? MULTICLUSTER_NAMESPACE, 'namespace');
    // Inside a fleet's cluster the chart must say what that cluster's control plane says.
    const cluster = FleetCluster.clusterOf(this);
    const trustDomain = props.trustDomain ?? cluster?.trustDomain ?? 'cluster.local';
    check(!cluster || trustDomain === cluster.trustDomain, this, InputRule.CONFLICT,
      `trustDomain ${JSON.stringify(trustDomain)} differs from cluster ${cluster?.clusterName}'s trust domain ${JSON.stringify(cluster?.trustDomain)}.`,
      'Drop trustDomain: inside a FleetCluster it defaults to the cluster\'s.');
    check(isDnsSubdomain(trustDomain), this, InputRule.NAME, `trustDomain ${JSON.stringify(trustDomain)} is not a DNS name.`, 'Use e.g. "cluster.local".');
    const controlPlaneNamespace = validateLabelName(this, props.controlPlaneNamespace ?? cluster?.controlPlaneNamespace ?? 'linkerd', 'controlPlaneNamespace');
    this.links = this.createLinks(props.links ?? [], controlPlaneNamespace);
    this.resolved = this.resolveValues(props, trustDomain, controlPlaneNamespace);
    const kubernetesVersion = props.kubernetesVersion ?? this.version.minKubernetesVersion;
    check(this.version.supportsKubernetes(kubernetesVersion), this, VersionRule.KUBERNETES,
      `kubernetesVersion ${JSON.stringify(kubernetesVersion)} is below the chart's minimum ${this.version.minKubernetesVersion}.`,
      `Declare a Kubernetes version of at least ${this.version.minKubernetesVersion}.`);
    const chart = props.delivery._deliverChart(this, {
      chart: MULTICLUSTER_CHART,
      releaseName: MULTICLUSTER_CHART,
      namespace: this.namespace,
      version: this.version,
      kubernetesVersion,
      values: this.resolved,
    });
    // The Links are custom resources of the chart's CRD: they follow the chart.
    for (const link of this.links) link.node.addDependency(chart);
  }

  /** The resolved chart values (keys sorted), exactly as the delivery form passes them. */
  public values(): { [key: string]: any } {
    return cloneValues(this.resolved);
  }

  private createLinks(links: MulticlusterLinkOptions[], controlPlaneNamespace: string): MulticlusterLink[] {
    check(Array.isArray(links), this, InputRule.REQUIRED, 'links is not a list.', 'Pass a list of MulticlusterLinkOptions.');
    const seen = new Set<string>();
    return links.map((options, i) => {
      requireStruct(this, options, `links[${i}]`);
      check(!seen.has(options.targetClusterName), this, InputRule.CONFLICT, `two Links target cluster ${options.targetClusterName}.`, 'Keep one Link per target cluster.');
      seen.add(options.targetClusterName);
      return new MulticlusterLink(this, `Link-${options.targetClusterName}`, {
        ...options, mode: options.mode ?? this.mode, namespace: this.namespace, controlPlaneNamespace,
      });
    });
  }

  private resolveValues(props: LinkerdMulticlusterProps, trustDomain: string, controlPlaneNamespace: string): Record<string, any> {
    check(props.additionalValues === undefined || isPlainObject(props.additionalValues), this, InputRule.REQUIRED,
      'additionalValues is not an object.', 'Pass chart values as an object.');
    const values = mergeLayers({
      gateway: { enabled: this.mode === MulticlusterMode.GATEWAY },
      linkerdNamespace: controlPlaneNamespace,
      identityTrustDomain: trustDomain,
      controllers: this.links.map((l) => ({
        link: { ref: { name: l.targetClusterName } },
        gateway: { enabled: l.mode === MulticlusterMode.GATEWAY },
      })),
    }, props.additionalValues);
    const problems = IMAGE_VERSION_KEYS.flatMap((key) => {
      const version = valueAt(values, key);
      const problem = version === undefined || version === '' ? undefined : imageTagProblem(version);
      return problem ? [`${key}: ${problem}`] : [];
    });
    check(problems.length === 0, this, VersionRule.PINNED, `${problems.join('; ')}.`, 'Pin every image override to an exact tag or digest.');
    return sortKeys(values);
  }
}
