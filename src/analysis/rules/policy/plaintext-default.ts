import { Severity } from '../../finding';
import { PodTemplate } from '../../model/mesh-index';
import { PortPolicy, evaluateInboundPolicy } from '../../policy/evaluate';
import { Rule, RuleArea } from '../../rule';
import { listSome, workloadLabel } from '../policy-helpers';

const OPEN_DEFAULTS = new Set(['all-unauthenticated', 'cluster-unauthenticated']);

function portText(p: PortPolicy): string {
  return p.portName ? `${p.port} (${p.portName})` : String(p.port);
}

/** The seed incident: a meshed workload whose unserved ports still accept plaintext under the chart default. */
export const plaintextDefaultRule: Rule = {
  id: 'LKD-POL-011',
  area: RuleArea.POLICY,
  severity: Severity.WARNING,
  doc: {
    title: 'Meshed ports without a Server do not fall back to an unauthenticated default policy',
    why: 'Ports that no Server selects use the default inbound policy: the pod annotation config.linkerd.io/default-inbound-policy, '
      + 'else the namespace annotation, else the chart value proxy.defaultInboundPolicy, which is all-unauthenticated. '
      + 'With all-unauthenticated or cluster-unauthenticated, unmeshed clients can still talk plaintext to a "meshed" workload, '
      + 'which defeats mTLS-only expectations.',
    fix: 'Cover each port with a Server plus AuthorizationPolicy, or set config.linkerd.io/default-inbound-policy on the namespace: '
      + 'audit first (to see what would be denied), then all-authenticated or deny.',
    badExample: 'kind: Namespace\nmetadata:\n  annotations:\n    linkerd.io/inject: enabled   # no default-inbound-policy, no Server',
    goodExample: 'kind: Namespace\nmetadata:\n  annotations:\n    linkerd.io/inject: enabled\n    config.linkerd.io/default-inbound-policy: all-authenticated',
  },
  check(ctx) {
    const open = new Map<PodTemplate, PortPolicy[]>();
    for (const p of evaluateInboundPolicy(ctx.index, ctx.context).ports) {
      if (p.server || p.skipsProxy || !OPEN_DEFAULTS.has(p.defaultPolicy.policy)) continue;
      if (p.pod.owner.inventory) continue;
      open.set(p.pod, [...(open.get(p.pod) ?? []), p]);
    }
    for (const [pod, ports] of open) {
      const { policy, origin } = ports[0].defaultPolicy;
      ctx.report(pod.owner, `${workloadLabel(pod)} is meshed but port(s) ${listSome(ports.map(portText))} have no Server, and the effective `
        + `default inbound policy is ${policy} (from ${origin}); the proxy accepts unauthenticated plaintext connections on them.`);
    }
  },
};
