/**
 * Rules never throw on malformed input. Every value reachable in a feature-rich route, Service and GRPCRoute is
 * replaced in turn by values of the wrong type, and the whole rule pack must still run.
 */
import { analyze } from '../../../src/analysis/engine';
import { MeshIndex } from '../../../src/analysis/model/mesh-index';
import { resolveContext } from '../../../src/analysis/options';
import { RuleArea } from '../../../src/analysis/rule';
import { ALL_RULES } from '../../../src/analysis/rules';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

const ROUTE_AND_RETRY_RULES = ALL_RULES.filter((r) => r.area === RuleArea.ROUTE || r.area === RuleArea.RETRY);

const WRONG_VALUES: unknown[] = [null, 7, 'x', [], {}, [null, 3]];

function richObjects(): any[] {
  const objects = meshLab();
  const route = pick(objects, 'HTTPRoute', 'orders-split');
  route.metadata.annotations = { 'retry.linkerd.io/http': '5xx', 'retry.linkerd.io/limit': '2', 'retry.linkerd.io/timeout': '1s', 'timeout.linkerd.io/request': '5s' };
  route.spec.hostnames = ['orders'];
  route.spec.rules.push({
    matches: [{ path: { type: 'PathPrefix', value: '/a' }, method: 'POST', headers: [{ name: 'x', value: 'y' }], queryParams: [{ name: 'q', value: '1' }] }],
    backendRefs: [{ name: 'orders-v1', port: 8080, weight: 3, filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'h' } }] }],
    timeouts: { request: '1m30s', backendRequest: '2s' },
  });
  pick(objects, 'Service', 'orders').metadata.annotations = { 'retry.linkerd.io/http': '5xx', 'timeout.linkerd.io/response': '2s' };
  objects.push({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GRPCRoute',
    metadata: { name: 'orders-grpc', namespace: 'mesh-lab', annotations: { 'retry.linkerd.io/grpc': 'unavailable' } },
    spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'orders' }], rules: [{ matches: [{ method: { service: 'a.B', method: 'C' } }], backendRefs: [{ name: 'orders-v1', port: 8080 }] }] },
  }, {
    // A rule filter Linkerd cannot convert drops the whole route, so it has a route of its own: orders-split stays in
    // the outbound model, where the GRPCRoute competes with it.
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'orders-mirror', namespace: 'mesh-lab' },
    spec: {
      parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }],
      rules: [{ filters: [{ type: 'RequestMirror', requestMirror: { backendRef: { name: 'orders-v2', port: 8080 }, percent: 5 } }], backendRefs: [{ name: 'orders-v1', port: 8080 }] }],
    },
  }, {
    apiVersion: 'linkerd.io/v1alpha2', kind: 'ServiceProfile', metadata: { name: 'orders.mesh-lab.svc.cluster.local', namespace: 'mesh-lab' },
  });
  return objects;
}

/** Paths (as key lists) to every value inside `value`. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => paths(v, [...prefix, k]))];
}

function replaced(objects: any[], objectIndex: number, path: Array<string | number>, wrong: unknown): any[] {
  const copy = JSON.parse(JSON.stringify(objects));
  if (path.length === 0) {
    copy[objectIndex] = wrong;
    return copy;
  }
  let holder = copy[objectIndex];
  for (const key of path.slice(0, -1)) holder = holder[key];
  holder[path[path.length - 1]] = wrong;
  return copy;
}

/**
 * Runs the route and retry rules directly (not through analyze()), so that a crash can only come from a rule. The
 * index is built first; when the index itself cannot take the input, the case is counted and skipped.
 */
function runRules(objects: any[]): 'index-failed' | 'ran' {
  let index: MeshIndex;
  try {
    index = new MeshIndex(asManifests(objects));
  } catch {
    return 'index-failed';
  }
  const context = resolveContext();
  for (const rule of ROUTE_AND_RETRY_RULES) {
    try {
      rule.check({ index, context, report: () => undefined });
    } catch (e) {
      throw new Error(`${rule.id} threw: ${(e as Error).message}`);
    }
  }
  return 'ran';
}

test('every route and retry rule survives wrong types anywhere in routes, Services and profiles', () => {
  const base = richObjects();
  const targets = base.map((o, i) => [o, i] as const).filter(([o]) => ['HTTPRoute', 'GRPCRoute', 'Service', 'ServiceProfile'].includes(o.kind));
  const outcomes = { 'ran': 0, 'index-failed': 0 };
  for (const [object, index] of targets) {
    for (const path of paths(object).filter((p) => p[0] !== 'apiVersion' && p[0] !== 'kind')) {
      for (const wrong of WRONG_VALUES) {
        const where = `${object.kind} ${object.metadata.name} ${path.join('.')} = ${JSON.stringify(wrong)}`;
        try {
          outcomes[runRules(replaced(base, index, path, wrong))]++;
        } catch (e) {
          throw new Error(`${where}: ${(e as Error).message}`);
        }
      }
    }
  }
  expect(outcomes.ran).toBeGreaterThan(500);
  // The index cannot yet iterate a non-list spec.parentRefs (e.g. 7 or {}); reported to the lead, skipped here.
  expect(outcomes['index-failed']).toBeLessThan(10);
});

test('the rich fixture itself triggers many route and retry rules', () => {
  const ids = new Set(analyze(asManifests(richObjects())).findings.map((f) => f.ruleId));
  expect([...ids].filter((id) => id.startsWith('LKD-ROUTE') || id.startsWith('LKD-RETRY')).length).toBeGreaterThanOrEqual(10);
});
