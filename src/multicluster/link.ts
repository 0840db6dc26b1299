/**
 * A Link (multicluster.linkerd.io/v1alpha3) as `linkerd multicluster link-gen` writes it (multicluster/cmd/link-gen.go):
 * it tells this cluster's service mirror which cluster to watch, with which credentials, and which of its Services to
 * mirror. Links are one-way: east's Link to west lets east's clients call west's Services.
 */
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MulticlusterCredentials } from './credentials';
import { MODES, MulticlusterMode } from './mode';
import { MeshResource } from '../base';
import { isIpAddress } from '../core/cidr';
import { InputRule, check } from '../core/errors';
import { isValidMeshIdentity } from '../core/identity';
import {
  EXPORTED_GATEWAY, EXPORTED_LABEL, EXPORTED_REMOTE_DISCOVERY, GATEWAY_PORT, GATEWAY_PROBE_PORT, LINK_API_VERSION,
  MULTICLUSTER_NAMESPACE, credentialsSecretName, gatewayIdentity,
} from '../core/multicluster';
import { isDnsSubdomain, validateLabelName, validatePortNumber } from '../core/names';
import { requireStruct } from '../core/runtime-checks';

/** What a Link needs to know about its target cluster. */
export interface MulticlusterLinkOptions {
  /** The target cluster's name: the Link's name, and the suffix of every mirrored Service (`orders-west`). */
  readonly targetClusterName: string;
  /**
   * How this cluster reaches the target's Services.
   * @default - the mode of the LinkerdMulticluster, or MulticlusterMode.GATEWAY
   */
  readonly mode?: MulticlusterMode;
  /**
   * The target gateway's address(es), comma-separated (its LoadBalancer IP or host name). Required in gateway mode:
   * link-gen reads it from the gateway Service's status, which a synth cannot.
   * @default - none (flat-network mode)
   */
  readonly gatewayAddress?: string;
  /**
   * The target gateway's port.
   * @default 4143
   */
  readonly gatewayPort?: number;
  /**
   * The target cluster's identity trust domain (decides the gateway identity and what its callers present).
   * @default "cluster.local"
   */
  readonly targetTrustDomain?: string;
  /**
   * The target cluster's control-plane namespace.
   * @default "linkerd"
   */
  readonly targetControlPlaneNamespace?: string;
  /**
   * The target cluster's DNS domain.
   * @default "cluster.local"
   */
  readonly targetClusterDomain?: string;
  /**
   * The identity the target's gateway presents.
   * @default "linkerd-gateway.linkerd-multicluster.serviceaccount.identity.<targetControlPlaneNamespace>.<targetTrustDomain>"
   */
  readonly gatewayIdentity?: string;
  /**
   * The kubeconfig the service mirror uses to watch the target's API server.
   * @default MulticlusterCredentials.fromSecretName() (`cluster-credentials-<target>`, created out of band)
   */
  readonly credentials?: MulticlusterCredentials;
}

/** Props for MulticlusterLink. */
export interface MulticlusterLinkProps extends MulticlusterLinkOptions {
  /**
   * Namespace of the Link (the multicluster extension's).
   * @default "linkerd-multicluster"
   */
  readonly namespace?: string;
  /**
   * This cluster's control-plane namespace (where the destination controller reads credentials for remote discovery).
   * @default "linkerd"
   */
  readonly controlPlaneNamespace?: string;
}

const PROBE = { path: '/ready', port: String(GATEWAY_PROBE_PORT), period: '3s', failureThreshold: '3', timeout: '30s' };

/** One Link from this cluster to a target cluster. */
export class MulticlusterLink extends MeshResource {
  public readonly apiObject: ApiObject;
  /** The target cluster's name. */
  public readonly targetClusterName: string;
  /** How this cluster reaches the target. */
  public readonly mode: MulticlusterMode;
  /** The name of the credentials Secret the Link names. */
  public readonly credentialsSecretName: string;

