import * as yaml from 'js-yaml';
import { COMPONENT_LABEL, ZONE_LABEL } from '../../../core/fault-domains';
import { Severity } from '../../finding';
import { ChartInstall, InstallSource, controlPlaneInstalls } from '../../model/installs';
import { labelOf, textOf } from '../../model/manifest';
import { MeshIndex } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';

type ValuesInstall = ChartInstall & { values: Record<string, any> };

/** What the analysis knows about the cluster's fault domains. */
interface FaultDomainFacts {
  /** Schedulable nodes; undefined when unknown. */
  readonly nodes?: number;
  /** Zones; undefined when unknown. */
  readonly zones?: number;
  /** Where the facts came from, for messages. */
  readonly origin: string;
}

/** How the controller replicas are spread over zones. */
enum ZoneGuarantee {
  NONE = 'none',
  PREFERRED = 'preferred',
  REQUIRED = 'required',
}

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

/**
 * With highAvailability already on, the gap is in the HA values themselves: no chart template reads highAvailability
 * (values-ha.yaml: "flag for linkerd check"), so they must be set, and nothing may undo them.
 */
function gapFix(values: Record<string, any>): string {
  if (values.highAvailability === true) {
    return 'highAvailability: true is only a flag for linkerd check; the chart reads the HA values themselves (its values-ha.yaml sets '
      + 'controllerReplicas: 3, enablePodDisruptionBudget and enablePodAntiAffinity). Set them, and remove any override (in '
      + 'additionalValues, valuesObject or values) that undoes them.';
  }
  return 'Use highAvailability: true (the chart\'s values-ha.yaml: 3 replicas, PodDisruptionBudgets, anti-affinity), or set those three keys together.';
}

function factsOf(ctx: RuleContext): FaultDomainFacts {
  const nodes = ctx.index.list('', 'Node');
  const zoneLabels = new Set<string>();
  let unlabelled = 0;
  for (const node of nodes) {
    const zone = labelOf(node.object, ZONE_LABEL);
    if (zone !== undefined && zone !== '') zoneLabels.add(zone);
    else unlabelled++;
  }
  const declaredNodes = ctx.context.nodeCount;
  const declaredZones = ctx.context.zoneCount;
  const inventoryZones = nodes.length > 0 && unlabelled === 0 ? zoneLabels.size : undefined;
  return {
    nodes: declaredNodes ?? (nodes.length > 0 ? nodes.length : undefined),
    zones: declaredZones ?? inventoryZones,
    origin: declaredNodes !== undefined || declaredZones !== undefined ? 'the declared nodeCount/zoneCount' : 'the inventory\'s Nodes',
  };
}

function hasZoneConstraint(constraints: unknown): boolean {
  return Array.isArray(constraints) && constraints.some((c) => c?.topologyKey === ZONE_LABEL && c?.whenUnsatisfiable === 'DoNotSchedule');
}

/** Flux post-renderer patches that add a DoNotSchedule zone spread (what LinkerdControlPlane writes for ZoneSpread.REQUIRED). */
function fluxAddsZoneSpread(install: ValuesInstall): boolean {
  if (install.source !== InstallSource.FLUX) return false;
  const renderers = install.subject.object.spec?.postRenderers;
  if (!Array.isArray(renderers)) return false;
  return renderers.some((r) => Array.isArray(r?.kustomize?.patches) && r.kustomize.patches.some((p: any) => {
    try {
      const patch: any = typeof p?.patch === 'string' ? yaml.load(p.patch) : undefined;
      return hasZoneConstraint(patch?.spec?.template?.spec?.topologySpreadConstraints);
    } catch {
      return false;
    }
  }));
}

/** Rendered controller pods (a chart rendered by cdk8s Helm) carrying the zone spread. */
function renderedZoneSpread(index: MeshIndex, namespace: string | undefined): boolean {
  const controllers = index.podTemplates.filter((p) => !p.owner.inventory && p.namespace === namespace
    && textOf(p.labels, COMPONENT_LABEL) !== undefined);
  return controllers.length > 0 && controllers.every((p) => hasZoneConstraint(p.spec.topologySpreadConstraints));
}

function zoneGuarantee(ctx: RuleContext, install: ValuesInstall): ZoneGuarantee {
  if (fluxAddsZoneSpread(install) || renderedZoneSpread(ctx.index, install.namespace)) return ZoneGuarantee.REQUIRED;
  return install.values.enablePodAntiAffinity === true ? ZoneGuarantee.PREFERRED : ZoneGuarantee.NONE;
}

const DECLARE_FIX = 'Tell the checks about the cluster: list its Nodes in the inventory (kubectl get nodes -o yaml; their '
  + 'topology.kubernetes.io/zone labels give the zones), or declare nodeCount and zoneCount (MeshChecks configure, the plugin\'s properties).';

