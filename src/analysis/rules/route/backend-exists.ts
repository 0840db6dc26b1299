import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';
import { backendNamespace, backendRefs, describePorts, everyRoute, isServiceBackend, isValidPort, rules, servicePorts } from '../route-helpers';

function checkBackend(ctx: RuleContext, route: IndexedObject, backend: Record<string, any>, path: string): void {
  if (typeof backend.name !== 'string' || !isValidPort(backend.port)) return;
  const namespace = backendNamespace(backend, route);
  const service = ctx.index.service(namespace, backend.name);
  if (!service) {
    ctx.report(route, `${path} names Service ${namespace}/${backend.name}, which is neither in this output nor in the inventory; `
      + 'Linkerd reports BackendNotFound and that backend\'s share of requests fails with HTTP 500.');
    return;
  }
  const ports = servicePorts(service);
  if (Array.isArray(service.object.spec?.ports) && !ports.some((p) => p.port === backend.port)) {
    ctx.report(route, `${path}.port ${backend.port} is not a port of Service ${namespace}/${backend.name} (ports: ${describePorts(ports)}); `
      + 'requests sent to that backend cannot connect. Use the Service port, not the targetPort.');
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
      + 'nowhere. Both show up only as errors in production traffic.',
    fix: 'Fix the backend name/namespace/port, add the Service to the app, or declare it in the inventory.',
    badExample: 'backendRefs:\n- {name: orders-v3, port: 8080}   # no such Service',
    goodExample: 'backendRefs:\n- {name: orders-v2, port: 8080}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      rules(route).forEach((rule, r) => {
        backendRefs(rule).forEach((backend, b) => {
          if (isServiceBackend(backend)) checkBackend(ctx, route, backend, `rules[${r}].backendRefs[${b}]`);
        });
      });
    }
  },
};
