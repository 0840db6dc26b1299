/**
 * What a rule is. One rule per file under rules/<area>/, listed in rules/<area>/index.ts; rules/index.ts joins the
 * lists (the pack) and runner.ts runs them. A rule reads the index (a fleet rule: every cluster's) and reports; it never
 * changes objects and never throws for bad input. docs/architecture.md lists every step of adding one.
 */
import { FindingEffect, Severity } from './finding';
import { IndexedObject, MeshIndex } from './model/mesh-index';
import { AnalysisContext } from './options';

/** The concern a rule belongs to; also the middle part of its ID (LKD-ROUTE-001). */
export enum RuleArea {
  ROUTE = 'ROUTE',
  RETRY = 'RETRY',
  POLICY = 'POL',
  MESH = 'MESH',
  CERT = 'CERT',
  VERSION = 'VER',
  CONTROL_PLANE = 'CP',
  SCHEMA = 'SCHEMA',
  SECRET = 'SEC',
  META = 'META',
  MULTICLUSTER = 'MC',
  CAPACITY = 'CAP',
}

export interface RuleDoc {
  /** One line: what the rule checks. */
  readonly title: string;
  /** Why it matters: what Linkerd or the API server does with the mistake. */
  readonly why: string;
  /** The general fix. */
  readonly fix: string;
  /**
   * The linkerd2 code (at tag version-2.20) whose behaviour the rule predicts: file and function, e.g.
   * `policy-controller/k8s/index/src/inbound/index.rs Pod::select_ports`. Where Linkerd's docs say otherwise, the
   * rule follows the code and `why` says so.
   */
  readonly linkerdSource?: string;
  /**
   * Why the rule's severity holds under the severity contract (src/analysis/severity-contract.ts): opens with a ground
   * of its severity ("Ignored: ", "Depends on: ", "Advice: "), then the linkerd2 code (or the API server's rule) that
   * makes an error's effect certain, and which of its findings it grades otherwise. Required for every rule (a test).
   */
  readonly certainty?: string;
  /** A YAML snippet that triggers the rule. */
  readonly badExample?: string;
  /** The same snippet, fixed. */
  readonly goodExample?: string;
}

export interface ReportOptions {
  /** Overrides the rule's general fix with one specific to this finding. */
  readonly fix?: string;
  /** Overrides the rule's default severity for this finding. */
  readonly severity?: Severity;
  /**
   * What Linkerd does with the whole object: set only when the finding means it is rejected or dropped. The rule must
   * list the effect in its `effects`.
   */
  readonly effect?: FindingEffect;
}

export interface RuleContext {
  readonly index: MeshIndex;
  readonly context: AnalysisContext;
  /** Reports a finding about `subject`. Findings on inventory objects are dropped. */
  report(subject: IndexedObject, message: string, options?: ReportOptions): void;
}

/** A rule over what its context `C` holds: one cluster's index (RuleContext), or a fleet's clusters. */
export interface Rule<C = RuleContext> {
  /** Stable ID: `LKD-<AREA>-<NNN>`. Never reused for another meaning. */
  readonly id: string;
  readonly area: RuleArea;
  readonly severity: Severity;
  readonly doc: RuleDoc;
  /**
   * The effects its findings may carry (ReportOptions.effect): a rule listing any reports objects Linkerd rejects or
   * drops, and reachability runs it to list them as ignored.
   */
  readonly effects?: readonly FindingEffect[];
  check(ctx: C): void;
}
