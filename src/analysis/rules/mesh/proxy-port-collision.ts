import {
  ADMIN_PORT_ANNOTATION, CHART_PROXY_PORTS, CONTROL_PORT_ANNOTATION, INBOUND_PORT_ANNOTATION, OUTBOUND_PORT_ANNOTATION,
} from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { isMeshed } from '../../model/injector/injection';
import { ContainerPort, PodTemplate } from '../../model/mesh-index';
import { ownPodTemplates, workloadLabel } from '../../model/pod-templates';
import { podOrNamespaceAnnotation } from '../../model/proxy-settings';
import { Rule, RuleArea } from '../../rule';

const PROXY_PORTS: Array<{ key: string; role: string; port: number }> = [
  { key: INBOUND_PORT_ANNOTATION, role: 'inbound', port: CHART_PROXY_PORTS.inbound },
  { key: OUTBOUND_PORT_ANNOTATION, role: 'outbound', port: CHART_PROXY_PORTS.outbound },
  { key: ADMIN_PORT_ANNOTATION, role: 'admin', port: CHART_PROXY_PORTS.admin },
  { key: CONTROL_PORT_ANNOTATION, role: 'control', port: CHART_PROXY_PORTS.control },
];

/**
 * The proxy's ports on this pod, each with the listeners on it: the pod's annotations, else its namespace's (the
 * injector copies them), else the defaults.
 */
function proxyPortRoles(pod: PodTemplate): Map<number, string[]> {
  if (!PROXY_PORTS.some(({ key }) => podOrNamespaceAnnotation(pod, key) !== undefined)) return DEFAULT_PROXY_PORTS;
  const out = new Map<number, string[]>();
  for (const { key, role, port } of PROXY_PORTS) {
    const value = podOrNamespaceAnnotation(pod, key);
    const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : port;
    out.set(n, [...(out.get(n) ?? []), role]);
  }
  return out;
}

/** The ports of a pod that keeps every proxy port at its default (almost all pods): built once, not per pod. */
const DEFAULT_PROXY_PORTS = new Map(PROXY_PORTS.map(({ role, port }) => [port, [role]]));

/**
 * Proxy listeners moved onto one port: the proxy binds inbound, admin and control on every address and outbound on
 * the loopback one (_proxy.tpl LINKERD2_PROXY_*_LISTEN_ADDR), so two of them on one port cannot both bind.
 */
function proxyPortClashes(roles: Map<number, string[]>): string[] {
  if (roles === DEFAULT_PROXY_PORTS) return [];
  return [...roles].filter(([, shared]) => shared.length > 1).map(([port, shared]) => `${shared.join(' and ')} on ${port}`);
}

/** An application's TCP port: the proxy listens on TCP only, and proxy-init redirects only TCP (`-p tcp`). */
function isAppTcpPort(p: ContainerPort): boolean {
  // Container names come from YAML and may be any type.
  return !(typeof p.container === 'string' && p.container.startsWith('linkerd-')) && (p.protocol ?? 'TCP') === 'TCP';
}

/** App containers sharing the pod network namespace cannot use the proxy's ports. */
export const proxyPortCollisionRule: Rule = {
  id: 'LKD-MESH-007',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Fails to start: the proxy binds these ports in the pod\'s network namespace (charts/linkerd-control-'
      + 'plane/values.yaml proxy.ports), so one of the two cannot bind.',
    title: 'Application containers do not use the proxy\'s ports (4143, 4140, 4191, 4190)',
    why: 'The proxy shares the pod\'s network namespace and binds its inbound (4143), outbound (4140), admin (4191) and control '
      + '(4190) ports. An application port with the same number fails to bind or steals the proxy\'s traffic, and proxy-init '
      + 'does not redirect traffic to the admin and control ports (--inbound-ports-to-ignore), so whichever process binds '
      + 'them first gets it: the pod breaks in confusing ways once injected. Proxy port annotations that put two of the proxy\'s '
      + 'own listeners on one port stop the proxy itself.',
    fix: 'Move the application to another port, or move the proxy port with the matching config.linkerd.io/*-port annotation.',
    linkerdSource: 'pkg/inject/inject.go ProxyAnnotations (the *-port keys a Namespace passes to its pods); '
      + 'linkerd2-proxy-init pkg/iptables/iptables.go (TCP redirects only); '
      + 'charts/linkerd-control-plane/values.yaml proxy.ports (admin 4191, control 4190, inbound 4143, outbound '
      + '4140); charts/partials/templates/_proxy.tpl; charts/partials/templates/_proxy-init.tpl (--incoming-proxy-port, '
      + '--outgoing-proxy-port, --inbound-ports-to-ignore control and admin)',
    badExample: 'ports:\n- containerPort: 4191',
    goodExample: 'ports:\n- containerPort: 9191',
  },
  check(ctx) {
    for (const pod of ownPodTemplates(ctx.index)) {
      if (!isMeshed(pod)) continue;
      const roles = proxyPortRoles(pod);
      const own = proxyPortClashes(roles);
      if (own.length > 0) {
        ctx.report(pod.owner, `the proxy annotations of ${workloadLabel(pod)} put its ${own.join(', ')}: the proxy binds each of these listeners `
          + 'and cannot bind two on one port, so it exits and the pod never becomes ready. Give each proxy port its own number.');
      }
      let clashes: string[] | undefined;
      for (const p of pod.ports) {
        const taken = isAppTcpPort(p) ? roles.get(p.containerPort) : undefined;
        if (taken) {
          (clashes ??= []).push(`${p.containerPort} (container ${p.container}, the proxy's ${taken[taken.length - 1]} port)`);
        }
      }
      if (clashes) {
        ctx.report(pod.owner, `${workloadLabel(pod)} declares container port(s) ${[...new Set(clashes)].join(', ')}; the injected proxy needs `
          + 'those ports. Change the application port or the proxy port annotation.');
      }
    }
  },
};
