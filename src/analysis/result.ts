/** What one analysis run returns: the findings, and the index and context they were computed on. */
import { Finding, SuppressedFinding } from './finding';
import { MeshIndex } from './model/mesh-index';
import { AnalysisContext } from './options';

export interface AnalysisResult {
  readonly findings: Finding[];
  readonly suppressed: SuppressedFinding[];
  readonly index: MeshIndex;
  readonly context: AnalysisContext;
}
