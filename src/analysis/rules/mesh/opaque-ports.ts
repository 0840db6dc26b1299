import { portListHas } from '../../../core/port-lists';
import { OPAQUE_PORTS_ANNOTATION as OPAQUE_PORTS, POLICY_GROUP } from '../../../core/vocabulary';
import { isRecord, listOf } from '../../../util/json';
import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { perSelectionAndPort, resolveContainerPort, selectPorts, serverCoverage, serverPort } from '../../model/inbound/servers';
import { serverProxyProtocol } from '../../model/inbound-routes';
import { isMeshed } from '../../model/injector/injection';
import { controllerOpaqueOnPod, controllerOpaqueOnService, controllerOpaquePortsOfPod, writtenServiceOpaquePorts } from '../../model/injector/opaque-ports';
import { IndexedObject, PodTemplate } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { appProtocolOverridesOpaque, headlessPorts, OutboundProtocol, servicePortProtocol } from '../../model/outbound';
import { workloadLabel } from '../../model/pod-templates';
import { refList } from '../../model/refs';
import { isHeadless, servicePorts } from '../../model/service-ports';
import { Rule, RuleContext, RuleArea } from '../../rule';

function checkServicePort(ctx: RuleContext, service: IndexedObject, servicePort: any, pods: PodTemplate[]): void {
  const target = servicePort.targetPort ?? servicePort.port;
  const opaqueOn = pods.filter((pod) => {
    const number = typeof target === 'number' ? target : resolveContainerPort(pod, String(target));
    return number !== undefined && controllerOpaqueOnPod(ctx.index, ctx.context, pod, number);
  });
  if (opaqueOn.length === 0) return;
  ctx.report(service, `targetPort ${JSON.stringify(target)} of Service port ${servicePort.port} is opaque on ${listSome(opaqueOn.map(workloadLabel))}, `
    + `but the Service's opaque ports do not include port ${servicePort.port} (its ${OPAQUE_PORTS} as the proxy injector leaves it: its own, `
    + 'else its namespace\'s, else the default opaque ports its targetPorts name); clients resolving the Service will run protocol '
    + 'detection on it (10 s stalls for server-speaks-first protocols).');
}

/** Whether a meshed pod of the namespace has an opaque port at all: most have none, and then neither do their Services. */
function namespaceHasOpaquePods(ctx: RuleContext, namespace: string): boolean {
  return ctx.index.podTemplatesIn(namespace).some((pod) => isMeshed(pod) && controllerOpaquePortsOfPod(ctx.index, ctx.context, pod) !== undefined);
}

/**
 * A headless Service's own opaque-ports is never read for its clients: they dial the pods, and the endpoint profile takes
 * each pod's own list (servicePortProtocol, headless). A port listed there that some selected meshed pod does not mark
 * opaque is therefore detected on that pod, whatever the Service says.
 */
function checkHeadless(ctx: RuleContext, service: IndexedObject): void {
  const written = writtenServiceOpaquePorts(ctx.index, ctx.context, service);
  if (!written) return;
  for (const { port } of servicePorts(service)) {
    if (!portListHas(written.ports, port)) continue;
    if (servicePortProtocol(ctx.index, service, port, ctx.context).protocol === OutboundProtocol.OPAQUE) continue;
    const notOpaque = headlessPorts(ctx.index, ctx.context, service, port).detected;
    if (notOpaque.length === 0) continue;
    ctx.report(service, `port ${port} is listed in ${written.origin}, but this Service is headless (clusterIP: None): clients dial its pods `
      + `directly and take opaque ports from each pod (endpoint profile), never from the Service. ${listSome(notOpaque.map(workloadLabel))} `
      + 'do not list it in their own opaque ports, so clients run protocol detection on them (10 s stalls for server-speaks-first protocols).', {
      fix: 'List the port (its targetPort) in config.linkerd.io/opaque-ports on the pod template, or give the pods a Server on it '
        + 'with proxyProtocol: opaque.',
    });
  }
}

