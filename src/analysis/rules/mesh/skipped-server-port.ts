import { PortList, portListHas, proxyInitPortList } from '../../../core/port-lists';
import { POLICY_GROUP, SKIP_INBOUND_PORTS_ANNOTATION as SKIP_INBOUND_PORTS } from '../../../core/vocabulary';
import { pushTo } from '../../../util/json';
import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { perSelectionAndPort, resolveContainerPort, serverCoverage, serverPort } from '../../model/inbound/servers';
import { isMeshed } from '../../model/injector/injection';
import { inboundRedirector, skippedInboundPorts, skippedInboundSource } from '../../model/injector/skipped-ports';
import { MeshIndex, PodTemplate } from '../../model/mesh-index';
import { workloadLabel } from '../../model/pod-templates';
import { podOrNamespaceAnnotation } from '../../model/proxy-settings';
import { AnalysisContext } from '../../options';
import { Rule, RuleArea } from '../../rule';

/**
 * The meshed pods that skip any inbound port, with their lists, read once: each read looks up the pod's annotations,
 * its namespace's and the install's settings, and a pod is asked about for every selection and port that holds it.
 */
function podsSkippingPorts(index: MeshIndex, context: AnalysisContext): Map<PodTemplate, PortList> {
  const skipping = new Map<PodTemplate, PortList>();
  for (const pod of index.podTemplates) {
    if (!isMeshed(pod)) continue;
    const skipped = skippedInboundPorts(index, context, pod);
    if (skipped.ranges.length > 0) skipping.set(pod, skipped);
  }
  return skipping;
}

/**
 * Whether the manifests themselves skip the port: the pod's (or its namespace's) skip-inbound-ports lists it. Ports
 * skipped only by the install's list (proxyInit.ignoreInboundPorts, the CNI plugin's) depend on how the cluster was set up.
 */
function skippedByManifest(pod: PodTemplate, port: number): boolean {
  const own = podOrNamespaceAnnotation(pod, SKIP_INBOUND_PORTS);
  return own !== undefined && portListHas(proxyInitPortList(String(own)), port);
}

/**
 * The meshed pods of a selection that skip the port, by the list that skips it (`web (the pod's skip-inbound-ports)`),
 * and whether the manifests alone skip it on one of them; undefined when none skips it. Once per selection and port.
 */
function skippedPods(index: MeshIndex, context: AnalysisContext, skipping: ReadonlyMap<PodTemplate, PortList>,
  pods: readonly PodTemplate[], port: number | string): { readonly where: string; readonly certain: boolean } | undefined {
  let certain = false;
  const bySource = new Map<string, string[]>();
  for (const pod of pods) {
    const skipped = skipping.get(pod);
    if (skipped === undefined) continue;
    const number = typeof port === 'number' ? port : resolveContainerPort(pod, port);
    if (number === undefined || !portListHas(skipped, number)) continue;
    if (skippedByManifest(pod, number)) certain = true;
    pushTo(bySource, skippedInboundSource(index, context, pod), workloadLabel(pod));
  }
  if (bySource.size === 0) return undefined;
  return { where: [...bySource].map(([source, labels]) => `${listSome(labels)} (${source})`).join(', and '), certain };
}

/** skip-inbound-ports sends a port around the proxy; a Server on that port protects nothing. */
export const skippedServerPortRule: Rule = {
  id: 'LKD-MESH-008',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Open wider: proxy-init never redirects a port in the pod\'s or namespace\'s skip-inbound-ports '
      + '(charts/partials/templates/_proxy-init.tpl --inbound-ports-to-ignore), so the Server\'s policy never applies.'
      + ' A port skipped only by the install\'s list (proxyInit.ignoreInboundPorts, the CNI plugin\'s) is a warning: '
      + 'the install is outside the manifests.',
    title: 'A Server does not select a port that skips the proxy',
    why: 'Ports listed in config.linkerd.io/skip-inbound-ports (the pod\'s, else its namespace\'s, else the cluster\'s '
      + 'proxyInit.ignoreInboundPorts, "4567,4568" by default, when proxy-init sets up iptables; with the CNI plugin, the '
      + 'linkerd2-cni install\'s ignoreInboundPorts, none by default, plus the pod\'s list) '
      + 'bypass the proxy entirely: no mTLS, no Server, no '
      + 'AuthorizationPolicy. A Server on such a port looks like protection but the port is open to anyone the network allows.',
    fix: 'Remove the port from skip-inbound-ports (and mark it opaque if protocol detection was the problem), or drop the Server.',
    linkerdSource: 'pkg/inject/inject.go ApplyAnnotationOverrides (config.linkerd.io/skip-inbound-ports); '
      + 'charts/partials/templates/_proxy-init.tpl (--inbound-ports-to-ignore: iptables never redirects those '
      + 'ports to the proxy); linkerd2-proxy-init (the ref Dockerfile.proxy builds) pkg/iptables/iptables.go '
      + 'makeMultiportDestinations (the entries ParsePortRange reads, untrimmed: " 8080" skips nothing), '
      + 'cni-plugin/main.go getAnnotationOverride (the pod\'s list, else its namespace\'s, appended to the plugin\'s own '
      + 'inbound-ports-to-ignore); charts/linkerd2-cni/templates/cni-plugin.yaml (ignoreInboundPorts)',
    badExample: 'annotations:\n  config.linkerd.io/skip-inbound-ports: "8080"\n# Server orders-http selects port 8080',
    goodExample: 'annotations:\n  config.linkerd.io/opaque-ports: "8080"',
  },
  check(ctx) {
    // A Server only selects pods in its own namespace; where no meshed pod skips any port, there is nothing to find.
    const skipping = podsSkippingPorts(ctx.index, ctx.context);
    const namespaces = new Set<string>();
    for (const pod of skipping.keys()) namespaces.add(pod.namespace);
    if (namespaces.size === 0) return;
    const skippedOn = perSelectionAndPort(serverCoverage(ctx.index), (pods, port) => skippedPods(ctx.index, ctx.context, skipping, pods, port));
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      if (!namespaces.has(server.id.namespace ?? '')) continue;
      const port = serverPort(server);
      const skipped = port === undefined ? undefined : skippedOn(server, port);
      if (skipped === undefined) continue;
      ctx.report(server, `port ${JSON.stringify(port)} is skipped by ${inboundRedirector(ctx.index, ctx.context)} for ${skipped.where}; `
        + 'that traffic bypasses the proxy, so this Server and its AuthorizationPolicies never apply there.',
      skipped.certain ? undefined : { severity: Severity.WARNING });
    }
  },
};
