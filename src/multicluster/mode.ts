/** How the clusters of a fleet reach each other's Services. */
export enum MulticlusterMode {
  /**
   * Through the target cluster's multicluster gateway (a LoadBalancer on port 4143): Services are exported with
   * `mirror.linkerd.io/exported: "true"`, and the exported workload sees the gateway's identity.
   */
  GATEWAY = 'gateway',
  /**
   * Pod to pod on a flat network (pods of each cluster can reach the other's pod IPs): no gateway, Services exported with
   * `mirror.linkerd.io/exported: remote-discovery`, and the exported workload sees the remote client's own identity.
   */
  FLAT_NETWORK = 'flat-network',
}

export const MODES = Object.values(MulticlusterMode);
