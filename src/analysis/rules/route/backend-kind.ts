import { isRecord } from '../../../util/json';
import { Severity } from '../../finding';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { isEgressNetworkBackend, isServiceBackend } from '../../model/routes/backends';
import { backendRefs, everyRoute, rules } from '../../model/routes/lists';
import { egressNetworkParents, isOutboundRoute, serviceParents } from '../../model/routes/parents';
import { Rule, RuleArea, RuleContext } from '../../rule';

function describeKind(backend: Record<string, any>): string {
  const group = backend.group === undefined ? '' : String(backend.group);
  return `${group === '' ? 'core' : group}/${backend.kind === undefined ? 'Service' : String(backend.kind)}`;
}

/**
 * The parents under which an EgressNetwork backend is invalid: the outbound policy of each parent is built apart, and
 * there the backend must be that same EgressNetwork (grpc/src/outbound/http.rs convert_backend: "EgressNetwork backends
 * attach to EgressNetwork parents only", "needs to have the same EgressNetwork as a parent"). Without a namespace it is
 * resolved in each parent's namespace.
 */
function parentsRefusing(route: IndexedObject, index: MeshIndex, backend: Record<string, any>): string[] {
  const refusing = serviceParents(route, index).map((p) => `Service ${p.namespace}/${p.name}`);
  for (const p of egressNetworkParents(route, index)) {
    const namespace = typeof backend.namespace === 'string' ? backend.namespace : p.namespace;
    if (p.name !== backend.name || p.namespace !== namespace) refusing.push(`EgressNetwork ${p.namespace}/${p.name}`);
  }
  return [...new Set(refusing)];
}

/** Where the backend is, for messages; built only when there is one to write. */
function pathOf(r: number, b: number): string {
  return `rules[${r}].backendRefs[${b}]`;
}

function checkBackend(ctx: RuleContext, route: IndexedObject, backend: unknown, r: number, b: number): void {
  if (!isRecord(backend)) {
    ctx.report(route, `${pathOf(r, b)} is not an object; each backendRef needs at least a name and a port.`);
    return;
  }
  if (isServiceBackend(backend)) return;
  const path = pathOf(r, b);
  if (!isEgressNetworkBackend(backend)) {
    ctx.report(route, `${path} has kind ${describeKind(backend)}; Linkerd only routes to core Services and policy.linkerd.io `
      + 'EgressNetworks, so it marks this backend InvalidKind and its share of requests fails with HTTP 500.');
    return;
  }
  const refusing = parentsRefusing(route, ctx.index, backend);
  if (refusing.length > 0) {
    ctx.report(route, `${path} is EgressNetwork ${String(backend.name)}, but under ${refusing.join(', ')} (parents of this route) it is not `
      + 'the parent itself; Linkerd only forwards to an EgressNetwork backend under that same EgressNetwork parent, so under those parents '
      + 'it is an invalid backend and its share of requests fails with HTTP 500.');
  }
}

/** Linkerd knows two backend kinds; anything else is admitted for interoperability and then fails. */
export const backendKind: Rule = {
  id: 'LKD-ROUTE-008',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Refused: policy-controller/grpc/src/outbound/http.rs invalid_backend fails the requests of a backend kind '
      + 'Linkerd cannot forward to.',
    title: 'A backendRef is a core Service or an EgressNetwork under the same EgressNetwork parent',
    why: 'The webhook admits other backend kinds (Gateway API allows implementation-specific ones), but Linkerd can only '
      + 'forward to Services and EgressNetworks. Any other kind, or a Service with a non-core group, becomes an invalid '
      + 'backend (InvalidKind) whose share of requests fails. Only routes with a Service or EgressNetwork parent are '
      + 'judged: a route whose parents are Gateways belongs to the gateway implementation, and a Server\'s routes carry no backends.',
    fix: 'Point the backend at a Service (omit group and kind, set name and port); use an EgressNetwork backend only in a '
      + 'route whose parentRef is that EgressNetwork.',
    linkerdSource: 'policy-controller/k8s/status/src/index.rs Index::backend_condition (InvalidKind); '
      + 'policy-controller/k8s/index/src/outbound/index/http.rs backend_kind; '
      + 'policy-controller/grpc/src/outbound/http.rs invalid_backend',
    badExample: 'backendRefs:\n- {group: apps, kind: Deployment, name: orders-v2, port: 8080}',
    goodExample: 'backendRefs:\n- {name: orders-v2, port: 8080}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      // Only the client proxy forwards to backends: a Gateway's routes are its implementation's (ServiceImport and
      // custom backends are theirs to support), and a Server's reach the inbound index without backends.
      if (!isOutboundRoute(route, ctx.index)) continue;
      const list = rules(route);
      for (let r = 0; r < list.length; r++) {
        backendRefs(list[r]).forEach((backend, b) => checkBackend(ctx, route, backend, r, b));
      }
    }
  },
};
