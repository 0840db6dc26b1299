import { FindingEffect, Severity } from '../../finding';
import { isCoreGroup } from '../../model/manifest';
import { backendRefs, everyRoute, isServiceBackend, isValidPort, rules } from '../../model/route-view';
import { Rule, RuleArea } from '../../rule';

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

/** A Service backend without a port is refused by Linkerd's webhook, or else an invalid backend whose share fails. */
export const backendPort: Rule = {
  id: 'LKD-ROUTE-006',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED],
  doc: {
    title: 'A Service backendRef has a port (1-65535)',
    why: 'Gateway API needs a port to address a Service. Linkerd\'s admission webhook rejects a gateway.networking.k8s.io '
      + 'HTTPRoute or GRPCRoute with a Service backendRef (group omitted, "" or core) without a port or with port 0 '
      + '("cannot reference a Service without a port"), so the apply fails. Where the webhook does not run (a namespace '
      + 'labelled config.linkerd.io/admission-webhooks: disabled, a policy.linkerd.io HTTPRoute, or failurePolicy Ignore '
      + 'while the controller is down), the index turns it into an invalid backend ("missing port for backend Service") '
      + 'that keeps its weight, so its share of requests fails with HTTP 500. `group: core` without a port is not caught by the CRD.',
    fix: 'Set `port` to the backend Service\'s port (the Service port, not the targetPort); prefer omitting `group` (or "").',
    linkerdSource: 'policy-controller/runtime/src/admission.rs validate_http_backend_if_service, '
      + 'validate_grpc_backend_if_service ("cannot reference a Service without a port"); '
      + 'policy-controller/grpc/src/outbound/http.rs invalid_backend',
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
          ctx.report(route, `${path} (Service ${String(backend.name)}) ${what}; Linkerd's webhook rejects a gateway.networking.k8s.io route like this, and where it does not run `
            + `Linkerd treats it as an invalid backend whose share (weight ${weightOf(backend)}) of requests fails with HTTP 500. `
            + `Set ${path}.port to a Service port.${schemaNote(backend)}`, { effect: FindingEffect.REJECTED });
        }
      }
    }
  },
};
