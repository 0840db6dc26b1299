/** Synthesizes the gRPC canary example into cdk8s.out/grpc-canary (`npx ts-node -P examples/tsconfig.json examples/grpc-canary/main.ts`). */
import { App } from 'cdk8s';
import { GrpcCanary } from './grpc-canary';
import { runOrExit } from '../../src';

runOrExit(() => {
  const app = new App({ outdir: 'cdk8s.out/grpc-canary' });
  new GrpcCanary(app, 'grpc-canary');
  app.synth();
});
