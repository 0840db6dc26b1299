import { ApiObject, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AutoscaledBudget, ClusterRateBudget, perProxyRate } from './rate-budget';
import { IServer } from './server';
import { MeshResource, MeshResourceProps, metadataFor } from '../base';
import { claimServerReference } from '../checks/claims';
import { check } from '../core/errors';
import { isNamed, isStruct, namespaceOf, optionalList, optionalStruct, requireNamed, requireStruct } from '../core/runtime-checks';
import * as l1 from '../imports/policy.linkerd.io';
import { MeshedDeployment } from '../workloads/meshed-deployment';

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
   * A cluster-wide budget for all clients together instead of totalRequestsPerSecond: each proxy enforces the limit on
   * its own, so the policy's total is the budget divided by the replicas of the workloads behind the Server (LKD-CAP-002).
   * @default - none: totalRequestsPerSecond, if given, applies per proxy
   */
  readonly clusterBudget?: ClusterRateBudget;
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
    const budget = this.budget(props);
    const total = props.totalRequestsPerSecond;
    const rate = (value: number | undefined, what: string) => {
      if (value === undefined) return undefined;
      check(Number.isInteger(value) && value > 0 && value <= U32_MAX, this, 'LKD-POL-014', `${what} ${JSON.stringify(value)} must be a positive integer.`, 'Use a whole number of requests per second above 0.');
      check(total === undefined || what === 'totalRequestsPerSecond' || value <= total, this, 'LKD-POL-014',
        `${what} ${value} exceeds totalRequestsPerSecond ${total}.`, 'Keep per-client limits at or below the total.');
      return { requestsPerSecond: value };
    };
    check(total !== undefined || budget !== undefined || props.identityRequestsPerSecond !== undefined || (props.overrides?.length ?? 0) > 0, this, 'LKD-POL-014',
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
        total: budget ? Lazy.any({ produce: () => (budget.rate() === undefined ? undefined : { requestsPerSecond: budget.rate() }) }) as any : rate(total, 'totalRequestsPerSecond'),
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

  /**
   * The per-proxy total a cluster-wide budget gives, computed at synth (autoscalers may be added after the policy); a
   * budget that cannot be divided as asked fails validation with a coded message.
   */
  private budget(props: HttpLocalRateLimitPolicyProps): { rate: () => number | undefined } | undefined {
    if (props.clusterBudget === undefined) return undefined;
    const budget = optionalStruct(this, props.clusterBudget, 'clusterBudget') as ClusterRateBudget;
    check(props.totalRequestsPerSecond === undefined, this, 'LKD-POL-014', 'the policy sets both totalRequestsPerSecond and clusterBudget.',
      'Set one: totalRequestsPerSecond is per proxy, clusterBudget the cluster-wide total divided by the replicas.');
    check(Number.isInteger(budget.totalRequestsPerSecond) && budget.totalRequestsPerSecond > 0 && budget.totalRequestsPerSecond <= U32_MAX, this, 'LKD-POL-014',
      `clusterBudget.totalRequestsPerSecond ${JSON.stringify(budget.totalRequestsPerSecond)} must be a positive integer.`, 'Use a whole number of requests per second above 0.');
    optionalList(this, budget.workloads, 'clusterBudget.workloads', (w): w is MeshedDeployment => w instanceof MeshedDeployment, 'MeshedDeployment constructs');
    check(Array.isArray(budget.workloads) && budget.workloads.length > 0, this, 'LKD-POL-014', 'clusterBudget names no workloads.', 'List the MeshedDeployments the Server selects.');
    check(budget.autoscaled === undefined || Object.values(AutoscaledBudget).includes(budget.autoscaled), this, 'LKD-POL-014',
      `clusterBudget.autoscaled ${JSON.stringify(budget.autoscaled)} is not an AutoscaledBudget.`, 'Use AutoscaledBudget.HOLD_AT_MAX_REPLICAS or REACH_AT_MIN_REPLICAS.');
    const result = () => perProxyRate(this, budget);
    this.node.addValidation({ validate: () => { const problem = result().problem; return problem ? [problem] : []; } });
    return { rate: () => result().rate };
  }
}
