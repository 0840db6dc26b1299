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
import { InputRule, check } from '../../core/errors';
import { describeValue, isStruct, optionalBoolean, optionalList, optionalString } from '../../core/runtime-checks';
import { ResolvedInstall } from '../install/values';

/** The field types of each form's options, checked when the control plane delivers (a jsii user's wrong types). */
const OPTION_FIELDS: Partial<Record<DeliveryForm, Record<string, 'string' | 'boolean' | 'strings'>>> = {
  [DeliveryForm.HELM]: { helmExecutable: 'string', helmFlags: 'strings' },
  [DeliveryForm.ARGO_CD]: {
    argoCdNamespace: 'string', project: 'string', destinationServer: 'string', automatedSync: 'boolean', ignoreGeneratedWebhookCertificates: 'boolean',
  },
  [DeliveryForm.FLUX]: { fluxNamespace: 'string', repositoryName: 'string' },
};

function checkOptionFields(scope: Construct, form: DeliveryForm, options: Record<string, unknown>): void {
  for (const [key, type] of Object.entries(OPTION_FIELDS[form] ?? {})) {
    if (type === 'string') optionalString(scope, options[key], `delivery ${key}`);
    else if (type === 'boolean') optionalBoolean(scope, options[key], `delivery ${key}`);
    else optionalList(scope, options[key], `delivery ${key}`, (v) => typeof v === 'string', 'strings');
  }
}

/**
 * The options as given, or {} with the problem noted: a factory has no construct to name, so a bad value is refused
 * when the control plane delivers (its path is then in the error).
 */
function given<T>(factory: string, options: T | undefined): { options: T; problem?: string } {
  if (options === undefined || isStruct(options)) return { options: options ?? ({} as T) };
  return { options: {} as T, problem: `LinkerdDelivery.${factory}() options must be an object, but are ${describeValue(options)}` };
}

/** How the control plane is delivered; pick one with the static factories. */
export abstract class LinkerdDelivery {
  /**
   * Render both charts in cdk8s with `helm template` (two cdk8s `Helm` constructs, CRDs first). Synth needs the helm
   * binary and network access to the chart repository; apply the output with kubectl (see the runbooks).
   */
  public static helm(options: HelmDeliveryOptions = {}): LinkerdDelivery {
    const g = given('helm', options);
    return new StepsDelivery(DeliveryForm.HELM, helmSteps(g.options), (scope, install) => deliverWithHelm(scope, install, g.options),
      (scope, install, release) => deliverReleaseWithHelm(scope, install, g.options, release),
      (scope, release) => deliverExtensionWithHelm(scope, release, g.options),
      g.options, g.problem);
  }

  /** Two Argo CD Applications: linkerd-crds in sync wave 0 (server-side apply), linkerd-control-plane in wave 1. */
  public static argoCd(options: ArgoCdDeliveryOptions = {}): LinkerdDelivery {
    const g = given('argoCd', options);
    return new StepsDelivery(DeliveryForm.ARGO_CD, argoCdSteps(g.options), (scope, install) => deliverWithArgoCd(scope, install, g.options),
      (scope, install, release) => deliverReleaseWithArgoCd(scope, install, g.options, release),
      (scope, release) => deliverExtensionWithArgoCd(scope, release, g.options),
      g.options, g.problem);
  }

  /** A Flux HelmRepository and two HelmReleases; the control plane `dependsOn` the CRDs release. */
  public static flux(options: FluxDeliveryOptions = {}): LinkerdDelivery {
    const g = given('flux', options);
    return new StepsDelivery(DeliveryForm.FLUX, fluxSteps(g.options), (scope, install) => deliverWithFlux(scope, install, g.options),
      (scope, install, release) => deliverReleaseWithFlux(scope, install, g.options, release),
      (scope, release) => deliverExtensionWithFlux(scope, release, g.options),
      g.options, g.problem);
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
  constructor(
    public readonly form: DeliveryForm, private readonly steps: DeliverySteps, private readonly deliver: Deliver,
    private readonly deliverRelease: DeliverRelease, private readonly deliverChart: DeliverChart, private readonly options: object,
    private readonly problem?: string,
  ) {
    super();
  }

  public _deliverChart(scope: Construct, release: ExtensionChartRelease): Construct {
    this.checkOptions(scope);
    return this.deliverChart(scope, release);
  }

  public _deliverRelease(scope: Construct, install: ResolvedInstall, release: ChartRelease): Construct {
    this.checkOptions(scope);
    return this.deliverRelease(scope, install, release);
  }

  public _deliver(scope: Construct, install: ResolvedInstall): DeliveredCharts {
    this.checkOptions(scope);
    return this.deliver(scope, install);
  }

  private checkOptions(scope: Construct): void {
    check(this.problem === undefined, scope, InputRule.REQUIRED, `delivery: ${this.problem}.`,
      'Pass the options as an object, e.g. LinkerdDelivery.argoCd({ project: "platform" }), or omit them.');
    checkOptionFields(scope, this.form, this.options as Record<string, unknown>);
  }

  public _steps(): DeliverySteps {
    return this.steps;
  }
}
