/**
 * How the pinned charts reach the cluster. Each form writes the same resolved values; they differ only in who runs
 * Helm (cdk8s at synth, Argo CD, Flux, Terraform) and so in the commands of their runbooks.
 */
import { Construct } from 'constructs';
import { ArgoCdDeliveryOptions, deliverReleaseWithArgoCd, deliverWithArgoCd, argoCdSteps } from './argo-cd';
import { ExtensionChartRelease, deliverExtensionWithArgoCd, deliverExtensionWithFlux, deliverExtensionWithHelm } from './extension-chart';
import { FluxDeliveryOptions, deliverReleaseWithFlux, deliverWithFlux, fluxSteps } from './flux';
import { DeliveryForm } from './form';
import { HelmDeliveryOptions, deliverReleaseWithHelm, deliverWithHelm, helmSteps } from './helm';
import { ChartRelease } from './releases';
import { DeliveredCharts, DeliverySteps } from './steps';
import { ResolvedInstall } from '../install/values';

/** How the control plane is delivered; pick one with the static factories. */
export abstract class LinkerdDelivery {
  /**
   * Render both charts in cdk8s with `helm template` (two cdk8s `Helm` constructs, CRDs first). Synth needs the helm
   * binary and network access to the chart repository; apply the output with kubectl (see the runbooks).
   */
  public static helm(options: HelmDeliveryOptions = {}): LinkerdDelivery {
    return new StepsDelivery(DeliveryForm.HELM, helmSteps(options), (scope, install) => deliverWithHelm(scope, install, options),
      (scope, install, release) => deliverReleaseWithHelm(scope, install, options, release),
      (scope, release) => deliverExtensionWithHelm(scope, release, options));
  }

  /** Two Argo CD Applications: linkerd-crds in sync wave 0 (server-side apply), linkerd-control-plane in wave 1. */
  public static argoCd(options: ArgoCdDeliveryOptions = {}): LinkerdDelivery {
    return new StepsDelivery(DeliveryForm.ARGO_CD, argoCdSteps(options), (scope, install) => deliverWithArgoCd(scope, install, options),
      (scope, install, release) => deliverReleaseWithArgoCd(scope, install, options, release),
      (scope, release) => deliverExtensionWithArgoCd(scope, release, options));
  }

  /** A Flux HelmRepository and two HelmReleases; the control plane `dependsOn` the CRDs release. */
  public static flux(options: FluxDeliveryOptions = {}): LinkerdDelivery {
    return new StepsDelivery(DeliveryForm.FLUX, fluxSteps(options), (scope, install) => deliverWithFlux(scope, install, options),
      (scope, install, release) => deliverReleaseWithFlux(scope, install, options, release),
      (scope, release) => deliverExtensionWithFlux(scope, release, options));
  }

  /** The form. */
  public abstract readonly form: DeliveryForm;

  /**
   * Creates the delivery objects under `scope`; returns the construct holding the CRDs and the one holding the control
   * plane (the second depends on the first).
   * @internal
   */
  public abstract _deliver(scope: Construct, install: ResolvedInstall): DeliveredCharts;

  /**
   * Creates the delivery object of one chart beside the core (an extension, after the control plane).
   * @internal
   */
  public abstract _deliverRelease(scope: Construct, install: ResolvedInstall, release: ChartRelease): Construct;

  /**
   * The runbook commands of this form.
   * @internal
   */
  public abstract _steps(): DeliverySteps;

  /**
   * Creates the delivery object of one extension chart (e.g. linkerd-multicluster) under `scope`, after the core.
   * @internal
   */
  public abstract _deliverChart(scope: Construct, release: ExtensionChartRelease): Construct;
}

type Deliver = (scope: Construct, install: ResolvedInstall) => DeliveredCharts;
type DeliverRelease = (scope: Construct, install: ResolvedInstall, release: ChartRelease) => Construct;
type DeliverChart = (scope: Construct, release: ExtensionChartRelease) => Construct;

class StepsDelivery extends LinkerdDelivery {
  constructor(public readonly form: DeliveryForm, private readonly steps: DeliverySteps, private readonly deliver: Deliver,
    private readonly deliverRelease: DeliverRelease, private readonly deliverChart: DeliverChart) {
    super();
  }

  public _deliverChart(scope: Construct, release: ExtensionChartRelease): Construct {
    return this.deliverChart(scope, release);
  }

  public _deliverRelease(scope: Construct, install: ResolvedInstall, release: ChartRelease): Construct {
    return this.deliverRelease(scope, install, release);
  }

  public _deliver(scope: Construct, install: ResolvedInstall): DeliveredCharts {
    return this.deliver(scope, install);
  }

  public _steps(): DeliverySteps {
    return this.steps;
  }
}
