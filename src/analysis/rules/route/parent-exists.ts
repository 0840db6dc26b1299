import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { missingReference } from '../../model/missing-references';
import { everyRoute } from '../../model/routes/lists';
import {
  isEgressNetworkParent, isServerParent, isServiceParent, parentNamespace, ParentRef, parentRefs, refName, serviceParents,
} from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

interface ParentTarget {
  readonly kind: string;
  readonly found: boolean;
  /** Gateways usually belong to another team's install, so a missing one is only a warning. */
  readonly severity: Severity;
}

/** Service parents are looked up once per index (serviceParents, same namespace and name); reuse that answer. */
function serviceParentFound(index: MeshIndex, route: IndexedObject, ref: ParentRef): boolean {
  return serviceParents(route, index).some((p) => p.ref === ref && p.service !== undefined);
}

function lookupParent(index: MeshIndex, ref: ParentRef, route: IndexedObject, namespace: string, name: string): ParentTarget | undefined {
  if (isServiceParent(ref, route)) return { kind: 'Service', found: serviceParentFound(index, route, ref), severity: Severity.ERROR };
  if (isServerParent(ref, route)) return { kind: 'Server', found: !!index.get(POLICY_GROUP, 'Server', namespace, name), severity: Severity.ERROR };
  if (isEgressNetworkParent(ref, route)) {
    return { kind: 'EgressNetwork', found: !!index.get(POLICY_GROUP, 'EgressNetwork', namespace, name), severity: Severity.ERROR };
  }
  // A Gateway parent is another implementation's business: Linkerd neither serves nor reports on it.
  return undefined;
}

function checkRoute(ctx: RuleContext, route: IndexedObject): void {
  const refs = parentRefs(route);
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i];
    const name = refName(ref);
    if (!name) {
      ctx.report(route, `parentRefs[${i}] has no name, so it cannot attach to anything; set parentRefs[${i}].name.`, { effect: FindingEffect.REJECTED });
      continue;
    }
    const namespace = parentNamespace(ref, route);
    const target = lookupParent(ctx.index, ref, route, namespace, name);
    if (!target || target.found) continue;
    const group = target.kind === 'Service' ? '' : POLICY_GROUP;
    // A namespace that is not a DNS label can never exist: no inventory could make this parent appear.
    const impossible = !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(namespace);
    const sure = impossible ? { severity: Severity.ERROR, hint: ` (${JSON.stringify(namespace)} is not a valid namespace name)` }
      : missingReference(ctx.index, group, target.kind, namespace, name);
    const severity = target.severity === Severity.WARNING ? Severity.WARNING : sure.severity;
    ctx.report(route, `parentRefs[${i}] names ${target.kind} ${namespace}/${name}, which is neither in this output nor in the inventory${sure.hint}; `
      + 'the route gets Accepted=False (NoMatchingParent) and is never used.', { effect: FindingEffect.IGNORED, severity });
  }
}

/** A route whose parent does not exist is accepted by the API server and then silently unused. */
export const parentExists: Rule = {
  id: 'LKD-ROUTE-002',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Never applies: a route whose parent is missing gets NoMatchingParent (policy-'
      + 'controller/k8s/status/src/index.rs parent_condition_service) and is not indexed. A parent the analysis '
      + 'cannot see is a warning (a near-miss name) or info.',
    title: 'Every parentRef Linkerd reads names an existing Service, Server or EgressNetwork',
    why: 'Nothing checks references at admission. Linkerd\'s status controller marks a route whose parent is missing '
      + 'NoMatchingParent and its indexes skip it, so traffic keeps flowing as if the route did not exist, and a typo in '
      + 'a parent name shows only in the route status. Parents that live outside this app belong in the inventory. A Gateway '
      + 'parent belongs to another implementation, which Linkerd neither serves nor reports on, so it is not checked here.',
    fix: 'Correct the parent name/namespace, add the parent to the app, or declare it in the analysis inventory if it already exists in the cluster.',
    linkerdSource: 'policy-controller/k8s/status/src/index.rs Index::parent_condition_service, Index::parent_condition_server '
      + '(NoMatchingParent); policy-controller/k8s/index/src/outbound/index.rs Namespace::apply_http_route',
    badExample: 'parentRefs:\n- group: core\n  kind: Service\n  name: ordres   # typo\n  port: 8080',
    goodExample: 'parentRefs:\n- group: core\n  kind: Service\n  name: orders\n  port: 8080',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) checkRoute(ctx, route);
  },
};
