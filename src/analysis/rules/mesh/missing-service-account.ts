import { Severity } from '../../finding';
import { serviceAccountExists } from '../../model/identity/service-accounts';
import { missingReference } from '../../model/missing-references';
import { Rule, RuleArea } from '../../rule';

/**
 * A pod's ServiceAccount is its mesh identity. A missing one is not refused when the Deployment is applied: the
 * ReplicaSet just never creates pods, and every policy naming that identity matches nobody.
 */
export const missingServiceAccount: Rule = {
  id: 'LKD-MESH-010',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Fails to start: Kubernetes\' ServiceAccount admission refuses every pod of the workload while the '
      + 'ServiceAccount is missing. Where the analysis does not see the namespace\'s ServiceAccounts it is a warning '
      + '(a near-miss name) or info.',
    title: 'A workload\'s ServiceAccount (its mesh identity) exists',
    why: 'The API server accepts a Deployment whose serviceAccountName does not exist, but no pod is ever created for it '
      + '(the ReplicaSet fails with "serviceaccount not found"), so the workload and its identity silently never appear.',
    fix: 'Create the ServiceAccount in the workload\'s namespace (or list it in the inventory if it exists in the cluster).',
    linkerdSource: 'not Linkerd: Kubernetes ReplicaSet controller and ServiceAccount admission (pods are refused while the '
      + 'ServiceAccount is missing)',
    badExample: 'kind: Deployment\nspec:\n  template:\n    spec:\n      serviceAccountName: orders   # no ServiceAccount orders',
    goodExample: 'kind: ServiceAccount\nmetadata: {name: orders}\n---\nkind: Deployment\nspec:\n  template:\n    spec:\n      serviceAccountName: orders',
  },
  check(ctx) {
    for (const pod of ctx.index.podTemplates) {
      if (pod.owner.inventory || serviceAccountExists(ctx.index, pod.namespace, pod.serviceAccountName)) continue;
      const sure = missingReference(ctx.index, '', 'ServiceAccount', pod.namespace, pod.serviceAccountName);
      ctx.report(pod.owner, `runs as ServiceAccount ${pod.namespace}/${pod.serviceAccountName}, which exists neither in this output nor `
        + `in the inventory${sure.hint}; no pod will be created and policies naming that identity match nobody.`, { severity: sure.severity });
    }
  },
};
