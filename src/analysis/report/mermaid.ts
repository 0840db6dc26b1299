/**
 * The `mermaid` report: one graph of callers, Service ports and workload ports, drawn by reachability/picture.ts
 * from the same model explain and diff read.
 */
import { AnalysisResult } from '../engine';
import { buildMeshModel } from '../reachability/model-adapter';
import { meshPicture } from '../reachability/picture';

export function formatMermaid(result: AnalysisResult): string {
  return meshPicture(buildMeshModel(result));
}
