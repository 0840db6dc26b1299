import { ApiObject, Chart, Testing } from 'cdk8s';

/** A fresh chart in the mesh-lab namespace. */
export function labChart(): Chart {
  return new Chart(Testing.app(), 'lab', { namespace: 'mesh-lab' });
}

/**
 * Renders a chart's objects without running validations: construct unit tests look at what one construct writes,
 * while the App-wide checks (which would flag e.g. a Server with no pods in a one-object chart) are tested elsewhere.
 */
export function synth(chart: Chart): any[] {
  return chart.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c)).map((o) => o.toJson());
}

/** Synthesizes a chart like `cdk8s synth` does: every validation (including the mesh checks) runs first. */
export function synthChecked(chart: Chart): any[] {
  return Testing.synth(chart);
}

export function find(objects: any[], kind: string, name: string): any {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in: ${objects.map((o) => `${o.kind}/${o.metadata?.name}`).join(', ')}`);
  return found;
}
