import { GATEWAY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { isCoreGroup } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { isServiceBackend } from '../../model/routes/backends';
import { backendRefs, everyRoute, rules } from '../../model/routes/lists';
import { isOutboundRoute } from '../../model/routes/parents';
import { isValidPort } from '../../model/service-ports';
import { Rule, RuleArea } from '../../rule';

function describeRef(backend: Record<string, any>): string {
  return [backend.group !== undefined ? `group ${JSON.stringify(backend.group)}` : '', backend.kind !== undefined ? `kind ${JSON.stringify(backend.kind)}` : '']
    .filter(Boolean).join(', ');
}

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

/**
 * Whether Linkerd's webhook sees this backend as a Service: it compares group and kind exactly (admission.rs
 * validate_http_backend_if_service), while the index reads them case-insensitively, so `kind: service` passes the
 * webhook and then fails as an invalid backend. Only Gateway API routes have their backends checked there.
 */
function webhookChecks(route: IndexedObject, backend: Record<string, any>): boolean {
  const group = backend.group;
  return route.group === GATEWAY_GROUP && (group === undefined || group === '' || group === 'core')
    && (backend.kind === undefined || backend.kind === 'Service');
}

/** A Service backend without a port is refused by Linkerd's webhook, or else an invalid backend whose share fails. */
export const backendPort: Rule = {
  id: 'LKD-ROUTE-006',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Rejected: policy-controller/runtime/src/admission.rs validate_http_backend_if_service refuses a Service '
      + 'backend without a port.',
    title: 'A Service backendRef has a port (1-65535)',
    why: 'Gateway API needs a port to address a Service. Linkerd\'s admission webhook rejects a gateway.networking.k8s.io '
      + 'HTTPRoute or GRPCRoute with a Service backendRef (group omitted, "" or core) without a port or with port 0 '
      + '("cannot reference a Service without a port"), so the apply fails. Where the webhook does not run (a namespace '
      + 'labelled config.linkerd.io/admission-webhooks: disabled, a policy.linkerd.io HTTPRoute, or failurePolicy Ignore '
      + 'while the controller is down), the index turns it into an invalid backend ("missing port for backend Service") '
      + 'that keeps its weight, so its share of requests fails with HTTP 500 (on a Service or EgressNetwork parent: a '
      + 'Server\'s routes keep no backends). `group: core` without a port is not caught by the CRD, '
      + 'and a kind or group spelled in another case (`kind: service`) by neither the CRD nor the webhook, which compare them '
      + 'exactly, while the index reads them case-insensitively.',
    fix: 'Set `port` to the backend Service\'s port (the Service port, not the targetPort); prefer omitting `group` (or "").',
    linkerdSource: 'policy-controller/runtime/src/admission.rs validate_http_backend_if_service, '
      + 'validate_grpc_backend_if_service ("cannot reference a Service without a port"); '
      + 'policy-controller/grpc/src/outbound/http.rs invalid_backend',
    badExample: 'backendRefs:\n- {group: core, kind: Service, name: orders-v1}',
    goodExample: 'backendRefs:\n- {name: orders-v1, port: 8080}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      // The webhook checks every Gateway API route's backends; the index uses them only on Service and EgressNetwork parents.
      const outbound = isOutboundRoute(route, ctx.index);
      const list = rules(route);
      for (let r = 0; r < list.length; r++) {
        const backends = backendRefs(list[r]);
        for (let b = 0; b < backends.length; b++) {
          const backend = backends[b];
          if (!isServiceBackend(backend) || isValidPort(backend.port)) continue;
          const path = `rules[${r}].backendRefs[${b}]`;
          const what = backend.port === undefined ? 'has no port' : `has port ${JSON.stringify(backend.port)}`;
          const invalid = `an invalid backend whose share (weight ${weightOf(backend)}) of requests fails with HTTP 500. Set ${path}.port to a Service port.`;
          if (webhookChecks(route, backend)) {
            const otherwise = outbound ? `, and where it does not run Linkerd treats it as ${invalid}` : `. Set ${path}.port to a Service port.`;
            ctx.report(route, `${path} (Service ${String(backend.name)}) ${what}; Linkerd's webhook rejects a gateway.networking.k8s.io route like this`
              + `${otherwise}${schemaNote(backend)}`, { effect: FindingEffect.REJECTED });
          } else if (outbound) {
            const why = route.group === GATEWAY_GROUP
              ? `the webhook compares group and kind exactly and lets ${describeRef(backend)} through, but Linkerd's index reads them case-insensitively and treats it as`
              : 'nothing refuses it on a policy.linkerd.io HTTPRoute, and Linkerd treats it as';
            ctx.report(route, `${path} (Service ${String(backend.name)}) ${what}; ${why} ${invalid}`, { effect: FindingEffect.IGNORED });
          }
        }
      }
    }
  },
};
