import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea } from '../../rule';

function identity(entry: IndexedObject): string {
  return `${entry.group}|${entry.id.kind}|${entry.id.namespace ?? ''}|${entry.id.name}`;
}

function describe(entry: IndexedObject): string {
  return entry.source.constructPath ?? (entry.source.file ? `${entry.source.file}${entry.source.line ? `:${entry.source.line}` : ''}` : 'the input');
}

/**
 * Two objects with one identity: nothing in cdk8s or kubectl refuses them, the later apply simply replaces the earlier
 * object, so one of two Servers (or routes, policies, …) silently never exists. Inventory objects may be shadowed.
 */
export const duplicateObjectsRule: Rule = {
  id: 'LKD-MESH-009',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    title: 'Each object (group, kind, namespace, name) is defined once',
    why: 'The API server keeps one object per group, kind, namespace and name. A second definition in the same output is '
      + 'not an error anywhere: kubectl and GitOps tools apply both and the later silently replaces the earlier, so one of '
      + 'two Servers, routes or policies never takes effect.',
    fix: 'Give each object its own name (or merge the two definitions).',
    badExample: 'kind: Server\nmetadata: {name: orders-http}\nspec: {port: 8080, ...}\n---\nkind: Server\nmetadata: {name: orders-http}\nspec: {port: 9090, ...}',
    goodExample: 'kind: Server\nmetadata: {name: orders-http}\nspec: {port: 8080, ...}\n---\nkind: Server\nmetadata: {name: orders-admin}\nspec: {port: 9090, ...}',
  },
  check(ctx) {
    const first = new Map<string, IndexedObject>();
    for (const entry of ctx.index.objects) {
      if (entry.inventory) continue;
      const key = identity(entry);
      const earlier = first.get(key);
      if (!earlier) {
        first.set(key, entry);
        continue;
      }
      ctx.report(entry, `${entry.id.kind} ${entry.id.namespace ? `${entry.id.namespace}/` : ''}${entry.id.name} is already defined by `
        + `${describe(earlier)}; applying both leaves only one of them. Rename one of the two objects.`);
    }
  },
};
