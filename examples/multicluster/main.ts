/**
 * Synthesizes the multicluster example: `npm run multicluster` (ts-node). Output: $CDK8S_OUTDIR (default
 * cdk8s.out/multicluster), one file per cluster: east.k8s.yaml and west.k8s.yaml.
 */
import * as path from 'path';
import { App } from 'cdk8s';
import { fleetCertificates } from './certs';
import { buildFleet } from './multicluster';
import { runOrExit } from '../../src';

const outdir = process.env.CDK8S_OUTDIR ?? 'cdk8s.out/multicluster';
runOrExit(() => {
  const app = new App({ outdir });
  const { east, west } = buildFleet(app, fleetCertificates());
  app.synth();
  for (const cluster of [east, west]) console.log(path.join(outdir, `${cluster.clusterName}.k8s.yaml`));
});
