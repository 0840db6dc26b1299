/**
 * What constructs say exists in the cluster without writing it: a `ServiceReference.fromName` parent, backend or call,
 * a `Server.fromServerName` target. The construct front-end hands these to the analysis with the objects the claiming
 * construct writes, so a reference to them that the analysis cannot resolve is a warning naming the claim (the object
 * may come from a Helm chart or another repository), not an error.
 */
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { ExistingObjectClaim } from '../analysis/model/manifest';

/** One object a construct refers to as existing outside the app. */
export interface ClaimedObject {
  /** API group ('' for core). */
  readonly group: string;
  readonly kind: string;
  /** Its namespace; when absent, the namespace of the objects the claiming construct writes. */
  readonly namespace?: string;
  readonly name: string;
  /** The factory the reference came from, for messages (`ServiceReference.fromName`). */
  readonly factory: string;
}

/** Per claiming construct, its claims by object; kept beside the tree so that a construct's public surface is unchanged. */
const CLAIMS = new WeakMap<IConstruct, Map<string, ClaimedObject>>();
/** Whether any construct made a claim: most apps make none, and then no object's ancestors are walked. */
let anyClaim = false;

/** Records that `scope` refers to `claim` as an object of the cluster. Rendering twice records it once. */
export function claimExisting(scope: IConstruct, claim: ClaimedObject): void {
  anyClaim = true;
  let claims = CLAIMS.get(scope);
  if (!claims) CLAIMS.set(scope, claims = new Map());
  claims.set(`${claim.group}|${claim.kind}|${claim.namespace ?? ''}|${claim.name}`, claim);
}

/**
 * The claims of a construct and of every construct above it, as the engine reads them beside the object the construct
 * writes (rendering the object has recorded them), each naming the factory and the path of the construct that made it.
 */
export function claimsAbove(construct: IConstruct): ExistingObjectClaim[] {
  const out: ExistingObjectClaim[] = [];
  if (!anyClaim) return out;
  for (const scope of construct.node.scopes) {
    const claims = CLAIMS.get(scope);
    if (!claims) continue;
    for (const { group, kind, namespace, name, factory } of claims.values()) {
      out.push({ group, kind, namespace, name, by: `${factory} at ${scope.node.path}` });
    }
  }
  return out;
}

/**
 * Claims a Server reference that is not a construct of this app (`Server.fromServerName`, a plain `{ name }`): that
 * Server lives in the cluster. A Server construct of the app writes its own object, so it is no claim.
 */
export function claimServerReference(scope: IConstruct, server: unknown): void {
  if (Construct.isConstruct(server) || typeof (server as any)?.name !== 'string') return;
  const { name, namespace } = server as { name: string; namespace?: unknown };
  const where = typeof namespace === 'string' ? namespace : undefined;
  claimExisting(scope, { group: 'policy.linkerd.io', kind: 'Server', namespace: where, name, factory: 'Server.fromServerName' });
}

/**
 * Claims a ServiceAccount imported with `kplus.ServiceAccount.fromServiceAccountName`: cdk8s-plus writes nothing for
 * it, so the account lives in the cluster. `namespace` is where the reference points (absent: the claimer's).
 */
export function claimImportedServiceAccount(scope: IConstruct, account: unknown, namespace: string | undefined): void {
  if (account instanceof kplus.ServiceAccount || typeof (account as any)?.name !== 'string') return;
  claimExisting(scope, { group: '', kind: 'ServiceAccount', namespace, name: (account as any).name, factory: 'ServiceAccount.fromServiceAccountName' });
}
