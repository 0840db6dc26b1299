/**
 * Delivery (c): a Flux HelmRepository (source.toolkit.fluxcd.io/v1) and two HelmReleases (helm.toolkit.fluxcd.io/v2)
 * with exact chart versions; the control-plane release `dependsOn` the CRDs release, so helm-controller installs and
 * upgrades it only after the CRDs release is Ready.
 */
import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { DeliveryForm } from './form';
import { ChartRelease, ReleaseStage } from './releases';
import { DeliveredCharts, DeliverySteps, waitForControlPlane, waitForCrds } from './steps';
import { suppressOn } from '../../checks/register';
import { InputRule, check } from '../../core/errors';
import { IMAGE_DIGESTS_ANNOTATION } from '../../core/image-values';
import { validateLabelName, validateObjectName } from '../../core/names';
import { ZoneSpread, effectiveZoneSpread, fluxZoneSpreadPostRenderers } from '../install/fault-domains';
import { copyValues, ResolvedInstall } from '../install/values';

/** A rendered Kubernetes object. */
type KubeObject = Record<string, any>;

/** Options for Flux. */
export interface FluxDeliveryOptions {
  /**
   * Namespace of the HelmRepository and the HelmReleases.
   * @default "flux-system"
   */
  readonly fluxNamespace?: string;
  /**
   * Name of the HelmRepository.
   * @default "linkerd"
   */
  readonly repositoryName?: string;
  /**
   * How often Flux reconciles the releases and refreshes the repository index.
   * @default Duration.minutes(10)
   */
  readonly interval?: Duration;
  /**
   * Values helm-controller reads from Secrets (or ConfigMaps) in the cluster at reconcile time, so private values never
   * pass through Git: e.g. `{ release: 'linkerd-control-plane', name: 'linkerd-issuer-values', valuesKey: 'values.yaml' }`
   * for a Secret that External Secrets or SOPS creates.
   * @default - none
   */
  readonly valuesFrom?: FluxValuesReference[];
}

/** What a Flux `valuesFrom` entry reads. */
export enum FluxValuesKind {
  SECRET = 'Secret',
  CONFIG_MAP = 'ConfigMap',
}

/** One `valuesFrom` entry of a HelmRelease (read from the HelmRelease's namespace at reconcile time). */
export interface FluxValuesReference {
  /** The release that reads it: `linkerd-control-plane`, `linkerd-crds`, `linkerd2-cni`, `linkerd-viz`. */
  readonly release: string;
  /** Name of the Secret or ConfigMap. */
  readonly name: string;
  /**
   * Secret or ConfigMap.
   * @default FluxValuesKind.SECRET
   */
  readonly kind?: FluxValuesKind;
  /**
   * The data key holding the values.
   * @default "values.yaml"
   */
  readonly valuesKey?: string;
  /**
   * Put the key's text at this values path instead of merging it as YAML (e.g. `identity.issuer.tls.keyPEM`).
   * @default - merged as YAML
   */
  readonly targetPath?: string;
  /**
   * Reconcile even when the Secret is missing.
   * @default false
   */
  readonly optional?: boolean;
}

export const HELM_REPOSITORY_API_VERSION = 'source.toolkit.fluxcd.io/v1';
export const HELM_RELEASE_API_VERSION = 'helm.toolkit.fluxcd.io/v2';

