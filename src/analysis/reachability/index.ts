/** Reachability you can review: explain a port, diff two versions of the mesh, plan a move to deny, draw the mesh. */
import { AnalyzeOptions, analyze } from '../engine';
import { Manifest } from '../model/manifest';
import { ALL_RULES } from '../rules';
import { MeshDiff, diffModels } from './diff';
import { buildMeshModel } from './model-adapter';
import { ObservedAuthorization } from './observed-metrics';
import { DenyPlan, DenyTarget, ObservedEdge, planDeny, withNamespaceDeny } from './plan-deny';
import { MeshModel } from './views';

export * from './views';
export * from './diff';
export * from './diff-report';
export { OTHER_MESHED, UNAUTHENTICATED, EXTERNAL, KUBELET } from './model-adapter';

/**
 * The rules that report objects Linkerd rejects or drops (they declare `effects`; the model's `ignored` reads those
 * findings): reachability runs only these, so that a diff (two analyses and two models) stays within a few analyses' time.
 */
export const REACHABILITY_RULES = ALL_RULES.filter((r) => (r.effects ?? []).length > 0);

/** Runs the engine (its policy, route and retry rules) over manifests and builds the model reachability reads. */
export function meshModel(manifests: Manifest[], options: AnalyzeOptions = {}): MeshModel {
  return buildMeshModel(analyze(manifests, { ...options, rules: options.rules ?? REACHABILITY_RULES }));
}

/**
 * The model explain reads: the same index and evaluations, without running the rules (explain prints no ignored
 * objects, so it needs no findings) — explaining a port then costs less than one analyze.
 */
export function explainModel(manifests: Manifest[], options: AnalyzeOptions = {}): MeshModel {
  return buildMeshModel(analyze(manifests, { ...options, rules: [] }));
}

/** What HEAD changes against BASE, both analysed with the same options. */
export function diffManifests(base: Manifest[], head: Manifest[], options: AnalyzeOptions = {}): MeshDiff {
  return diffModels(meshModel(base, options), meshModel(head, options));
}
export * from './explain';
export * from './picture';
export * from './plan-deny';
export * from './observed-metrics';

/**
 * The plan for moving `namespace` (or, when undefined, the cluster default) to `policy`: the calls it would refuse
 * and the objects that keep them allowed.
 */
export function planDenyManifests(
  manifests: Manifest[], namespace: string | undefined, options: AnalyzeOptions = {}, edges: ObservedEdge[] = [], policy = DenyTarget.DENY,
  authorizations: ObservedAuthorization[] = [],
): DenyPlan {
  if (namespace === undefined) {
    const cluster = meshModel(manifests, { ...options, defaultInboundPolicy: policy });
    return planDeny(meshModel(manifests, options), cluster, undefined, edges, policy, authorizations);
  }
  const denied = withNamespaceDeny(manifests.map((m) => m.object), namespace, policy).map((object, i) => ({ object, source: manifests[i]?.source }));
  return planDeny(meshModel(manifests, options), meshModel(denied, options), namespace, edges, policy, authorizations);
}
