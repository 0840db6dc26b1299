/**
 * The names linkerd-multicluster 2.20 fixes (multicluster/cmd, multicluster/service-mirror/cluster_watcher.go and
 * pkg/k8s/labels.go at version-2.20), shared by the constructs and the engine so both speak of the same objects.
 */
import { serviceAccountIdentity } from './identity';

/** The label a Service carries to be mirrored by Links whose selectors match it (`k8s.DefaultExportedServiceSelector`). */
export const EXPORTED_LABEL = 'mirror.linkerd.io/exported';
/** Exported through the target cluster's gateway (`linkerd multicluster link`'s default `selector`). */
export const EXPORTED_GATEWAY = 'true';
/** Exported for pod-to-pod traffic on a flat network (the default `remoteDiscoverySelector`). */
export const EXPORTED_REMOTE_DISCOVERY = 'remote-discovery';
/** Label the service mirror puts on every Service it creates (`k8s.MirroredResourceLabel`). */
export const MIRRORED_SERVICE_LABEL = 'mirror.linkerd.io/mirrored-service';
/** Label naming the cluster a mirrored Service comes from (`k8s.RemoteClusterNameLabel`). */
export const REMOTE_CLUSTER_LABEL = 'mirror.linkerd.io/cluster-name';
/** Secret type of a Link's credentials (`k8s.MirrorSecretType`). */
export const CREDENTIALS_SECRET_TYPE = 'mirror.linkerd.io/remote-kubeconfig';
/** The Link CRD's group and the version `linkerd multicluster link-gen` writes. */
export const LINK_GROUP = 'multicluster.linkerd.io';
export const LINK_API_VERSION = `${LINK_GROUP}/v1alpha3`;
/** Defaults of the multicluster chart and of `link-gen`. */
export const MULTICLUSTER_NAMESPACE = 'linkerd-multicluster';
export const GATEWAY_NAME = 'linkerd-gateway';
export const GATEWAY_PORT = 4143;
export const GATEWAY_PROBE_PORT = 4191;
export const MULTICLUSTER_CHART = 'linkerd-multicluster';

/** The name the service mirror gives a mirrored Service: `<service>-<target cluster name>` (mirrorServiceName). */
export function mirroredServiceName(serviceName: string, targetClusterName: string): string {
  return `${serviceName}-${targetClusterName}`;
}

/** `cluster-credentials-<target>`: the Secret `link-gen` writes and the Link names. */
export function credentialsSecretName(targetClusterName: string): string {
  return `cluster-credentials-${targetClusterName}`;
}

/**
 * The identity of a cluster's multicluster gateway. In gateway mode the exported workload sees this identity, not
 * the remote client's: the gateway terminates the client's mTLS connection and opens its own.
 */
export function gatewayIdentity(trustDomain: string, controlPlaneNamespace = 'linkerd', namespace = MULTICLUSTER_NAMESPACE): string {
  return serviceAccountIdentity(GATEWAY_NAME, namespace, trustDomain, controlPlaneNamespace);
}
