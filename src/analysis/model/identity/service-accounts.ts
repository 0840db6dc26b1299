/**
 * ServiceAccounts and the mTLS identities Linkerd issues to them (linkerd2 policy-controller/k8s/index/src/inbound/
 * meshtls_authentication.rs and inbound/index.rs policy_client_authz: the identity is formatted from the reference).
 */
import { serviceAccountIdentity as coreServiceAccountIdentity } from '../../../core/identity';
import { AnalysisContext } from '../../options';
import { MeshIndex } from '../mesh-index';

/** The mTLS identity Linkerd issues to a ServiceAccount, in this analysis's trust domain. */
export function serviceAccountIdentity(serviceAccount: string, namespace: string, context: AnalysisContext): string {
  return coreServiceAccountIdentity(serviceAccount, namespace, context.trustDomain, context.controlPlaneNamespace);
}

/** The ServiceAccount Kubernetes creates in every namespace (its ServiceAccount controller); pods without one run as it. */
export const DEFAULT_SERVICE_ACCOUNT = 'default';

/** Whether a ServiceAccount exists in the output or the inventory, or is the one every namespace has. */
export function serviceAccountExists(index: MeshIndex, namespace: string, name: string): boolean {
  return name === DEFAULT_SERVICE_ACCOUNT || index.serviceAccount(namespace, name) !== undefined;
}

/**
 * Whether some workload can present the identity of this ServiceAccount: it exists here, or in a cluster of the fleet
 * whose identities are this cluster's (Linkerd only formats the identity from the reference: inbound/index.rs
 * policy_client_authz, meshtls_authentication.rs).
 */
export function serviceAccountIdentityExists(index: MeshIndex, context: AnalysisContext, namespace: string, name: string): boolean {
  return serviceAccountExists(index, namespace, name) || context.peerServiceAccounts.includes(`${namespace}/${name}`);
}
