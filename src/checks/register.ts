/**
 * How constructs take part in the App's checks without loading the engine: registering adds the one validation hook
 * (and the once-per-synth scope) to the App, and the engine is loaded (`require`) only when that hook first runs, or
 * when the app itself asks `MeshChecks` for something. Importing a construct then costs constructs only.
 */
import { IConstruct } from 'constructs';
import { SynthScope } from './synth-hook';

/** What a cluster of a fleet is analysed as (see MeshChecks' ClusterCheckOptions). */
export interface FleetClusterFacts {
  readonly trustDomain?: string;
  readonly controlPlaneNamespace?: string;
}

/** A FleetCluster chart and the cluster its objects are analysed as. */
export interface RegisteredCluster {
  readonly scope: IConstruct;
  readonly name: string;
  readonly options: FleetClusterFacts;
}

/** What the validation hook calls (MeshChecks). */
export interface ValidatingChecks {
  _validateOncePerSynth(): string[];
}

/** The checks' state on one App. */
export interface ChecksRegistration {
  readonly root: IConstruct;
  readonly synth: SynthScope;
  /** What a LinkerdControlPlane of the App says about the cluster: the checks' defaults, below configure(). */
  clusterDefaults: Record<string, unknown>;
  readonly clusters: RegisteredCluster[];
  /** The App's MeshChecks, once created (by the first validation, or by the app). */
  checks?: ValidatingChecks;
}

const REGISTRATION = Symbol.for('cdk8s-linkerd.MeshChecks');

/** The MeshChecks of a registration, created on first use: the engine is loaded here. */
function checksOf(registration: ChecksRegistration): ValidatingChecks {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return registration.checks ?? require('./mesh-checks').MeshChecks.of(registration.root);
}

/** The registration of the App that `scope` belongs to; the validation hook is added on first use. */
export function registerChecks(scope: IConstruct): ChecksRegistration {
  const root = scope.node.root as any;
  if (!root[REGISTRATION]) {
    const registration: ChecksRegistration = { root: scope.node.root, synth: new SynthScope(scope.node.root), clusterDefaults: {}, clusters: [] };
    root[REGISTRATION] = registration;
    scope.node.root.node.addValidation({ validate: () => checksOf(registration)._validateOncePerSynth() });
  }
  return root[REGISTRATION];
}

/** Adds what the App's control plane says about the cluster to the checks' defaults (configure() still wins). */
export function setClusterDefaults(scope: IConstruct, defaults: Record<string, unknown>): void {
  const registration = registerChecks(scope);
  const given = Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined));
  registration.clusterDefaults = { ...registration.clusterDefaults, ...given };
}

/** Marks `scope` (a FleetCluster chart) as the objects of cluster `name`, analysed apart from the rest of the App. */
export function registerCluster(scope: IConstruct, name: string, options: FleetClusterFacts): void {
  registerChecks(scope).clusters.push({ scope, name, options });
}

/**
 * Suppresses one rule on the objects of a construct (MeshChecks.suppress, which writes the annotation; loaded here
 * only when a construct suppresses something).
 */
export function suppressOn(construct: IConstruct, ruleId: string, reason: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./mesh-checks').MeshChecks.suppress(construct, ruleId, reason);
}