/** Numbered TCP ports of the Service that its clients do not treat as opaque, checked against the pods behind them. */
function checkService(ctx: RuleContext, service: IndexedObject): void {
  // Clients of a headless Service never read its opaque ports: the pods' own decide (checkHeadless).
  if (isHeadless(service)) return;
  const pods = ctx.index.podTemplatesForService(service)
    .filter((pod) => isMeshed(pod) && controllerOpaquePortsOfPod(ctx.index, ctx.context, pod) !== undefined);
  if (pods.length === 0) return;
  for (const servicePort of refList(specOf(service).ports) as any[]) {
    if (typeof servicePort.port !== 'number' || (servicePort.protocol ?? 'TCP') !== 'TCP') continue;
    if (controllerOpaqueOnService(ctx.index, ctx.context, service, servicePort.port)) continue;
    checkServicePort(ctx, service, servicePort, pods);
  }
}

/**
 * The opaque port numbers a Server's port selects on meshed pods, and those pods (`port 3306 of db, cache`), or undefined
 * when it selects none. Written once per selection: Servers sharing one give the same answer.
 */
function opaquePortsSelected(ctx: RuleContext, pods: readonly PodTemplate[], port: number | string): string | undefined {
  const numbers = new Set<number>();
  const labels = new Set<string>();
  for (const pod of pods) {
    if (!isMeshed(pod) || controllerOpaquePortsOfPod(ctx.index, ctx.context, pod) === undefined) continue;
    for (const number of selectPorts(pod, port)) {
      if (!controllerOpaqueOnPod(ctx.index, ctx.context, pod, number)) continue;
      numbers.add(number);
      labels.add(workloadLabel(pod));
    }
  }
  return numbers.size === 0 ? undefined : `port ${[...numbers].sort((x, y) => x - y).join(', ')} of ${listSome([...labels])}`;
}

/**
 * A Server supersedes the pods' opaque ports on the ports it selects: the policy controller reads the opaque ports only
 * for ports without a Server (inbound/index.rs default_inbound_server) and takes a Server's proxyProtocol otherwise
 * (inbound_server), where an unset one means detection (inbound/server.rs proxy_protocol). So a Server written to lock
 * down a database port brings the detection stall back unless it says opaque.
 */
function checkServers(ctx: RuleContext): void {
  // Most Servers name their protocol: only the detecting ones, and their selected pods, are looked at.
  const detecting = ctx.index.own(POLICY_GROUP, 'Server').filter((server) => serverProxyProtocol(server) === 'detect');
  if (detecting.length === 0) return;
  const opaqueSelected = perSelectionAndPort(serverCoverage(ctx.index), (pods, port) => opaquePortsSelected(ctx, pods, port));
  for (const server of detecting) {
    const port = serverPort(server);
    const selected = port === undefined ? undefined : opaqueSelected(server, port);
    if (selected === undefined) continue;
    ctx.report(server, `${selected} is opaque there (${OPAQUE_PORTS} as the injector leaves it), `
      + 'but this Server, which supersedes that annotation on the ports it selects, leaves proxyProtocol unset: the proxy detects the '
      + 'protocol again (10 s stalls for server-speaks-first protocols such as MySQL).', {
      fix: 'Set proxyProtocol: opaque on the Server (or the protocol the port really speaks).',
    });
  }
}

/** A Service port listed opaque whose appProtocol says HTTP: the appProtocol wins, and only a debug log says so. */
function checkAppProtocols(ctx: RuleContext): void {
  for (const service of ctx.index.own('', 'Service')) {
    // Most Services set no appProtocol: that is ruled out before any list is read.
    if (!listOf(service.object.spec?.ports).some((p) => isRecord(p) && typeof p.appProtocol === 'string')) continue;
    for (const { port } of servicePorts(service)) {
      const conflict = appProtocolOverridesOpaque(ctx.index, service, port, ctx.context);
      if (!conflict) continue;
      ctx.report(service, `port ${port} is listed in ${conflict.opaqueOrigin}, but its ${conflict.protocol.origin} takes precedence: meshed `
        + `clients treat the port as ${conflict.protocol.protocol}, not opaque, and Linkerd says so only in a debug log.`, {
        fix: `Keep one of the two: remove the appProtocol (or set it to linkerd.io/opaque) if the port is not HTTP, or take port ${port} out of `
          + 'the opaque ports (a Service annotation of its own overrides the namespace\'s).',
      });
    }
  }
}

