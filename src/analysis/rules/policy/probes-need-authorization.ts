import { Severity } from '../../finding';
import { HttpProbe, podHttpProbes } from '../../model/http-probes';
import { probePaths, routeFamilyOf, servedServerRoutes, serverProxyProtocol } from '../../model/inbound-routes';
import { IndexedObject, Injection, POLICY_GROUP, PodTemplate } from '../../model/mesh-index';
import {
  authorizationTargets, isMeshed, ownPodTemplates, resolveContainerPort, routesForServer, serverAccessPolicy, serverCoverage,
  serverPort, specOf, workloadLabel,
} from '../../model/policy-view';
import { Caller, authorizationAdmits, defaultPolicyAllows } from '../../policy/authorization';
import { evaluateInboundPolicy } from '../../policy/evaluate';
import { Rule, RuleContext, RuleArea } from '../../rule';

/** Kubelet probes arrive without an mTLS identity; node addresses are assumed to be inside the cluster networks. */
const KUBELET: Caller = { meshed: false, inCluster: true, label: 'the kubelet (unauthenticated)' };

function pathMatches(path: any, probePath: string): boolean {
  const type = path?.type ?? 'PathPrefix';
  const value = typeof path?.value === 'string' ? path.value : '/';
  if (type === 'Exact') return probePath === value;
  if (type === 'RegularExpression') {
    try {
      return new RegExp(`^(?:${value})$`).test(probePath);
    } catch {
      return false;
    }
  }
  const prefix = value.replace(/\/+$/, '');
  return prefix === '' || probePath === prefix || probePath.startsWith(`${prefix}/`);
}

function matchAccepts(match: any, probe: HttpProbe): boolean {
  if (!match || typeof match !== 'object') return false;
  if (match.method !== undefined && match.method !== 'GET') return false;
  if (!pathMatches(match.path, probe.path)) return false;
  const headers = Array.isArray(match.headers) ? match.headers : [];
  const sent = (h: any) => probe.headers.some((p) => p.name.toLowerCase() === String(h?.name).toLowerCase() && p.value === h?.value);
  if (!headers.every(sent)) return false;
  const params = Array.isArray(match.queryParams) ? match.queryParams : [];
  return params.every((q: any) => probe.query.get(String(q?.name)) === q?.value);
}

/** Whether an HTTP route has a rule that a probe request (GET path) matches; GRPCRoutes never do. */
export function routeMatchesProbe(route: IndexedObject, probe: HttpProbe): boolean {
  if (route.id.kind !== 'HTTPRoute') return false;
  const rules = Array.isArray(specOf(route).rules) && specOf(route).rules.length > 0 ? specOf(route).rules : [{}];
  return rules.some((rule: any) => {
    const matches = Array.isArray(rule?.matches) && rule.matches.length > 0 ? rule.matches : [{}];
    return matches.some((m: any) => matchAccepts(m, probe));
  });
}

function kubeletAllowed(ctx: RuleContext, server: IndexedObject, matching: IndexedObject[]): boolean {
  const authz = authorizationTargets(ctx.index);
  const policies = [
    ...authz.forServer(server), ...authz.forNamespace(server.id.namespace ?? ''), ...matching.flatMap((r) => authz.forRoute(r)),
  ];
  // A NetworkAuthentication over part of the cluster networks admits the kubelet when its node address is inside: the
  // manifests do not say where the nodes are, so only a certain refusal is reported (as LKD-POL-013 hedges such a call).
  if (policies.some((p) => {
    const match = authorizationAdmits(ctx.index, p, KUBELET, ctx.context);
    return match.admitted || match.uncertain === true;
  })) return true;
  return defaultPolicyAllows(serverAccessPolicy(server), KUBELET, ctx.context, 'accessPolicy').allowed;
}

/** What a probe that keeps failing does to the pod (a liveness probe restarts it; the others keep it out of service). */
function failingProbe(kind: string): string {
  if (kind === 'livenessProbe') return 'the kubelet restarts the container again and again';
  if (kind === 'startupProbe') return 'the container never finishes starting and is restarted';
  return 'the pod never becomes ready';
}

function checkPod(ctx: RuleContext, server: IndexedObject, routes: IndexedObject[], pod: PodTemplate): void {
  const port = serverPort(server);
  const number = port === undefined ? undefined : typeof port === 'number' ? port : resolveContainerPort(pod, port);
  for (const probe of podHttpProbes(pod).filter((p) => p.port === number)) {
    const where = `${probe.kind} of container ${probe.container} in ${workloadLabel(pod)} (GET ${probe.path} on port ${probe.port})`;
    const matching = routes.filter((r) => routeMatchesProbe(r, probe));
    if (matching.length === 0) {
      ctx.report(server, `routes are attached to Server ${server.id.name}, and none matches the ${where}; once a route is attached, `
        + `probes are no longer authorized automatically and unmatched requests are refused, so ${failingProbe(probe.kind)}.`);
    } else if (!kubeletAllowed(ctx, server, matching)) {
      ctx.report(server, `routes are attached to Server ${server.id.name}, and no authorization admits unauthenticated callers on `
        + `${matching.map((r) => r.id.name).join(', ')} for the ${where}; probes will get 403 and ${failingProbe(probe.kind)}.`);
    }
  }
}

/** Once a route is attached to a Server, kubelet probes on its port need an explicit route and authorization. */
/**
 * The routes a probe meets on a Server. On an HTTP Server only the routes it serves: when its status or protocol drops
 * them all, the controller generates the probe route again (inbound/index.rs http_routes). A gRPC Server keeps what is
 * attached; an opaque or TLS one has no routes at all (`checkConnectionProbes` judges those ports).
 */
