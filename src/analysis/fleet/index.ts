/**
 * The multi-cluster entry point of the engine: every cluster is analysed alone (the single-cluster rules, with the
 * Services its Links will mirror added to its inventory), then the fleet rules (LKD-MC-*) read all clusters at once.
 * Every finding names its cluster.
 */
import { FleetCluster, FleetRule, FleetRuleContext } from './fleet-rule';
import { ClusterFacts, FleetClusterInput, clusterFacts, mirrorManifest, mirroredServices } from './model';
import { compareStrings } from '../../util/compare';
import { AnalysisResult, AnalyzeOptions, SuppressionReader, analyze } from '../engine';
import { Finding, SuppressedFinding, compareFindings } from '../finding';
import { InboundPolicy, evaluateInboundPolicy } from '../policy';
import { FLEET_RULES } from '../rules';
import { identitySuffix } from '../rules/multicluster/remote-identities';
import { Reporter, runRules } from '../runner';

export { FleetClusterInput, ExportMode } from './model';
export { FleetRule, FleetCluster } from './fleet-rule';

export interface FleetAnalysisResult {
  /** Every finding of every cluster and of the fleet rules, each naming its cluster, sorted. */
  readonly findings: Finding[];
  readonly suppressed: SuppressedFinding[];
  /** The single-cluster analysis of each cluster, in name order. */
  readonly clusters: Array<{ readonly name: string; readonly result: AnalysisResult }>;
}

export interface FleetAnalyzeOptions extends AnalyzeOptions {
  /** The fleet rules to run; defaults to every one. */
  readonly fleetRules?: FleetRule[];
}

const CLUSTER_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why a list of clusters cannot be analysed as a fleet; undefined when it can. Front-ends turn this into their errors. */
export function fleetInputProblem(clusters: readonly FleetClusterInput[]): string | undefined {
  if (clusters.length === 0) return 'a fleet needs at least one cluster';
  const seen = new Set<string>();
  for (const cluster of clusters) {
    if (typeof cluster.name !== 'string' || cluster.name.length > 63 || !CLUSTER_NAME.test(cluster.name)) {
      return `cluster name ${JSON.stringify(cluster.name)} is not a DNS label (mirrored Services are named <service>-<cluster>)`;
    }
    if (seen.has(cluster.name)) return `cluster ${cluster.name} is given twice`;
    seen.add(cluster.name);
  }
  return undefined;
}

function byName<T extends { name: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => compareStrings(a.name, b.name));
}

function analyzeCluster(facts: ClusterFacts, all: ReadonlyMap<string, ClusterFacts>, options: AnalyzeOptions): FleetCluster {
  const mirrors = mirroredServices(facts, all);
  const own = { ...options, ...facts.input.options, controlPlaneNamespace: facts.controlPlaneNamespace };
  const others = [...all.values()].filter((c) => c !== facts);
  const peers = others.map((c) => `${c.controlPlaneNamespace}.${c.trustDomain}`);
  // Workloads of a cluster with this cluster's identity suffix present identities a policy here can name.
  const sameIdentities = others.filter((c) => c.controlPlaneNamespace === facts.controlPlaneNamespace && c.trustDomain === facts.trustDomain);
  const peerServiceAccounts = sameIdentities.flatMap((c) => c.index.own('', 'ServiceAccount').map((sa) => `${sa.id.namespace ?? ''}/${sa.id.name}`));
  const result = analyze(facts.input.manifests, {
    ...own,
    trustDomain: facts.trustDomain,
    inventory: [...(own.inventory ?? []), ...mirrors.map(mirrorManifest)],
    peerIdentitySuffixes: peers,
    peerServiceAccounts,
  });
  let policy: InboundPolicy | undefined;
  return { facts, result, mirrors, policy: () => (policy ??= evaluateInboundPolicy(result.index, result.context)) };
}

function runFleetRules(rules: FleetRule[], clusters: ReadonlyMap<string, FleetCluster>, unsuppressible: readonly string[] = []):
{ findings: Finding[]; suppressed: SuppressedFinding[] } {
  // The single-cluster engine's suppressions (the object's own, the same refusals); each cluster's analysis already
  // reported the annotations it could not use.
  const reader = new SuppressionReader(unsuppressible);
  const findings: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  const contextFor = (report: Reporter): FleetRuleContext => ({
    clusters,
    report: (cluster, subject, message, options = {}) => report(subject, message, options, cluster.facts.name),
  });
  runRules(rules, contextFor, (finding, subject) => {
    const reason = reader.reasonFor(finding, subject);
    if (reason !== undefined) suppressed.push({ finding, reason });
    else findings.push(finding);
  });
  return { findings, suppressed };
}

function inCluster(name: string, findings: readonly Finding[]): Finding[] {
  return findings.map((f) => ({ cluster: name, ...f }));
}

/** Analyses several clusters together: each alone, then the fleet rules across them. */
export function analyzeFleet(clusters: readonly FleetClusterInput[], options: FleetAnalyzeOptions = {}): FleetAnalysisResult {
  const problem = fleetInputProblem(clusters);
  if (problem) throw new Error(`analyzeFleet: ${problem}`);
  const facts = new Map(byName(clusters).map((c) => [c.name, clusterFacts(c, options)]));
  const analysed = new Map([...facts.values()].map((f) => [f.name, analyzeCluster(f, facts, options)]));
  const fleet = runFleetRules(options.fleetRules ?? FLEET_RULES, analysed, options.unsuppressible);
  const perCluster = [...analysed.values()];
  const findings = [...perCluster.flatMap((c) => inCluster(c.facts.name, c.result.findings)), ...fleet.findings].sort(compareFindings);
  const suppressed = [
    ...perCluster.flatMap((c) => c.result.suppressed.map((s) => ({ ...s, finding: { cluster: c.facts.name, ...s.finding } }))),
    ...fleet.suppressed,
  ].sort((a, b) => compareFindings(a.finding, b.finding));
  return { findings, suppressed, clusters: perCluster.map((c) => ({ name: c.facts.name, result: c.result })) };
}

/** For reports: the identity suffix of a cluster (`<control-plane-ns>.<trust-domain>`). */
export { identitySuffix };
