/**
 * A fleet (LinkerdFleet): each FleetCluster chart's objects are analysed as that cluster, then the fleet rules run;
 * the rest of the App (if any) is one more single-cluster analysis. Loaded with the engine, on first use.
 */
import { ApiObject } from 'cdk8s';
import { RegisteredCluster } from './registration';
import { AnalysisResult, AnalyzeOptions, analyze } from '../analysis/engine';
import { FleetClusterInput, analyzeFleet } from '../analysis/fleet';
import { Manifest } from '../analysis/model/manifest';

export type Verdict = Pick<AnalysisResult, 'findings' | 'suppressed'>;

/** The objects of each registered cluster (the innermost FleetCluster above an object owns it), and the rest. */
function partition(objects: ApiObject[], clusters: readonly RegisteredCluster[]): { byCluster: Map<string, ApiObject[]>; rest: ApiObject[] } {
  const owners = new Map(clusters.map((c) => [c.scope, c]));
  const byCluster = new Map<string, ApiObject[]>(clusters.map((c) => [c.name, []]));
  const rest: ApiObject[] = [];
  for (const obj of objects) {
    const owner = obj.node.scopes.slice().reverse().find((s) => owners.has(s));
    (owner ? byCluster.get(owners.get(owner)!.name)! : rest).push(obj);
  }
  return { byCluster, rest };
}

/** The fleet's findings and suppressions: the clusters' and the fleet rules', then the rest of the App's. */
export function analyzeFleetApp(
  objects: ApiObject[], clusters: readonly RegisteredCluster[], manifestOf: (obj: ApiObject) => Manifest, options: AnalyzeOptions,
): Verdict {
  const { byCluster, rest } = partition(objects, clusters);
  const inputs: FleetClusterInput[] = clusters.map((c) => ({
    name: c.name,
    manifests: byCluster.get(c.name)!.map(manifestOf),
    options: { trustDomain: c.options.trustDomain, controlPlaneNamespace: c.options.controlPlaneNamespace },
  }));
  const fleet = analyzeFleet(inputs, options);
  const others = rest.length > 0 ? analyze(rest.map(manifestOf), options) : { findings: [], suppressed: [] };
  return { findings: [...fleet.findings, ...others.findings], suppressed: [...fleet.suppressed, ...others.suppressed] };
}
