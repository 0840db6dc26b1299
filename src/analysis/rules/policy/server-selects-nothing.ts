import { Severity } from '../../finding';
import { POLICY_GROUP } from '../../model/mesh-index';
import { serverCoverage, serverSelector } from '../../model/policy-view';
import { describeSelector } from '../../model/selectors';
import { Rule, RuleArea } from '../../rule';

/** A Server whose podSelector selects no pod template governs nothing: usually a label typo. */
export const serverSelectsNothingRule: Rule = {
  id: 'LKD-POL-006',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  doc: {
    title: 'Server podSelector selects at least one pod template in its namespace',
    why: 'A Server applies only to pods its podSelector matches in its own namespace. When it matches none (a label typo, '
      + 'a selector copied from another app), the ports you meant to protect keep the default inbound policy, and the '
      + 'AuthorizationPolicies that target the Server do nothing.',
    fix: 'Make podSelector match the pod template labels of the workload (or declare the workload in the inventory if it is deployed separately).',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs Pod::reindex_servers (pod_selector.matches); '
      + 'policy-controller/k8s/api/src/labels.rs Selector::matches',
    badExample: 'podSelector:\n  matchLabels:\n    app: order   # pods are labelled app: orders',
    goodExample: 'podSelector:\n  matchLabels:\n    app: orders',
  },
  check(ctx) {
    const coverage = serverCoverage(ctx.index);
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      const selector = serverSelector(server);
      if (!selector) continue; // externalWorkloadSelector or shape error (LKD-POL-016)
      if (coverage.podsOf(server).length > 0) continue;
      const ns = server.id.namespace ?? '';
      const known = ctx.index.podTemplatesIn(ns).length;
      ctx.report(server, `spec.podSelector (${describeSelector(selector)}) selects none of the ${known} pod template(s) in namespace ${ns}; `
        + 'the Server governs nothing and its port keeps the default inbound policy.');
    }
  },
};
