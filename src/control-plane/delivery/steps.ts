/** What each delivery form contributes to the runbooks: the exact commands for its own tooling. */
import { Construct } from 'constructs';
import { DeliveryForm } from './form';
import { ChartRelease } from './releases';
import { ResolvedInstall } from '../install/values';

/** What a delivery created: the construct installing the CRDs and the one installing the control plane (after it). */
export interface DeliveredCharts {
  readonly crds: Construct;
  readonly controlPlane: Construct;
}

/** One runbook step: a sentence of intent and the commands that carry it out. */
export interface RunbookStep {
  readonly text: string;
  readonly commands: string[];
}

export interface DeliverySteps {
  readonly form: DeliveryForm;
  /** How the runbook names the form, e.g. "Argo CD Applications". */
  readonly title: string;
  /** Shell variables the commands use, as `NAME=value` lines. */
  variables(install: ResolvedInstall): string[];
  /** How a changed version reaches the delivery tooling (commit, synth …). */
  publish(install: ResolvedInstall): RunbookStep;
  upgradeCrds(install: ResolvedInstall): RunbookStep;
  upgradeControlPlane(install: ResolvedInstall): RunbookStep;
  prune(install: ResolvedInstall): RunbookStep;
  /** Removes the control plane, then the Linkerd CRDs (never the Gateway API CRDs). */
  removeCore(install: ResolvedInstall): RunbookStep;
  /** Commands that remove one chart beside the core (an extension, before the core goes). */
  removeRelease(install: ResolvedInstall, release: ChartRelease): string[];
}

/** Label that every linkerd-crds CRD carries (`helm.sh/chart: linkerd-crds-<chart version>`). */
export function crdsChartLabel(install: ResolvedInstall): string {
  return `helm.sh/chart=${install.version.crdsChart}-${install.version.chartVersion}`;
}

/** Waits until the Linkerd CRDs are served, so control-plane objects that use them apply cleanly. */
export function waitForCrds(install: ResolvedInstall): string {
  return `kubectl wait --for=condition=Established crd -l ${crdsChartLabel(install)} --timeout=120s`;
}

/** Waits until the control-plane Deployments have rolled out. */
export function waitForControlPlane(): string {
  return 'kubectl -n "$NS" wait --for=condition=Available deploy --all --timeout=10m';
}
