/**
 * Which EgressNetworks a client sees, as the outbound index resolves them (linkerd2
 * policy-controller/k8s/index/src/outbound/index/egress_network.rs `resolve_egress_network`): the EgressNetworks of the
 * client's own namespace if there are any — and then only those —, otherwise those of the global egress namespace
 * (`egress.globalEgressNetworkNamespace`). Among those, the most specific network containing the address wins, then the
 * older object, then namespace and name. An EgressNetwork without `networks` covers everything outside the cluster
 * networks (`EgressNetwork::from_resource`).
 */
import { AnalysisContext } from '../options';
import { perIndex } from './memo';
import { IndexedObject, MeshIndex } from './mesh-index';
import { POLICY_GROUP } from '../../core/vocabulary';

export interface EgressScope {
  /** The EgressNetworks clients of the namespace resolve against. */
  readonly networks: readonly IndexedObject[];
  /** True when they are the namespace's own, which hides every global one. */
  readonly local: boolean;
}

const byNamespace = perIndex((index: MeshIndex) => {
  const map = new Map<string, IndexedObject[]>();
  for (const net of index.list(POLICY_GROUP, 'EgressNetwork')) {
    const ns = net.id.namespace ?? '';
    map.set(ns, [...(map.get(ns) ?? []), net]);
  }
  return map;
});

/** The EgressNetworks in one namespace (output and inventory). */
export function egressNetworksIn(index: MeshIndex, namespace: string): readonly IndexedObject[] {
  return byNamespace(index).get(namespace) ?? [];
}

/** What clients in `namespace` resolve their egress traffic against. */
export function egressScopeFor(index: MeshIndex, context: AnalysisContext, namespace: string): EgressScope {
  const own = egressNetworksIn(index, namespace);
  if (own.length > 0) return { networks: own, local: true };
  return { networks: egressNetworksIn(index, context.globalEgressNamespace), local: namespace === context.globalEgressNamespace };
}