function probedRoutes(ctx: RuleContext, server: IndexedObject): IndexedObject[] {
  const protocol = serverProxyProtocol(server);
  const family = routeFamilyOf(protocol);
  if (family === 'none') return [];
  return family === 'http' ? servedServerRoutes(ctx.index, server, protocol) : routesForServer(ctx.index, server);
}

/** Where a port's protocol comes from, for messages. */
function protocolOrigin(server: { readonly id: { readonly name: string } } | undefined, protocol: string): string {
  return server ? `Server ${server.id.name} has proxyProtocol ${protocol}` : 'no Server selects it, and it is an opaque port (config.linkerd.io/opaque-ports or the cluster\'s defaults)';
}

/**
 * HTTP probes on a port the proxy treats as opaque or TLS: such a port has no routes, so no probe route either
 * (grpc/src/inbound.rs to_server), and the kubelet's plaintext connection must pass the port's authorizations
 * (linkerd2-proxy inbound/src/policy/tcp.rs check_authorized). Only a certain refusal is reported.
 */
function checkConnectionProbes(ctx: RuleContext): void {
  const pods = ownPodTemplates(ctx.index).filter((pod) => isMeshed(pod) && probePaths(pod, ctx.index).size > 0);
  if (pods.length === 0) return;
  const policy = evaluateInboundPolicy(ctx.index, ctx.context);
  for (const pod of pods) {
    for (const probe of podHttpProbes(pod)) {
      const port = policy.portPolicy(pod, probe.port);
      if (!port || port.skipsProxy || routeFamilyOf(port.protocol) !== 'none') continue;
      const decision = port.allows(KUBELET);
      if (decision.allowed || decision.uncertain) continue;
      ctx.report(pod.owner, `the ${probe.kind} of container ${probe.container} in ${workloadLabel(pod)} (GET ${probe.path} on port ${probe.port}) `
        + `reaches a port the proxy treats as ${port.protocol} (${protocolOrigin(port.server, port.protocol)}): there is no probe route there, and `
        + `the kubelet's plaintext connection is refused (${decision.reason}), so ${failingProbe(probe.kind)}.`, {
        fix: 'Probe a port the proxy treats as HTTP (or one in config.linkerd.io/skip-inbound-ports), or authorize the kubelet\'s networks '
          + 'on this port with a NetworkAuthentication.',
      });
    }
  }
}

export const probesNeedAuthorizationRule: Rule = {
  id: 'LKD-POL-010',
  area: RuleArea.POLICY,
  severity: Severity.WARNING,
  doc: {
    title: 'Probes on a Server port with routes are matched and authorized',
    why: 'Linkerd authorizes kubelet probe paths by itself only while a port has no Server, or a Server with no routes '
      + '(linkerd2 #9008). As soon as an HTTPRoute attaches to the Server, probe requests must match a route and be admitted '
      + 'by an AuthorizationPolicy that allows unauthenticated clients; otherwise probes fail and pods never become ready (#7050). '
      + 'A port the proxy treats as opaque or TLS (its Server\'s proxyProtocol, or an opaque port no Server selects) has no routes '
      + 'at all, so no probe route: there the kubelet\'s plaintext connection must pass the port\'s own authorizations. '
      + 'A NetworkAuthentication admits the kubelet when its node address is in the listed networks; the manifests do not say where '
      + 'the nodes are, so one over part of the cluster networks is taken to admit it.',
    fix: 'Add a route matching the probe paths (e.g. /healthz, /ready) and an AuthorizationPolicy on it whose '
      + 'requiredAuthenticationRefs is a NetworkAuthentication for the node/pod networks (or empty).',
    linkerdSource: 'policy-controller/grpc/src/inbound.rs to_server (opaque and TLS carry no routes); linkerd2-proxy '
      + 'linkerd/app/inbound/src/policy/tcp.rs check_authorized; policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::http_routes, '
      + 'ClusterInfo::default_inbound_http_routes; policy-controller/k8s/index/src/inbound/workload.rs '
      + 'pod_http_probes',
    badExample: 'kind: HTTPRoute\nspec:\n  parentRefs: [{group: policy.linkerd.io, kind: Server, name: orders-http}]\n'
      + '  rules: [{matches: [{path: {value: /api}}]}]   # readinessProbe GET /ready on the same port',
    goodExample: 'kind: HTTPRoute\nmetadata: {name: orders-probes}\nspec:\n  parentRefs: [{group: policy.linkerd.io, kind: Server, name: orders-http}]\n'
      + '  rules: [{matches: [{path: {type: Exact, value: /ready}}]}]\n---\nkind: AuthorizationPolicy\nspec:\n'
      + '  targetRef: {group: policy.linkerd.io, kind: HTTPRoute, name: orders-probes}\n  requiredAuthenticationRefs:\n'
      + '  - {group: policy.linkerd.io, kind: NetworkAuthentication, name: kubelet-networks}',
  },
  check(ctx) {
    checkConnectionProbes(ctx);
    const coverage = serverCoverage(ctx.index);
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      const routes = probedRoutes(ctx, server);
      if (routes.length === 0) continue;
      for (const pod of coverage.podsOf(server)) {
        if (pod.injection !== Injection.DISABLED) checkPod(ctx, server, routes, pod);
      }
    }
  },
};
