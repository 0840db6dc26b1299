/**
 * Synthesizes the control-plane example: `ts-node -P examples/tsconfig.json examples/control-plane/main.ts`.
 * Output (manifests and runbooks) goes to $CDK8S_OUTDIR, default cdk8s.out/control-plane. No helm binary is needed:
 * Argo CD runs Helm in the cluster.
 */
import { synthesize } from './control-plane';
import { runOrExit } from '../../src';

const outdir = process.env.CDK8S_OUTDIR ?? 'cdk8s.out/control-plane';
runOrExit(() => {
  for (const file of synthesize(outdir)) console.log(file);
});
