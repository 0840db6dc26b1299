import { POLICY_GROUP } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { AnalysisContext } from '../../options';
import { Rule, RuleArea } from '../../rule';

const SA_MARKER = '.serviceaccount.identity.';

/** Why an identity can never match a workload of this cluster, or undefined when it can. */
export function trustDomainProblem(identity: string, context: AnalysisContext): string | undefined {
  const td = context.trustDomain;
  if (identity === '*') return undefined;
  // SPIFFE IDs name workloads outside Linkerd's own identity scheme (SPIRE-issued mesh-expansion workloads use
  // spiffe://root.linkerd.cluster.local/... on a cluster.local install): their trust domain is not the cluster's.
  if (identity.startsWith('spiffe://')) return undefined;
  const marker = identity.indexOf(SA_MARKER);
  if (marker >= 0) {
    const suffix = identity.slice(marker + SA_MARKER.length);
    const expected = `${context.controlPlaneNamespace}.${td}`;
    // A caller from a linked cluster of the same fleet presents its own cluster's suffix (LKD-MC-003 checks those).
    if (context.peerIdentitySuffixes.includes(suffix)) return undefined;
    return suffix === expected ? undefined
      : `ends in "${suffix}" but workload identities here end in "${expected}" (control-plane namespace, then trust domain)`;
  }
  if (context.peerIdentitySuffixes.some((peer) => identity.endsWith(`.${peer.slice(peer.indexOf('.') + 1)}`))) return undefined;
  return identity.endsWith(`.${td}`) ? undefined : `does not end in the trust domain "${td}", so no workload identity can match it`;
}

function identitiesOf(entry: IndexedObject): Array<{ path: string; identity: string }> {
  const spec = specOf(entry);
  const list = entry.id.kind === 'MeshTLSAuthentication' ? spec.identities : spec.client?.meshTLS?.identities;
  const base = entry.id.kind === 'MeshTLSAuthentication' ? 'spec.identities' : 'spec.client.meshTLS.identities';
  if (!Array.isArray(list)) return [];
  return list.flatMap((identity, i) => (typeof identity === 'string' ? [{ path: `${base}[${i}]`, identity }] : []));
}

/** Identity strings written by hand carry a trust domain; a different one than the cluster's matches nobody. */
export const trustDomainRule: Rule = {
  id: 'LKD-POL-004',
  area: RuleArea.POLICY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: the cluster\'s trust domain and control-plane namespace, which only the install in the input or '
      + 'the flags state.',
    title: 'Identity strings use the cluster\'s trust domain',
    why: 'Linkerd identities look like <sa>.<ns>.serviceaccount.identity.<control-plane-ns>.<trust-domain>. An identity written '
      + 'for another trust domain or control-plane namespace (copied from another cluster, or "cluster.local" left in) is '
      + 'accepted, but never matches, so the clients it was meant for are denied. SPIFFE IDs (spiffe://...) are not judged: '
      + 'Linkerd matches them exactly as written (policy-controller/runtime/src/validation.rs validates only their syntax), '
      + 'and they name workloads whose identity comes from elsewhere, e.g. SPIRE for external workloads.',
    fix: 'Use identityRefs to ServiceAccounts instead of strings, or write the identity with the configured trust domain.',
    linkerdSource: 'policy-controller/k8s/index/src/cluster_info.rs ClusterInfo::service_account_identity; '
      + 'policy-controller/core/src/identity_match.rs IdentityMatch::from_str; '
      + 'policy-controller/runtime/src/validation.rs validate_identity',
    badExample: 'identities:\n- client.mesh-lab.serviceaccount.identity.linkerd.cluster.local   # trust domain is prod.example',
    goodExample: 'identities:\n- client.mesh-lab.serviceaccount.identity.linkerd.prod.example',
  },
  check(ctx) {
    const holders = [...ctx.index.own(POLICY_GROUP, 'MeshTLSAuthentication'), ...ctx.index.own(POLICY_GROUP, 'ServerAuthorization')];
    for (const entry of holders) {
      for (const { path, identity } of identitiesOf(entry)) {
        const problem = trustDomainProblem(identity, ctx.context);
        if (problem) ctx.report(entry, `${path} "${identity}" ${problem}; clients it should admit will be denied.`);
      }
    }
  },
};
