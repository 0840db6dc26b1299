/**
 * The linkerd-viz extension (chart `linkerd-viz`, same pinned version and repository as the core) through the control
 * plane's own delivery form: installed after the control plane (Argo CD wave 2, Flux `dependsOn`, a construct
 * dependency for Helm) and removed before it by the exit runbook.
 */
import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { registerChecks } from '../../checks/register';
import { InputRule, check } from '../../core/errors';
import { mergeLayers, sortKeys } from '../../core/helm-values';
import { imageValueProblems } from '../../core/image-values';
import { validateLabelName } from '../../core/names';
import { VersionRule } from '../../core/versions';
import { isRecord as isPlainObject } from '../../util/json';
import { DeliveryForm } from '../delivery/form';
import { ChartRelease, ReleaseStage } from '../delivery/releases';
import { LinkerdControlPlane } from '../install/control-plane';

export const VIZ_CHART = 'linkerd-viz';
/** The label the viz chart puts on every object it renders. */
export const VIZ_EXTENSION_LABEL = 'linkerd.io/extension';

/** Props for LinkerdViz. */
export interface LinkerdVizProps {
  /** The control plane this extension belongs to (its delivery form, version, images and namespace are used). */
  readonly controlPlane: LinkerdControlPlane;
  /**
   * Namespace of the extension.
   * @default "linkerd-viz"
   */
  readonly namespace?: string;
  /**
   * Apply the chart's HA profile (values-ha.yaml): PDBs, anti-affinity, 3 tap replicas, resources.
   * @default - the control plane's `highAvailability`
   */
  readonly highAvailability?: boolean;
  /**
   * URL of an existing Prometheus to use instead of the chart's (`prometheusUrl`; the chart's Prometheus is then not
   * installed). The checks then need that Prometheus' ServiceAccount (`prometheusServiceAccount`).
   * @default - the chart installs its own Prometheus (ServiceAccount `<namespace>/prometheus`)
   */
  readonly externalPrometheusUrl?: string;
  /**
   * Create the namespace with the labels `linkerd viz install` puts on it.
   * @default true
   */
  readonly createNamespace?: boolean;
  /**
   * Any other linkerd-viz values, deep-merged last.
   * @default - none
   */
  readonly additionalValues?: { [key: string]: any };
}

/** linkerd-viz's values-ha.yaml (2026.6.3), restated; a test compares it key by key with the chart's file. */
export function vizHighAvailabilityValues(): Record<string, any> {
  const resources = () => ({ cpu: { limit: '', request: '100m' }, memory: { limit: '250Mi', request: '50Mi' } });
  return {
    enablePodAntiAffinity: true,
    enablePodDisruptionBudget: true,
    resources: resources(),
    tap: { replicas: 3, resources: resources() },
    dashboard: { resources: resources() },
    prometheus: { resources: { cpu: { limit: '', request: '300m' }, memory: { limit: '8192Mi', request: '300Mi' } } },
  };
}

/** The linkerd-viz extension, delivered like the control plane it extends. */
export class LinkerdViz extends Construct {
  /** Namespace of the extension. */
  public readonly namespace: string;
  /**
   * The ServiceAccount (`namespace/name`) of the Prometheus that scrapes the proxies.
   * @default - unknown with `externalPrometheusUrl`
   */
  public readonly prometheusServiceAccount?: string;
  /** Name of the ClusterRole that lets a subject tap (`linkerd viz tap`): watch on tap.linkerd.io. */
  public readonly tapAdminClusterRole: string;
  /** The chart values, keys sorted. */
  public readonly values: { [key: string]: any };
  /** The delivery object (Argo CD Application, Flux HelmRelease or Helm chart). */
  public readonly release: Construct;

  constructor(scope: Construct, id: string, props: LinkerdVizProps) {
    super(scope, id);
    registerChecks(this);
    check(props.controlPlane instanceof LinkerdControlPlane, this, InputRule.REQUIRED, 'controlPlane is required.',
      'Pass the LinkerdControlPlane this extension belongs to.');
    const cp = props.controlPlane;
    const install = cp._install;
    this.namespace = validateLabelName(this, props.namespace ?? 'linkerd-viz', 'namespace');
    check(props.additionalValues === undefined || isPlainObject(props.additionalValues), this, InputRule.REQUIRED,
      'additionalValues is not an object of chart values.', 'Pass nested values, e.g. { dashboard: { replicas: 2 } }.');
    const external = props.externalPrometheusUrl;
    check(external === undefined || (typeof external === 'string' && /^https?:\/\/\S+$/.test(external)), this, InputRule.RANGE,
      `externalPrometheusUrl ${JSON.stringify(external)} is not an http(s) URL.`, 'Pass e.g. "http://prometheus.monitoring.svc:9090".');
    const ha = props.highAvailability ?? install.highAvailability;
    this.values = sortKeys(mergeLayers(
      { linkerdNamespace: cp.namespace, identityTrustDomain: install.trustDomain },
      ha ? vizHighAvailabilityValues() : undefined,
      external ? { prometheusUrl: external, prometheus: { enabled: false } } : undefined,
      install.images.valuesFor(VIZ_CHART, install.version),
      props.additionalValues,
    ));
    const [first] = imageValueProblems(this.values, VIZ_CHART);
    check(first === undefined, this, VersionRule.PINNED, `${first?.problem}.`, `Leave ${first?.path} unset (the chart version pins it) or set an exact tag.`);
    const ownPrometheus = this.values.prometheus?.enabled !== false;
    this.prometheusServiceAccount = ownPrometheus ? `${this.namespace}/prometheus` : undefined;
    this.tapAdminClusterRole = `linkerd-${this.namespace}-tap-admin`;
    const namespaceObject = (props.createNamespace ?? true) ? this.createNamespace(cp) : undefined;
    this.release = cp._deliverExtension(this, this.releaseSpec());
    if (namespaceObject) this.release.node.addDependency(namespaceObject);
  }

  private releaseSpec(): ChartRelease {
    return {
      id: 'Viz',
      chart: VIZ_CHART,
      releaseName: VIZ_CHART,
      namespace: this.namespace,
      values: this.values,
      stage: ReleaseStage.AFTER_CONTROL_PLANE,
      selector: `${VIZ_EXTENSION_LABEL}=viz`,
    };
  }

  /** The namespace `linkerd viz install` creates: Pod Security `restricted` with the CNI, else `privileged` (linkerd-init). */
  private createNamespace(cp: LinkerdControlPlane): ApiObject {
    const ns = new ApiObject(this, 'Namespace', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: this.namespace,
        labels: { [VIZ_EXTENSION_LABEL]: 'viz', 'pod-security.kubernetes.io/enforce': cp.cniEnabled ? 'restricted' : 'privileged' },
        ...(cp.deliveryForm === DeliveryForm.ARGO_CD ? { annotations: { 'argocd.argoproj.io/sync-wave': '-1' } } : {}),
      },
    });
    if (Chart.of(this).namespace !== undefined) ns.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    return ns;
  }
}
