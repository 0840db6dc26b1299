/**
 * Delivery (a): cdk8s renders both charts at synth with `helm template` (the cdk8s `Helm` construct shells out in its
 * constructor), and the output is applied with kubectl. Synth therefore needs the helm binary and the chart
 * repository; the props are built by a pure function so they can be checked without either.
 */
import { ApiObject, Helm, HelmProps, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { DeliveryForm } from './form';
import { ChartRelease } from './releases';
import { DeliveredCharts, DeliverySteps, crdsChartLabel, waitForControlPlane, waitForCrds } from './steps';
import { parseKubernetesVersion } from '../../core/versions';
import { CONTROLLER_DEPLOYMENTS, ZoneSpread, effectiveZoneSpread, zoneSpreadConstraint } from '../install/fault-domains';
import { copyValues, ResolvedInstall } from '../install/values';

/** Options for rendering the charts in cdk8s with the `helm` binary. */
export interface HelmDeliveryOptions {
  /**
   * The helm executable (Helm 3.8 or later, on PATH or as a path).
   * @default "helm"
   */
  readonly helmExecutable?: string;
  /**
   * Extra flags appended to every `helm template` call (after `--kube-version`).
   * @default - none
   */
  readonly helmFlags?: string[];
}

/** The props of the two `Helm` constructs. */
export interface HelmChartProps {
  readonly crds: HelmProps;
  readonly controlPlane: HelmProps;
  /** linkerd2-cni, when installed with the control plane. */
  readonly cni?: HelmProps;
}

/** `v1.31.0` for `--kube-version`, so the chart's kubeVersion check sees the declared cluster, not Helm's built-in default. */
export function kubeVersionFlag(kubernetesVersion: string): string {
  const [major, minor, patch] = parseKubernetesVersion(kubernetesVersion) ?? [0, 0, 0];
  return `v${major}.${minor}.${patch}`;
}

/** The exact props handed to `Helm` for linkerd-crds and linkerd-control-plane. */
export function helmChartProps(install: ResolvedInstall, options: HelmDeliveryOptions = {}): HelmChartProps {
  const common = {
    repo: install.version.helmRepository,
    version: install.version.chartVersion,
    namespace: install.namespace,
    helmExecutable: options.helmExecutable ?? 'helm',
    helmFlags: ['--kube-version', kubeVersionFlag(install.kubernetesVersion), ...(options.helmFlags ?? [])],
  };
  return {
    crds: { ...common, chart: install.version.crdsChart, releaseName: install.crdsReleaseName, values: copyValues(install.crdsValues) },
    controlPlane: {
      ...common,
      chart: install.version.controlPlaneChart,
      releaseName: install.controlPlaneReleaseName,
      values: copyValues(install.controlPlaneValues),
    },
    cni: install.cni ? {
      ...common,
      namespace: install.cni.namespace,
      chart: install.cni.chart,
      releaseName: install.cni.releaseName,
      values: copyValues(install.cni.values),
    } : undefined,
  };
}

/** The props handed to `Helm` for a chart beside the core. */
export function helmReleaseProps(install: ResolvedInstall, options: HelmDeliveryOptions, release: ChartRelease): HelmProps {
  return {
    repo: install.version.helmRepository,
    version: install.version.chartVersion,
    namespace: release.namespace,
    helmExecutable: options.helmExecutable ?? 'helm',
    helmFlags: ['--kube-version', kubeVersionFlag(install.kubernetesVersion), ...(options.helmFlags ?? [])],
    chart: release.chart,
    releaseName: release.releaseName,
    values: copyValues(release.values),
  };
}

/**
 * Adds the zone spread to the rendered controller Deployments: the chart renders no topologySpreadConstraints, so
 * they are patched in after `helm template`, as Flux's post-renderer does. Returns how many Deployments were patched.
 */
export function addZoneSpread(rendered: Construct): number {
  let patched = 0;
  for (const child of rendered.node.findAll()) {
    if (!(child instanceof ApiObject) || child.kind !== 'Deployment') continue;
    const controller = CONTROLLER_DEPLOYMENTS.find((d) => d.name === child.name);
    if (!controller) continue;
    child.addJsonPatch(JsonPatch.add('/spec/template/spec/topologySpreadConstraints', [zoneSpreadConstraint(controller.component)]));
    patched++;
  }
  return patched;
}

/** Creates a `Helm` child; a parameter only so that the wiring can be checked without running helm. */
export type HelmFactory = (scope: Construct, id: string, props: HelmProps) => Construct;

const realHelm: HelmFactory = (scope, id, props) => new Helm(scope, id, props);

/** Two `Helm` children, the control plane depending on the CRDs so every CRD precedes every control-plane object. */
export function deliverWithHelm(scope: Construct, install: ResolvedInstall, options: HelmDeliveryOptions,
  create: HelmFactory = realHelm): DeliveredCharts {
  const props = helmChartProps(install, options);
  const crds = create(scope, 'Crds', props.crds);
  const cni = props.cni ? create(scope, 'Cni', props.cni) : undefined;
  const controlPlane = create(scope, 'ControlPlane', props.controlPlane);
  controlPlane.node.addDependency(crds);
  if (cni) controlPlane.node.addDependency(cni);
  if (effectiveZoneSpread(install.zoneSpread, install.highAvailability, true) === ZoneSpread.REQUIRED) addZoneSpread(controlPlane);
  return { crds, controlPlane };
}

export function deliverReleaseWithHelm(scope: Construct, install: ResolvedInstall, options: HelmDeliveryOptions, release: ChartRelease,
  create: HelmFactory = realHelm): Construct {
  return create(scope, release.id, helmReleaseProps(install, options, release));
}

/** Kinds the control-plane chart creates, for `kubectl apply --prune` (which otherwise skips cluster-scoped kinds). */
const PRUNE_ALLOWLIST = [
  'core/v1/ConfigMap', 'core/v1/Secret', 'core/v1/Service', 'core/v1/ServiceAccount',
  'apps/v1/Deployment', 'apps/v1/DaemonSet', 'batch/v1/CronJob', 'policy/v1/PodDisruptionBudget',
  'rbac.authorization.k8s.io/v1/Role', 'rbac.authorization.k8s.io/v1/RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRole', 'rbac.authorization.k8s.io/v1/ClusterRoleBinding',
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration', 'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration',
  'apiregistration.k8s.io/v1/APIService',
];

/** Selector for everything in the file except the CRDs. */
function notCrds(install: ResolvedInstall): string {
  return `'${crdsChartLabel(install).replace('=', '!=')}'`;
}

/** Selector for the control plane's own objects (they carry linkerd.io/control-plane-ns), without the CRDs. */
function controlPlaneOnly(install: ResolvedInstall): string {
  return `'linkerd.io/control-plane-ns=${install.namespace},${crdsChartLabel(install).replace('=', '!=')}'`;
}

export function helmSteps(_options: HelmDeliveryOptions): DeliverySteps {
  return {
    form: DeliveryForm.HELM,
    title: 'cdk8s-rendered Helm charts, applied with kubectl',
    variables: (install) => [`NS=${install.namespace}`,
      'MANIFEST=dist/<chart>.k8s.yaml  # output file of the cdk8s Chart that holds only LinkerdControlPlane'],
    publish: () => ({
      text: 'Change the version in code and render it (synth needs the helm binary and access to the chart repository).',
      commands: ['npx cdk8s synth', 'git diff --stat  # review the rendered change before applying'],
    }),
    upgradeCrds: (install) => ({
      text: 'Apply the CRDs first, server-side (the largest CRD exceeds the client-side annotation limit), and wait until they are served.',
      commands: [`kubectl apply --server-side --force-conflicts -f "$MANIFEST" -l ${crdsChartLabel(install)}`, waitForCrds(install)],
    }),
    upgradeControlPlane: (install) => ({
      text: 'Apply everything else in the file: namespace, identity objects and the control plane.',
      commands: [`kubectl apply -f "$MANIFEST" -l ${notCrds(install)}`, waitForControlPlane()],
    }),
    prune: (install) => ({
      text: 'Delete control-plane objects the new version no longer renders (kubectl prunes only when asked, and only the kinds listed).',
      commands: [[
        `kubectl apply -f "$MANIFEST" --prune -l ${controlPlaneOnly(install)}`,
        ...PRUNE_ALLOWLIST.map((kind) => `  --prune-allowlist=${kind}`),
      ].join(' \\\n')],
    }),
    removeCore: (install) => ({
      text: 'Delete the control plane, then the Linkerd CRDs (this deletes every Linkerd policy object left), then the rest of '
        + 'the file (namespace and identity objects).',
      commands: [
        `kubectl delete -f "$MANIFEST" -l ${controlPlaneOnly(install)} --ignore-not-found --wait`,
        ...(install.cni ? ['kubectl delete -f "$MANIFEST" -l linkerd.io/cni-resource=true --ignore-not-found --wait'] : []),
        `kubectl delete -f "$MANIFEST" -l ${crdsChartLabel(install)} --ignore-not-found --wait`,
        'kubectl delete -f "$MANIFEST" --ignore-not-found --wait',
      ],
    }),
    removeRelease: (_install, release) => [`kubectl delete -f "$MANIFEST" -l ${release.selector} --ignore-not-found --wait`,
      `kubectl delete namespace ${release.namespace} --ignore-not-found`],
  };
}
