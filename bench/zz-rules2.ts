import * as fs from 'fs';
import * as yaml from 'js-yaml';
const { MeshIndex } = require('../lib/analysis/model/mesh-index');
const { resolveContext } = require('../lib/analysis/options');
const { ALL_RULES } = require('../lib/analysis/rules');
const dir = process.argv[2];
const manifests = fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).flatMap((f) => yaml.loadAll(fs.readFileSync(`${dir}/${f}`, 'utf8')).map((object: any) => ({ object })));
const ctx = resolveContext({});
let t = process.hrtime.bigint();
const index = new MeshIndex(manifests, []);
console.log('index', Number(process.hrtime.bigint() - t) / 1e6);
const times: [string, number][] = [];
for (let round = 0; round < 3; round++) for (const rule of ALL_RULES) {
  const s = process.hrtime.bigint();
  rule.check({ index, context: ctx, report: () => undefined });
  if (round === 2) times.push([rule.id, Number(process.hrtime.bigint() - s) / 1e6]);
}
times.sort((a, b) => b[1] - a[1]);
console.log('total', times.reduce((a, b) => a + b[1], 0).toFixed(0));
console.log(times.slice(0, 15).map(([k, v]) => `${k} ${v.toFixed(1)}ms`).join('\n'));
