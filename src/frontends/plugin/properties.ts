/**
 * The `properties` of the plugin's entry in cdk8s.yaml, checked when cdk8s-cli constructs the plugin, so a typo fails
 * with a clear message instead of silently running with defaults.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Severity } from '../../analysis/finding';
import { DEFAULT_INBOUND_POLICIES, isServiceAccountRef } from '../../analysis/options';
import { InputRule } from '../../core/errors';

export interface LinkerdValidationSettings {
  readonly failOn: Severity;
  readonly kubernetesVersion?: string;
  readonly gatewayApiVersion?: string;
  readonly trustDomain?: string;
  readonly defaultInboundPolicy?: string;
  readonly clusterNetworks?: string[];
  /** Absolute CRD folders (relative ones resolve against the directory cdk8s runs in, where cdk8s.yaml is). */
  readonly crds: string[];
  /** Files or folders of objects that exist in the cluster but are not synthesized (absolute, like crds). */
  readonly inventory: string[];
  /** `namespace/name` of the ServiceAccount of the Prometheus that scrapes the proxies. */
  readonly prometheusServiceAccount?: string;
}

const KNOWN = ['failOn', 'kubernetesVersion', 'gatewayApiVersion', 'trustDomain', 'defaultInboundPolicy', 'clusterNetworks', 'crds', 'inventory', 'prometheusServiceAccount'];

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

function optionalString(props: Record<string, unknown>, key: string): string | undefined {
  const value = props[key];
  if (value === undefined || value === null) return undefined;
  // YAML reads `kubernetesVersion: 1.31` as a number; the intent is the version string.
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string' || value.trim() === '') fail(`property ${key} must be a non-empty string`);
  return value;
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
  const policy = optionalString(props, 'defaultInboundPolicy');
  if (policy !== undefined && !(DEFAULT_INBOUND_POLICIES as readonly string[]).includes(policy)) {
    fail(`property defaultInboundPolicy must be one of ${DEFAULT_INBOUND_POLICIES.join(', ')}`);
  }
  const networks = stringList(props, 'clusterNetworks');
  const prometheus = optionalString(props, 'prometheusServiceAccount');
  if (prometheus !== undefined && !isServiceAccountRef(prometheus)) fail('property prometheusServiceAccount must be namespace/name of a ServiceAccount');
  return {
    failOn: failOn(props),
    kubernetesVersion: optionalString(props, 'kubernetesVersion')?.replace(/^v/, ''),
    gatewayApiVersion: optionalString(props, 'gatewayApiVersion'),
    trustDomain: optionalString(props, 'trustDomain'),
    defaultInboundPolicy: policy,
    clusterNetworks: networks.length > 0 ? networks : undefined,
    crds: stringList(props, 'crds').map((dir) => path.resolve(cwd, dir)),
    inventory: stringList(props, 'inventory').map((p) => path.resolve(cwd, p)),
    prometheusServiceAccount: prometheus,
  };
}
