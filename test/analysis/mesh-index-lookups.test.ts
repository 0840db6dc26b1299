/**
 * The index's per-Service lookups: routes by parent Service, pods and ExternalWorkloads by the Service's selector.
 * Rules ask these for every Service, so they are tables; these tests pin what the tables answer.
 */
import { MeshIndex } from '../../src/analysis/model/mesh-index';
import { asManifests } from '../support/mesh-fixture';

const service = (namespace: string, name: string, selector?: Record<string, string>) => ({
  apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec: { ...(selector ? { selector } : {}), ports: [{ port: 80 }] },
});
const route = (namespace: string, name: string, parentRefs: unknown[]) => ({
  apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { namespace, name }, spec: { parentRefs },
});
const externalWorkload = (namespace: string, name: string, labels: Record<string, string>) => ({
  apiVersion: 'workload.linkerd.io/v1beta1',
  kind: 'ExternalWorkload',
  metadata: { namespace, name, labels },
  spec: { meshTLS: { identity: 'x', serverName: 'x' }, workloadIPs: [{ ip: '10.0.0.1' }] },
});
const deployment = (namespace: string, name: string, labels: Record<string, string>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { namespace, name },
  spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'app' }] } } },
});

const names = (objects: { id: { name: string } }[]) => objects.map((o) => o.id.name);

describe('MeshIndex lookups by Service', () => {
  test('routes are found by parent namespace and name kept apart, whatever characters the names hold', () => {
    const index = new MeshIndex(asManifests([
      route('a', 'r1', [{ kind: 'Service', name: 'b|c' }]),
      route('a|b', 'r2', [{ kind: 'Service', name: 'c' }]),
    ]));
    expect(names(index.routesForService('a', 'b|c'))).toEqual(['r1']);
    expect(names(index.routesForService('a|b', 'c'))).toEqual(['r2']);
  });

  test('a route naming the same parent twice is listed once; routes keep input order', () => {
    const index = new MeshIndex(asManifests([
      route('ns', 'r1', [{ kind: 'Service', name: 'web', port: 80 }, { kind: 'Service', name: 'api' }, { kind: 'service', name: 'web', port: 81 }]),
      route('ns', 'r2', [{ kind: 'Service', name: 'web' }]),
      route('other', 'r3', [{ kind: 'Service', name: 'web', namespace: 'ns' }]),
    ]));
    expect(names(index.routesForService('ns', 'web'))).toEqual(['r1', 'r2', 'r3']);
    expect(names(index.routesForService('ns', 'api'))).toEqual(['r1']);
    expect(index.routesForService('other', 'web')).toEqual([]);
  });

  test('ExternalWorkloads a Service selects come from its own namespace only, in input order', () => {
    const objects = [
      externalWorkload('ns', 'w1', { app: 'vm' }),
      externalWorkload('elsewhere', 'w2', { app: 'vm' }),
      externalWorkload('ns', 'w3', { app: 'vm', extra: 'yes' }),
      externalWorkload('ns', 'w4', { app: 'other' }),
      service('ns', 'vm', { app: 'vm' }),
      service('ns', 'all'),
    ];
    const index = new MeshIndex(asManifests(objects));
    expect(names(index.externalWorkloadsForService(index.service('ns', 'vm')!))).toEqual(['w1', 'w3']);
    expect(index.externalWorkloadsForService(index.service('ns', 'all')!)).toEqual([]);
  });

  test('pods a Service selects: every selector pair must hold, in its namespace; a Service without selector selects none', () => {
    const index = new MeshIndex(asManifests([
      deployment('ns', 'web', { app: 'web', tier: 'front' }),
      deployment('ns', 'web-canary', { app: 'web', tier: 'canary' }),
      deployment('elsewhere', 'web', { app: 'web', tier: 'front' }),
      service('ns', 'web', { app: 'web' }),
      service('ns', 'front', { app: 'web', tier: 'front' }),
      service('ns', 'manual'),
    ]));
    const podsOf = (name: string) => index.podTemplatesForService(index.service('ns', name)!).map((p) => p.owner.id.name);
    expect(podsOf('web')).toEqual(['web', 'web-canary']);
    expect(podsOf('front')).toEqual(['web']);
    expect(podsOf('manual')).toEqual([]);
  });
});
