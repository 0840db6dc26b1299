import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { IServer } from './server';
import { MeshResource, MeshResourceProps, metadataFor } from '../base';
import { claimServerReference } from '../checks/claims';
import { check } from '../core/errors';
import { isNamed, isStruct, namespaceOf, optionalList, requireNamed, requireStruct } from '../core/runtime-checks';
import * as l1 from '../imports/policy.linkerd.io';

const U32_MAX = 4_294_967_295;

/** A higher limit for some clients. */
export interface RateLimitOverride {
  /** Requests per second these clients may send. */
  readonly requestsPerSecond: number;
  /** The clients, by ServiceAccount. */
  readonly clients: kplus.IServiceAccount[];
}

/** Props for an HttpLocalRateLimitPolicy. */
export interface HttpLocalRateLimitPolicyProps extends MeshResourceProps {
  /** The Server whose HTTP traffic is limited (only one policy per Server takes effect). */
  readonly server: IServer;
  /**
   * Requests per second for all clients together.
   * @default - no overall limit
   */
  readonly totalRequestsPerSecond?: number;
  /**
   * Requests per second for each client identity.
   * @default - no per-identity limit
   */
  readonly identityRequestsPerSecond?: number;
  /**
   * Limits for specific clients.
   * @default - none
   */
  readonly overrides?: RateLimitOverride[];
}

/** Limits the request rate a Server's proxies accept (HTTPLocalRateLimitPolicy). */
export class HttpLocalRateLimitPolicy extends MeshResource {
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: HttpLocalRateLimitPolicyProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    requireNamed(this, props.server, 'server', 'Pass the Server construct, or Server.fromServerName("name").');
    claimServerReference(this, props.server);
    optionalList<RateLimitOverride>(this, props.overrides, 'overrides', isStruct, 'override objects ({ requestsPerSecond, clients })');
    const total = props.totalRequestsPerSecond;
    const rate = (value: number | undefined, what: string) => {
      if (value === undefined) return undefined;
      check(Number.isInteger(value) && value > 0 && value <= U32_MAX, this, 'LKD-POL-014', `${what} ${JSON.stringify(value)} must be a positive integer.`, 'Use a whole number of requests per second above 0.');
      check(total === undefined || what === 'totalRequestsPerSecond' || value <= total, this, 'LKD-POL-014',
        `${what} ${value} exceeds totalRequestsPerSecond ${total}.`, 'Keep per-client limits at or below the total.');
      return { requestsPerSecond: value };
    };
    check(total !== undefined || props.identityRequestsPerSecond !== undefined || (props.overrides?.length ?? 0) > 0, this, 'LKD-POL-014',
      'the policy sets no limit at all.', 'Set totalRequestsPerSecond, identityRequestsPerSecond or overrides.');
    const metadata = metadataFor(this, props);
    // ratelimit_policy.rs target(LocalTargetRef): the Server is looked up in the policy's own namespace.
    const serverNamespace = props.server.namespace;
    check(serverNamespace === undefined || metadata.namespace === undefined || serverNamespace === metadata.namespace, this, 'LKD-POL-014',
      `the Server ${props.server.name} is in namespace ${serverNamespace}, but the policy is in ${metadata.namespace}, and Linkerd looks the target up in the policy's own namespace only.`,
      `Create the policy in namespace ${serverNamespace}.`);
    this.apiObject = new l1.HttpLocalRateLimitPolicy(this, 'Resource', {
      metadata,
      spec: {
        targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: props.server.name },
        total: rate(total, 'totalRequestsPerSecond'),
        identity: rate(props.identityRequestsPerSecond, 'identityRequestsPerSecond'),
        overrides: props.overrides?.map((o, i) => {
          optionalList(this, o.clients, `overrides[${i}].clients`, isNamed, 'ServiceAccounts');
          check(o.requestsPerSecond !== undefined, this, 'LKD-POL-014', `overrides[${i}] sets no requestsPerSecond.`, 'Give the override its limit, e.g. requestsPerSecond: 50.');
          check((o.clients?.length ?? 0) > 0, this, 'LKD-POL-014', `overrides[${i}] names no clients.`, 'List the ServiceAccounts the override is for.');
          return {
            requestsPerSecond: rate(o.requestsPerSecond, `overrides[${i}].requestsPerSecond`)!.requestsPerSecond,
            clientRefs: o.clients.map((sa) => ({ kind: 'ServiceAccount', name: requireNamed(this, sa, `overrides[${i}] client`, 'Pass a kplus.ServiceAccount.').name, namespace: namespaceOf(sa) })),
          };
        }),
      },
    });
  }
}
