/**
 * Delivery (b): two Argo CD Applications (argoproj.io/v1alpha1) installing the pinned charts. Sync waves order them
 * when a parent ("app of apps") Application syncs this output: CRDs in wave 0, the control plane in wave 1.
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { DeliveryForm } from './form';
import { DeliveredCharts, DeliverySteps, waitForControlPlane, waitForCrds } from './steps';
import { copyValues, ResolvedInstall } from '../install/values';
import { validateLabelName } from '../../core/names';
import { MeshChecks } from '../../checks/mesh-checks';

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
  readonly chart: string;
  readonly wave: string;
  readonly values: Record<string, any>;
  readonly syncOptions: string[];
  readonly ignoreDifferences?: KubeObject[];
}

function application(install: ResolvedInstall, options: ArgoCdDeliveryOptions, app: ApplicationSpec): KubeObject {
  const automated = options.automatedSync ?? true;
  return {
    apiVersion: ARGO_APPLICATION_API_VERSION,
    kind: 'Application',
    metadata: {
      name: app.name,
      namespace: options.argoCdNamespace ?? 'argocd',
      annotations: { [SYNC_WAVE_ANNOTATION]: app.wave },
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
      destination: { server: options.destinationServer ?? 'https://kubernetes.default.svc', namespace: install.namespace },
      syncPolicy: {
        ...(automated ? { automated: { prune: true, selfHeal: true } } : {}),
        syncOptions: app.syncOptions,
      },
      ...(app.ignoreDifferences ? { ignoreDifferences: app.ignoreDifferences } : {}),
    },
  };
}

/** The two Applications, as plain manifests. */
export function argoCdApplications(install: ResolvedInstall, options: ArgoCdDeliveryOptions = {}): { crds: KubeObject; controlPlane: KubeObject } {
  const ignoreCerts = options.ignoreGeneratedWebhookCertificates ?? true;
  return {
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
  const apps = argoCdApplications(install, options);
  const crds = new ApiObject(scope, 'CrdsApplication', apps.crds as any);
  const controlPlane = new ApiObject(scope, 'ControlPlaneApplication', apps.controlPlane as any);
  controlPlane.addDependency(crds);
  if (install.writesPrivateKey) {
    MeshChecks.suppress(controlPlane, 'LKD-CERT-005', 'the identity was created with writePrivateKey: true, so the issuer key is in these values by choice');
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
        `argocd app delete ${appName(options, install.crdsReleaseName)} --cascade --yes --wait`,
        'kubectl delete namespace "$NS" --ignore-not-found',
      ],
    }),
  };
}
