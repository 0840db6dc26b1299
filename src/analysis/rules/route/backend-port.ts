import { Severity } from '../../finding';
import { isCoreGroup } from '../../model/manifest';
import { Rule, RuleArea } from '../../rule';
import { backendRefs, everyRoute, isServiceBackend, isValidPort, rules } from '../../model/route-view';

function weightOf(backend: Record<string, any>): string {
  return backend.weight === undefined ? '1 (default)' : JSON.stringify(backend.weight);
}

/** `group: core` passes the CRD's port check, which only looks at group "". */
function schemaNote(backend: Record<string, any>): string {
  if (typeof backend.group === 'string' && backend.group !== '' && isCoreGroup(backend.group)) {
    return ' The CRD only requires a port when group is "", so group "core" slips past the API server.';
  }
  return '';
}

/** A Service backend without a port is an invalid backend: it keeps its weight and its share fails. */
export const backendPort: Rule = {
  id: 'LKD-ROUTE-006',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  doc: {
    title: 'A Service backendRef has a port (1-65535)',
    why: 'Gateway API needs a port to address a Service. Linkerd turns a Service backend without a port (or port 0) '
      + 'into an invalid backend that keeps its weight, so its share of requests fails with HTTP 500 instead of being '
      + 're-routed. `group: core` without a port is not caught by the CRD.',
    fix: 'Set `port` to the backend Service\'s port (the Service port, not the targetPort); prefer omitting `group` (or "").',
    badExample: 'backendRefs:\n- {group: core, kind: Service, name: orders-v1}',
    goodExample: 'backendRefs:\n- {name: orders-v1, port: 8080}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      const list = rules(route);
      for (let r = 0; r < list.length; r++) {
        const backends = backendRefs(list[r]);
        for (let b = 0; b < backends.length; b++) {
          const backend = backends[b];
          if (!isServiceBackend(backend) || isValidPort(backend.port)) continue;
          const path = `rules[${r}].backendRefs[${b}]`;
          const what = backend.port === undefined ? 'has no port' : `has port ${JSON.stringify(backend.port)}`;
          ctx.report(route, `${path} (Service ${String(backend.name)}) ${what}; Linkerd treats it as an invalid backend and its share `
            + `(weight ${weightOf(backend)}) of requests fails with HTTP 500. Set ${path}.port to a Service port.${schemaNote(backend)}`);
        }
      }
    }
  },
};
