import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { missingReference } from '../../model/missing-references';
import { ServiceBackend, serviceBackends } from '../../model/routes/backends';
import { everyRoute } from '../../model/routes/lists';
import { isOutboundRoute } from '../../model/routes/parents';
import { describePorts, hasServicePort, isValidPort, servicePorts } from '../../model/service-ports';
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
    const sure = missingReference(ctx.index, '', 'Service', namespace, name);
    const consequence = unused ? `${UNUSED_BACKEND}, but the route's status reports BackendNotFound` : 'Linkerd reports BackendNotFound and that backend\'s share of requests fails with HTTP 500';
    ctx.report(route, `${pathOf(resolved)} names Service ${namespace}/${name}${parentNamespaceNote(resolved)}, which is neither in this output nor `
      + `in the inventory${sure.hint}; ${consequence}.`, { severity: unused ? Severity.WARNING : sure.severity });
    return;
  }
  if (Array.isArray(service.object.spec?.ports) && !hasServicePort(service, backend.port)) reportPortNotOnService(ctx, route, resolved, unused);
}

/**
 * A backend port that is no port of the Service is not refused: Linkerd's destination controller then takes the number
 * as the pods' port (controller/api/destination/watcher/endpoints_watcher.go getTargetPort), so it works where the
 * pods listen there. An error only where the pods the analysis sees declare ports and none is that one.
 */
function reportPortNotOnService(ctx: RuleContext, route: IndexedObject, resolved: ServiceBackend, unused: boolean): void {
  const { backend, namespace, name, service } = resolved;
  const pods = ctx.index.podTemplatesForService(service!);
  const declared = pods.some((pod) => pod.ports.some((p) => p.containerPort === backend.port));
  const provablyClosed = pods.length > 0 && pods.every((pod) => pod.ports.length > 0 && !pod.ports.some((p) => p.containerPort === backend.port));
  const where = `${pathOf(resolved)}.port ${backend.port} is not a port of Service ${namespace}/${name} (ports: ${describePorts(servicePorts(service))})`;
  const direct = `Linkerd's destination controller then sends to port ${backend.port} on the Service's pods directly`;
  if (declared) {
    ctx.report(route, `${where}; ${direct}, which they declare, so this works on Linkerd, but Gateway API reads backendRef ports as Service `
      + 'ports and other implementations refuse it. Use the Service port.', { severity: Severity.INFO });
  } else if (provablyClosed && !unused) {
    ctx.report(route, `${where}; ${direct}, where none of them declares a port: requests sent to that backend cannot connect. Use the Service `
      + 'port, not the targetPort.');
  } else {
    const consequence = unused ? UNUSED_BACKEND : 'unless they listen there without declaring it, requests sent to that backend fail';
    ctx.report(route, `${where}; ${direct}: ${consequence}. Use the Service port.`, { severity: Severity.WARNING });
  }
}

/** Backends are references too; a typo there fails a share of live traffic. */
export const backendExists: Rule = {
  id: 'LKD-ROUTE-007',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Refused: requests sent to a missing backend fail (policy-controller/grpc/src/outbound/http.rs '
      + 'invalid_backend). A backend the analysis cannot see is a warning or info; a port the pods may still serve is'
      + ' a warning.',
    title: 'A Service backendRef names an existing Service and one of its ports',
    why: 'References are not checked at admission. A missing backend Service keeps its weight and its share of requests '
      + 'fails (Linkerd sets ResolvedRefs=False/BackendNotFound). A port the Service does not expose is taken as the pods\' '
      + 'port by the destination controller (getTargetPort): where the pods the analysis sees declare ports and none is '
      + 'that one, the share cannot connect (error); where they declare it, it works on Linkerd (information: Gateway API '
      + 'means a Service port); where they are not seen or declare no ports, a warning. These failures show up only in '
      + 'production traffic. A backend with weight 0 gets no share, so there either is a warning.',
    fix: 'Fix the backend name/namespace/port, add the Service to the app, or declare it in the inventory.',
    linkerdSource: 'policy-controller/k8s/status/src/index.rs Index::backend_condition (BackendNotFound); '
      + 'policy-controller/grpc/src/outbound/http.rs convert_backend, invalid_backend; '
      + 'controller/api/destination/watcher/endpoints_watcher.go getTargetPort',
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