/** Says which fault domain survives: a node always with required anti-affinity and enough nodes; a zone only with a spread across zones. */
function checkFaultDomains(ctx: RuleContext, install: ValuesInstall): void {
  const replicas = replicasOf(install.values);
  if (install.values.enablePodAntiAffinity !== true || replicas < 2) return;
  const facts = factsOf(ctx);
  const zoneMode = zoneGuarantee(ctx, install);
  if (facts.nodes === undefined) {
    ctx.report(install.subject, `the control plane runs ${replicas} replicas with required pod anti-affinity on kubernetes.io/hostname, so it needs `
      + `${replicas} schedulable nodes, and its zone spread is ${zoneMode}; no node facts were given, so whether the cluster has those nodes, and `
      + 'how many zones, cannot be known here (with fewer nodes, replicas stay Pending and PodDisruptionBudgets block node drains).',
    { severity: Severity.INFO, fix: DECLARE_FIX });
    return;
  }
  if (facts.nodes < replicas) {
    ctx.report(install.subject, `the control plane requires pod anti-affinity on kubernetes.io/hostname with ${replicas} replicas, so it needs at least `
      + `${replicas} schedulable nodes; ${facts.origin} give only ${facts.nodes}. With fewer, replicas stay Pending and PodDisruptionBudgets block node drains.`,
    { fix: `Run at least ${replicas} schedulable nodes, or lower controllerReplicas.` });
    return;
  }
  const nodeHolds = `a node failure leaves ${replicas - 1} of ${replicas} replicas (${facts.nodes} nodes, one replica per node)`;
  if (facts.zones === undefined) {
    ctx.report(install.subject, `${nodeHolds}; whether a zone failure does is not known: the Nodes carry no ${ZONE_LABEL} label and no zoneCount was declared.`,
      { severity: Severity.INFO, fix: DECLARE_FIX });
  } else if (facts.zones < 2) {
    ctx.report(install.subject, `${nodeHolds}, but every node is in one zone (${facts.origin}), so a zone failure takes the whole control plane down.`,
      { severity: Severity.INFO, fix: 'Run nodes in at least 2 zones (3 for 3 replicas) to survive a zone failure; nothing in the chart can do it for you.' });
  } else if (zoneMode !== ZoneGuarantee.REQUIRED) {
    ctx.report(install.subject, `${nodeHolds}; across the ${facts.zones} zones the spread is only ${zoneMode} (the chart's anti-affinity on ${ZONE_LABEL} `
      + 'has weight 100 and renders no topologySpreadConstraints), so the scheduler may put every replica in one zone and a zone failure can take them all.',
    {
      severity: Severity.INFO,
      fix: 'Set zoneSpread: ZoneSpread.REQUIRED (Flux or cdk8s Helm delivery add topologySpreadConstraints on '
      + `${ZONE_LABEL}, maxSkew 1, DoNotSchedule) or accept the preferred spread.`,
    });
  }
}

/** HA is all-or-nothing: replicas, disruption budgets and anti-affinity only help together, and need the nodes and zones. */
export const controlPlaneHa: Rule = {
  id: 'LKD-CP-001',
  area: RuleArea.CONTROL_PLANE,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: how many nodes and zones the cluster has and which failures happen; where the node and zone '
      + 'counts are unknown the finding is info.',
    title: 'An HA control plane has 3 replicas, PodDisruptionBudgets and anti-affinity, and the nodes and zones they need',
    why: 'The chart\'s HA profile runs 3 replicas of each controller with PodDisruptionBudgets (maxUnavailable 1), required pod '
      + 'anti-affinity on kubernetes.io/hostname and a preferred (weight 100) anti-affinity on topology.kubernetes.io/zone. Partial HA (2 '
      + 'replicas, or no PDB, or no anti-affinity) still loses the control plane to one node failure or drain; full HA needs one schedulable '
      + 'node per replica, and survives a zone failure only with nodes in several zones and a spread that requires them. Without node facts '
      + 'the rule says what it cannot know, as information.',
    fix: 'Use highAvailability: true (the chart\'s values-ha.yaml) without overrides that undo it, run at least 3 schedulable nodes in '
      + 'several zones, and tell the checks (Nodes in the inventory, or nodeCount/zoneCount).',
    linkerdSource: 'charts/linkerd-control-plane/values-ha.yaml (controllerReplicas 3, enablePodDisruptionBudget, '
      + 'enablePodAntiAffinity); charts/partials/templates/_affinity.tpl',
    badExample: 'valuesObject:\n  controllerReplicas: 2',
    goodExample: 'valuesObject:\n  highAvailability: true\n  controllerReplicas: 3\n  enablePodDisruptionBudget: true\n  enablePodAntiAffinity: true',
  },
  check(ctx) {
    for (const install of controlPlaneInstalls(ctx.index)) {
      if (!wantsHa(install.values)) continue;
      // Values files the analysis cannot read (the chart's values-ha.yaml among them) may close the gaps.
      const missing = install.unseenValues.length > 0 ? [] : gaps(install.values);
      if (missing.length > 0) ctx.report(install.subject, `${install.source} asks for HA but ${missing.join('; ')}.`, { fix: gapFix(install.values) });
      checkFaultDomains(ctx, install);
    }
  },
};
