/**
 * explain, diff and plan-deny never throw on what the engine accepts: every mistake of the mutation corpus and a
 * wrong value at every field of mesh-lab's policy and route objects.
 */
import { manifests } from './mesh-lab-fixture';
import { MeshReachability } from '../../src';
import {
  diffManifests, explainPort, findPort, findServicePort, formatDiffMarkdown, formatDiffSarif, formatDiffText, formatPortExplanation,
  formatServiceExplanation, meshModel, planDenyManifests,
} from '../../src/analysis/reachability';
import { MUTATIONS, meshLabObjects, mutate } from '../robustness/mutation-corpus';

const WRONG = [null, 7, 'x', [], {}, [{}]];
const KINDS = new Set(['Server', 'AuthorizationPolicy', 'MeshTLSAuthentication', 'HTTPRoute', 'Service', 'Namespace', 'Deployment']);

function fieldPaths(value: unknown, at: (string | number)[], out: (string | number)[][]): void {
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    const p = [...at, Array.isArray(value) ? Number(k) : k];
    out.push(p);
    fieldPaths(v, p, out);
  }
}

function exercise(base: any[], head: any[]): void {
  const d = diffManifests(manifests(base), manifests(head));
  formatDiffText(d);
  formatDiffMarkdown(d);
  formatDiffSarif(d, { version: '0.0.0', informationUri: 'https://example.invalid' });
  const model = meshModel(manifests(head));
  for (const port of model.ports) {
    const found = findPort(model, port.target);
    if (typeof found === 'string') continue;
    const e = explainPort(model, found, { path: '/' });
    if (typeof e !== 'string') formatPortExplanation(e);
  }
  for (const s of model.services) {
    const found = findServicePort(model, s.target);
    if (typeof found !== 'string') formatServiceExplanation(found);
  }
  planDenyManifests(manifests(head), 'mesh-lab');
}

describe('reachability on hostile input', () => {
  const lab = meshLabObjects();

  test('an unchanged mesh has no change, through the library call too', () => {
    expect(MeshReachability.diff(lab, lab).changes).toEqual([]);
  });

  test('every mutation of the corpus', () => {
    const crashes: string[] = [];
    for (const m of MUTATIONS) {
      try {
        exercise(lab, mutate(lab, m));
      } catch (e) {
        crashes.push(`${m.instance}: ${(e as Error).stack?.split('\n').slice(0, 2).join(' ')}`);
      }
    }
    expect(crashes).toEqual([]);
  }, 120_000);

  test('a wrong value at every field of the policy and route objects', () => {
    const crashes = new Map<string, string>();
    let variants = 0;
    lab.forEach((obj, o) => {
      if (!KINDS.has(obj.kind)) return;
      const paths: (string | number)[][] = [];
      fieldPaths(obj, [], paths);
      for (const p of paths) {
        for (const wrong of WRONG) {
          const copy = JSON.parse(JSON.stringify(lab));
          let at = copy[o];
          for (const k of p.slice(0, -1)) at = at[k];
          at[p[p.length - 1]] = JSON.parse(JSON.stringify(wrong));
          variants++;
          try {
            exercise(lab, copy);
          } catch (e) {
            const frame = ((e as Error).stack ?? '').split('\n')[1]?.trim() ?? '';
            if (!crashes.has(frame)) crashes.set(frame, `${obj.kind} ${p.join('.')} = ${JSON.stringify(wrong)}: ${(e as Error).message} ${frame}`);
          }
        }
      }
    });
    expect(variants).toBeGreaterThan(300);
    expect([...crashes.values()]).toEqual([]);
  }, 300_000);
});

// jsii callers lose the types: the options are validated through the context-option table, as the CLI's flags are.
describe('MeshReachability options of the wrong shape', () => {
  const lab = meshLabObjects();
  test.each([
    [{ probeNetworks: 'x' }, /^MeshReachability: option probeNetworks must be CIDRs/],
    [{ probeNetworks: ['10.0.0.0/33'] }, /^MeshReachability: option probeNetworks must be CIDRs \(bad: 10\.0\.0\.0\/33\)/],
    [{ clusterNetworks: [7] }, /^MeshReachability: option clusterNetworks /],
    [{ defaultInboundPolicy: 'open' }, /^MeshReachability: option defaultInboundPolicy /],
    [{ trustDomain: 'Not A Domain' }, /^MeshReachability: option trustDomain /],
    ['deny', /^MeshReachability: options must be an object/],
  ])('%j is refused with the option named', (options, message) => {
    expect(() => MeshReachability.explain(lab, 'mesh-lab/orders-v1:8080', options as any)).toThrow(message);
  });

  test('valid options are taken', () => {
    const r = MeshReachability.explain(lab, 'mesh-lab/orders-v1:8080', { caller: 'kubelet', defaultInboundPolicy: 'deny', clusterNetworks: ['10.0.0.0/8'] });
    expect(r.defaultPolicy).toBe('deny');
  });
});
