/**
 * Synthesizes mesh-lab. Run with `npm run mesh-lab` (cdk8s synth); set MESH_LAB_NEGATIVE=1 to add the negative
 * experiment's callers that the policy must refuse.
 */
import { App } from 'cdk8s';
import { MeshLab, NegativeExperiment } from './mesh-lab';
import { runOrExit } from '../run';

runOrExit(() => {
  const app = new App();
  const lab = new MeshLab(app, 'mesh-lab');
  if (process.env.MESH_LAB_NEGATIVE === '1') {
    const negative = new NegativeExperiment(app, 'mesh-lab-negative');
    negative.addDependency(lab);
  }
  app.synth();
});
