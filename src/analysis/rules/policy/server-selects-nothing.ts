import { POLICY_GROUP, WORKLOAD_GROUP } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { externalWorkloadCoverage, serverExternalSelector } from '../../model/external-workloads';
import { serverCoverage, serverSelector } from '../../model/inbound/servers';
import { renderedByLinkerdChart } from '../../model/installs';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { LabelSelector, LabelSelectorRequirement, describeSelector, illegalRequirement, withoutControllerSetLabels } from '../../model/selectors';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** The malformed expressions that make a selector match nothing, in words; empty when there are none. */
function illegalNote(selector: LabelSelector): string {
  const expressions: unknown[] = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  const problems = expressions.flatMap((req) => {
    if (typeof req !== 'object' || req === null) return [];
    const problem = illegalRequirement(req as LabelSelectorRequirement);
    return problem ? [`${(req as LabelSelectorRequirement).key}: ${problem}`] : [];
  });
  return problems.length === 0 ? '' : ` Linkerd's policy controller matches no pod with a malformed expression (${problems.join('; ')}).`;
}

/** What a finding says after the selector, and at which severity. */
interface Doubt {
  readonly text: string;
  readonly severity: Severity;
}

/**
 * Why a well-formed selector that matches no pod template here may still be right, with how sure the finding can be;
 * undefined when nothing excuses it (an error).
 */
function whyUnsure(index: MeshIndex, server: IndexedObject, selector: LabelSelector, known: number): Doubt | undefined {
  const ns = server.id.namespace ?? '';
  if (known === 0 || !index.seesPodTemplates(ns)) {
    // The namespace's workloads may well be deployed separately (a chart, another repository).
    const here = known === 0 ? `selects no pod template here: this analysis has none in namespace ${ns}`
      : `selects none of the ${known} pod template(s) this output has in namespace ${ns}, and the analysis has neither that `
        + 'Namespace nor its workloads in the inventory, so others may run there';
    return {
      text: `${here}. If its workloads are deployed separately, declare them in the inventory so the selector is checked; if there `
        + 'are none, the Server governs nothing.',
      // No pod template of the namespace here at all: nothing to compare the selector with, so the Server is unchecked.
      severity: known === 0 ? Severity.INFO : Severity.WARNING,
    };
  }
  const relaxed = withoutControllerSetLabels(selector);
  if (relaxed && index.podTemplatesMatching(ns, relaxed).length > 0) {
    return {
      text: 'selects pods by a label their controller sets (a StatefulSet\'s pod name, a Job\'s name, a template hash), which no pod '
        + 'template holds; this analysis cannot tell which pods it selects and checks the Server\'s port on none of them.',
      severity: Severity.INFO,
    };
  }
  const chart = renderedByLinkerdChart(server);
  if (!chart) return undefined;
  return {
    text: `selects none of the ${known} pod template(s) in namespace ${ns}. The Server comes from ${chart}, which renders it whether `
      + 'or not its workload runs: another command may create that workload (`linkerd multicluster link` creates the service '
      + 'mirror), or a chart value switched it off. If the workload should be part of this output, it is missing.',
    severity: Severity.WARNING,
  };
}

/**
 * A Server whose externalWorkloadSelector matches no ExternalWorkload (inbound/index.rs ExternalWorkload::reindex_servers)
 * governs nothing. An error only where the namespace has ExternalWorkloads here and the analysis sees all of them.
 */
function checkExternalSelector(ctx: RuleContext, server: IndexedObject, selector: LabelSelector, counts: ExternalWorkloadCounts): void {
  if (externalWorkloadCoverage(ctx.index).workloadsOf(server).length > 0) return;
  const ns = server.id.namespace ?? '';
  const known = counts.in(ns);
  const what = `spec.externalWorkloadSelector (${describeSelector(selector)}) selects none of the ${known} ExternalWorkload(s) `
    + `${known === 0 ? 'this analysis has' : 'here'} in namespace ${ns}`;
  if (known > 0 && ctx.index.sees(WORKLOAD_GROUP, 'ExternalWorkload', ns)) {
    ctx.report(server, `${what}; the Server governs nothing and their ports keep the default inbound policy.${illegalNote(selector)}`);
    return;
  }
  ctx.report(server, `${what}. If the ExternalWorkloads are created separately, declare them in the inventory so the selector is checked; `
    + 'if there are none, the Server governs nothing.', { severity: Severity.WARNING });
}

