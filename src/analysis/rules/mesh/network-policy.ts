import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { isMeshed } from '../../model/injector/injection';
import { proxyInboundPort } from '../../model/injector/proxy-ports';
import { IndexedObject } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { workloadLabel } from '../../model/pod-templates';
import { Rule, RuleContext, RuleArea } from '../../rule';

const NETWORKING_GROUP = 'networking.k8s.io';
const PROXY_PORT_NAME = 'linkerd-proxy';

function entryAllows(entry: any, port: number): boolean {
  if ((entry?.protocol ?? 'TCP') !== 'TCP') return false;
  if (entry?.port === undefined) return true;
  if (typeof entry.port === 'string') return entry.port === PROXY_PORT_NAME;
  const end = typeof entry.endPort === 'number' ? entry.endPort : entry.port;
  return entry.port <= port && port <= end;
}

function portText(entry: any): string {
  const base = entry?.port === undefined ? 'all' : String(entry.port);
  return entry?.endPort !== undefined ? `${base}-${entry.endPort}` : base;
}

/** Ingress rules if the policy restricts ingress by port for every peer; undefined when some peer may use any port. */
function portRestrictedRules(policy: IndexedObject): any[] | undefined {
  const spec = specOf(policy);
  const types = spec.policyTypes;
  if (Array.isArray(types) && !types.includes('Ingress')) return undefined;
  const rules = Array.isArray(spec.ingress) ? spec.ingress : [];
  if (rules.length === 0) return undefined; // deny-all ingress is a deliberate choice
  return rules.every((r: any) => Array.isArray(r?.ports) && r.ports.length > 0) ? rules : undefined;
}

function checkPolicy(ctx: RuleContext, policy: IndexedObject, rules: any[]): void {
  const pods = ctx.index.podTemplatesMatching(policy.id.namespace ?? '', specOf(policy).podSelector ?? {}).filter(isMeshed);
  if (pods.length === 0) return;
  const entries = rules.flatMap((r) => r.ports);
  const listed = listSome(entries.map(portText));
  const blocked = pods.filter((pod) => !entries.some((e) => entryAllows(e, proxyInboundPort(pod))));
  const anyPort = entries.some((e) => e?.port === undefined);
  // A set: a policy over a whole namespace can block thousands of pods, and each pod is looked up in it.
  const blockedSet = new Set(blocked);
  const bypassed = anyPort ? [] : pods.filter((pod) => !blockedSet.has(pod) && entries.some((e) => !entryAllows(e, proxyInboundPort(pod))));
  if (blocked.length > 0) {
    ctx.report(policy, `ingress is limited to port(s) ${listed} on meshed ${listSome(blocked.map(workloadLabel))}, but not the proxy's inbound `
      + `port ${proxyInboundPort(blocked[0])}; meshed clients connect to that port (with the original port in a transport header), so their `
      + 'connections are dropped. Allow the proxy port for meshed peers.');
  }
  if (bypassed.length > 0) {
    ctx.report(policy, `ingress allows the proxy's inbound port alongside per-port rules (${listed}) on meshed ${listSome(bypassed.map(workloadLabel))}; `
      + 'meshed clients reach every application port through the proxy port, so the per-port limits do not apply to them. '
      + 'Enforce per-port access with a Server and AuthorizationPolicy.');
  }
}

/** NetworkPolicy port rules and the proxy's inbound port do not mix as users expect (linkerd2#15246). */
export const networkPolicyRule: Rule = {
  id: 'LKD-MESH-006',
  area: RuleArea.MESH,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: whether the cluster\'s CNI enforces NetworkPolicies and where meshed clients run.',
    title: 'NetworkPolicies on meshed pods account for the proxy\'s inbound port 4143',
    why: 'Meshed clients do not connect to the application port: they connect to the server proxy\'s inbound port 4143 and '
      + 'name the real port in a transport header. A NetworkPolicy that only allows application ports therefore drops meshed '
      + 'traffic; one that allows 4143 lets meshed clients reach every port, so its per-port limits stop applying (linkerd2#15246).',
    fix: 'Allow port 4143 (or the named port linkerd-proxy) for meshed peers and do per-port access control with Server and AuthorizationPolicy.',
    linkerdSource: 'charts/linkerd-control-plane/values.yaml proxy.ports.inbound 4143; '
      + 'charts/partials/templates/_proxy-init.tpl (iptables redirect to the inbound port); the NetworkPolicy side '
      + 'is Kubernetes, not Linkerd',
    badExample: 'ingress:\n- ports: [{port: 8080}]   # pods are meshed',
    goodExample: 'ingress:\n- ports: [{port: 8080}, {port: 4143}]\n# per-port rules for meshed clients: Server + AuthorizationPolicy',
  },
  check(ctx) {
    for (const policy of ctx.index.own(NETWORKING_GROUP, 'NetworkPolicy')) {
      const rules = portRestrictedRules(policy);
      if (rules) checkPolicy(ctx, policy, rules);
    }
  },
};
