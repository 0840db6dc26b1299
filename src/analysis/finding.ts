/** What the engine reports. These types are part of the public (jsii) API. */
import { compareStrings } from '../util/compare';

/** How bad a finding is. */
export enum Severity {
  /** Fails `cdk8s synth` and the CLI (by default). */
  ERROR = 'error',
  /** Printed; fails only when warnings are made failures. */
  WARNING = 'warning',
  /** Informational. */
  INFO = 'info',
}

/**
 * What Linkerd does with the object of a finding that says the object never takes effect.
 *
 * Reachability (`diff`, the picture) lists these objects as ignored, reading this marker, never the message.
 */
export enum FindingEffect {
  /** The admission webhook, the CRD schema or the API server refuses the object: it cannot be applied. */
  REJECTED = 'rejected',
  /** Applied, but the policy controller or the proxies drop it (never attached, skipped, shadowed, or inert). */
  IGNORED = 'ignored',
}

/** The resource a finding is about. */
export interface FindingResource {
  /** apiVersion of the object. */
  readonly apiVersion: string;
  /** kind of the object. */
  readonly kind: string;
  /**
   * Namespace of the object.
   * @default - cluster-scoped or not set
   */
  readonly namespace?: string;
  /** metadata.name of the object. */
  readonly name: string;
}

/** One result of a check. */
export interface Finding {
  /** Stable rule ID, e.g. `LKD-ROUTE-001`. */
  readonly ruleId: string;
  /** Severity of this finding. */
  readonly severity: Severity;
  /** The object the finding is about. */
  readonly resource: FindingResource;
  /** What is wrong, in one or two sentences. */
  readonly message: string;
  /** What to do about it. */
  readonly fix: string;
  /**
   * The construct path of the object, when it was synthesized by cdk8s.
   * @default - not known
   */
  readonly constructPath?: string;
  /**
   * The file the object was read from.
   * @default - not read from a file
   */
  readonly file?: string;
  /**
   * The 1-based line in `file` where the object starts.
   * @default - not known
   */
  readonly line?: number;
  /**
   * The cluster of a fleet the object belongs to (multi-cluster analysis: `analyze --cluster`, `LinkerdFleet`).
   * @default - a single-cluster analysis
   */
  readonly cluster?: string;
  /**
   * Set when the finding means Linkerd rejects or drops the whole object (not merely one of its settings).
   * @default - the object takes effect (perhaps not as intended)
   */
  readonly effect?: FindingEffect;
}

/** A finding that a suppression (with its reason) silenced; kept for the audit trail. */
export interface SuppressedFinding {
  /** The finding that was suppressed. */
  readonly finding: Finding;
  /** The reason recorded with the suppression. */
  readonly reason: string;
}

const SEVERITY_RANK: Record<Severity, number> = { [Severity.ERROR]: 0, [Severity.WARNING]: 1, [Severity.INFO]: 2 };

/** Orders findings so that output is deterministic whatever order rules ran in. */
export function compareFindings(a: Finding, b: Finding): number {
  return compareStrings(a.cluster ?? '', b.cluster ?? '')
    || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]
    || compareStrings(a.ruleId, b.ruleId)
    || compareStrings(a.resource.namespace ?? '', b.resource.namespace ?? '')
    || compareStrings(a.resource.kind, b.resource.kind)
    || compareStrings(a.resource.name, b.resource.name)
    || compareStrings(a.message, b.message);
}

export function severityAtLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITY_RANK[severity] <= SEVERITY_RANK[threshold];
}
