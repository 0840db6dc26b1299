/** One validator over the real reference CRDs (Linkerd 2.20, then Gateway API v1.2.1 which wins for its kinds). */
import { GATEWAY_API_CRDS, LINKERD_CRDS } from './shared';
import { ConformanceValidator, CrdCatalog } from '../../src/conformance';

let validator: ConformanceValidator | undefined;

export function referenceValidator(): ConformanceValidator {
  validator ??= new ConformanceValidator(CrdCatalog.fromDirectories([LINKERD_CRDS, GATEWAY_API_CRDS]));
  return validator;
}

/** Issues of every object, as readable strings (empty when all conform). */
export function conformanceIssues(objects: any[]): string[] {
  const v = referenceValidator();
  return objects.flatMap((o) => v.validate(o).map((i) => `${o.kind}/${o.metadata?.name}: ${i.path}: ${i.message}`));
}
