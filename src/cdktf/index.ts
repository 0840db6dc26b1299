/**
 * The CDKTF entry point (`import { LinkerdHelmReleases } from 'cdk8s-linkerd/lib/cdktf'`): the same pinned charts and
 * values as the cdk8s constructs, as Terraform `helm_release` resources. It is separate from the main entry point so
 * that cdk8s users never load cdktf (archived upstream on 2025-12-10; cdktf 0.21 and @cdktf/provider-helm 12.1.2 are
 * its last releases, hence optional peer dependencies).
 */
import * as path from 'path';
import { HelmProvider } from '@cdktf/provider-helm/lib/provider';
import { Release } from '@cdktf/provider-helm/lib/release';
import * as cdk8s from 'cdk8s';
import { App, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { DeliveryForm } from '../control-plane/delivery/form';
import { RunbookOptions, exitRunbook, troubleshootingRunbook, upgradeRunbook, writeRunbookFiles } from '../control-plane/delivery/runbooks';
import { DeliverySteps } from '../control-plane/delivery/steps';
import { terraformSteps } from '../control-plane/delivery/terraform';
import { LinkerdIdentity } from '../control-plane/identity/identity';
import { LinkerdChartValues, installTarget, namespaceManifest } from '../control-plane/install/control-plane';
import { ZoneSpread } from '../control-plane/install/fault-domains';
import { LinkerdInstallOptions } from '../control-plane/install/options';
import { ResolvedInstall, copyValues, resolveInstall } from '../control-plane/install/values';
import { InputRule, check } from '../core/errors';
import { LinkerdVersion, VersionRule } from '../core/versions';

/** Props for LinkerdHelmReleases. */
export interface LinkerdHelmReleasesProps extends LinkerdInstallOptions {
  /** Trust anchors and issuer, as for the cdk8s `LinkerdControlPlane`. */
  readonly identity: LinkerdIdentity;
  /**
   * The helm provider the releases use.
   * @default - the stack's default `helm` provider (declare one with `new HelmProvider(stack, ...)`)
   */
  readonly provider?: HelmProvider;
  /**
   * Seconds Helm waits for each release's resources to become ready.
   * @default 600
   */
  readonly timeoutSeconds?: number;
}

/** Binds the identity in a detached cdk8s chart: its objects cannot live in a Terraform tree, so they are returned. */
function bindIdentity(identity: LinkerdIdentity, target: { namespace: string; trustDomain: string }) {
  const chart = new cdk8s.Chart(new cdk8s.App(), 'linkerd-prerequisites');
  const namespace = new cdk8s.ApiObject(chart, 'Namespace', namespaceManifest(target.namespace, DeliveryForm.TERRAFORM));
  const scope = new Construct(chart, 'Identity');
  const binding = identity._bind(scope, target);
  scope.node.addDependency(namespace);
  return { binding, chart };
}

/**
 * Linkerd's two charts as `helm_release` resources in a CDKTF stack: linkerd-crds, then linkerd-control-plane
 * (`depends_on` the CRDs), pinned to exact versions, with the values the cdk8s constructs would use (JSON-encoded).
 */
export class LinkerdHelmReleases extends Construct {
  /** The linkerd-crds release. */
  public readonly crdsRelease: Release;
  /** The linkerd-control-plane release (depends on `crdsRelease`). */
  public readonly controlPlaneRelease: Release;
  /** Namespace of the control plane. */
  public readonly namespace: string;
  /** The pinned release. */
  public readonly version: LinkerdVersion;
  private readonly install: ResolvedInstall;
  private readonly prerequisites: cdk8s.Chart;
  private readonly identityObjectCount: number;

  constructor(scope: Construct, id: string, props: LinkerdHelmReleasesProps) {
    super(scope, id);
    check(props.identity instanceof LinkerdIdentity, this, InputRule.REQUIRED, 'identity is required.',
      'Pass identity: LinkerdIdentity.fromCertificates({...}) or LinkerdIdentity.fromCertManager().');
    const timeout = props.timeoutSeconds ?? 600;
    check(Number.isInteger(timeout) && timeout > 0, this, InputRule.RANGE, `timeoutSeconds ${JSON.stringify(timeout)} is not a positive whole number.`,
      'Pass e.g. timeoutSeconds: 600.');
    const target = installTarget(this, props);
    const { binding, chart } = bindIdentity(props.identity, target);
    this.prerequisites = chart;
    this.identityObjectCount = binding.apiObjects.length;
    // Only the two core releases are written here: refuse what would otherwise be dropped silently.
    check(props.cni === undefined, this, InputRule.CONFLICT, 'cni is not delivered by the CDKTF entry point (it writes the two core releases only).',
      'Add a helm_release for linkerd2-cni (same chart version) that the control-plane release depends_on, and set cniEnabled: true.');
    check(props.zoneSpread !== ZoneSpread.REQUIRED, this, VersionRule.HA,
      'zoneSpread REQUIRED needs topologySpreadConstraints the chart does not render, and these helm_release resources do not post-render.',
      'Use ZoneSpread.PREFERRED (the chart\'s zone anti-affinity), or deliver with LinkerdDelivery.flux() or LinkerdDelivery.helm().');
    this.install = resolveInstall(this, props, binding);
    this.namespace = this.install.namespace;
    this.version = this.install.version;
    type Values = Record<string, any>;
    const release = (releaseId: string, name: string, chartName: string, values: Values, after?: Release) => new Release(this, releaseId, {
      provider: props.provider,
      dependsOn: after ? [after] : undefined,
      name,
      repository: this.version.helmRepository,
      chart: chartName,
      version: this.version.chartVersion,
      namespace: this.namespace,
      createNamespace: true,
      timeout,
      values: [JSON.stringify(values)],
    });
    this.crdsRelease = release('Crds', this.install.crdsReleaseName, this.version.crdsChart, this.install.crdsValues);
    this.controlPlaneRelease = release('ControlPlane', this.install.controlPlaneReleaseName, this.version.controlPlaneChart,
      this.install.controlPlaneValues, this.crdsRelease);
  }

  /**
   * Kubernetes objects to apply before the releases (Terraform's helm provider cannot): the control-plane namespace
   * with Linkerd's labels, and the identity's objects (cert-manager Certificates, trust-manager Bundle …), in order.
   */
  public prerequisiteManifests(): any[] {
    return this.prerequisites.toJson();
  }

  /** Whether the identity created objects that must be applied before the releases (beyond the namespace). */
  public get hasIdentityObjects(): boolean {
    return this.identityObjectCount > 0;
  }

  /** The resolved chart values (keys sorted), exactly as the releases receive them. */
  public values(): LinkerdChartValues {
    return { crds: copyValues(this.install.crdsValues), controlPlane: copyValues(this.install.controlPlaneValues) };
  }

  /** The upgrade runbook (markdown) with the Terraform commands for this stack. */
  public upgradeRunbook(options: RunbookOptions = {}): string {
    return upgradeRunbook(this.install, this.steps(), options);
  }

  /** The exit runbook (markdown) with the Terraform commands for this stack. */
  public exitRunbook(options: RunbookOptions = {}): string {
    return exitRunbook(this.install, this.steps(), options);
  }

  /** The identity troubleshooting runbook (leaf, issuer, anchor, clock skew, federated trust). */
  public troubleshootingRunbook(): string {
    return troubleshootingRunbook(this.install, this.steps());
  }

  /** Writes `linkerd-upgrade.md` and `linkerd-exit.md` into `dir` and returns their paths. */
  public writeRunbooks(dir: string, options: RunbookOptions = {}): string[] {
    return writeRunbookFiles(dir, this.upgradeRunbook(options), this.exitRunbook(options));
  }

  private steps(): DeliverySteps {
    const stack = TerraformStack.of(this);
    return terraformSteps({
      stackDir: path.join(App.of(stack).outdir, 'stacks', stack.node.id),
      crdsAddress: `helm_release.${stack.getLogicalId(this.crdsRelease)}`,
      controlPlaneAddress: `helm_release.${stack.getLogicalId(this.controlPlaneRelease)}`,
      hasPrerequisites: this.hasIdentityObjects,
    });
  }
}
