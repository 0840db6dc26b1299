/**
 * Charts installed beside the core (linkerd2-cni before the control plane, extensions such as linkerd-viz after it),
 * through the same delivery form, the same pinned version and the same repository.
 */

/** Where a chart goes relative to the control plane. */
export enum ReleaseStage {
  /** Before the control plane (linkerd2-cni: pods created before it would run linkerd-init, or fail the network validator). */
  BEFORE_CONTROL_PLANE = 'before',
  /** After the control plane (extensions: their pods are injected, so the injector and identity must run first). */
  AFTER_CONTROL_PLANE = 'after',
}

/** One chart release beside the core. */
export interface ChartRelease {
  /** Construct id of the delivery object, e.g. `Cni`, `Viz`. */
  readonly id: string;
  readonly chart: string;
  readonly releaseName: string;
  /** Namespace the chart is installed into. */
  readonly namespace: string;
  /** Chart values, keys sorted. */
  readonly values: Record<string, any>;
  readonly stage: ReleaseStage;
  /** A label selecting every object the chart renders (for kubectl-based removal), e.g. `linkerd.io/extension=viz`. */
  readonly selector: string;
}

/** Argo CD sync wave of a release: the CRDs are wave 0 and the control plane wave 1. */
export function releaseWave(stage: ReleaseStage): string {
  return stage === ReleaseStage.BEFORE_CONTROL_PLANE ? '0' : '2';
}
