import { IConstruct } from 'constructs';
import { InputRule, fail } from '../core/errors';
import { describeValue, isStruct, optionalList, requireString, validateLabels } from '../core/runtime-checks';
import { APP_NAME_LABEL, MeshedDeployment } from '../workloads/meshed-deployment';

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** A requirement of a label selector. */
export interface LabelRequirement {
  /** Label key. */
  readonly key: string;
  /** One of In, NotIn, Exists, DoesNotExist. */
  readonly operator: string;
  /**
   * Values for In / NotIn.
   * @default - none
   */
  readonly values?: string[];
}

/** Which pods a Server applies to. */
export class PodSelection {
  /** Every pod of an app, whatever its version (`app.kubernetes.io/name`). */
  public static app(name: string): PodSelection {
    return new PodSelection({ [APP_NAME_LABEL]: name }, []);
  }

  /** Exactly the pods of one MeshedDeployment (its app and version labels). */
  public static workload(workload: MeshedDeployment): PodSelection {
    // Checked when a Server uses the selection (its path is in the error); here only nothing may throw.
    if (!(workload instanceof MeshedDeployment)) {
      return new PodSelection({}, [], `PodSelection.workload() was given ${describeValue(workload)}, not a MeshedDeployment`);
    }
    return new PodSelection(workload.selectorLabels, []);
  }

  /** Pods carrying all of these labels (an explicit empty map selects every pod of the namespace). */
  public static labels(labels: { [key: string]: string }): PodSelection {
    // A missing map must not turn into `podSelector: {}`: that selects (and under a Server denies) every pod.
    if (!isStruct(labels)) return new PodSelection({}, [], `PodSelection.labels() was given ${describeValue(labels)}, not a map of labels`);
    return new PodSelection({ ...labels }, []);
  }

  /** Pods matching label expressions (and optional labels). */
  public static expressions(expressions: LabelRequirement[], labels?: { [key: string]: string }): PodSelection {
    if (!Array.isArray(expressions)) {
      return new PodSelection({}, [], `PodSelection.expressions() was given ${describeValue(expressions)}, not a list of LabelRequirements`);
    }
    if (labels !== undefined && !isStruct(labels)) {
      return new PodSelection({}, [], `PodSelection.expressions() was given labels ${describeValue(labels)}, not a map of labels`);
    }
    return new PodSelection({ ...(labels ?? {}) }, [...expressions]);
  }

  private constructor(
    /** The equality part of the selector. */
    public readonly matchLabels: { [key: string]: string },
    /** The expression part of the selector. */
    public readonly matchExpressions: LabelRequirement[],
    private readonly problem?: string,
  ) {}

  /**
   * Refuses a selection built from input that is not what it seems: a missing map would otherwise become
   * `podSelector: {}`, which selects (and, under a Server, denies) every pod of the namespace. @internal
   */
  public _validate(scope: IConstruct): void {
    if (this.problem !== undefined) {
      fail(scope, InputRule.REQUIRED,
        `selector: ${this.problem}.`,
        'Pass PodSelection.app("orders"), PodSelection.workload(deployment) or PodSelection.labels({ key: "value" }).');
    }
    validateLabels(scope, this.matchLabels, 'selector matchLabels');
    optionalList(scope, this.matchExpressions, 'selector matchExpressions', isStruct, 'LabelRequirement objects');
    this.matchExpressions.forEach((e, i) => validateRequirement(scope, e, `selector matchExpressions[${i}]`));
  }

  /** The selector as Kubernetes writes it. @internal */
  public _toKube(): Record<string, any> {
    const out: Record<string, any> = {};
    if (Object.keys(this.matchLabels).length > 0) out.matchLabels = this.matchLabels;
    if (this.matchExpressions.length > 0) {
      out.matchExpressions = this.matchExpressions.map((e) => ({ key: e.key, operator: e.operator, values: e.values }));
    }
    return out;
  }
}

/** A requirement as the API server validates it: a label key, a known operator, values only for In/NotIn. */
function validateRequirement(scope: IConstruct, e: LabelRequirement, where: string): void {
  requireString(scope, e.key, `${where}.key`);
  validateLabels(scope, { [e.key]: '' }, `${where}`);
  if (!OPERATORS.includes(e.operator)) {
    fail(scope, InputRule.RANGE,
      `${where}.operator ${describeValue(e.operator)} is not one of ${OPERATORS.join(', ')}.`,
      'Use In, NotIn, Exists or DoesNotExist (case-sensitive).');
  }
  const values = optionalList<string>(scope, e.values, `${where}.values`, (v) => typeof v === 'string', 'strings') ?? [];
  const needsValues = e.operator === 'In' || e.operator === 'NotIn';
  if (!(needsValues ? values.length > 0 : values.length === 0)) {
    fail(scope, InputRule.RANGE,
      `${where} (${e.operator}) ${needsValues ? 'needs at least one value' : 'must not list values'}.`,
      needsValues ? 'List the values the label may (In) or may not (NotIn) have.' : 'Drop values for Exists / DoesNotExist.');
  }
  validateLabels(scope, Object.fromEntries(values.map((v, i) => [`v${i}`, v])), `${where}.values`);
}
