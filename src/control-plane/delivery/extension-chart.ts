/**
 * One pinned extension chart (linkerd-multicluster, and any other chart from Linkerd's repository) delivered the same
 * way as the control plane it belongs to: a cdk8s `Helm`, an Argo CD Application one sync wave after the control plane,
 * or a Flux HelmRelease that `dependsOn` the control-plane release. The values are the caller's, already resolved.
 */
import { ApiObject, Helm, HelmProps } from 'cdk8s';
import { Construct } from 'constructs';
import { ARGO_APPLICATION_API_VERSION, ArgoCdDeliveryOptions, SYNC_WAVE_ANNOTATION } from './argo-cd';
import { FluxDeliveryOptions, HELM_RELEASE_API_VERSION, fluxInterval } from './flux';
import { HelmDeliveryOptions, kubeVersionFlag } from './helm';
import { cloneValues, sortKeys } from '../../core/helm-values';
import { validateLabelName, validateObjectName } from '../../core/names';
import { LinkerdVersion } from '../../core/versions';
import { RELEASE_NAMES } from '../install/values';

/** An extension chart at the control plane's pinned version. */
export interface ExtensionChartRelease {
  /** Chart name, e.g. `linkerd-multicluster`. */
  readonly chart: string;
  /** Helm release name (and Application / HelmRelease name). */
  readonly releaseName: string;
  /** Namespace the chart installs into. */
  readonly namespace: string;
  /** The release: the extension charts share the core charts' version and repository. */
  readonly version: LinkerdVersion;
  /** Kubernetes version of the cluster, for `helm template --kube-version`. */
  readonly kubernetesVersion: string;
  /** Resolved values. */
  readonly values: Record<string, any>;
}

function values(release: ExtensionChartRelease): Record<string, any> {
  return sortKeys(cloneValues(release.values));
}

/** The props of the `Helm` construct (exported so they can be checked without a helm binary). */
export function extensionHelmProps(release: ExtensionChartRelease, options: HelmDeliveryOptions = {}): HelmProps {
  return {
    chart: release.chart,
    repo: release.version.helmRepository,
    version: release.version.chartVersion,
    releaseName: release.releaseName,
    namespace: release.namespace,
    helmExecutable: options.helmExecutable ?? 'helm',
    helmFlags: ['--kube-version', kubeVersionFlag(release.kubernetesVersion), ...(options.helmFlags ?? [])],
    values: values(release),
  };
}

export function deliverExtensionWithHelm(scope: Construct, release: ExtensionChartRelease, options: HelmDeliveryOptions): Construct {
  return new Helm(scope, 'Chart', extensionHelmProps(release, options));
}

/** The Application, one wave after the control plane's (wave 1), so a parent sync installs it after the core. */
export function extensionApplication(release: ExtensionChartRelease, options: ArgoCdDeliveryOptions = {}): Record<string, any> {
  const automated = options.automatedSync ?? true;
  return {
    apiVersion: ARGO_APPLICATION_API_VERSION,
    kind: 'Application',
    metadata: {
      name: release.releaseName,
      namespace: options.argoCdNamespace ?? 'argocd',
      annotations: { [SYNC_WAVE_ANNOTATION]: '2' },
      labels: { 'app.kubernetes.io/part-of': 'linkerd' },
    },
    spec: {
      project: options.project ?? 'default',
      source: {
        repoURL: release.version.helmRepository,
        chart: release.chart,
        targetRevision: release.version.chartVersion,
        helm: { releaseName: release.releaseName, valuesObject: values(release) },
      },
      destination: { server: options.destinationServer ?? 'https://kubernetes.default.svc', namespace: release.namespace },
      syncPolicy: {
        ...(automated ? { automated: { prune: true, selfHeal: true } } : {}),
        syncOptions: ['CreateNamespace=true', 'PruneLast=true'],
      },
    },
  };
}

export function deliverExtensionWithArgoCd(scope: Construct, release: ExtensionChartRelease, options: ArgoCdDeliveryOptions): Construct {
  validateLabelName(scope, options.argoCdNamespace ?? 'argocd', 'argoCdNamespace');
  return new ApiObject(scope, 'Application', extensionApplication(release, options) as any);
}

/** The HelmRelease; it uses the control plane's HelmRepository and waits for the control-plane release. */
export function extensionHelmRelease(scope: Construct, release: ExtensionChartRelease, options: FluxDeliveryOptions = {}): Record<string, any> {
  const fluxNamespace = validateLabelName(scope, options.fluxNamespace ?? 'flux-system', 'fluxNamespace');
  const repositoryName = validateObjectName(scope, options.repositoryName ?? 'linkerd', 'repositoryName');
  return {
    apiVersion: HELM_RELEASE_API_VERSION,
    kind: 'HelmRelease',
    metadata: { name: release.releaseName, namespace: fluxNamespace, labels: { 'app.kubernetes.io/part-of': 'linkerd' } },
    spec: {
      interval: fluxInterval(scope, options.interval),
      releaseName: release.releaseName,
      targetNamespace: release.namespace,
      install: { createNamespace: true },
      chart: {
        spec: {
          chart: release.chart,
          version: release.version.chartVersion,
          sourceRef: { kind: 'HelmRepository', name: repositoryName, namespace: fluxNamespace },
        },
      },
      dependsOn: [{ name: RELEASE_NAMES.controlPlane, namespace: fluxNamespace }],
      values: values(release),
    },
  };
}

export function deliverExtensionWithFlux(scope: Construct, release: ExtensionChartRelease, options: FluxDeliveryOptions): Construct {
  return new ApiObject(scope, 'HelmRelease', extensionHelmRelease(scope, release, options) as any);
}
