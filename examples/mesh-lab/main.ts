/**
 * Synthesizes mesh-lab. Run with `npm run mesh-lab` (cdk8s synth) into cdk8s.out/mesh-lab.k8s.yaml; set
 * MESH_LAB_NEGATIVE=1 to add the negative experiment's callers that the policy must refuse, in
 * cdk8s.out/mesh-lab-negative.k8s.yaml (apply it after mesh-lab.k8s.yaml: its namespace is mesh-lab's), and the
 * verification Jobs that prove client allowed and both refused after apply, in cdk8s.out/mesh-lab-verify.k8s.yaml.
 */
import { App } from 'cdk8s';
import { MeshLab, NegativeExperiment, Verification } from './mesh-lab';
import { runOrExit } from '../../src';

runOrExit(() => {
  const app = new App();
  new MeshLab(app, 'mesh-lab');
  // No chart dependency between the two: cdk8s would then prefix the file names (0000-mesh-lab.k8s.yaml), and the
  // README's `kubectl apply -f cdk8s.out/mesh-lab.k8s.yaml` must work with or without the negative experiment.
  if (process.env.MESH_LAB_NEGATIVE === '1') {
    new NegativeExperiment(app, 'mesh-lab-negative');
    new Verification(app, 'mesh-lab-verify');
  }
  app.synth();
});
