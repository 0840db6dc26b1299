import { Severity } from '../../finding';
import { annotationsOf } from '../../model/manifest';
import { IndexedObject, MeshIndex, PodTemplate } from '../../model/mesh-index';
import { Rule, RuleContext, RuleArea } from '../../rule';
import {
  CHART_OPAQUE_PORTS, OPAQUE_PORTS, PortList, isMeshed, listSome, parsePortList, portListHas, portNameOf, refList, resolveContainerPort,
  specOf, workloadLabel,
} from '../policy-helpers';

function namespaceOpaque(index: MeshIndex, namespace: string): string | undefined {
  const ns = index.namespace(namespace);
  return ns ? annotationsOf(ns.object)[OPAQUE_PORTS] : undefined;
}

/** The object's own list wins over its namespace's, which wins over the chart's proxy.opaquePorts. */
function opaqueList(own: string | undefined, index: MeshIndex, namespace: string, names: boolean): PortList {
  return parsePortList(own ?? namespaceOpaque(index, namespace) ?? CHART_OPAQUE_PORTS, names);
}

function podMarksOpaque(index: MeshIndex, pod: PodTemplate, port: number): boolean {
  return portListHas(opaqueList(pod.annotations[OPAQUE_PORTS], index, pod.namespace, true), port, portNameOf(pod, port));
}

function checkServicePort(ctx: RuleContext, service: IndexedObject, servicePort: any, pods: PodTemplate[], serviceOpaque: PortList): void {
  if (typeof servicePort.port !== 'number' || (servicePort.protocol ?? 'TCP') !== 'TCP') return;
  if (portListHas(serviceOpaque, servicePort.port)) return;
  const target = servicePort.targetPort ?? servicePort.port;
  const opaqueOn = pods.filter((pod) => {
    const number = typeof target === 'number' ? target : resolveContainerPort(pod, String(target));
    return number !== undefined && podMarksOpaque(ctx.index, pod, number);
  });
  if (opaqueOn.length === 0) return;
  ctx.report(service, `targetPort ${JSON.stringify(target)} of Service port ${servicePort.port} is opaque on ${listSome(opaqueOn.map(workloadLabel))}, `
    + `but the Service does not list port ${servicePort.port} in ${OPAQUE_PORTS}; clients resolving the Service will run protocol `
    + 'detection on it (10 s stalls for server-speaks-first protocols).');
}

/** A port opaque on the pods must be opaque on the Service in front of them (linkerd check, data-plane category). */
export const opaquePortsRule: Rule = {
  id: 'LKD-MESH-004',
  area: RuleArea.MESH,
  severity: Severity.WARNING,
  doc: {
    title: 'Opaque ports agree between a Service and the pods it selects',
    why: 'Clients learn whether a port is opaque from the Service (its config.linkerd.io/opaque-ports, else the namespace\'s, '
      + 'else the chart default 25,587,3306,4444,5432,6379,9300,11211). If the pods mark a targetPort opaque but the Service does '
      + 'not mark its port, clients still run protocol detection, which stalls server-speaks-first protocols (linkerd2#10745).',
    fix: 'Annotate the Service with config.linkerd.io/opaque-ports listing the Service ports whose targetPorts are opaque on the pods '
      + '(or annotate the namespace once).',
    badExample: 'kind: Service\nspec:\n  ports: [{port: 4222, targetPort: 4222}]\n# pods: config.linkerd.io/opaque-ports: "4222"',
    goodExample: 'kind: Service\nmetadata:\n  annotations:\n    config.linkerd.io/opaque-ports: "4222"',
  },
  check(ctx) {
    for (const service of ctx.index.own('', 'Service')) {
      const pods = ctx.index.podTemplatesForService(service).filter(isMeshed);
      if (pods.length === 0) continue;
      const own = annotationsOf(service.object)[OPAQUE_PORTS];
      const serviceOpaque = opaqueList(own, ctx.index, service.id.namespace ?? '', false);
      for (const servicePort of refList(specOf(service).ports)) checkServicePort(ctx, service, servicePort, pods, serviceOpaque);
    }
  },
};
