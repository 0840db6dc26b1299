import { APP_NAME_LABEL, MeshedDeployment } from '../workloads/meshed-deployment';

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
    return new PodSelection(workload.selectorLabels, []);
  }

  /** Pods carrying all of these labels. */
  public static labels(labels: { [key: string]: string }): PodSelection {
    return new PodSelection({ ...labels }, []);
  }

  /** Pods matching label expressions (and optional labels). */
  public static expressions(expressions: LabelRequirement[], labels?: { [key: string]: string }): PodSelection {
    return new PodSelection({ ...(labels ?? {}) }, [...expressions]);
  }

  private constructor(
    /** The equality part of the selector. */
    public readonly matchLabels: { [key: string]: string },
    /** The expression part of the selector. */
    public readonly matchExpressions: LabelRequirement[],
  ) {}

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
