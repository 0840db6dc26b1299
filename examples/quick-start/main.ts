/** Synthesizes the README's example into cdk8s.out/quick-start (`npx ts-node -P examples/tsconfig.json examples/quick-start/main.ts`). */
import { App } from 'cdk8s';
import { buildQuickStart } from './quick-start';
import { runOrExit } from '../../src';

runOrExit(() => {
  const app = new App({ outdir: 'cdk8s.out/quick-start' });
  buildQuickStart(app);
  app.synth(); // the checks run here: an error fails synth and writes nothing
});
