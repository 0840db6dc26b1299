/**
 * A trust-anchor rotation across a fleet: every cluster runs the single-cluster TrustAnchorRotation state machine, and
 * the fleet adds the cross-cluster guard. Workloads of linked clusters verify each other's certificates, so no cluster
 * may issue from the new anchor before every linked cluster's proxies trust it, and no cluster may drop the old anchor
 * while a linked cluster's issuer or running proxies still chain to it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Construct } from 'constructs';
import { CertRule } from '../control-plane/identity/checks';
import { ProxyTrust, RotationStep, TRUST_ENTERING, TrustAnchorRotation } from '../control-plane/identity/rotation';
import { InputRule, check } from '../core/errors';
import { validateLabelName } from '../core/names';
import { requireString, requireStruct } from '../core/runtime-checks';

/** One cluster's place in a fleet rotation. */
export interface FleetRotationCluster {
  /** The cluster's name (also its kubectl context in the runbook, unless `kubeContext` is set). */
  readonly name: string;
  /** The step this cluster carries out now. */
  readonly step: RotationStep;
  /** The issuer certificate (PEM) deployed in this cluster at this step. */
  readonly issuerCertificatePem: string;
  /**
   * What this cluster's running proxies trust, if known.
   * @default - the state the earlier steps leave behind
   */
  readonly runningProxiesTrust?: ProxyTrust;
  /**
   * The kubectl context of the cluster.
   * @default - the cluster's name
   */
  readonly kubeContext?: string;
  /**
   * The cluster's control-plane namespace.
   * @default "linkerd"
   */
  readonly controlPlaneNamespace?: string;
  /**
   * Namespaces with meshed workloads to restart.
   * @default - found at run time
   */
  readonly meshedNamespaces?: string[];
  /**
   * The clusters this one exchanges traffic with (either direction of a Link).
   * @default - every other cluster of the rotation
   */
  readonly linkedClusters?: string[];
}

/** Props for FleetTrustAnchorRotation. */
export interface FleetTrustAnchorRotationProps {
  /** The anchor (PEM) every cluster used before the rotation. */
  readonly currentAnchorPem: string;
  /** The new anchor (PEM). */
  readonly newAnchorPem: string;
  /** Every cluster of the fleet with its current step. */
  readonly clusters: FleetRotationCluster[];
}

const STEPS = Object.values(RotationStep);

function at(step: RotationStep): number {
  return STEPS.indexOf(step);
}

const TRUST = Object.values(ProxyTrust);

/** What a linked cluster must have finished before a cluster may enter a phase. */
interface Requirement {
  /** The linked cluster has at least finished the step before this one... */
  readonly step: RotationStep;
  /** ...and its running proxies are at least in this state. */
  readonly trust: ProxyTrust;
}

/** The phases every cluster finishes before any cluster starts the next one. */
const PHASES: Array<{ title: string; steps: RotationStep[]; requires?: Requirement; why: string }> = [
  {
    title: 'Trust both anchors everywhere',
    steps: [RotationStep.BUNDLE_NEW_AND_OLD, RotationStep.RESTART_AFTER_BUNDLE],
    why: 'each cluster deploys the bundle of new and old anchor and restarts; nothing is issued from the new anchor yet.',
  },
  {
    title: 'Issue from the new anchor',
    steps: [RotationStep.SWITCH_ISSUER, RotationStep.RESTART_AFTER_ISSUER],
    requires: { step: RotationStep.RESTART_AFTER_BUNDLE, trust: ProxyTrust.BOTH_ANCHORS_OLD_ISSUER },
    why: 'only when every linked cluster\'s proxies trust both anchors, or they reject the new certificates.',
  },
  {
    title: 'Remove the old anchor',
    steps: [RotationStep.REMOVE_OLD_ANCHOR, RotationStep.RESTART_AFTER_REMOVAL, RotationStep.DONE],
    requires: { step: RotationStep.RESTART_AFTER_ISSUER, trust: ProxyTrust.BOTH_ANCHORS_NEW_ISSUER },
    why: 'only when no linked cluster\'s issuer or running proxies chain to the old anchor any more.',
  },
];

/** What a cluster's running proxies trust: as declared, else what its earlier steps leave behind. */
function trustOf(cluster: FleetRotationCluster): ProxyTrust {
  return cluster.runningProxiesTrust ?? TRUST_ENTERING[cluster.step];
}

function meets(cluster: FleetRotationCluster, requirement: Requirement): boolean {
  return at(cluster.step) >= at(requirement.step) && TRUST.indexOf(trustOf(cluster)) >= TRUST.indexOf(requirement.trust);
}

function phaseOf(step: RotationStep): typeof PHASES[number] {
  return PHASES.find((p) => p.steps.includes(step))!;
}

/** The fleet's rotation: one checked TrustAnchorRotation per cluster, the cross-cluster order, one runbook. */
export class FleetTrustAnchorRotation extends Construct {
  /** The per-cluster rotations, by cluster name. */
  public readonly rotations: { [cluster: string]: TrustAnchorRotation };
  private readonly clusters: FleetRotationCluster[];

