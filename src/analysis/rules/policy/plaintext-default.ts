import { portListHas } from '../../../core/port-lists';
import { POLICY_GROUP } from '../../../core/vocabulary';
import { pushTo } from '../../../util/json';
import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { effectiveDefaultPolicy, requiresIdentityOn } from '../../model/inbound/default-policy';
import { portNameOf, serverCoverage, ServerCoverage } from '../../model/inbound/servers';
import { isMeshed } from '../../model/injector/injection';
import { skippedInboundPorts } from '../../model/injector/skipped-ports';
import { IndexedObject, MeshIndex, PodTemplate } from '../../model/mesh-index';
import { ownPodTemplates, workloadLabel } from '../../model/pod-templates';
import { declaredPorts } from '../../policy/evaluate';
import { Rule, RuleArea } from '../../rule';

const OPEN_DEFAULTS = new Set(['all-unauthenticated', 'cluster-unauthenticated']);

/**
 * The Servers of this output that select each pod (in its namespace), in Server order: listed once, on the first
 * finding that asks, rather than scanning every Server for each finding (findings x Servers).
 */
class SelectingServers {
  private byPod?: Map<PodTemplate, IndexedObject[]>;

  constructor(private readonly index: MeshIndex, private readonly coverage: ServerCoverage) {}

  public of(pod: PodTemplate): readonly IndexedObject[] {
    if (!this.byPod) {
      this.byPod = new Map();
      for (const server of this.index.own(POLICY_GROUP, 'Server')) {
        for (const selected of new Set(this.coverage.podsOf(server))) {
          if (server.id.namespace === selected.namespace) pushTo(this.byPod, selected, server);
        }
      }
    }
    return this.byPod.get(pod) ?? [];
  }
}

function portText(pod: PodTemplate, port: number): string {
  const portName = portNameOf(pod, port);
  return portName ? `${port} (${portName})` : String(port);
}

/** The seed incident: a meshed workload whose unserved ports still accept plaintext under the chart default. */
export const plaintextDefaultRule: Rule = {
  id: 'LKD-POL-011',
  area: RuleArea.POLICY,
  severity: Severity.INFO,
  doc: {
    certainty: 'Advice: ports without a Server get the default inbound policy by design (index.rs Pod::set_default_server); '
      + 'that it admits unauthenticated clients is what the defaults say, not a mistake. Where a Server selects the workload '
      + 'but none of its ports (a renamed or moved port), the port is open wider than that Server says, on a default the '
      + 'cluster may set: a warning.',
    title: 'Meshed ports without a Server do not fall back to an unauthenticated default policy',
    why: 'Ports that no Server selects use the default inbound policy: the pod annotation config.linkerd.io/default-inbound-policy, '
      + 'else the namespace annotation, else the chart value proxy.defaultInboundPolicy, which is all-unauthenticated. '
      + 'With all-unauthenticated or cluster-unauthenticated, unmeshed clients can still talk plaintext to a "meshed" workload, '
      + 'which defeats mTLS-only expectations.',
    fix: 'Cover each port with a Server plus AuthorizationPolicy, or set config.linkerd.io/default-inbound-policy on the namespace: '
      + 'audit first (to see what would be denied), then all-authenticated or deny.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs Pod::set_default_server, '
      + 'PolicyIndex::default_inbound_server; policy-controller/k8s/index/src/inbound/workload.rs '
      + 'Settings::from_metadata; policy-controller/k8s/index/src/defaults.rs DefaultPolicy::default_authzs; '
      + 'pkg/inject/inject.go AppendNamespaceAnnotations',
    badExample: 'kind: Namespace\nmetadata:\n  annotations:\n    linkerd.io/inject: enabled   # no default-inbound-policy, no Server',
    goodExample: 'kind: Namespace\nmetadata:\n  annotations:\n    linkerd.io/inject: enabled\n    config.linkerd.io/default-inbound-policy: all-authenticated',
  },
  check(ctx) {
    // What evaluateInboundPolicy would say about these ports, asked directly: building the full evaluation of every
    // port (Server views, authorizations, closures) costs far more than this rule needs.
    const coverage = serverCoverage(ctx.index);
    const selecting = new SelectingServers(ctx.index, coverage);
    for (const pod of ownPodTemplates(ctx.index)) {
      if (!isMeshed(pod)) continue;
      let unserved: number[] | undefined;
      for (const port of declaredPorts(pod)) {
        if (coverage.claims(pod, port).length > 0 || portListHas(skippedInboundPorts(ctx.index, ctx.context, pod), port)) continue;
        // On a require-identity port an allowing default admits authenticated clients only (default_inbound_server).
        if (requiresIdentityOn(pod, port)) continue;
        (unserved ??= []).push(port);
      }
      if (!unserved) continue;
      // The same for every port of the pod, so only read once some port falls back to it.
      const { policy, origin } = effectiveDefaultPolicy(ctx.index, pod, ctx.context);
      if (!OPEN_DEFAULTS.has(policy)) continue;
      // A Server that selects the workload yet claims none of its ports was meant for it and misses (a renamed or moved
      // port): the port is open wider than that Server says, a warning. Otherwise the defaults are as written: advice.
      const missed = declaredPorts(pod).every((port) => coverage.claims(pod, port).length === 0) ? selecting.of(pod) : [];
      const aimed = missed.length > 0 ? ` Server ${listSome(missed.map((s) => s.id.name))} selects it but none of its ports.` : '';
      ctx.report(pod.owner, `${workloadLabel(pod)} is meshed but port(s) ${listSome(unserved.map((port) => portText(pod, port)))} have no Server, `
        + `and the effective default inbound policy is ${policy} (from ${origin}); the proxy accepts unauthenticated plaintext connections on them.${aimed}`,
      missed.length > 0 ? { severity: Severity.WARNING } : undefined);
    }
  },
};
