/** The same app without this library (cdk8s-plus-28 and plain ApiObjects), synthesized by `cdk8s synth`. */
import { App } from 'cdk8s';
import { buildPlusMesh } from '../plus-mesh';

const app = new App();
buildPlusMesh(app, Number(process.env.BENCH_SERVICES));
app.synth();