  constructor(scope: Construct, id: string, props: FleetTrustAnchorRotationProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    check(Array.isArray(props.clusters) && props.clusters.length > 0, this, InputRule.REQUIRED, 'clusters is empty.', 'List every cluster of the fleet with its step.');
    const names = new Set<string>();
    for (const c of props.clusters) {
      validateLabelName(this, c.name, 'cluster name');
      check(!names.has(c.name), this, InputRule.CONFLICT, `cluster ${c.name} is listed twice.`, 'List each cluster once.');
      names.add(c.name);
    }
    this.clusters = props.clusters;
    this.rotations = {};
    for (const c of props.clusters) {
      this.rotations[c.name] = new TrustAnchorRotation(this, `Cluster-${c.name}`, {
        currentAnchorPem: props.currentAnchorPem,
        newAnchorPem: props.newAnchorPem,
        issuerCertificatePem: c.issuerCertificatePem,
        step: c.step,
        runningProxiesTrust: c.runningProxiesTrust,
        controlPlaneNamespace: c.controlPlaneNamespace,
        meshedNamespaces: c.meshedNamespaces,
      });
    }
    for (const c of props.clusters) this.checkOrder(c);
  }

  private linked(cluster: FleetRotationCluster): FleetRotationCluster[] {
    const names = cluster.linkedClusters ?? this.clusters.map((c) => c.name).filter((n) => n !== cluster.name);
    return names.map((name) => {
      const found = this.clusters.find((c) => c.name === name);
      check(found !== undefined, this, InputRule.REQUIRED, `cluster ${cluster.name} is linked to ${JSON.stringify(name)}, which is not in the rotation.`,
        'List every linked cluster in clusters: a cluster left out would break when the anchors change.');
      return found;
    });
  }

  /** A cluster may be in a phase only when every linked cluster has finished what the phase relies on. */
  private checkOrder(cluster: FleetRotationCluster): void {
    const requirement = phaseOf(cluster.step).requires;
    if (!requirement) return;
    for (const other of this.linked(cluster)) {
      if (meets(other, requirement)) continue;
      const problem = requirement.trust === ProxyTrust.BOTH_ANCHORS_OLD_ISSUER
        ? `its workloads get certificates from the new anchor while ${other.name}'s proxies (step ${other.step}, ${trustOf(other)}) may still trust only the old one and would reject them`
        : `it drops the old anchor while ${other.name}'s issuer or running proxies (step ${other.step}, ${trustOf(other)}) may still chain to it, so ${other.name}'s workloads would be rejected`;
      check(false, this, CertRule.LIFETIME, `cluster ${cluster.name} is at step ${cluster.step}, but ${problem}.`,
        `Finish ${requirement.step} in ${other.name} first (runningProxiesTrust ${requirement.trust}, confirmed by linkerd check --proxy); the fleet runbook orders the steps per cluster.`);
    }
  }

  /** Whether a cluster may go on to its next step now, given where its linked clusters are. */
  private mayAdvance(cluster: FleetRotationCluster): boolean {
    const next = STEPS[at(cluster.step) + 1];
    if (!next) return false;
    const requirement = phaseOf(next).requires;
    return !requirement || phaseOf(next) === phaseOf(cluster.step) || this.linked(cluster).every((o) => meets(o, requirement));
  }

  /** The fleet runbook (markdown): the phases in order, where every cluster stands, and each cluster's commands. */
  public runbook(): string {
    const lines = ['# Trust-anchor rotation across the fleet', '',
      'Every cluster follows the same steps; a phase starts in any cluster only when every linked cluster has finished the one before.', ''];
    PHASES.forEach((phase, i) => {
      lines.push(`## Phase ${i + 1}: ${phase.title}`, '', `Steps ${phase.steps.map((s) => `\`${s}\``).join(', ')}: ${phase.why}`, '');
      for (const c of this.clusters) {
        const state = at(c.step) > at(phase.steps[phase.steps.length - 1]) ? 'done'
          : phase.steps.includes(c.step) ? `now at \`${c.step}\`` : 'not started';
        lines.push(`- ${c.name}: ${state}`);
      }
      lines.push('');
    });
    lines.push('## Per cluster', '');
    for (const c of this.clusters) {
      const context = c.kubeContext ?? c.name;
      lines.push(`### ${c.name}`, '', `Run with \`kubectl config use-context ${context}\` (and \`--kube-context ${context}\` for helm).`,
        this.mayAdvance(c) ? 'It may go on to its next step when this one is verified.' : 'It waits here until the linked clusters catch up (see the phases above).', '');
      lines.push(...this.rotations[c.name].runbook().split('\n').map((l) => (l.startsWith('#') ? `###${l}` : l)), '');
    }
    return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
  }

  /** Writes `fleet-trust-anchor-rotation.md` and each cluster's files (`<cluster>/…`) into `dir`; returns the runbook path. */
  public writeRunbook(dir: string): string {
    requireString(this, dir, 'writeRunbook() dir');
    fs.mkdirSync(dir, { recursive: true });
    for (const c of this.clusters) this.rotations[c.name].writeRunbook(path.join(dir, c.name));
    const file = path.join(dir, 'fleet-trust-anchor-rotation.md');
    fs.writeFileSync(file, this.runbook());
    return file;
  }
}
