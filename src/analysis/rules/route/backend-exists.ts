import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { missingReference } from '../../model/policy-view';
import {
  ServiceBackend, describePorts, everyRoute, hasServicePort, isOutboundRoute, isValidPort, serviceBackends, servicePorts,
} from '../../model/route-view';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** Where the backend is, for messages; built only when there is one to write. */
function pathOf(backend: ServiceBackend): string {
  return `rules[${backend.rule}].backendRefs[${backend.position}]`;
}

/** Why a consumer route's backend is looked up in another namespace than the route's. */
function parentNamespaceNote(backend: ServiceBackend): string {
  return backend.defaultedToParent ? ' (Linkerd\'s outbound index resolves a backendRef without a namespace in its parent\'s namespace, not in '
    + 'the route\'s: set the backendRef\'s namespace to send elsewhere)' : '';
}

/**
 * A backend with weight 0 is never picked (Gateway API: no traffic for that entry), so a wrong reference there fails
 * no request: a warning, not an error.
 */
const UNUSED_BACKEND = 'it has weight 0, so no request goes there';

function checkBackend(ctx: RuleContext, route: IndexedObject, resolved: ServiceBackend): void {
  const { backend, namespace, name, service } = resolved;
  if (!isValidPort(backend.port)) return;
  const unused = backend.weight === 0;
  if (!service) {
    const sure = missingReference(ctx.index, '', 'Service', namespace);
    const consequence = unused ? `${UNUSED_BACKEND}, but the route's status reports BackendNotFound` : 'Linkerd reports BackendNotFound and that backend\'s share of requests fails with HTTP 500';
    ctx.report(route, `${pathOf(resolved)} names Service ${namespace}/${name}${parentNamespaceNote(resolved)}, which is neither in this output nor `
      + `in the inventory${sure.hint}; ${consequence}.`, { severity: unused ? Severity.WARNING : sure.severity });
    return;
  }
  if (Array.isArray(service.object.spec?.ports) && !hasServicePort(service, backend.port)) {
    const consequence = unused ? UNUSED_BACKEND : 'requests sent to that backend cannot connect';
    ctx.report(route, `${pathOf(resolved)}.port ${backend.port} is not a port of Service ${namespace}/${name} (ports: ${describePorts(servicePorts(service))}); `
      + `${consequence}. Use the Service port, not the targetPort.`, unused ? { severity: Severity.WARNING } : undefined);
  }
}

/** Backends are references too; a typo there fails a share of live traffic. */
export const backendExists: Rule = {
  id: 'LKD-ROUTE-007',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  doc: {
    title: 'A Service backendRef names an existing Service and one of its ports',
    why: 'References are not checked at admission. A missing backend Service keeps its weight and its share of requests '
      + 'fails (Linkerd sets ResolvedRefs=False/BackendNotFound); a port the Service does not expose sends that share '
      + 'nowhere. Both show up only as errors in production traffic. A backend with weight 0 gets no share, so there '
      + 'either is a warning.',
    fix: 'Fix the backend name/namespace/port, add the Service to the app, or declare it in the inventory.',
    linkerdSource: 'policy-controller/k8s/status/src/index.rs Index::backend_condition (BackendNotFound); '
      + 'policy-controller/grpc/src/outbound/http.rs convert_backend, invalid_backend',
    badExample: 'backendRefs:\n- {name: orders-v3, port: 8080}   # no such Service',
    goodExample: 'backendRefs:\n- {name: orders-v2, port: 8080}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      // Backends matter only where Linkerd routes: on Service and EgressNetwork parents. Inbound (Server) routes carry
      // no backends in the policy controller's inbound index (k8s/index/src/inbound/index/http.rs drops them).
      if (!isOutboundRoute(route, ctx.index)) continue;
      for (const backend of serviceBackends(route, ctx.index)) checkBackend(ctx, route, backend);
    }
  },
};
