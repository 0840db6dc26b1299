/**
 * The checks' state on one App (the synth scope, the control plane's defaults, the fleet's clusters) and the one
 * validation hook. It knows nothing of MeshChecks: the hook creates the App's checks through the loader it is given, so
 * constructs (checks/register.ts, which loads the engine lazily) and MeshChecks itself share the state without an
 * import cycle.
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

/** Creates the App's checks on first use (MeshChecks.of). */
export type ChecksLoader = (root: IConstruct) => ValidatingChecks;

/** The registration of the App that `scope` belongs to; the validation hook is added on first use. */
export function registrationOf(scope: IConstruct, load: ChecksLoader): ChecksRegistration {
  const root = scope.node.root as any;
  if (!root[REGISTRATION]) {
    const registration: ChecksRegistration = { root: scope.node.root, synth: new SynthScope(scope.node.root), clusterDefaults: {}, clusters: [] };
    root[REGISTRATION] = registration;
    scope.node.root.node.addValidation({ validate: () => (registration.checks ?? load(registration.root))._validateOncePerSynth() });
  }
  return root[REGISTRATION];
}

/** Adds what the App's control plane says about the cluster to the checks' defaults (configure() still wins). */
export function addClusterDefaults(registration: ChecksRegistration, defaults: Record<string, unknown>): void {
  const given = Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined));
  registration.clusterDefaults = { ...registration.clusterDefaults, ...given };
}
