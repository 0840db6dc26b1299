/**
 * Delivery (b): two Argo CD Applications (argoproj.io/v1alpha1) installing the pinned charts. Sync waves order them
 * when a parent ("app of apps") Application syncs this output: CRDs in wave 0, the control plane in wave 1.
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { DeliveryForm } from './form';
import { ChartRelease, ReleaseStage, releaseWave } from './releases';
import { DeliveredCharts, DeliverySteps, waitForControlPlane, waitForCrds } from './steps';
import { suppressOn } from '../../checks/register';
import { check } from '../../core/errors';
import { IMAGE_DIGESTS_ANNOTATION } from '../../core/image-values';
import { validateLabelName } from '../../core/names';
import { VersionRule } from '../../core/versions';
import { ZoneSpread } from '../install/fault-domains';
import { copyValues, ResolvedInstall } from '../install/values';

/** A rendered Kubernetes object. */
type KubeObject = Record<string, any>;

/** Options for Argo CD Applications. */
export interface ArgoCdDeliveryOptions {
  /**
   * Namespace Argo CD watches for Applications.
   * @default "argocd"
   */
  readonly argoCdNamespace?: string;
  /**
   * The Argo CD project.
   * @default "default"
   */
  readonly project?: string;
  /**
   * The destination cluster's API server.
   * @default "https://kubernetes.default.svc" (the cluster Argo CD runs in)
   */
  readonly destinationServer?: string;
  /**
   * Sync automatically, pruning and self-healing; otherwise every sync is manual (`argocd app sync`).
   * @default true
   */
  readonly automatedSync?: boolean;
  /**
   * Ignore the webhook certificates the chart generates on every render (the webhook caBundles and the three
   * `*-k8s-tls` Secrets), so Argo CD neither reports the control plane OutOfSync forever nor rotates them on every sync.
   * @default true
   */
  readonly ignoreGeneratedWebhookCertificates?: boolean;
}

export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';
export const ARGO_APPLICATION_API_VERSION = 'argoproj.io/v1alpha1';

const WEBHOOK_SECRETS = ['linkerd-proxy-injector-k8s-tls', 'linkerd-sp-validator-k8s-tls', 'linkerd-policy-validator-k8s-tls'];

/** The generated webhook certificates: without this, every refresh renders new ones and the app never settles. */
function webhookCertificateDifferences(namespace: string): KubeObject[] {
  const caBundles = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'].map((kind) => ({
    group: 'admissionregistration.k8s.io', kind, jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'],
  }));
  const secrets = WEBHOOK_SECRETS.map((name) => ({ group: '', kind: 'Secret', name, namespace, jsonPointers: ['/data'] }));
  return [...caBundles, ...secrets];
}

interface ApplicationSpec {
  readonly name: string;
  /** Destination namespace; the control plane's by default. */
  readonly namespace?: string;
  readonly chart: string;
  readonly wave: string;
  readonly values: Record<string, any>;
  readonly syncOptions: string[];
  readonly ignoreDifferences?: KubeObject[];
}

function application(install: ResolvedInstall, options: ArgoCdDeliveryOptions, app: ApplicationSpec): KubeObject {
  const automated = options.automatedSync ?? true;
  const digests = install.images.requireDigests ? { [IMAGE_DIGESTS_ANNOTATION]: 'required' } : {};
  return {
    apiVersion: ARGO_APPLICATION_API_VERSION,
    kind: 'Application',
    metadata: {
      name: app.name,
      namespace: options.argoCdNamespace ?? 'argocd',
      annotations: { [SYNC_WAVE_ANNOTATION]: app.wave, ...digests },
      labels: { 'app.kubernetes.io/part-of': 'linkerd' },
    },
    spec: {
      project: options.project ?? 'default',
      source: {
        repoURL: install.version.helmRepository,
        chart: app.chart,
        targetRevision: install.version.chartVersion,
        helm: { releaseName: app.name, valuesObject: copyValues(app.values) },
      },
      destination: { server: options.destinationServer ?? 'https://kubernetes.default.svc', namespace: app.namespace ?? install.namespace },
      syncPolicy: {
        ...(automated ? { automated: { prune: true, selfHeal: true } } : {}),
        syncOptions: app.syncOptions,
      },
      ...(app.ignoreDifferences ? { ignoreDifferences: app.ignoreDifferences } : {}),
    },
  };
}

/** An Application for a chart beside the core: wave 0 (with the CRDs) before the control plane, wave 2 after it. */
export function argoCdReleaseApplication(install: ResolvedInstall, options: ArgoCdDeliveryOptions, release: ChartRelease): KubeObject {
  return application(install, options, {
    name: release.releaseName,
    namespace: release.namespace,
    chart: release.chart,
    wave: releaseWave(release.stage),
    values: release.values,
    syncOptions: ['PruneLast=true'],
  });
}

export function deliverReleaseWithArgoCd(scope: Construct, install: ResolvedInstall, options: ArgoCdDeliveryOptions,
  release: ChartRelease): Construct {
  return new ApiObject(scope, `${release.id}Application`, argoCdReleaseApplication(install, options, release) as any);
}

