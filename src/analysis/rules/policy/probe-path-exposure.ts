import { CALLS_ANNOTATION } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { probePaths } from '../../model/inbound/probes';
import { isMeshed } from '../../model/injector/injection';
import { annotationOf } from '../../model/manifest';
import { ownPodTemplates, workloadLabel } from '../../model/pod-templates';
import { Caller, evaluateInboundPolicy } from '../../policy';
import { Rule, RuleArea } from '../../rule';

const PLAINTEXT_OUTSIDER: Caller = { meshed: false, inCluster: false, label: 'an unauthenticated client from anywhere' };

/** Paths that declared calls name (`analysis.cdk8s-linkerd.io/calls` entries with a path): known application paths. */
function declaredPaths(pods: readonly { owner: { object: Record<string, any> } }[]): Set<string> {
  const paths = new Set<string>(['/']);
  for (const pod of pods) {
    const value = annotationOf(pod.owner.object, CALLS_ANNOTATION);
    if (typeof value !== 'string') continue;
    for (const m of value.matchAll(/\s(\/[^\s,]*)/g)) paths.add(m[1]);
  }
  return paths;
}

/**
 * While no route is attached to a port, Linkerd's probe route opens `GET <probe path>` to the probe networks without
 * authentication, whatever the Server says. That is right for a health endpoint and wrong for an application path.
 */
export const probePathExposure: Rule = {
  id: 'LKD-POL-022',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Open wider: the generated probe route (policy-controller/k8s/index/src/inbound/index.rs '
      + 'ClusterInfo::default_inbound_http_routes) admits unauthenticated GETs of the probe path from the probe '
      + 'networks, although the port\'s policy refuses them.',
    title: 'No application path is open to unauthenticated callers only because it is also a probe path',
    why: 'When no HTTPRoute is attached to a port, the policy controller generates a probe route: GET with an Exact match on '
      + 'each HTTP probe path of the pod on that port, authorized for unauthenticated clients from the probe networks '
      + '(policyController.probeNetworks, 0.0.0.0/0 and ::/0 by default) — linkerd2 policy-controller/k8s/index/src/inbound/index.rs '
      + 'ClusterInfo::default_inbound_http_routes, probe paths from workload.rs pod_http_probes. A readiness probe on "/" (or on '
      + 'a path the application serves to clients) therefore opens that path to every caller, meshed or not, even on a Server '
      + 'that only authorizes one identity. The rule looks at "/" and at the paths declared calls name.',
    fix: 'Probe a dedicated health path (e.g. /health, /ready), or attach HTTPRoutes to the Server and authorize the probe route '
      + 'explicitly for the probe networks only.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs ClusterInfo::default_inbound_http_routes; '
      + 'policy-controller/k8s/index/src/inbound/workload.rs pod_http_probes; '
      + 'charts/linkerd-control-plane/values.yaml policyController.probeNetworks',
    badExample: 'readinessProbe:\n  httpGet: {path: /, port: 8080}   # Server orders-http authorizes only the client identity',
    goodExample: 'readinessProbe:\n  httpGet: {path: /health, port: 8080}',
  },
  check(ctx) {
    // Nothing to do (and no evaluation to build) unless some own meshed pod has an HTTP probe.
    if (!ownPodTemplates(ctx.index).some((pod) => isMeshed(pod) && probePaths(pod, ctx.index).size > 0)) return;
    const policy = evaluateInboundPolicy(ctx.index, ctx.context);
    const appPaths = declaredPaths(ctx.index.podTemplates);
    {
      for (const port of policy.ports) {
        const pod = port.pod;
        if (pod.owner.inventory || port.skipsProxy || port.probePaths.length === 0) continue;
        if (!port.routes.some((r) => r.generated === 'probe')) continue;
        // Only where the port itself would refuse such a caller does the probe route open something.
        if (port.allows(PLAINTEXT_OUTSIDER).allowed) continue;
        for (const path of port.probePaths) {
          if (!appPaths.has(path)) continue;
          const where = port.server ? `Server ${port.server.id.name}` : `the default policy (${port.defaultPolicy.policy})`;
          ctx.report(pod.owner, `GET ${path} on port ${port.port} of ${workloadLabel(pod)} is reachable by unauthenticated callers from `
            + `${ctx.context.probeNetworks.join(', ')} only because ${path} is also a probe path: with no route attached, Linkerd's `
            + `generated probe route admits it, although ${where} refuses them. Probe a dedicated health path instead.`);
        }
      }
    }
  },
};