  constructor(scope: Construct, id: string, props: MulticlusterLinkProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    this.targetClusterName = validateLabelName(this, props.targetClusterName, 'targetClusterName');
    this.mode = props.mode ?? MulticlusterMode.GATEWAY;
    check(MODES.includes(this.mode), this, InputRule.RANGE, `mode ${JSON.stringify(this.mode)} is not a MulticlusterMode.`, 'Use MulticlusterMode.GATEWAY or FLAT_NETWORK.');
    const namespace = validateLabelName(this, props.namespace ?? MULTICLUSTER_NAMESPACE, 'namespace');
    const trustDomain = props.targetTrustDomain ?? 'cluster.local';
    check(isDnsSubdomain(trustDomain), this, InputRule.NAME, `targetTrustDomain ${JSON.stringify(trustDomain)} is not a DNS name.`, 'Use e.g. "cluster.local".');
    const controlPlaneNamespace = validateLabelName(this, props.targetControlPlaneNamespace ?? 'linkerd', 'targetControlPlaneNamespace');
    const clusterDomain = props.targetClusterDomain ?? 'cluster.local';
    check(isDnsSubdomain(clusterDomain), this, InputRule.NAME, `targetClusterDomain ${JSON.stringify(clusterDomain)} is not a DNS name.`, 'Use e.g. "cluster.local".');
    this.credentialsSecretName = (props.credentials ?? MulticlusterCredentials.fromSecretName())._bind(this, {
      namespace,
      secretName: credentialsSecretName(this.targetClusterName),
      targetClusterName: this.targetClusterName,
      targetTrustDomain: trustDomain,
      targetClusterDomain: clusterDomain,
      controlPlaneNamespace: validateLabelName(this, props.controlPlaneNamespace ?? 'linkerd', 'controlPlaneNamespace'),
    });
    const spec: Record<string, any> = {
      targetClusterName: this.targetClusterName,
      targetClusterDomain: clusterDomain,
      targetClusterLinkerdNamespace: controlPlaneNamespace,
      clusterCredentialsSecret: this.credentialsSecretName,
      remoteDiscoverySelector: { matchLabels: { [EXPORTED_LABEL]: EXPORTED_REMOTE_DISCOVERY } },
      federatedServiceSelector: { matchLabels: { 'mirror.linkerd.io/federated': 'member' } },
    };
    if (this.mode === MulticlusterMode.GATEWAY) {Object.assign(spec, this.gatewaySpec(props, trustDomain, controlPlaneNamespace));} else {
      check(props.gatewayAddress === undefined, this, InputRule.CONFLICT, 'gatewayAddress is set but the mode is FLAT_NETWORK, which uses no gateway.',
        'Drop gatewayAddress, or use MulticlusterMode.GATEWAY.');
    }
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: LINK_API_VERSION,
      kind: 'Link',
      metadata: { name: this.targetClusterName, namespace: namespace ?? Chart.of(this).namespace },
      spec,
    } as any);
  }

  private gatewaySpec(props: MulticlusterLinkProps, trustDomain: string, controlPlaneNamespace: string): Record<string, any> {
    const address = props.gatewayAddress;
    check(typeof address === 'string' && address.split(',').every((a) => a.trim() !== ''), this, InputRule.REQUIRED,
      'gateway mode needs gatewayAddress, the target gateway\'s LoadBalancer address(es).',
      `Pass gatewayAddress (kubectl --context=${this.targetClusterName} -n linkerd-multicluster get svc linkerd-gateway -o jsonpath='{.status.loadBalancer.ingress[0].ip}'), or use MulticlusterMode.FLAT_NETWORK.`);
    // The service mirror splits it at commas, nothing trimmed, and resolves each item with net.LookupIP
    // (multicluster/service-mirror/cluster_watcher.go resolveGatewayAddress): an IP or a host name, no port or scheme.
    const unresolvable = address.split(',').find((a) => !isIpAddress(a) && !isDnsSubdomain(a.toLowerCase()));
    check(unresolvable === undefined, this, InputRule.NAME,
      `gatewayAddress item ${JSON.stringify(unresolvable)} is neither an IP address nor a host name; the service mirror resolves each comma-separated item as it is (net.LookupIP), so this one never resolves.`,
      'List IP addresses or host names separated by commas, without spaces, ports or schemes (the port is gatewayPort).');
    const identity = props.gatewayIdentity ?? gatewayIdentity(trustDomain, controlPlaneNamespace);
    check(isValidMeshIdentity(identity), this, InputRule.NAME, `gatewayIdentity ${JSON.stringify(identity)} is not a mesh identity.`,
      'Use the gateway ServiceAccount\'s identity, e.g. linkerd-gateway.linkerd-multicluster.serviceaccount.identity.linkerd.cluster.local.');
    return {
      gatewayAddress: address,
      gatewayPort: String(validatePortNumber(this, props.gatewayPort ?? GATEWAY_PORT, 'gatewayPort')),
      gatewayIdentity: identity,
      probeSpec: PROBE,
      selector: { matchLabels: { [EXPORTED_LABEL]: EXPORTED_GATEWAY } },
    };
  }
}