/** A port opaque on the pods must be opaque on the Service in front of them (linkerd check, data-plane category). */
export const opaquePortsRule: Rule = {
  id: 'LKD-MESH-004',
  area: RuleArea.MESH,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: what clients send on the port (protocol detection decides what the disagreement breaks) and '
      + 'which clients are meshed.',
    title: 'Opaque ports agree between a Service and the pods it selects',
    why: 'Clients learn whether a port is opaque from the Service: its config.linkerd.io/opaque-ports as the proxy injector '
      + 'leaves it (the Service\'s own, else the namespace\'s, else the ports whose targetPort is a default opaque port, of '
      + '25,587,3306,4444,5432,6379,9300,11211), read by the policy controller. If the pods mark a targetPort opaque but the '
      + 'Service\'s port is not, clients still run protocol detection, which stalls server-speaks-first protocols (linkerd2#10745). '
      + 'A Server supersedes the pods\' opaque ports on the ports it selects: without proxyProtocol: opaque, detection is back. '
      + 'On a Service port, an appProtocol supersedes the opaque ports: http or kubernetes.io/h2c on a port listed opaque makes '
      + 'it HTTP to clients, with only a debug log. A headless Service has no cluster IP: clients dial its pods and follow each '
      + 'pod\'s own opaque ports (the endpoint profile), so the Service\'s opaque-ports and appProtocol are never read for it.',
    fix: 'Annotate the Service with config.linkerd.io/opaque-ports listing the Service ports whose targetPorts are opaque on the pods '
      + '(or annotate the namespace once); give a Server on an opaque port proxyProtocol: opaque.',
    linkerdSource: 'pkg/inject/inject.go (conf *ResourceConfig) CreateOpaquePortsPatch; '
      + 'policy-controller/k8s/index/src/outbound/index.rs Index::apply for Service (opaque-ports annotation, else '
      + 'default_opaque_ports); pkg/healthcheck/healthcheck.go (hc *HealthChecker) '
      + 'checkMisconfiguredOpaquePortAnnotations, misconfiguredOpaqueAnnotation; policy-controller/k8s/index/src/inbound/index.rs '
      + 'default_inbound_server, inbound_server; policy-controller/k8s/index/src/inbound/server.rs proxy_protocol; '
      + 'policy-controller/k8s/index/src/outbound/index.rs Index::apply for Service (an appProtocol keeps its port out of the opaque ports); '
      + 'controller/api/destination/server.go getProfileByIP; controller/api/destination/watcher/workload_watcher.go '
      + 'GetAnnotatedOpaquePorts (headless Services: the endpoint profile)',
    badExample: 'kind: Service\nspec:\n  ports: [{port: 4222, targetPort: 4222}]\n# pods: config.linkerd.io/opaque-ports: "4222"',
    goodExample: 'kind: Service\nmetadata:\n  annotations:\n    config.linkerd.io/opaque-ports: "4222"',
  },
  check(ctx) {
    const opaqueNamespaces = new Map<string, boolean>();
    for (const service of ctx.index.own('', 'Service')) {
      const namespace = service.id.namespace ?? '';
      let opaque = opaqueNamespaces.get(namespace);
      if (opaque === undefined) opaqueNamespaces.set(namespace, opaque = namespaceHasOpaquePods(ctx, namespace));
      if (opaque) checkService(ctx, service);
    }
    checkServers(ctx);
    checkAppProtocols(ctx);
    for (const service of ctx.index.own('', 'Service')) if (isHeadless(service)) checkHeadless(ctx, service);
  },
};
