import { FindingEffect, Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import {
  ServiceParent, ServicePortSpec, describePorts, everyRoute, hasServicePort, isValidPort, serviceParents, servicePorts,
} from '../../model/route-view';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** The parent and its ports, for messages; built only when there is one to write. */
function describeParent(parent: ServiceParent, ports: ServicePortSpec[]): string {
  return `Service ${parent.namespace}/${parent.name} (ports: ${describePorts(ports)})`;
}

function checkPort(ctx: RuleContext, route: IndexedObject, parent: ServiceParent, service: IndexedObject): void {
  const { ref, position } = parent;
  if (ref.port !== undefined && !isValidPort(ref.port)) {
    ctx.report(route, `parentRefs[${position}].port is ${JSON.stringify(ref.port)}; it must be a Service port number 1-65535 of `
      + `${describeParent(parent, servicePorts(service))}.`, { effect: FindingEffect.REJECTED });
    return;
  }
  if (isValidPort(ref.port) && !hasServicePort(service, ref.port)) {
    ctx.report(route, `parentRefs[${position}].port ${ref.port} is not a port of ${describeParent(parent, servicePorts(service))}; the route binds `
      + 'to a port no client calls. Use the Service port (not the targetPort).', { effect: FindingEffect.IGNORED });
  }
  if (ref.sectionName === undefined) return;
  const ports = servicePorts(service);
  const named = ports.find((p) => p.name === ref.sectionName);
  if (!named) {
    ctx.report(route, `parentRefs[${position}].sectionName "${ref.sectionName}" names no port of ${describeParent(parent, ports)}; `
      + 'sectionName must be a Service port name.', { effect: FindingEffect.IGNORED });
  } else if (isValidPort(ref.port) && named.port !== ref.port) {
    ctx.report(route, `parentRefs[${position}] sets sectionName "${ref.sectionName}" (port ${named.port}) and port ${ref.port}, `
      + 'which disagree; keep one of them.');
  } else if (!isValidPort(ref.port)) {
    ctx.report(route, `parentRefs[${position}] selects port "${ref.sectionName}" by sectionName only; Linkerd's outbound index `
      + `keys Service parents by port number, so the route applies to every port of the Service. Add port: ${named.port}.`,
    { severity: Severity.WARNING, fix: `Set parentRefs[${position}].port to ${named.port} (sectionName may stay).` });
  }
}

/** A parentRef bound to a port the Service does not expose attaches to nothing anyone calls. */
export const parentPort: Rule = {
  id: 'LKD-ROUTE-004',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    title: 'A Service parentRef\'s port / sectionName exists on the Service',
    why: 'A route binds to the Service port named in the parentRef. A port the Service does not expose (often the '
      + 'container targetPort by mistake) matches no client connection, so the route silently does nothing. A sectionName '
      + 'without a port is not used by Linkerd to narrow the attachment: the route applies to all ports.',
    fix: 'Use a `port` (Service port, not targetPort) or `sectionName` (Service port name) that the parent Service declares.',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index.rs Namespace::apply_http_route (a parentRef port selects '
      + 'one Service port, none selects all; sectionName is not read)',
    badExample: 'kind: Service\nspec:\n  ports: [{name: http, port: 80, targetPort: 8080}]\n---\nparentRefs:\n- {group: core, kind: Service, name: orders, port: 8080}',
    goodExample: 'kind: Service\nspec:\n  ports: [{name: http, port: 80, targetPort: 8080}]\n---\nparentRefs:\n- {group: core, kind: Service, name: orders, port: 80}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      for (const parent of serviceParents(route, ctx.index)) {
        if (parent.service && Array.isArray(parent.service.object.spec?.ports)) checkPort(ctx, route, parent, parent.service);
      }
    }
  },
};
