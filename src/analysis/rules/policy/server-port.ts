import { POLICY_GROUP } from '../../../core/vocabulary';
import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { externalPortNames, externalWorkloadCoverage, serverExternalSelector } from '../../model/external-workloads';
import { selectPorts, serverCoverage, serverPort } from '../../model/inbound/servers';
import { IndexedObject, Injection } from '../../model/mesh-index';
import { workloadLabel } from '../../model/pod-templates';
import { Rule, RuleContext, RuleArea } from '../../rule';

const PORT_NAME = /^(?=.*[a-z])[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$/;

/** A problem with the port value itself, before looking at pods. */
function portValueProblem(port: number | string | undefined): string | undefined {
  if (port === undefined) return 'spec.port is missing; a Server needs a port number or a container port name.';
  if (typeof port === 'number') {
    return Number.isInteger(port) && port >= 1 && port <= 65535 ? undefined : `spec.port ${port} is not a port number 1-65535.`;
  }
  if (/^\d+$/.test(port)) {
    return `spec.port is the string "${port}"; Linkerd reads a quoted number as a port NAME, and a container port name always `
      + `contains a letter, so it matches nothing. Write the number unquoted: port: ${port}.`;
  }
  return PORT_NAME.test(port) ? undefined : `spec.port "${port}" is not a valid port name (lowercase letters, digits, "-", at most 15, at least one letter).`;
}

/**
 * A named port that no selected pod has leaves the Server without any port to govern. Linkerd does not complain: the
 * inbound index simply finds nothing for the name, and every port keeps its default policy. Pods that lack the name
 * while others have it are normal (one Server over several workloads), so only "none at all" is reported.
 */
function checkNamedPort(ctx: RuleContext, server: IndexedObject, port: string): void {
  const pods = serverCoverage(ctx.index).podsOf(server);
  if (pods.length === 0 || pods.some((pod) => selectPorts(pod, port).length > 0)) return;
  // The proxy's named ports exist only after injection; an unknown injection state proves nothing.
  if (pods.some((pod) => pod.injection === Injection.UNKNOWN) && port.startsWith('linkerd-')) return;
  ctx.report(server, `spec.port "${port}": none of the selected pods (${listSome(pods.map(workloadLabel))}) has a TCP container port `
    + `named "${port}", so the Server governs no port at all and every port keeps its default inbound policy. `
    + 'Name the port in the container spec, or set spec.port to the port number.');
}

/** The same for an ExternalWorkload Server: a name none of its workloads has (as a TCP port) selects nothing (selects_port). */
function checkNamedExternalPort(ctx: RuleContext, server: IndexedObject, port: string): void {
  const workloads = externalWorkloadCoverage(ctx.index).workloadsOf(server);
  if (workloads.length === 0 || workloads.some((w) => externalPortNames(w).has(port))) return;
  ctx.report(server, `spec.port "${port}": none of the selected ExternalWorkloads (${listSome(workloads.map((w) => w.id.name))}) has a TCP `
    + `port named "${port}", so Linkerd skips the Server on each of them and every port keeps its default inbound policy. Name the port `
    + 'in the ExternalWorkload\'s spec.ports, or set spec.port to the port number.');
}

/** Server.port must name a port every selected pod declares; a quoted number is a name. */
export const serverPortRule: Rule = {
  id: 'LKD-POL-007',
  area: RuleArea.POLICY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: the containers of pods deployed outside the manifests; a named port matches only where a pod '
      + 'declares it (index.rs Pod::select_ports). A port number out of range is an error (Rejected by the CRD).',
    title: 'Server port is a valid port, and a port name exists on at least one selected pod or ExternalWorkload',
    why: 'A Server names a port by number or by container port name (linkerd2 policy-controller/k8s/index/src/inbound/index.rs, '
      + 'Pod::select_ports; workload.rs pod_tcp_ports_by_name). A number selects that port whether or not a container declares '
      + 'it. A name selects the TCP container ports of that name on each pod (the injected proxy\'s linkerd-admin and '
      + 'linkerd-proxy included); pods without it are simply not governed by the Server. A quoted number ("8080") is a name, '
      + 'and port names always contain a letter, so it selects nothing: the Server is silently inert (an error). A name that '
      + 'no selected pod has leaves the Server governing nothing (a warning). On ExternalWorkloads a name selects the named '
      + 'port of their spec.ports that is TCP (or has no protocol) (ExternalWorkload::selects_port, external_tcp_ports_by_name).',
    fix: 'Use an unquoted port number or a container port name that the selected pods declare.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs Pod::select_ports, ExternalWorkload::selects_port; '
      + 'policy-controller/k8s/index/src/inbound/workload.rs pod_tcp_ports_by_name, external_tcp_ports_by_name',
    badExample: 'spec:\n  port: "8080"',
    goodExample: 'spec:\n  port: 8080   # or: port: http',
  },
  check(ctx) {
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      const port = serverPort(server);
      const problem = portValueProblem(port);
      if (problem) ctx.report(server, problem, { severity: Severity.ERROR });
      else if (typeof port === 'string' && serverExternalSelector(server)) checkNamedExternalPort(ctx, server, port);
      else if (typeof port === 'string') checkNamedPort(ctx, server, port);
    }
  },
};
