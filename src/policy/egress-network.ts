import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Network } from './authentication';
import { MeshResource, MeshResourceProps, metadataFor } from '../base';
import { optionalList, requireEnum, requireStruct } from '../core/runtime-checks';
import * as l1 from '../imports/policy.linkerd.io';

/** What happens to egress traffic no route allows. */
export enum EgressTrafficPolicy {
  /** Let it through. */
  ALLOW = 'Allow',
  /** Refuse it. */
  DENY = 'Deny',
}

/** Props for an EgressNetwork. */
export interface EgressNetworkProps extends MeshResourceProps {
  /** What happens to traffic no route matches. */
  readonly trafficPolicy: EgressTrafficPolicy;
  /**
   * The destinations this EgressNetwork covers.
   * @default - everything outside the cluster networks
   */
  readonly networks?: Network[];
}

/** Makes egress to networks outside the cluster visible to, and governable by, the mesh. */
export class EgressNetwork extends MeshResource {
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: EgressNetworkProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    requireEnum(this, props.trafficPolicy, EgressTrafficPolicy, 'trafficPolicy', 'LKD-POL-012');
    const networks = optionalList<Network>(this, props.networks, 'networks', (n) => n instanceof Network, 'Network.cidr(...) values')?.map((n) => n._toKube(this));
    this.apiObject = new l1.EgressNetwork(this, 'Resource', {
      metadata: metadataFor(this, props),
      spec: { trafficPolicy: props.trafficPolicy as unknown as l1.EgressNetworkSpecTrafficPolicy, networks },
    });
  }
}
