/**
 * A fleet rule reads the facts and single-cluster analyses of every cluster at once, and reports on an object of one
 * cluster. It is a Rule over a fleet's context, run by the same runner (runner.ts) as every other rule.
 */
import { ClusterFacts, MirroredService } from './model';
import { IndexedObject } from '../model/mesh-index';
import { InboundPolicy } from '../policy';
import { AnalysisResult } from '../result';
import { ReportOptions, Rule } from '../rule';

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

/** A rule over every cluster of a fleet; its ID is `LKD-MC-<NNN>`. */
export type FleetRule = Rule<FleetRuleContext>;

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
