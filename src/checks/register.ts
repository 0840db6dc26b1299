/**
 * How constructs take part in the App's checks without loading the engine: registering adds the one validation hook
 * (and the once-per-synth scope) to the App, and the engine is loaded (`require`) only when that hook first runs, or
 * when the app itself asks `MeshChecks` for something. Importing a construct then costs constructs only.
 */
import { IConstruct } from 'constructs';
import { ChecksRegistration, FleetClusterFacts, ValidatingChecks, addClusterDefaults, registrationOf } from './registration';

export { ChecksRegistration, FleetClusterFacts, RegisteredCluster } from './registration';

/** The App's MeshChecks, created on first use: the engine is loaded here. */
function loadChecks(root: IConstruct): ValidatingChecks {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./mesh-checks').MeshChecks.of(root);
}

/** The registration of the App that `scope` belongs to; the validation hook is added on first use. */
export function registerChecks(scope: IConstruct): ChecksRegistration {
  return registrationOf(scope, loadChecks);
}

/** Adds what the App's control plane says about the cluster to the checks' defaults (configure() still wins). */
export function setClusterDefaults(scope: IConstruct, defaults: Record<string, unknown>): void {
  addClusterDefaults(registerChecks(scope), defaults);
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
