import { perSelectionAndPort, serverCoverage } from '../../src/analysis/model/inbound/servers';
import { MeshIndex, PodTemplate } from '../../src/analysis/model/mesh-index';
import { resolveContext } from '../../src/analysis/options';
import { asManifests } from '../support/mesh-fixture';

const deployment = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'shop' },
  spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'a:1', ports: [{ name: 'http', containerPort: 8080 }] }] } } },
});
const server = (name: string, matchLabels: Record<string, string>, port: number | string) => ({
  apiVersion: 'policy.linkerd.io/v1beta3', kind: 'Server', metadata: { name, namespace: 'shop' }, spec: { podSelector: { matchLabels }, port },
});

// Rules that look at every pod a Server selects (LKD-MESH-004, LKD-MESH-008) work out their answer once per selection and
// port, so that N Servers over the same N pods cost N, not N² (the overlap case of the worst-case bench).
describe('perSelectionAndPort', () => {
  const objects = [
    deployment('web', { app: 'web' }), deployment('api', { app: 'web', tier: 'api' }),
    server('a', { app: 'web' }, 8080), server('b', { app: 'web' }, 8080), server('c', { app: 'web' }, 'http'),
    server('d', { app: 'web', tier: 'api' }, 8080), server('e', { app: 'web' }, '8080'),
  ];
  const context = resolveContext({});
  const index = new MeshIndex(asManifests(objects), context.inventory, context.controlPlaneNamespace);
  const byName = (name: string) => index.own('policy.linkerd.io', 'Server').find((s) => s.id.name === name)!;

  test('judges each selection and port once, a number apart from the name spelling it', () => {
    const calls: string[] = [];
    const judge = perSelectionAndPort(serverCoverage(index), (pods: readonly PodTemplate[], port) => {
      calls.push(`${pods.map((p) => p.owner.id.name).join('+')}:${JSON.stringify(port)}`);
      return { pods, port };
    });
    const answers = ['a', 'b', 'c', 'd', 'e', 'a'].map((name) => judge(byName(name), byName(name).object.spec.port));
    expect(calls).toEqual(['web+api:8080', 'web+api:"http"', 'api:8080', 'web+api:"8080"']);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[5]).toBe(answers[0]);
    expect(answers[3].pods.map((p) => p.owner.id.name)).toEqual(['api']);
  });
});
