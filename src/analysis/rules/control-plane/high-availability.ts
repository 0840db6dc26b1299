import { ChartInstall, controlPlaneInstalls } from '../../model/installs';
import { Severity } from '../../finding';
import { Rule, RuleArea, RuleContext } from '../../rule';

type ValuesInstall = ChartInstall & { values: Record<string, any> };

function replicasOf(values: Record<string, any>): number {
  const n = Number(values.controllerReplicas ?? 1);
  return Number.isFinite(n) ? n : 1;
}

function wantsHa(values: Record<string, any>): boolean {
  return values.highAvailability === true || replicasOf(values) > 1 || values.enablePodAntiAffinity === true;
}

function gaps(values: Record<string, any>): string[] {
  const out: string[] = [];
  const replicas = replicasOf(values);
  if (replicas < 3) out.push(`controllerReplicas is ${replicas} (HA needs 3)`);
  if (values.enablePodDisruptionBudget !== true) out.push('enablePodDisruptionBudget is off, so a node drain can evict every replica at once');
  if (values.enablePodAntiAffinity !== true) out.push('enablePodAntiAffinity is off, so replicas may share one node');
  return out;
}

/** Required anti-affinity on kubernetes.io/hostname: each replica needs its own schedulable node. */
function checkNodes(ctx: RuleContext, install: ValuesInstall): void {
  const replicas = replicasOf(install.values);
  if (install.values.enablePodAntiAffinity !== true || replicas < 2) return;
  const nodes = ctx.index.list('', 'Node').length;
  if (nodes >= replicas) return;
  const known = nodes === 0 ? 'the node count is not known (list the Nodes in the inventory to confirm it)' : `the inventory lists only ${nodes} Node(s)`;
  ctx.report(install.subject, `the control plane requires pod anti-affinity on kubernetes.io/hostname with ${replicas} replicas, so it needs at least `
    + `${replicas} schedulable nodes; ${known}. With fewer, replicas stay Pending and PodDisruptionBudgets block node drains.`);
}

/** HA is all-or-nothing: replicas, disruption budgets and anti-affinity only help together, and need the nodes. */
export const controlPlaneHa: Rule = {
  id: 'LKD-CP-001',
  area: RuleArea.CONTROL_PLANE,
  severity: Severity.WARNING,
  doc: {
    title: 'An HA control plane has 3 replicas, PodDisruptionBudgets and anti-affinity, and at least 3 nodes',
    why: 'The chart\'s HA profile runs 3 replicas of each controller with PodDisruptionBudgets (maxUnavailable 1) and required pod '
      + 'anti-affinity on kubernetes.io/hostname. Partial HA (2 replicas, or no PDB, or no anti-affinity) still loses the control plane '
      + 'to one node failure or drain; full HA needs one schedulable node per replica.',
    fix: 'Use highAvailability: true (the chart\'s values-ha.yaml) and run at least 3 schedulable nodes (declare them as Node objects '
      + 'in the inventory to confirm).',
    badExample: 'valuesObject:\n  controllerReplicas: 2',
    goodExample: 'valuesObject:\n  highAvailability: true\n  controllerReplicas: 3\n  enablePodDisruptionBudget: true\n  enablePodAntiAffinity: true',
  },
  check(ctx) {
    for (const install of controlPlaneInstalls(ctx.index)) {
      if (!wantsHa(install.values)) continue;
      const missing = gaps(install.values);
      if (missing.length > 0) ctx.report(install.subject, `${install.source} asks for HA but ${missing.join('; ')}.`);
      checkNodes(ctx, install);
    }
  },
};
