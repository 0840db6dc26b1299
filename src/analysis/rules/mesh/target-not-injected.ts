import { GATEWAY_GROUP, POLICY_GROUP } from '../../../core/vocabulary';
import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { authorizationTarget, targetObject } from '../../model/inbound/authorizations';
import { serverCoverage } from '../../model/inbound/servers';
import { injectionOrigin } from '../../model/injector/injection';
import { IndexedObject, Injection, MeshIndex, PodTemplate } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { uninjectedNamespaces, workloadLabel } from '../../model/pod-templates';
import { asRef, isPolicyRef, refList } from '../../model/refs';
import { isServerParent } from '../../model/routes/parents';
import { Rule, RuleContext, RuleArea } from '../../rule';

/** Pods a Server governs whose injection is known to be disabled (unknown injection is not reported). */
function uninjectedPods(index: MeshIndex, server: IndexedObject): PodTemplate[] {
  return serverCoverage(index).podsOf(server).filter((pod) => pod.injection === Injection.DISABLED);
}

/**
 * Certain (an error) where every pod the Server selects is uninjected and the analysis sees all pods of the namespace;
 * where pods deployed elsewhere may be selected too, with a proxy, a warning.
 */
function reportServerPods(ctx: RuleContext, subject: IndexedObject, server: IndexedObject, via: string): void {
  const pods = uninjectedPods(ctx.index, server);
  if (pods.length === 0) return;
  const certain = pods.length === serverCoverage(ctx.index).podsOf(server).length && ctx.index.seesPodTemplates(server.id.namespace ?? '');
  ctx.report(subject, `${via} applies to ${listSome(pods.map((p) => `${workloadLabel(p)} (${injectionOrigin(ctx.index, p)})`))}, `
    + 'which Linkerd does not inject; without a proxy nothing enforces it.', certain ? undefined : { severity: Severity.WARNING });
}

function serverByName(index: MeshIndex, namespace: string | undefined, name: unknown): IndexedObject | undefined {
  return typeof name === 'string' ? index.get(POLICY_GROUP, 'Server', namespace, name) : undefined;
}

function checkRouteServers(ctx: RuleContext, subject: IndexedObject, route: IndexedObject, via: string): void {
  for (const parent of refList(specOf(route).parentRefs).filter((ref) => isServerParent(ref, route))) {
    const server = serverByName(ctx.index, route.id.namespace, parent.name);
    if (server) reportServerPods(ctx, subject, server, `${via} (through Server ${server.id.name})`);
  }
}

function checkAuthorizationPolicy(ctx: RuleContext, policy: IndexedObject): void {
  const target = authorizationTarget(policy);
  if (!target) return;
  if (target.kind === 'Namespace') {
    const pods = ctx.index.podTemplatesIn(target.name);
    if (pods.length > 0 && pods.every((p) => p.injection === Injection.DISABLED)) {
      ctx.report(policy, `AuthorizationPolicy ${policy.id.name} targets Namespace ${target.name}, where no workload is injected `
        + `(${injectionOrigin(ctx.index, pods[0])}); nothing enforces it.`,
      ctx.index.seesPodTemplates(target.name) ? undefined : { severity: Severity.WARNING });
    }
    return;
  }
  const object = targetObject(ctx.index, policy, target);
  if (!object) return;
  if (target.kind === 'Server') reportServerPods(ctx, policy, object, `AuthorizationPolicy ${policy.id.name}`);
  else checkRouteServers(ctx, policy, object, `AuthorizationPolicy ${policy.id.name}`);
}

/** Route kinds that can have a Server parent, in the order they are reported. */
const ROUTE_KINDS: Array<[string, string]> = [[POLICY_GROUP, 'HTTPRoute'], [GATEWAY_GROUP, 'HTTPRoute'], [GATEWAY_GROUP, 'GRPCRoute']];

/** Inbound policy is enforced by the target's proxy; an uninjected target makes the objects dead letters. */
export const targetNotInjectedRule: Rule = {
  id: 'LKD-MESH-001',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Never applies: the injector leaves these pods without a proxy (pkg/inject/report.go disabledByAnnotation, '
      + 'Injectable), and policy is served only to a pod\'s own proxy (policy-controller/grpc/src/inbound.rs '
      + 'InboundPolicyServer::watch_port). Where the analysis does not see every pod of the namespace, pods deployed '
      + 'elsewhere may carry one: a warning.',
    title: 'Servers, inbound routes and policies target injected workloads',
    why: 'Servers, AuthorizationPolicies, inbound (Server-parented) routes and rate limits are enforced by the proxy of the '
      + 'pods they select. When those pods are not injected (linkerd.io/inject: disabled on the pod template or namespace), '
      + 'the objects are accepted but nothing enforces them, and the port stays wide open.',
    fix: 'Annotate the namespace or pod template with linkerd.io/inject: enabled, or drop the policy objects.',
    linkerdSource: 'pkg/inject/report.go (r *Report) disabledByAnnotation (linkerd.io/inject: disabled on pod or namespace); '
      + 'policy-controller/grpc/src/inbound.rs InboundPolicyServer::watch_port (policy is served only to a pod\'s '
      + 'own proxy)',
    badExample: 'kind: Deployment\nspec:\n  template:\n    metadata:\n      annotations:\n        linkerd.io/inject: disabled   # selected by Server orders-http',
    goodExample: 'kind: Deployment\nspec:\n  template:\n    metadata:\n      annotations:\n        linkerd.io/inject: enabled',
  },
  check(ctx) {
    // Servers, routes and rate limits only reach pods in their own namespace, and a Namespace target is a namespace:
    // an object whose namespace has no uninjected pod template cannot be reported, so it is not resolved at all.
    const uninjected = uninjectedNamespaces(ctx.index);
    if (uninjected.size === 0) return;
    const mayApply = (entry: IndexedObject) => uninjected.has(entry.id.namespace ?? '');
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      if (mayApply(server)) reportServerPods(ctx, server, server, `Server ${server.id.name}`);
    }
    for (const policy of ctx.index.own(POLICY_GROUP, 'AuthorizationPolicy')) {
      // A Namespace target may name another namespace than the policy's own.
      if (mayApply(policy) || authorizationTarget(policy)?.kind === 'Namespace') checkAuthorizationPolicy(ctx, policy);
    }
    for (const limit of ctx.index.own(POLICY_GROUP, 'HTTPLocalRateLimitPolicy')) {
      if (!mayApply(limit)) continue;
      const ref = asRef(specOf(limit).targetRef);
      const server = isPolicyRef(ref, 'Server') ? serverByName(ctx.index, limit.id.namespace, ref!.name) : undefined;
      if (server) reportServerPods(ctx, limit, server, `HTTPLocalRateLimitPolicy ${limit.id.name}`);
    }
    for (const [group, kind] of ROUTE_KINDS) {
      for (const route of ctx.index.own(group, kind)) {
        if (mayApply(route)) checkRouteServers(ctx, route, route, `${route.id.kind} ${route.id.name}`);
      }
    }
  },
};
