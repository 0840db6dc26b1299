import { WORKLOAD_GROUP } from '../../../core/vocabulary';
import { isRecord, listOf } from '../../../util/json';
import { objectLabel } from '../../../util/labels';
import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { externalWorkloadHasAddress, externalWorkloadListsPort, externalWorkloadServes } from '../../model/external-workloads';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';

function portText(servicePort: Record<string, any>): string {
  const target = servicePort.targetPort ?? servicePort.port;
  const protocol = typeof servicePort.protocol === 'string' && servicePort.protocol !== 'TCP' ? `, ${servicePort.protocol}` : '';
  return `${servicePort.port} (targetPort ${JSON.stringify(target)}${protocol})`;
}

/** Whether some other endpoint serves the port: a selected pod (pods need not declare ports) or another workload. */
function servedElsewhere(ctx: RuleContext, service: IndexedObject, workload: IndexedObject, servicePort: Record<string, any>): boolean {
  return ctx.index.podTemplatesForService(service).length > 0
    || ctx.index.externalWorkloadsForService(service).some((w) => w !== workload && externalWorkloadServes(w, servicePort));
}

function reportUnlistedPorts(ctx: RuleContext, service: IndexedObject, workload: IndexedObject, ports: Record<string, any>[]): void {
  const alone = ports.filter((p) => !servedElsewhere(ctx, service, workload, p)).map((p) => String(p.port));
  ctx.report(workload, `spec.ports lists no port for ${objectLabel(service)} port ${ports.map(portText).join(', ')}: unlike a pod, an `
    + 'ExternalWorkload is an endpoint only of the target ports it declares (by name or number, with the same protocol), so Linkerd\'s '
    + `external workload controller leaves it out there${alone.length > 0 ? `; no other endpoint serves port ${alone.join(', ')}, so `
      + 'requests to it fail' : ''}.`, {
    fix: 'Declare the port in spec.ports (its number, and the name a named targetPort uses), or point the Service\'s targetPort at a '
      + 'port the workload declares.',
  });
}

/** The Services (with ports) that select each ExternalWorkload, in index order. */
function servicesByWorkload(ctx: RuleContext): Map<IndexedObject, IndexedObject[]> {
  const byWorkload = new Map<IndexedObject, IndexedObject[]>();
  for (const service of ctx.index.list('', 'Service')) {
    if (listOf(service.object.spec?.ports).length === 0) continue;
    for (const workload of ctx.index.externalWorkloadsForService(service)) {
      const list = byWorkload.get(workload);
      if (list) list.push(service); else byWorkload.set(workload, [service]);
    }
  }
  return byWorkload;
}

/**
 * Linkerd's external workload controller writes the EndpointSlices of Services that select ExternalWorkloads. It
 * leaves out, with no more than a log line, a workload without an address and, per port, a workload that does not
 * declare the port's target: the Service then sends that traffic elsewhere, or has no endpoint for it.
 */
export const externalWorkloadEndpointsRule: Rule = {
  id: 'LKD-MESH-015',
  area: RuleArea.MESH,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: whether the ExternalWorkload\'s address and ports are filled in by the tooling that registers the'
      + ' workload.',
    title: 'An ExternalWorkload a Service selects has an address and declares the Service\'s target ports',
    why: 'For a Service whose selector matches ExternalWorkloads, Linkerd\'s external workload controller writes the endpoints. It '
      + 'skips a workload without spec.workloadIPs, and, unlike the Kubernetes controller for pods, it makes a workload an endpoint of '
      + 'a port only when spec.ports declares the port\'s targetPort (by name or number) with the same protocol. The CRD requires '
      + 'neither, and the controller only logs, so the workload silently gets no traffic and a port no endpoint serves fails.',
    fix: 'Give the ExternalWorkload its workloadIPs and declare in spec.ports every port the Services selecting it target.',
    linkerdSource: 'controller/api/destination/external-workload/endpoints_reconciler.go reconcileByAddressType (skips workloads '
      + 'with no IPs), findEndpointPorts, findWorkloadPort (a targetPort must be documented in spec.ports)',
    badExample: 'kind: ExternalWorkload\nspec:\n  workloadIPs: [{ip: 10.0.0.12}]\n# no ports; the Service targets 8080',
    goodExample: 'kind: ExternalWorkload\nspec:\n  workloadIPs: [{ip: 10.0.0.12}]\n  ports: [{name: http, port: 8080}]',
  },
  check(ctx) {
    // Mesh expansion is rare: without ExternalWorkloads no Service is looked at.
    if (ctx.index.list(WORKLOAD_GROUP, 'ExternalWorkload').length === 0) return;
    for (const [workload, services] of servicesByWorkload(ctx)) {
      if (!externalWorkloadHasAddress(workload)) {
        ctx.report(workload, `spec.workloadIPs is ${workload.object.spec?.workloadIPs === undefined ? 'not set' : 'empty'}, so Linkerd's external `
          + `workload controller skips this workload: it is no endpoint of ${listSome(services.map(objectLabel))}, `
          + `${services.length === 1 ? 'which selects' : 'which select'} it.`, { fix: 'Set spec.workloadIPs to the address the workload is reached at.' });
        continue;
      }
      for (const service of services) {
        const unlisted = listOf(service.object.spec?.ports)
          .filter((p): p is Record<string, any> => isRecord(p) && Number.isInteger(p.port) && !externalWorkloadListsPort(workload, p));
        if (unlisted.length > 0) reportUnlistedPorts(ctx, service, workload, unlisted);
      }
    }
  },
};
