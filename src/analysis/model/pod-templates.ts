/** Pod templates as rules walk them: the output's own, the namespaces with uninjected pods, their containers. */
import { perIndex } from './memo';
import { Injection, MeshIndex, PodTemplate } from './mesh-index';
import { objectLabel } from '../../util/labels';

/** The tables this module builds for an index, each on first use. */
interface Memo {
  ownPods?: PodTemplate[];
  uninjectedNamespaces?: Set<string>;
}

const memo = perIndex((_index: MeshIndex): Memo => ({}));

export function workloadLabel(pod: PodTemplate): string {
  return objectLabel(pod.owner);
}

/** Pod templates of workloads in this output (findings on inventory objects would be dropped anyway). Shared: do not modify. */
export function ownPodTemplates(index: MeshIndex): PodTemplate[] {
  const m = memo(index);
  return m.ownPods ??= index.podTemplates.filter((pod) => !pod.owner.inventory);
}

/**
 * Namespaces with a pod template whose injection is known to be disabled. Rules about uninjected targets skip every
 * other namespace without resolving anything (Servers, routes and policies only reach pods in their own namespace).
 */
export function uninjectedNamespaces(index: MeshIndex): Set<string> {
  const m = memo(index);
  if (!m.uninjectedNamespaces) {
    m.uninjectedNamespaces = new Set();
    for (const pod of index.podTemplates) if (pod.injection === Injection.DISABLED) m.uninjectedNamespaces.add(pod.namespace);
  }
  return m.uninjectedNamespaces;
}

function pushObjects(out: any[], field: unknown): void {
  if (!Array.isArray(field)) return;
  for (const c of field) if (c !== null && typeof c === 'object') out.push(c);
}

/** Containers and init containers (native sidecars are init containers) as plain objects; junk entries dropped. */
export function containersOf(pod: PodTemplate): any[] {
  const out: any[] = [];
  pushObjects(out, pod.spec.containers);
  pushObjects(out, pod.spec.initContainers);
  return out;
}
