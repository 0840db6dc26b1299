import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { buildQuickStart } from '../../examples/quick-start/quick-start';
import { MeshChecks } from '../../src';

describe('the README example', () => {
  test('synthesizes with no error or warning', () => {
    const app = Testing.app();
    const objects = Testing.synth(buildQuickStart(app));
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(expect.arrayContaining(['HTTPRoute/orders-split', 'AuthorizationPolicy/client-to-orders']));
    expect(MeshChecks.of(app).findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  test('each workload exposes its Service: per version, and the stable one over every version', () => {
    const objects = Testing.synth(buildQuickStart(Testing.app()));
    const selector = (name: string) => objects.find((o) => o.kind === 'Service' && o.metadata.name === name)?.spec.selector;
    expect(selector('orders-v1')).toEqual({ 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': 'v1' });
    expect(selector('orders-v2')).toEqual({ 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': 'v2' });
    expect(selector('orders')).toEqual({ 'app.kubernetes.io/name': 'orders' });
  });

  test('is the code the README shows', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
    const source = fs.readFileSync(path.resolve(__dirname, '..', '..', 'examples', 'quick-start', 'quick-start.ts'), 'utf8');
    // The whole function, Services included: the README shows no hand-written Service helper any more.
    const body = (text: string) => text.slice(text.indexOf('export function buildQuickStart'), text.indexOf('  return chart;')).trim();
    expect(body(source)).toContain('exposeService');
    expect(readme).toContain(body(source));
  });
});
