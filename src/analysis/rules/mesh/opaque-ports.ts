import { Severity } from '../../finding';
import { annotationsOf } from '../../model/manifest';
import { IndexedObject, MeshIndex, PodTemplate } from '../../model/mesh-index';
import {
  OPAQUE_PORTS, PortList, isMeshed, listSome, parsePortList, portListHas, portNameOf, refList, resolveContainerPort,
  specOf, workloadLabel,
} from '../../model/policy-view';
import { Rule, RuleContext, RuleArea } from '../../rule';

/** What one run needs to know about a namespace, read once instead of per Service and pod. */
interface NamespaceOpaque {
  /** The namespace's own opaque-ports annotation. */
  readonly annotation: string | undefined;
  /** The cluster's default list (the chart's proxy.opaquePorts, or what the install or the options say). */
  readonly defaults: string;
  /** The distinct opaque lists (parsed) of the meshed pod templates in the namespace. */
  readonly podLists: Set<PortList>;
}

function namespaceOpaque(index: MeshIndex, namespace: string, defaults: string): NamespaceOpaque {
  const ns = index.namespace(namespace);
  const annotation = ns ? annotationsOf(ns.object)[OPAQUE_PORTS] : undefined;
  const podLists = new Set<PortList>();
  for (const pod of index.podTemplatesIn(namespace)) {
    if (isMeshed(pod)) podLists.add(parsePortList(pod.annotations[OPAQUE_PORTS] ?? annotation ?? defaults, true));
  }
  return { annotation, defaults, podLists };
}

/** The object's own list wins over its namespace's, which wins over the cluster's default (proxy.opaquePorts). */
function opaqueList(own: string | undefined, ns: NamespaceOpaque, names: boolean): PortList {
  return parsePortList(own ?? ns.annotation ?? ns.defaults, names);
}

function podMarksOpaque(ns: NamespaceOpaque, pod: PodTemplate, port: number): boolean {
  return portListHas(opaqueList(pod.annotations[OPAQUE_PORTS], ns, true), port, portNameOf(pod, port));
}

/**
 * Whether any meshed pod of the namespace could mark the target opaque, judged from the pods' lists alone. Most
 * Service ports fail this (a numeric targetPort outside every list), which spares resolving the pods they select.
 */
function mayBeOpaqueOnPods(ns: NamespaceOpaque, target: unknown): boolean {
  for (const list of ns.podLists) {
    // A named entry may match the port's name; a named targetPort may resolve to any listed number.
    if (list.names.length > 0) return true;
    if (typeof target === 'number' ? portListHas(list, target) : list.ranges.length > 0) return true;
  }
  return false;
}

/** The Service ports this rule looks at: numbered TCP ports the Service itself does not mark opaque. */
function candidatePort(servicePort: any, serviceOpaque: PortList): boolean {
  return typeof servicePort.port === 'number' && (servicePort.protocol ?? 'TCP') === 'TCP' && !portListHas(serviceOpaque, servicePort.port);
}

function checkServicePort(ctx: RuleContext, ns: NamespaceOpaque, service: IndexedObject, servicePort: any, pods: PodTemplate[]): void {
  const target = servicePort.targetPort ?? servicePort.port;
  const opaqueOn = pods.filter((pod) => {
    const number = typeof target === 'number' ? target : resolveContainerPort(pod, String(target));
    return number !== undefined && podMarksOpaque(ns, pod, number);
  });
  if (opaqueOn.length === 0) return;
  ctx.report(service, `targetPort ${JSON.stringify(target)} of Service port ${servicePort.port} is opaque on ${listSome(opaqueOn.map(workloadLabel))}, `
    + `but the Service does not list port ${servicePort.port} in ${OPAQUE_PORTS}; clients resolving the Service will run protocol `
    + 'detection on it (10 s stalls for server-speaks-first protocols).');
}

function checkService(ctx: RuleContext, ns: NamespaceOpaque, service: IndexedObject): void {
  if (ns.podLists.size === 0) return; // no meshed pod in the namespace
  const serviceOpaque = opaqueList(annotationsOf(service.object)[OPAQUE_PORTS], ns, false);
  let pods: PodTemplate[] | undefined;
  for (const servicePort of refList(specOf(service).ports) as any[]) {
    if (!candidatePort(servicePort, serviceOpaque) || !mayBeOpaqueOnPods(ns, servicePort.targetPort ?? servicePort.port)) continue;
    pods ??= ctx.index.podTemplatesForService(service).filter(isMeshed);
    if (pods.length === 0) return;
    checkServicePort(ctx, ns, service, servicePort, pods);
  }
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
    linkerdSource: 'pkg/inject/inject.go (conf *ResourceConfig) CreateOpaquePortsPatch; '
      + 'policy-controller/k8s/index/src/outbound/index.rs Index::apply for Service (opaque-ports annotation, else '
      + 'default_opaque_ports); pkg/healthcheck/healthcheck.go (hc *HealthChecker) '
      + 'checkMisconfiguredOpaquePortAnnotations, misconfiguredOpaqueAnnotation',
    badExample: 'kind: Service\nspec:\n  ports: [{port: 4222, targetPort: 4222}]\n# pods: config.linkerd.io/opaque-ports: "4222"',
    goodExample: 'kind: Service\nmetadata:\n  annotations:\n    config.linkerd.io/opaque-ports: "4222"',
  },
  check(ctx) {
    const namespaces = new Map<string, NamespaceOpaque>();
    for (const service of ctx.index.own('', 'Service')) {
      const namespace = service.id.namespace ?? '';
      let ns = namespaces.get(namespace);
      if (!ns) namespaces.set(namespace, ns = namespaceOpaque(ctx.index, namespace, ctx.context.defaultOpaquePorts));
      checkService(ctx, ns, service);
    }
  },
};
