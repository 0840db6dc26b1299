/**
 * A fleet rule reads the facts and single-cluster analyses of every cluster at once, and reports on an object of one
 * cluster. Same shape as a single-cluster rule otherwise (stable ID, doc, severity), so docs and reports treat both alike.
 */
import { ClusterFacts, MirroredService } from './model';
import { AnalysisResult } from '../engine';
import { Severity } from '../finding';
import { IndexedObject } from '../model/mesh-index';
import { InboundPolicy } from '../policy';
import { ReportOptions, RuleArea, RuleDoc } from '../rule';

/** One cluster, analysed alone and then placed in its fleet. */
export interface FleetCluster {
  readonly facts: ClusterFacts;
  readonly result: AnalysisResult;
  /** The Services the service mirror creates here from this cluster's Links. */
  readonly mirrors: MirroredService[];
  /** The inbound policy of this cluster's manifests, computed on first use. */
  policy(): InboundPolicy;
}

export interface FleetRuleContext {
  /** Every cluster, by name, in byte order of names. */
  readonly clusters: ReadonlyMap<string, FleetCluster>;
  /** Reports a finding about `subject`, an object of `cluster`. */
  report(cluster: FleetCluster, subject: IndexedObject, message: string, options?: ReportOptions): void;
}

export interface FleetRule {
  /** Stable ID: `LKD-MC-<NNN>`. */
  readonly id: string;
  readonly area: RuleArea;
  readonly severity: Severity;
  readonly doc: RuleDoc;
  check(ctx: FleetRuleContext): void;
}

/** Whether `from` has a Link to `to` (the direction in which `from`'s clients can call `to`'s Services). */
export function links(from: FleetCluster, to: FleetCluster): boolean {
  return from.facts.links.some((l) => l.targetCluster === to.facts.name);
}

/** Pairs of clusters that talk: either links to the other. Each unordered pair once, in name order. */
export function linkedPairs(clusters: ReadonlyMap<string, FleetCluster>): Array<[FleetCluster, FleetCluster]> {
  const list = [...clusters.values()];
  const pairs: Array<[FleetCluster, FleetCluster]> = [];
  list.forEach((a, i) => list.slice(i + 1).forEach((b) => {
    if (links(a, b) || links(b, a)) pairs.push([a, b]);
  }));
  return pairs;
}