/**
 * The ExternalWorkloads per namespace, counted on the first Server that asks: counting them again for each Server that
 * selects none would cost Servers × ExternalWorkloads.
 */
class ExternalWorkloadCounts {
  private counts?: Map<string, number>;

  constructor(private readonly index: MeshIndex) {}

  public in(namespace: string): number {
    if (!this.counts) {
      this.counts = new Map();
      for (const w of this.index.list(WORKLOAD_GROUP, 'ExternalWorkload')) {
        const ns = w.id.namespace ?? '';
        this.counts.set(ns, (this.counts.get(ns) ?? 0) + 1);
      }
    }
    return this.counts.get(namespace) ?? 0;
  }
}

/** A Server whose podSelector selects no pod template governs nothing: usually a label typo. */
export const serverSelectsNothingRule: Rule = {
  id: 'LKD-POL-006',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Never applies: policy-controller/k8s/index/src/inbound/index.rs Pod::reindex_servers matches no pod, so the '
      + 'Server and its policies govern nothing. Where the analysis sees only part of the namespace\'s pods it is a '
      + 'warning; where it sees none, info.',
    title: 'Server podSelector (externalWorkloadSelector) selects at least one pod template (ExternalWorkload) in its namespace',
    why: 'A Server applies only to pods its podSelector matches in its own namespace. When it matches none (a label typo, '
      + 'a selector copied from another app), the ports you meant to protect keep the default inbound policy, and the '
      + 'AuthorizationPolicies that target the Server do nothing. When the analysis has no pod template of the namespace at '
      + 'all, or has some but neither the Namespace object nor the namespace\'s workloads in the inventory (the workloads '
      + 'are deployed separately: a Helm chart, another repository), it cannot tell a typo from an absent workload, and '
      + 'says so as a warning. Linkerd\'s own charts render the Servers of workloads that other commands create '
      + '(the multicluster extension\'s service mirrors and controllers come from `linkerd multicluster link`) or that a value '
      + 'switched off (viz with prometheus.enabled=false keeps its prometheus-admin Server): on those it is a warning too. A '
      + 'selector on labels that controllers put on the pods they create (statefulset.kubernetes.io/pod-name, job-name, '
      + 'pod-template-hash …) is judged without those labels, and noted as information when the rest matches. An '
      + 'externalWorkloadSelector is judged against the namespace\'s ExternalWorkloads the same way.',
    fix: 'Make podSelector match the pod template labels of the workload (or declare the workload in the inventory if it is deployed separately); '
      + 'give In and NotIn a values list and Exists and DoesNotExist none.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs Pod::reindex_servers (pod_selector.matches), '
      + 'ExternalWorkload::reindex_servers; '
      + 'multicluster/charts/linkerd-multicluster/templates/service-mirror-policy.yaml and '
      + 'viz/charts/linkerd-viz/templates/prometheus-policy.yaml (Servers rendered unconditionally); '
      + 'policy-controller/k8s/api/src/labels.rs Selector::matches, Expression::matches',
    badExample: 'podSelector:\n  matchLabels:\n    app: order   # pods are labelled app: orders',
    goodExample: 'podSelector:\n  matchLabels:\n    app: orders',
  },
  check(ctx) {
    const coverage = serverCoverage(ctx.index);
    const externalCounts = new ExternalWorkloadCounts(ctx.index);
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      const external = serverExternalSelector(server);
      if (external && !specOf(server).podSelector) {
        checkExternalSelector(ctx, server, external, externalCounts);
        continue;
      }
      const selector = serverSelector(server);
      if (!selector) continue; // shape error (LKD-POL-016)
      if (coverage.podsOf(server).length > 0) continue;
      const ns = server.id.namespace ?? '';
      const known = ctx.index.podTemplatesIn(ns).length;
      const illegal = illegalNote(selector);
      const unsure = illegal === '' ? whyUnsure(ctx.index, server, selector, known) : undefined;
      if (unsure) {
        ctx.report(server, `spec.podSelector (${describeSelector(selector)}) ${unsure.text}`, { severity: unsure.severity });
        continue;
      }
      ctx.report(server, `spec.podSelector (${describeSelector(selector)}) selects none of the ${known} pod template(s) in namespace ${ns}; `
        + `the Server governs nothing and its port keeps the default inbound policy.${illegal}`);
    }
  },
};