/** The Applications of the core (CRDs, the CNI when installed, control plane), as plain manifests. */
export function argoCdApplications(install: ResolvedInstall, options: ArgoCdDeliveryOptions = {}):
{ crds: KubeObject; controlPlane: KubeObject; cni?: KubeObject } {
  const ignoreCerts = options.ignoreGeneratedWebhookCertificates ?? true;
  return {
    cni: install.cni ? argoCdReleaseApplication(install, options, {
      id: 'Cni',
      chart: install.cni.chart,
      releaseName: install.cni.releaseName,
      namespace: install.cni.namespace,
      values: install.cni.values,
      stage: ReleaseStage.BEFORE_CONTROL_PLANE,
      selector: 'linkerd.io/cni-resource=true',
    }) : undefined,
    crds: application(install, options, {
      name: install.crdsReleaseName,
      chart: install.version.crdsChart,
      wave: '0',
      values: install.crdsValues,
      // The largest Linkerd CRD is beyond the 256 KiB last-applied annotation that client-side apply writes.
      syncOptions: ['ServerSideApply=true', 'PruneLast=true'],
    }),
    controlPlane: application(install, options, {
      name: install.controlPlaneReleaseName,
      chart: install.version.controlPlaneChart,
      wave: '1',
      values: install.controlPlaneValues,
      syncOptions: ignoreCerts ? ['PruneLast=true', 'RespectIgnoreDifferences=true'] : ['PruneLast=true'],
      ignoreDifferences: ignoreCerts ? webhookCertificateDifferences(install.namespace) : undefined,
    }),
  };
}

/** Creates the Applications; the control plane's depends on the CRDs' so it follows it in the output too. */
export function deliverWithArgoCd(scope: Construct, install: ResolvedInstall, options: ArgoCdDeliveryOptions): DeliveredCharts {
  validateLabelName(scope, options.argoCdNamespace ?? 'argocd', 'argoCdNamespace');
  check(install.zoneSpread !== ZoneSpread.REQUIRED, scope, VersionRule.HA,
    'zoneSpread REQUIRED needs topologySpreadConstraints the chart does not render, and an Argo CD Helm source cannot post-render them.',
    'Use ZoneSpread.PREFERRED (the chart\'s zone anti-affinity) with Argo CD, or deliver with LinkerdDelivery.flux() or LinkerdDelivery.helm().');
  const apps = argoCdApplications(install, options);
  const crds = new ApiObject(scope, 'CrdsApplication', apps.crds as any);
  const cni = apps.cni ? new ApiObject(scope, 'CniApplication', apps.cni as any) : undefined;
  const controlPlane = new ApiObject(scope, 'ControlPlaneApplication', apps.controlPlane as any);
  controlPlane.addDependency(crds);
  if (cni) controlPlane.addDependency(cni);
  if (install.writesPrivateKey) {
    suppressOn(controlPlane, 'LKD-CERT-005', 'the identity was created with writePrivateKey: true, so the issuer key is in these values by choice');
  }
  return { crds, controlPlane };
}

/** `argocd` CLI name of an Application: `<namespace>/<name>` outside Argo CD's own namespace. */
function appName(options: ArgoCdDeliveryOptions, name: string): string {
  const ns = options.argoCdNamespace ?? 'argocd';
  return ns === 'argocd' ? name : `${ns}/${name}`;
}

export function argoCdSteps(options: ArgoCdDeliveryOptions): DeliverySteps {
  const automated = options.automatedSync ?? true;
  const syncIfManual = (name: string) => (automated ? [] : [`argocd app sync ${name} --timeout 600`]);
  return {
    form: DeliveryForm.ARGO_CD,
    title: 'Argo CD Applications',
    variables: (install) => [`NS=${install.namespace}`, 'PARENT_APP=<the Argo CD Application that syncs this cdk8s output>'],
    publish: () => ({
      text: 'Change the version in code, synthesize, and push the output where the parent Application reads it. Sync waves order '
        + 'the two Applications only inside a parent sync; for wave 1 to wait until the CRDs are Healthy, Argo CD needs the '
        + 'Application health check in argocd-cm (resource.customizations.health.argoproj.io_Application).',
      commands: ['npx cdk8s synth', 'git add dist && git commit -m "linkerd: upgrade" && git push', 'argocd app sync "$PARENT_APP"'],
    }),
    upgradeCrds: (install) => {
      const name = appName(options, install.crdsReleaseName);
      return {
        text: 'Sync the CRDs Application (server-side apply) and wait until it is Synced and Healthy and the CRDs are served.',
        commands: [...syncIfManual(name), `argocd app wait ${name} --sync --health --timeout 600`, waitForCrds(install)],
      };
    },
    upgradeControlPlane: (install) => {
      const name = appName(options, install.controlPlaneReleaseName);
      return {
        text: 'Only then sync the control-plane Application and wait for it.',
        commands: [...syncIfManual(name), `argocd app wait ${name} --sync --health --timeout 900`, waitForControlPlane()],
      };
    },
    prune: (install) => {
      const name = appName(options, install.controlPlaneReleaseName);
      return {
        text: 'Prune what the new chart no longer renders (PruneLast defers it to the end of the sync) and confirm nothing differs.',
        commands: [`argocd app sync ${name} --prune --timeout 900`, `argocd app diff ${name} && echo "no drift"`],
      };
    },
    removeCore: (install) => ({
      text: 'Stop the parent from re-creating the Applications, delete the control plane with its resources, then the CRDs; '
        + 'then remove LinkerdControlPlane from code and re-enable the parent.',
      commands: [
        'argocd app set "$PARENT_APP" --sync-policy none',
        `argocd app delete ${appName(options, install.controlPlaneReleaseName)} --cascade --yes --wait`,
        ...(install.cni ? [`argocd app delete ${appName(options, install.cni.releaseName)} --cascade --yes --wait`] : []),
        `argocd app delete ${appName(options, install.crdsReleaseName)} --cascade --yes --wait`,
        'kubectl delete namespace "$NS" --ignore-not-found',
      ],
    }),
    removeRelease: (_install, release) => [`argocd app delete ${appName(options, release.releaseName)} --cascade --yes --wait`,
      `kubectl delete namespace ${release.namespace} --ignore-not-found`],
  };
}
