/**
 * The served-kinds table (LKD-MESH-012) against the CRDs it cites: Linkerd 2.20's CRDs in ../shared/reference must
 * serve exactly the Linkerd kinds and versions of the table, and the Gateway API kinds there must be in its kind list.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { GATEWAY_API_GROUP, GATEWAY_API_KINDS, LINKERD_SERVED_VERSIONS } from '../../src/core/served-kinds';
import { GATEWAY_API_CRDS, LINKERD_CRDS, describeWithShared } from '../support/shared';

function servedByCrds(dir: string): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    for (const doc of yaml.loadAll(fs.readFileSync(path.join(dir, file), 'utf8')) as any[]) {
      if (doc?.kind !== 'CustomResourceDefinition') continue;
      const kinds = out.get(doc.spec.group) ?? new Map<string, string[]>();
      kinds.set(doc.spec.names.kind, doc.spec.versions.filter((v: any) => v.served !== false).map((v: any) => v.name));
      out.set(doc.spec.group, kinds);
    }
  }
  return out;
}

describeWithShared('served kinds', () => {
  test('the Linkerd groups of the table are exactly what Linkerd 2.20\'s CRDs serve', () => {
    const crds = servedByCrds(LINKERD_CRDS);
    const fromCrds: Record<string, Record<string, string[]>> = {};
    for (const [group, kinds] of crds) {
      if (group === GATEWAY_API_GROUP) continue;
      fromCrds[group] = Object.fromEntries([...kinds].map(([k, v]) => [k, [...v].sort()]));
    }
    const table = Object.fromEntries(Object.entries(LINKERD_SERVED_VERSIONS).map(([g, kinds]) => [g, Object.fromEntries(
      Object.entries(kinds).map(([k, v]) => [k, [...v].sort()]))]));
    expect(table).toEqual(fromCrds);
  });

  test('every Gateway API kind of the reference CRDs (Linkerd\'s bundled and v1.2.1) is known', () => {
    const kinds = [LINKERD_CRDS, GATEWAY_API_CRDS].flatMap((d) => [...(servedByCrds(d).get(GATEWAY_API_GROUP) ?? new Map()).keys()]);
    expect(kinds.length).toBeGreaterThan(3);
    expect(kinds.filter((k) => !GATEWAY_API_KINDS.includes(k))).toEqual([]);
  });
});
