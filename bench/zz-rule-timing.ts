import { App, ApiObject } from 'cdk8s';
import { buildMesh } from './mesh';
const lib = require('/work/main/lib/analysis/engine');
const { MeshIndex } = require('/work/main/lib/analysis/model/mesh-index');
const { resolveContext } = require('/work/main/lib/analysis/options');
const { ALL_RULES } = require('/work/main/lib/analysis/rules');
const n = Number(process.argv[2]);
const app = new App({ outdir: '/tmp/rt' });
buildMesh(app, n);
let t = Date.now();
const manifests = app.node.findAll().filter((c) => ApiObject.isApiObject(c)).map((o: any) => ({ object: o.toJson(), source: { constructPath: o.node.path } }));
console.log('toJson all', Date.now() - t, 'ms', manifests.length);
t = Date.now();
const ctx = resolveContext({});
const index = new MeshIndex(manifests, []);
console.log('index', Date.now() - t);
const times: [string, number][] = [];
for (const rule of ALL_RULES) {
  const s = process.hrtime.bigint();
  rule.check({ index, context: ctx, report: () => undefined });
  times.push([rule.id, Number(process.hrtime.bigint() - s) / 1e6]);
}
times.sort((a, b) => b[1] - a[1]);
console.log(times.slice(0, 12).map(([k, v]) => `${k} ${v.toFixed(0)}ms`).join('\n'));
t = Date.now(); lib.analyze(manifests); console.log('analyze total', Date.now() - t);
