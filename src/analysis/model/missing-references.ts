/**
 * How sure a finding about an object the analysis lacks can be: the index says whether it sees a namespace's objects
 * of a kind in full (MeshIndex.sees) and whether the app claims the object exists outside it.
 */
import { ExistingObjectClaim } from './manifest';
import { MeshIndex } from './mesh-index';
import { editDistance } from '../../util/edit-distance';
import { Severity } from '../finding';

/**
 * How sure a "does not exist" finding can be: an error when the analysis sees that namespace's objects of the kind
 * in full (MeshIndex.sees: the Namespace, or the inventory's record of the kind there), else a warning where the name is
 * close to one of its kind there (a likely typo) and info otherwise, saying how to tell the analysis about the cluster.
 * A warning too where the app itself says the object exists outside it (a
 * `fromName` reference): the author knows what another tool installs there, and the hint names that claim.
 */
export function missingReference(
  index: MeshIndex, group: string, kind: string, namespace: string, name?: string,
): { severity: Severity; hint: string } {
  const claim = name === undefined ? undefined : index.claimOf(group, kind, namespace, name);
  if (claim) return { severity: Severity.WARNING, hint: claimedHint(claim) };
  if (index.sees(group, kind, namespace)) return { severity: Severity.ERROR, hint: '' };
  // The analysis sees only part of the namespace: a name close to one of its kind there is likely a typo (a warning);
  // any other may be deployed separately, so the reference is merely unchecked (info).
  const nearMiss = name !== undefined && index.list(group, kind)
    .some((o) => (o.id.namespace ?? '') === namespace && editDistance(o.id.name, name) <= 2);
  return {
    severity: nearMiss ? Severity.WARNING : Severity.INFO,
    hint: ` (namespace ${namespace} is not part of this analysis: it has neither the Namespace nor an inventory of its ${kind}s, and `
      + `objects deployed separately may be there; if the ${kind} exists in the cluster, pass it with --inventory or MeshChecks' inventory)`,
  };
}

/**
 * Why a Service the analysis lacks is missing: certainly absent where the analysis sees that namespace's Services,
 * else only unseen (another tool's chart, a `ServiceReference.fromName`), which proves nothing either way.
 */
export function absentService(index: MeshIndex, namespace: string, name: string): { reason: string; unseen: boolean } {
  const sure = missingReference(index, '', 'Service', namespace, name);
  return sure.severity === Severity.ERROR
    ? { reason: `Service ${namespace}/${name} does not exist`, unseen: false }
    : { reason: `Service ${namespace}/${name} is not in this analysis${sure.hint}`, unseen: true };
}

/** Words for a reference the app says exists outside it. */
export function claimedHint(claim: ExistingObjectClaim): string {
  return ` (${claim.by} says it exists in the cluster outside this app; if it does, add it to MeshChecks' inventory so that the `
    + 'analysis checks it too, else fix the name)';
}
