/**
 * The same objects as other tools write them, for `analyze` against js-yaml's `loadAll` (bench/run.ts). The texts are
 * generated from the objects cdk8s wrote (B), so every writer's text holds the same objects and the same findings.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { canonicalObjects } from './compare';

/** Who wrote the YAML: cdk8s (B's output as is), kubectl, Helm, PyYAML. */
export type Writer = 'cdk8s' | 'kubectl' | 'helm' | 'pyyaml';
export const WRITERS: readonly Writer[] = ['cdk8s', 'kubectl', 'helm', 'pyyaml'];

function objectsOf(dir: string): Record<string, unknown>[] {
  return canonicalObjects(dir).map((o) => JSON.parse(o));
}

/**
 * `kubectl get -o yaml`: one `kind: List` document, keys sorted, sequence items at their parent key's indentation
 * (Go's YAML writer), `metadata.resourceVersion: ""` on the List.
 */
function kubectl(objects: Record<string, unknown>[]): string {
  const list = { apiVersion: 'v1', items: objects, kind: 'List', metadata: { resourceVersion: '' } };
  return yaml.dump(list, { lineWidth: -1, noArrayIndent: true, sortKeys: true });
}

/**
 * `helm template`: one document per template, each after `---` and a `# Source:` comment, values written through
 * `| quote` (double-quoted strings), sequence items at their parent key's indentation as templates usually write them.
 */
function helm(objects: Record<string, unknown>[]): string {
  return objects.map((o) => {
    const kind = String(o.kind).toLowerCase();
    const body = yaml.dump(o, { lineWidth: -1, noArrayIndent: true, forceQuotes: true, quotingType: '"' });
    return `---\n# Source: mesh/templates/${kind}.yaml\n${body}`;
  }).join('');
}

/**
 * PyYAML (and tools built on it) writing Python objects that share dicts: one `kind: List` in which every repeated
 * map or list is written once with an anchor and then as an alias (`&id001` / `*id001`).
 */
function pyyaml(objects: Record<string, unknown>[]): string {
  const shared = new Map<string, unknown>();
  const share = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const rebuilt = Array.isArray(v) ? v.map(share) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, share(x)]));
    const key = JSON.stringify(v);
    if (key.length < 24) return rebuilt; // small maps ({}, {port: 80}) stay inline, as anchors would cost more
    if (!shared.has(key)) shared.set(key, rebuilt);
    return shared.get(key);
  };
  const list = { apiVersion: 'v1', kind: 'List', items: objects.map((o) => ({ ...(share(o) as object) })) };
  return yaml.dump(list, { lineWidth: -1 });
}

/** Writes B's objects (`fromDir`, written by cdk8s) as `writer` writes them into `toDir`; returns the directory to read. */
export function writeAs(writer: Writer, fromDir: string, toDir: string): string {
  if (writer === 'cdk8s') return fromDir;
  const objects = objectsOf(fromDir);
  const text = writer === 'kubectl' ? kubectl(objects) : writer === 'helm' ? helm(objects) : pyyaml(objects);
  fs.mkdirSync(toDir, { recursive: true });
  fs.writeFileSync(path.join(toDir, `${writer}.yaml`), text);
  return toDir;
}
