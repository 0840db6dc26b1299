import { objectLabel } from '../../../util/labels';
import { Severity } from '../../finding';
import { isToolConfigGroup } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { NamespacedLists } from '../../model/namespaced-lists';
import { Rule, RuleArea } from '../../rule';

function sameKind(a: IndexedObject, b: IndexedObject): boolean {
  return a.group === b.group && a.id.kind === b.id.kind;
}

/**
 * The first object of each identity (group, kind, namespace, name). Keyed by the object's own namespace and name
 * strings, whose hashes V8 caches, rather than a joined key built and hashed for each of tens of thousands of objects;
 * the few kinds sharing a namespace and name are then told apart by a scan.
 */
class FirstDefinitions {
  private readonly byName = new NamespacedLists<IndexedObject>();

  /** The earlier object with this entry's identity; undefined when the entry is the first, which it then becomes. */
  public earlierThan(entry: IndexedObject): IndexedObject | undefined {
    const sameName = this.byName.listFor(entry.id.namespace ?? '', entry.id.name);
    const earlier = sameName.find((other) => sameKind(other, entry));
    if (!earlier) sameName.push(entry);
    return earlier;
  }
}

/** Structural equality of two parsed manifests (key order aside), as the API server would store them. */
function sameContent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameContent((a as any)[k], (b as any)[k]));
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
    certainty: 'Ignored: the Kubernetes API server keeps one object per group, kind, namespace and name, so one definition '
      + 'silently replaces the other. Identical copies lose nothing and are warnings.',
    title: 'Each object (group, kind, namespace, name) is defined once',
    why: 'The API server keeps one object per group, kind, namespace and name. A second definition in the same output is '
      + 'not an error anywhere: kubectl and GitOps tools apply both and the later silently replaces the earlier, so one of '
      + 'two Servers, routes or policies never takes effect. Two identical definitions lose nothing (a warning: kustomize refuses them).',
    fix: 'Give each object its own name (or merge the two definitions).',
    linkerdSource: 'not Linkerd: Kubernetes API server (one object per group, kind, namespace and name; the later apply '
      + 'replaces the earlier)',
    badExample: 'kind: Server\nmetadata: {name: orders-http}\nspec: {port: 8080, ...}\n---\nkind: Server\nmetadata: {name: orders-http}\nspec: {port: 9090, ...}',
    goodExample: 'kind: Server\nmetadata: {name: orders-http}\nspec: {port: 8080, ...}\n---\nkind: Server\nmetadata: {name: orders-admin}\nspec: {port: 9090, ...}',
  },
  check(ctx) {
    const first = new FirstDefinitions();
    for (const entry of ctx.index.objects) {
      // A tool's own config file (a kustomization, a k3d cluster) is never applied, and an object without a name cannot be.
      if (entry.inventory || isToolConfigGroup(entry.group) || entry.id.name === '') continue;
      const earlier = first.earlierThan(entry);
      if (!earlier) continue;
      if (sameContent(entry.object, earlier.object)) {
        ctx.report(entry, `${objectLabel(entry)} is defined again, identically, by `
          + `${describe(earlier)}: kubectl applies the same object twice without a change, but kustomize and Flux refuse duplicate resources. `
          + 'Remove one copy.', { severity: Severity.WARNING });
        continue;
      }
      ctx.report(entry, `${objectLabel(entry)} is already defined by `
        + `${describe(earlier)}; applying both leaves only one of them. Rename one of the two objects.`);
    }
  },
};
