/**
 * The `properties` of the plugin's entry in cdk8s.yaml, checked when cdk8s-cli constructs the plugin, so a typo fails
 * with a clear message instead of silently running with defaults.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CONTEXT_OPTIONS, readContextOptions } from '../analysis/context-options';
import { Severity } from '../analysis/finding';
import { AnalysisContextInput } from '../analysis/options';
import { InputRule } from '../core/errors';

export interface LinkerdValidationSettings {
  readonly failOn: Severity;
  /** What the checks know about the cluster: the properties of the one table (analysis/context-options.ts). */
  readonly context: AnalysisContextInput;
  /** Absolute CRD folders (relative ones resolve against the directory cdk8s runs in, where cdk8s.yaml is). */
  readonly crds: string[];
  /** Files or folders of objects that exist in the cluster but are not synthesized (absolute, like crds). */
  readonly inventory: string[];
  /**
   * The clusters of a fleet (LinkerdFleet): `<name>.k8s.yaml` holds cluster `<name>`'s objects, analysed as that
   * cluster, then the fleet rules run across them.
   */
  readonly clusters: string[];
  /** The repository config file named by the `config` property (resolved against cdk8s.yaml's folder), if any. */
  readonly config?: string;
  /** Whether failOn was given (it then wins over the config file's failOn). */
  readonly failOnGiven: boolean;
}

const KNOWN = ['failOn', 'crds', 'inventory', 'clusters', 'config', ...CONTEXT_OPTIONS.map((o) => o.key)];

/** A property of the plugin's cdk8s.yaml entry that is unknown or malformed (LKD-INPUT-008). */
export class SettingError extends Error {
  public readonly ruleId = InputRule.SETTING;
  public readonly fix = 'Correct the properties of the cdk8s-linkerd entry under `validations` in cdk8s.yaml (see the README).';
  constructor(message: string) {
    super(`cdk8s-linkerd validation plugin: ${message}`);
    this.name = 'SettingError';
  }
}

function fail(message: string): never {
  throw new SettingError(message);
}

/**
 * The inventory files and CRD folders of the settings that do not exist, as coded problems. Checked before any
 * manifest is analysed (and by MeshChecks before any manifest is written), so a typo is never a crash afterwards.
 */
export function missingPaths(settings: LinkerdValidationSettings, cwd: string = process.cwd()): string[] {
  const named = [...settings.inventory.map((p) => ['inventory', p]), ...settings.crds.map((p) => ['crds', p])];
  return named.filter(([, p]) => !fs.existsSync(p)).map(([key, p]) =>
    `${InputRule.FILE}: cdk8s.yaml: the cdk8s-linkerd validation plugin's ${key} entry ${path.relative(cwd, p) || p} does not exist. `
    + `Fix: Create it (e.g. \`kubectl get svc,sa -A -o yaml > ${path.relative(cwd, p) || p}\` for an inventory) or remove it from the ${key} list.`);
}

function stringList(props: Record<string, unknown>, key: string): string[] {
  const value = props[key];
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) fail(`property ${key} must be a string or a list of strings`);
  return list as string[];
}

function failOn(props: Record<string, unknown>): Severity {
  const value = props.failOn ?? Severity.ERROR;
  if (value !== Severity.ERROR && value !== Severity.WARNING) fail(`property failOn must be "error" or "warning" (got ${JSON.stringify(value)})`);
  return value as Severity;
}

export function readProperties(raw: unknown, cwd: string = process.cwd()): LinkerdValidationSettings {
  const props = (raw ?? {}) as Record<string, unknown>;
  if (typeof props !== 'object' || Array.isArray(props)) fail('properties must be a mapping');
  const unknown = Object.keys(props).filter((k) => !KNOWN.includes(k));
  if (unknown.length > 0) fail(`unknown properties ${unknown.join(', ')} (known: ${KNOWN.join(', ')})`);
  const clusters = stringList(props, 'clusters');
  const bad = clusters.find((c) => !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(c) || c.length > 63);
  if (bad !== undefined) fail(`property clusters: ${JSON.stringify(bad)} is not a cluster name (a DNS label)`);
  if (new Set(clusters).size !== clusters.length) fail('property clusters names a cluster twice');
  const config = stringList(props, 'config');
  if (config.length > 1) fail('property config names one file');
  return {
    clusters,
    config: config.length === 1 ? path.resolve(cwd, config[0]) : undefined,
    failOnGiven: props.failOn !== undefined && props.failOn !== null,
    failOn: failOn(props),
    context: readContextOptions((o) => props[o.key], (o, problem) => fail(`property ${o.key} ${problem}`)),
    crds: stringList(props, 'crds').map((dir) => path.resolve(cwd, dir)),
    inventory: stringList(props, 'inventory').map((p) => path.resolve(cwd, p)),
  };
}
