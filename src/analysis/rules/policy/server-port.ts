import { Severity } from '../../finding';
import { IndexedObject, POLICY_GROUP } from '../../model/mesh-index';
import { Rule, RuleContext, RuleArea } from '../../rule';
import { listSome, resolveContainerPort, serverCoverage, serverPort, workloadLabel } from '../../model/policy-view';

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

function checkPods(ctx: RuleContext, server: IndexedObject, port: number | string): void {
  const missing = serverCoverage(ctx.index).podsOf(server).filter((pod) => resolveContainerPort(pod, port) === undefined);
  if (missing.length === 0) return;
  const what = typeof port === 'number' ? `containerPort ${port}` : `container port named "${port}"`;
  ctx.report(server, `spec.port ${JSON.stringify(port)}: ${listSome(missing.map(workloadLabel))} declare(s) no ${what}; `
    + 'Linkerd cannot line the Server up with those pods\' ports (connections show up as "unknown port" and are denied). '
    + 'Declare the port in the container spec or fix spec.port.');
}

/** Server.port must name a port every selected pod declares; a quoted number is a name. */
export const serverPortRule: Rule = {
  id: 'LKD-POL-007',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  doc: {
    title: 'Server port is a containerPort (number or name) of every selected pod',
    why: 'A Server names a port by number or by container port name. A name must exist on every selected pod, and a quoted '
      + 'number ("8080") is treated as a name, which never matches. A port that pods do not declare leads to "unauthorized '
      + 'connection on unknown port" denials (linkerd2#7640).',
    fix: 'Use an unquoted port number or the exact container port name, and declare the port on every selected container.',
    badExample: 'spec:\n  port: "8080"',
    goodExample: 'spec:\n  port: 8080   # or: port: http',
  },
  check(ctx) {
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      const port = serverPort(server);
      const problem = portValueProblem(port);
      if (problem) ctx.report(server, problem);
      else checkPods(ctx, server, port!);
    }
  },
};
