import { REQUIRE_IDENTITY_PORTS_ANNOTATION } from '../../../core/vocabulary';
import { listSome } from '../../../util/text';
import { Severity } from '../../finding';
import { requiresIdentityOn } from '../../model/inbound/default-policy';
import { serverCoverage } from '../../model/inbound/servers';
import { isMeshed } from '../../model/injector/injection';
import { textOf } from '../../model/manifest';
import { IndexedObject, PodTemplate } from '../../model/mesh-index';
import { ownPodTemplates, workloadLabel } from '../../model/pod-templates';
import { podOrNamespaceAnnotation } from '../../model/proxy-settings';
import { Caller } from '../../policy/authorization';
import { evaluateInboundPolicy } from '../../policy/evaluate';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** The caller the annotation is written to keep out: a client without a proxy, inside the cluster. */
const UNAUTHENTICATED: Caller = { meshed: false, inCluster: true, label: 'an unmeshed client in the cluster' };

/** Ports of one pod that the annotation lists and one Server governs, with what that Server does for the caller. */
interface Superseded {
  readonly server: IndexedObject;
  readonly ports: number[];
  /** The policy's verdict for an unauthenticated caller on the first of them, in words. */
  readonly reason: string;
  /** The caller is admitted only if its address falls in some authorized network. */
  readonly maybe: boolean;
}

/** Where the pod's list comes from, for messages. */
function listOrigin(pod: PodTemplate): string {
  return textOf(pod.annotations, REQUIRE_IDENTITY_PORTS_ANNOTATION) !== undefined ? 'the pod template' : `Namespace ${pod.namespace}`;
}

/** The pod's listed ports that a Server governs and whose policy still admits an unauthenticated caller, by Server. */
function supersededPorts(ctx: RuleContext, pod: PodTemplate): Superseded[] {
  const byServer = new Map<IndexedObject, Superseded>();
  const policy = evaluateInboundPolicy(ctx.index, ctx.context);
  for (const [port, servers] of serverCoverage(ctx.index).claimedPorts(pod)) {
    if (servers.length === 0 || !requiresIdentityOn(pod, port)) continue;
    const decision = policy.portPolicy(pod, port)?.allows(UNAUTHENTICATED);
    if (!decision || (!decision.allowed && !decision.uncertain)) continue;
    const entry = byServer.get(servers[0]);
    if (entry) entry.ports.push(port);
    else byServer.set(servers[0], { server: servers[0], ports: [port], reason: decision.reason, maybe: !decision.allowed });
  }
  return [...byServer.values()];
}

/**
 * `config.linkerd.io/proxy-require-identity-inbound-ports` shapes only the default policy of ports no Server selects.
 * On a port a Server governs, the Server's authorizations decide alone, so an author relying on the annotation there
 * believes identity is required where it is not.
 */
export const requireIdentityPortsRule: Rule = {
  id: 'LKD-POL-025',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Open wider: policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::default_inbound_server is the only'
      + ' reader of the list, so a Server that admits unauthenticated callers opens the port. Where the caller\'s '
      + 'address decides (a NetworkAuthentication over part of the networks) it is a warning.',
    title: 'A port listed to require identity is not opened again by a Server',
    why: 'The policy controller reads config.linkerd.io/proxy-require-identity-inbound-ports (the pod\'s, or the namespace\'s '
      + 'that the injector copies) only when it builds the default policy of a port no Server selects. Once a Server selects the '
      + 'port, its authorizations alone decide, and the list is ignored without a word: if they admit unauthenticated clients '
      + '(accessPolicy all-unauthenticated, a NetworkAuthentication, a ServerAuthorization with unauthenticated: true), plaintext '
      + 'connections are accepted on a port the author listed as identity-only. The injector also hands the list to the proxy, '
      + 'which has not read it since linkerd2-proxy#2307 (2023): the policy controller\'s answer is all there is.',
    fix: 'Require identity in the Server\'s policy (accessPolicy all-authenticated or deny with AuthorizationPolicies naming '
      + 'MeshTLSAuthentications), or take the port out of the list if unauthenticated clients are meant to reach it.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::default_inbound_server (the only reader of '
      + 'require_id_ports), PolicyIndex::inbound_server and Pod::reindex_servers (a selected port gets the Server\'s policy); '
      + 'policy-controller/k8s/index/src/inbound/workload.rs Settings::from_metadata; linkerd2-proxy linkerd/app/src/env.rs '
      + '(LINKERD2_PROXY_INBOUND_PORTS_REQUIRE_IDENTITY is declared, never parsed)',
    badExample: 'metadata:\n  annotations:\n    config.linkerd.io/proxy-require-identity-inbound-ports: "8080"\n'
      + '# and a Server on 8080 with accessPolicy: all-unauthenticated',
    goodExample: 'kind: Server\nspec:\n  port: http\n  accessPolicy: all-authenticated',
  },
  check(ctx) {
    for (const pod of ownPodTemplates(ctx.index)) {
      // Few pods list such ports: the rest are ruled out before any policy is evaluated.
      if (!isMeshed(pod) || podOrNamespaceAnnotation(pod, REQUIRE_IDENTITY_PORTS_ANNOTATION) === undefined) continue;
      for (const { server, ports, reason, maybe } of supersededPorts(ctx, pod)) {
        // Open wider than the list says for certain unless the caller's address decides it.
        ctx.report(pod.owner, `port(s) ${listSome(ports.map(String))} of ${workloadLabel(pod)} are listed in ${REQUIRE_IDENTITY_PORTS_ANNOTATION} `
          + `(from ${listOrigin(pod)}), but Server ${server.id.name} selects them, and the policy controller applies that list only to ports `
          + `no Server selects: ${UNAUTHENTICATED.label} ${maybe ? 'may be admitted, depending on its address' : 'is admitted'} (${reason}).`, {
          severity: maybe ? Severity.WARNING : Severity.ERROR,
          fix: `Require identity in Server ${server.id.name}'s policy (accessPolicy all-authenticated, or AuthorizationPolicies with `
            + 'MeshTLSAuthentications only), or remove the port from the list if unauthenticated clients are meant to reach it.',
        });
      }
    }
  },
};
