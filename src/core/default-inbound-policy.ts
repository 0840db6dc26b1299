/** The six default inbound policies of Linkerd 2.20 (chart, namespace/pod annotation, Server.accessPolicy). */
export enum DefaultInboundPolicy {
  /** Any client, meshed or plaintext, from anywhere. The chart default: leaves plaintext open. */
  ALL_UNAUTHENTICATED = 'all-unauthenticated',
  /** Only meshed (mTLS) clients, from anywhere. */
  ALL_AUTHENTICATED = 'all-authenticated',
  /** Any client from the cluster networks. */
  CLUSTER_UNAUTHENTICATED = 'cluster-unauthenticated',
  /** Only meshed clients from the cluster networks. */
  CLUSTER_AUTHENTICATED = 'cluster-authenticated',
  /** Nobody, unless an AuthorizationPolicy allows it. */
  DENY = 'deny',
  /** Everyone, but denials that would happen are logged: the safe first step towards deny. */
  AUDIT = 'audit',
}

// The keys, exported here for the public TypeScript API; their home is vocabulary.ts.
export { DEFAULT_POLICY_ANNOTATION as DEFAULT_INBOUND_POLICY_ANNOTATION, INJECT_ANNOTATION } from './vocabulary';

const VALUES = new Set<string>(Object.values(DefaultInboundPolicy));

export function isDefaultInboundPolicy(value: unknown): value is DefaultInboundPolicy {
  return typeof value === 'string' && VALUES.has(value);
}