/** Flux intervals are Go durations; whole minutes or seconds keep them readable. */
export function fluxInterval(scope: Construct, interval: Duration | undefined): string {
  if (interval === undefined) return '10m';
  check(interval instanceof Duration, scope, InputRule.DURATION, 'interval is not a Duration.', 'Pass e.g. Duration.minutes(10).');
  const seconds = interval.toSeconds({ integral: false });
  check(Number.isInteger(seconds) && seconds >= 1, scope, InputRule.DURATION,
    `interval ${interval.toHumanString()} is not a whole number of seconds of at least 1.`, 'Pass e.g. Duration.minutes(10).');
  return seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`;
}

interface ReleaseSpec {
  readonly name: string;
  readonly chart: string;
  readonly values: Record<string, any>;
  readonly dependsOn?: string[];
  /** Target namespace; the control plane's by default. */
  readonly namespace?: string;
  readonly postRenderers?: Array<Record<string, any>>;
}

function helmRelease(install: ResolvedInstall, fluxNamespace: string, repositoryName: string, interval: string, release: ReleaseSpec,
  options: FluxDeliveryOptions): KubeObject {
  const annotations = install.images.requireDigests ? { [IMAGE_DIGESTS_ANNOTATION]: 'required' } : undefined;
  const valuesFrom = (options.valuesFrom ?? []).filter((ref) => ref.release === release.name).map(valuesReference);
  return {
    apiVersion: HELM_RELEASE_API_VERSION,
    kind: 'HelmRelease',
    metadata: { name: release.name, namespace: fluxNamespace, labels: { 'app.kubernetes.io/part-of': 'linkerd' }, ...(annotations ? { annotations } : {}) },
    spec: {
      interval,
      releaseName: release.name,
      targetNamespace: release.namespace ?? install.namespace,
      chart: {
        spec: {
          chart: release.chart,
          version: install.version.chartVersion,
          sourceRef: { kind: 'HelmRepository', name: repositoryName, namespace: fluxNamespace },
        },
      },
      ...(release.dependsOn ? { dependsOn: release.dependsOn.map((name) => ({ name, namespace: fluxNamespace })) } : {}),
      ...(release.postRenderers ? { postRenderers: release.postRenderers } : {}),
      ...(valuesFrom.length > 0 ? { valuesFrom } : {}),
      values: copyValues(release.values),
    },
  };
}

export interface FluxObjects {
  readonly repository: KubeObject;
  readonly crds: KubeObject;
  readonly controlPlane: KubeObject;
  readonly cni?: KubeObject;
}

/** The HelmRepository and the two HelmReleases, as plain manifests. */
export function fluxObjects(scope: Construct, install: ResolvedInstall, options: FluxDeliveryOptions = {}): FluxObjects {
  const fluxNamespace = validateLabelName(scope, options.fluxNamespace ?? 'flux-system', 'fluxNamespace');
  const repositoryName = validateObjectName(scope, options.repositoryName ?? 'linkerd', 'repositoryName');
  const interval = fluxInterval(scope, options.interval);
  for (const ref of options.valuesFrom ?? []) checkValuesReference(scope, ref);
  const release = (spec: ReleaseSpec) => helmRelease(install, fluxNamespace, repositoryName, interval, spec, options);
  const zoneSpread = effectiveZoneSpread(install.zoneSpread, install.highAvailability, true);
  return {
    repository: {
      apiVersion: HELM_REPOSITORY_API_VERSION,
      kind: 'HelmRepository',
      metadata: { name: repositoryName, namespace: fluxNamespace, labels: { 'app.kubernetes.io/part-of': 'linkerd' } },
      spec: { url: install.version.helmRepository, interval },
    },
    crds: release({ name: install.crdsReleaseName, chart: install.version.crdsChart, values: install.crdsValues }),
    controlPlane: release({
      name: install.controlPlaneReleaseName,
      chart: install.version.controlPlaneChart,
      values: install.controlPlaneValues,
      dependsOn: [install.crdsReleaseName, ...(install.cni ? [install.cni.releaseName] : [])],
      postRenderers: zoneSpread === ZoneSpread.REQUIRED ? fluxZoneSpreadPostRenderers() : undefined,
    }),
    cni: install.cni
      ? release({ name: install.cni.releaseName, chart: install.cni.chart, values: install.cni.values, namespace: install.cni.namespace })
      : undefined,
  };
}

/** A HelmRelease for a chart beside the core: after the control plane for extensions, before it for the CNI. */
export function fluxReleaseObject(scope: Construct, install: ResolvedInstall, options: FluxDeliveryOptions, chart: ChartRelease): KubeObject {
  const fluxNamespace = validateLabelName(scope, options.fluxNamespace ?? 'flux-system', 'fluxNamespace');
  const repositoryName = validateObjectName(scope, options.repositoryName ?? 'linkerd', 'repositoryName');
  return helmRelease(install, fluxNamespace, repositoryName, fluxInterval(scope, options.interval), {
    name: chart.releaseName,
    chart: chart.chart,
    values: chart.values,
    namespace: chart.namespace,
    dependsOn: chart.stage === ReleaseStage.AFTER_CONTROL_PLANE ? [install.controlPlaneReleaseName] : undefined,
  }, options);
}

export function deliverReleaseWithFlux(scope: Construct, install: ResolvedInstall, options: FluxDeliveryOptions, chart: ChartRelease): Construct {
  return new ApiObject(scope, `${chart.id}Release`, fluxReleaseObject(scope, install, options, chart) as any);
}

function valuesReference(ref: FluxValuesReference): KubeObject {
  return {
    kind: ref.kind ?? FluxValuesKind.SECRET,
    name: ref.name,
    ...(ref.valuesKey ? { valuesKey: ref.valuesKey } : {}),
    ...(ref.targetPath ? { targetPath: ref.targetPath } : {}),
    ...(ref.optional !== undefined ? { optional: ref.optional } : {}),
  };
}

function checkValuesReference(scope: Construct, ref: FluxValuesReference): void {
  check(typeof ref === 'object' && ref !== null, scope, InputRule.REQUIRED, 'a valuesFrom entry is not an object.', 'Pass { release, name, valuesKey }.');
  validateObjectName(scope, ref.name, 'valuesFrom name');
  validateObjectName(scope, ref.release, 'valuesFrom release');
  check(ref.kind === undefined || Object.values(FluxValuesKind).includes(ref.kind), scope, InputRule.RANGE,
    `valuesFrom kind ${JSON.stringify(ref.kind)} is not Secret or ConfigMap.`, 'Use FluxValuesKind.SECRET or FluxValuesKind.CONFIG_MAP.');
}

export function deliverWithFlux(scope: Construct, install: ResolvedInstall, options: FluxDeliveryOptions): DeliveredCharts {
  const objects = fluxObjects(scope, install, options);
  const repository = new ApiObject(scope, 'HelmRepository', objects.repository as any);
  const crds = new ApiObject(scope, 'CrdsRelease', objects.crds as any);
  const cni = objects.cni ? new ApiObject(scope, 'CniRelease', objects.cni as any) : undefined;
  const controlPlane = new ApiObject(scope, 'ControlPlaneRelease', objects.controlPlane as any);
  crds.addDependency(repository);
  controlPlane.addDependency(crds);
  if (cni) {
    cni.addDependency(repository);
    controlPlane.addDependency(cni);
  }
  if (install.writesPrivateKey) {
    suppressOn(controlPlane, 'LKD-CERT-005', 'the identity was created with writePrivateKey: true, so the issuer key is in these values by choice');
  }
  return { crds, controlPlane };
}

export function fluxSteps(options: FluxDeliveryOptions): DeliverySteps {
  const fluxNs = options.fluxNamespace ?? 'flux-system';
  const ready = (name: string, timeout: string) => `kubectl -n ${fluxNs} wait helmrelease/${name} --for=condition=Ready --timeout=${timeout}`;
  return {
    form: DeliveryForm.FLUX,
    title: 'Flux HelmReleases',
    variables: (install) => [`NS=${install.namespace}`, 'KUSTOMIZATION=<the Flux Kustomization that applies this cdk8s output>'],
    publish: () => ({
      text: 'Change the version in code, synthesize, push, and let Flux apply the new HelmRelease specs.',
      commands: ['npx cdk8s synth', 'git add dist && git commit -m "linkerd: upgrade" && git push',
        `flux reconcile kustomization "$KUSTOMIZATION" -n ${fluxNs} --with-source`],
    }),
    upgradeCrds: (install) => ({
      text: 'Reconcile the CRDs release and wait until it is Ready and the CRDs are served.',
      commands: [`flux reconcile helmrelease ${install.crdsReleaseName} -n ${fluxNs} --with-source`, ready(install.crdsReleaseName, '10m'), waitForCrds(install)],
    }),
    upgradeControlPlane: (install) => ({
      text: 'Reconcile the control-plane release (dependsOn holds it until the CRDs release is Ready) and wait for it.',
      commands: [`flux reconcile helmrelease ${install.controlPlaneReleaseName} -n ${fluxNs}`, ready(install.controlPlaneReleaseName, '15m'), waitForControlPlane()],
    }),
    prune: (install) => ({
      text: 'helm-controller upgrades with Helm, which deletes what the new chart no longer renders; confirm the release history '
        + '(helm-controller keeps it in the HelmRelease\'s namespace: spec.storageNamespace is unset, whatever targetNamespace says).',
      commands: [`helm -n ${fluxNs} history ${install.controlPlaneReleaseName} --max 3`, `flux get helmreleases -n ${fluxNs}`],
    }),
    removeCore: (install) => ({
      text: 'Suspend the Kustomization so nothing is re-created, delete the control-plane release (helm-controller uninstalls it), '
        + 'then the CRDs release and the repository; then remove LinkerdControlPlane from code and resume.',
      commands: [
        `flux suspend kustomization "$KUSTOMIZATION" -n ${fluxNs}`,
        `kubectl -n ${fluxNs} delete helmrelease ${install.controlPlaneReleaseName} --wait`,
        ...(install.cni ? [`kubectl -n ${fluxNs} delete helmrelease ${install.cni.releaseName} --wait`] : []),
        `kubectl -n ${fluxNs} delete helmrelease ${install.crdsReleaseName} --wait`,
        `kubectl -n ${fluxNs} delete helmrepository ${options.repositoryName ?? 'linkerd'} --ignore-not-found`,
        'kubectl delete namespace "$NS" --ignore-not-found',
      ],
    }),
    removeRelease: (_install, release) => [`kubectl -n ${fluxNs} delete helmrelease ${release.releaseName} --wait`,
      `kubectl delete namespace ${release.namespace} --ignore-not-found`],
  };
}
