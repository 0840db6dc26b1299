/** A user's app with this library: the bench mesh of BENCH_SERVICES services, synthesized by `cdk8s synth`. */
import { App } from 'cdk8s';
import { buildMesh } from '../mesh';

const app = new App();
buildMesh(app, Number(process.env.BENCH_SERVICES));
app.synth();
