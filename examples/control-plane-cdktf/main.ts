/**
 * Synthesizes the CDKTF example: `ts-node -P examples/tsconfig.json examples/control-plane-cdktf/main.ts`.
 * Output goes to $CDKTF_OUTDIR, default cdk8s.out/control-plane-cdktf; `terraform -chdir=<outdir>/stacks/linkerd init`
 * and `apply` need a terraform binary and a cluster, synth does not.
 */
import { synthesize } from './stack';
import { runOrExit } from '../../src';

const outdir = process.env.CDKTF_OUTDIR ?? 'cdk8s.out/control-plane-cdktf';
runOrExit(() => {
  for (const file of synthesize(outdir)) console.log(file);
});
