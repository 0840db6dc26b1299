import { FindingEffect, Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { everyRoute } from '../../model/routes/lists';
import { ServiceParent, serviceParents } from '../../model/routes/parents';
import { describePorts, hasServicePort, isValidPort, servicePorts, ServicePortSpec } from '../../model/service-ports';
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
  checkSectionName(ctx, route, parent, servicePorts(service));
}

/**
 * Linkerd reads only the port of a Service parentRef, never its sectionName, so a sectionName can mislead the reader but
 * never detach the route: each case is a warning that says which ports the route really binds to.
 */
function checkSectionName(ctx: RuleContext, route: IndexedObject, parent: ServiceParent, ports: ServicePortSpec[]): void {
  const { ref, position } = parent;
  const named = ports.find((p) => p.name === ref.sectionName);
  const hasPort = isValidPort(ref.port);
  const binds = hasPort ? `the route binds to port ${ref.port}` : 'the route applies to every port of the Service';
  const warn = (message: string, fix: string): void => ctx.report(route, `${message} Linkerd keys a Service parent by its port number and does `
    + `not read sectionName, so ${binds}.`, { severity: Severity.WARNING, fix });
  if (!named) {
    warn(`parentRefs[${position}].sectionName "${ref.sectionName}" names no port of ${describeParent(parent, ports)}.`,
      `Remove parentRefs[${position}].sectionName, or set it to the name of ${hasPort ? `port ${ref.port}` : 'the port meant'}${hasPort ? '' : ' and add that port number'}.`);
  } else if (hasPort && named.port !== ref.port) {
    warn(`parentRefs[${position}] sets sectionName "${ref.sectionName}" (port ${named.port}) and port ${ref.port}, which disagree.`,
      `Keep one port: set parentRefs[${position}].port to ${named.port}, or remove sectionName.`);
  } else if (!hasPort) {
    warn(`parentRefs[${position}] selects port "${ref.sectionName}" by sectionName only.`, `Set parentRefs[${position}].port to ${named.port} (sectionName may stay).`);
  }
}

/** A parentRef bound to a port the Service does not expose attaches to nothing anyone calls. */
export const parentPort: Rule = {
  id: 'LKD-ROUTE-004',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Never applies: policy-controller/k8s/index/src/outbound/index.rs Namespace::apply_http_route binds the route'
      + ' to a port the Service does not have.',
    title: 'A Service parentRef\'s port / sectionName exists on the Service',
    why: 'A route binds to the Service port named in the parentRef. A port the Service does not expose (often the '
      + 'container targetPort by mistake) matches no client connection, so the route silently does nothing. Linkerd never '
      + 'reads the sectionName of a Service parent: without a port the route applies to all ports, and a sectionName that '
      + 'names no port, or another port than `port`, is misleading but binds nothing (a warning).',
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
