/** What the benches compare before they time anything: two synth outputs must hold the same objects. */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';

/** Objects of a synth output, keys sorted (generated L1 classes keep schema order; plain ApiObjects sort keys). */
export function canonicalObjects(dir: string): string[] {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  };
  return fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort()
    .flatMap((f) => yaml.loadAll(fs.readFileSync(path.join(dir, f), 'utf8')).filter(Boolean).map((o) => JSON.stringify(sorted(o))));
}

/** The label cdk8s derives from construct paths, which differ between the library's constructs and a user's. */
const ADDRESS_LABEL = /"cdk8s\.io\/metadata\.addr":"[^"]*"/g;

/** Both sides must write the same objects (up to cdk8s's address label when asked), or the comparison means nothing. */
export function assertSameOutput(a: string, b: string, ignoreAddress = false): void {
  const strip = (objects: string[]) => (ignoreAddress ? objects.map((o) => o.replace(ADDRESS_LABEL, '"cdk8s.io/metadata.addr":""')) : objects);
  const left = strip(canonicalObjects(a));
  const right = strip(canonicalObjects(b));
  const differs = left.length !== right.length || left.some((o, i) => o !== right[i]);
  if (differs) throw new Error(`${a} and ${b} synthesized different objects`);
}
