import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { buildQuickStart } from '../../examples/quick-start/main';
import { MeshChecks } from '../../src';

describe('the README example', () => {
  test('synthesizes with no error or warning', () => {
    const app = Testing.app();
    const objects = Testing.synth(buildQuickStart(app));
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(expect.arrayContaining(['HTTPRoute/orders-split', 'AuthorizationPolicy/client-to-orders']));
    expect(MeshChecks.of(app).findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  test('is the code the README shows', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
    const source = fs.readFileSync(path.resolve(__dirname, '..', '..', 'examples', 'quick-start', 'main.ts'), 'utf8');
    const body = (text: string) => text.slice(text.indexOf('  const ordersHttp'), text.indexOf('  return chart;')).trim();
    expect(readme).toContain(body(source));
  });
});
