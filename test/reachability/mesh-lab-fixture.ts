/** mesh-lab synthesized through its constructs (every check run), as plain objects a test may mutate. */
import { Testing } from 'cdk8s';
import { MeshLab, NegativeExperiment } from '../../examples/mesh-lab/mesh-lab';
import { Manifest } from '../../src/analysis/model/manifest';
import { synth, synthChecked } from '../support/synth';

export interface LabOptions {
  readonly withPolicy?: boolean;
  readonly negative?: boolean;
}

export function meshLabObjects(options: LabOptions = {}): any[] {
  const app = Testing.app();
  const withPolicy = options.withPolicy ?? true;
  const lab = new MeshLab(app, 'mesh-lab', { withPolicy });
  const negative = options.negative ? new NegativeExperiment(app, 'negative') : undefined;
  // The negative experiment declares its refusals (LKD-POL-026), which the lab without its policy breaks: that
  // combination (plan-deny's input) is rendered without the app-wide checks.
  const render = negative && !withPolicy ? synth : synthChecked;
  const objects = render(lab);
  if (negative) objects.push(...render(negative));
  return JSON.parse(JSON.stringify(objects));
}

export function manifests(objects: any[]): Manifest[] {
  return objects.map((object) => ({ object }));
}

export function findObject(objects: any[], kind: string, name: string): any {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
}
