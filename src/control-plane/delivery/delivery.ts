/**
 * How the pinned charts reach the cluster. Each form writes the same resolved values; they differ only in who runs
 * Helm (cdk8s at synth, Argo CD, Flux, Terraform) and so in the commands of their runbooks.
 */
import { Construct } from 'constructs';
import { ArgoCdDeliveryOptions, deliverReleaseWithArgoCd, deliverWithArgoCd, argoCdSteps } from './argo-cd';
import { ExtensionChartRelease, deliverExtensionWithArgoCd, deliverExtensionWithFlux, deliverExtensionWithHelm } from './extension-chart';
import { FluxDeliveryOptions, FluxValuesReference, deliverReleaseWithFlux, deliverWithFlux, fluxSteps } from './flux';
import { DeliveryForm } from './form';
import { HelmDeliveryOptions, deliverReleaseWithHelm, deliverWithHelm, helmSteps } from './helm';
import { ChartRelease } from './releases';
import { DeliveredCharts, DeliverySteps } from './steps';
import { InputRule, check } from '../../core/errors';
import { describeValue, isStruct, optionalBoolean, optionalList, optionalString } from '../../core/runtime-checks';
import { compareStrings } from '../../util/compare';
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

  /**
   * Values of a release that the delivery fills in at deploy time rather than in the output (Flux `valuesFrom`): the
   * paths it targets, and whether some entry merges a whole YAML document, which may set any value.
   * @internal
   */
  public _suppliedValues(_release: string): SuppliedValues {
    return { paths: [], unknown: false };
  }
}

/** Values a delivery supplies at deploy time (see `LinkerdDelivery._suppliedValues`). */
export interface SuppliedValues {
  readonly paths: readonly string[];
  readonly unknown: boolean;
}

type Deliver = (scope: Construct, install: ResolvedInstall) => DeliveredCharts;
type DeliverRelease = (scope: Construct, install: ResolvedInstall, release: ChartRelease) => Construct;
type DeliverChart = (scope: Construct, release: ExtensionChartRelease) => Construct;

class StepsDelivery extends LinkerdDelivery {
  /** Release names delivered so far, and whether the check of the valuesFrom release names is registered. */
  private readonly delivered = new Set<string>();
  private releaseCheckAdded = false;

  constructor(
    public readonly form: DeliveryForm, private readonly steps: DeliverySteps, private readonly deliver: Deliver,
    private readonly deliverRelease: DeliverRelease, private readonly deliverChart: DeliverChart, private readonly options: object,
    private readonly problem?: string,
  ) {
    super();
  }

  public _deliverChart(scope: Construct, release: ExtensionChartRelease): Construct {
    this.checkOptions(scope);
    this.recordRelease(scope, release.releaseName);
    return this.deliverChart(scope, release);
  }

  public _deliverRelease(scope: Construct, install: ResolvedInstall, release: ChartRelease): Construct {
    this.checkOptions(scope);
    this.recordRelease(scope, release.releaseName);
    return this.deliverRelease(scope, install, release);
  }

  public _deliver(scope: Construct, install: ResolvedInstall): DeliveredCharts {
    this.checkOptions(scope);
    for (const name of [install.crdsReleaseName, install.controlPlaneReleaseName, install.cni?.releaseName]) {
      if (name) this.recordRelease(scope, name);
    }
    return this.deliver(scope, install);
  }

  public _suppliedValues(release: string): SuppliedValues {
    const refs = this.valuesFrom().filter((ref) => ref && ref.release === release);
    return { paths: refs.flatMap((ref) => (typeof ref.targetPath === 'string' ? [ref.targetPath] : [])), unknown: refs.some((ref) => ref.targetPath === undefined) };
  }

  private valuesFrom(): readonly FluxValuesReference[] {
    const list = this.form === DeliveryForm.FLUX ? (this.options as FluxDeliveryOptions).valuesFrom : undefined;
    return Array.isArray(list) ? list : [];
  }

  /**
   * A valuesFrom entry whose release this delivery never delivers would be silently left out of every HelmRelease, its
   * values (often the private ones) never reaching a chart: checked once every release is known, at synth.
   */
  private recordRelease(scope: Construct, name: string): void {
    this.delivered.add(name);
    if (this.releaseCheckAdded || this.valuesFrom().length === 0) return;
    this.releaseCheckAdded = true;
    scope.node.addValidation({
      validate: () => this.valuesFrom().filter((ref) => ref && !this.delivered.has(ref.release)).map((ref) =>
        `${InputRule.REQUIRED}: valuesFrom entry ${JSON.stringify(ref.name)} names release ${JSON.stringify(ref.release)}, which this delivery `
        + `does not deliver (it delivers ${[...this.delivered].sort(compareStrings).join(', ')}), so no HelmRelease reads it and its values never `
        + 'reach a chart. Fix: set release to the Helm release that should read these values.'),
    });
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
