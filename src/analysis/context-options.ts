/**
 * The one table of what the checks may be told about the cluster. `MeshChecks.configure`, the CLI's flags and the
 * cdk8s-cli plugin's properties are all read through it, so an option added here exists in every front-end, with the
 * same name, the same validation and the same default (a test holds the three to this table).
 */
import { AnalysisContextInput, DEFAULT_INBOUND_POLICIES, isServiceAccountRef } from './options';
import { isRuleId } from './suppressions';
import { parseCidr } from '../core/cidr';
import { parseKubernetesVersion } from '../core/versions';

/** How a value is written: one string, a comma-separated (or YAML) list, a boolean or a number. */
export type ContextOptionKind = 'string' | 'list' | 'boolean' | 'number';

export interface ContextOption {
  /** The engine's name (AnalysisContext), also the MeshChecks option and the plugin property. */
  readonly key: Exclude<keyof AnalysisContextInput, 'inventory' | 'now'>;
  /** The CLI flag, without dashes. */
  readonly flag: string;
  /** A one-letter CLI alias, as kubectl spells it. */
  readonly alias?: string;
  readonly kind: ContextOptionKind;
  /** What to write after the flag in the help text. */
  readonly placeholder: string;
  readonly help: string;
  readonly defaultText: string;
  /** The value's problem in words, or undefined when it is fine (values already converted to the kind). */
  problem(value: any): string | undefined;
}

const VERSION = /^v?\d+\.\d+(\.\d+)?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const TRUST_DOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const PORT_LIST = /^\s*\d{1,5}(-\d{1,5})?(\s*,\s*\d{1,5}(-\d{1,5})?)*\s*$/;

const count = (v: number) => (Number.isInteger(v) && v >= 1 && v <= 100_000 ? undefined : 'must be a whole number of at least 1');
const version = (v: string) => (VERSION.test(v) ? undefined : 'must look like 1.31 or v1.2.1');
// What `kubectl version` prints for managed clusters (v1.33.1-eks-abc, 1.34.0-gke.1) reads as its release.
const kubernetesVersion = (v: string) => (parseKubernetesVersion(v) !== undefined ? undefined : 'must look like 1.31, v1.31.2 or v1.33.1-eks-abc');
const cidrs = (v: string[]) => {
  const bad = v.filter((c) => !parseCidr(c));
  return v.length === 0 || bad.length > 0 ? `must be CIDRs (bad: ${bad.join(', ') || 'empty'})` : undefined;
};

export const CONTEXT_OPTIONS: readonly ContextOption[] = [
  { key: 'kubernetesVersion', flag: 'kubernetes-version', kind: 'string', placeholder: 'V', help: 'Target Kubernetes version', defaultText: '1.31', problem: kubernetesVersion },
  { key: 'gatewayApiVersion', flag: 'gateway-api-version', kind: 'string', placeholder: 'V', help: 'Gateway API bundle installed in the cluster', defaultText: 'v1.2.1', problem: version },
  {
    key: 'trustDomain',
    flag: 'trust-domain',
    kind: 'string',
    placeholder: 'D',
    help: 'Linkerd identity trust domain',
    defaultText: 'cluster.local, or the install\'s',
    problem: (v: string) => (TRUST_DOMAIN.test(v) ? undefined : 'must be a DNS name such as cluster.local'),
  },
  { key: 'clusterNetworks', flag: 'cluster-networks', kind: 'list', placeholder: 'CIDRS', help: 'The cluster\'s pod and service networks, comma-separated', defaultText: 'the chart\'s, or the install\'s', problem: cidrs },
  {
    key: 'defaultInboundPolicy',
    flag: 'default-inbound-policy',
    kind: 'string',
    placeholder: 'P',
    help: `Cluster default inbound policy, one of ${DEFAULT_INBOUND_POLICIES.join(', ')}`,
    defaultText: 'all-unauthenticated, or the install\'s',
    problem: (v: string) => ((DEFAULT_INBOUND_POLICIES as readonly string[]).includes(v) ? undefined : `must be one of ${DEFAULT_INBOUND_POLICIES.join(', ')}`),
  },
  {
    key: 'controlPlaneNamespace',
    flag: 'control-plane-namespace',
    kind: 'string',
    placeholder: 'NS',
    help: 'Namespace of the Linkerd control plane',
    defaultText: 'linkerd, or the install\'s',
    problem: (v: string) => (DNS_LABEL.test(v) ? undefined : 'must be a namespace name'),
  },
  { key: 'probeNetworks', flag: 'probe-networks', kind: 'list', placeholder: 'CIDRS', help: 'Where kubelet probes come from (policyController.probeNetworks), comma-separated', defaultText: '0.0.0.0/0,::/0, or the install\'s', problem: cidrs },
  {
    key: 'defaultOpaquePorts',
    flag: 'opaque-ports',
    kind: 'string',
    placeholder: 'PORTS',
    help: 'The cluster\'s default opaque ports (proxy.opaquePorts)',
    defaultText: 'the chart\'s, or the install\'s',
    problem: (v: string) => (PORT_LIST.test(v) ? undefined : 'must be comma-separated ports and lo-hi ranges'),
  },
  {
    key: 'globalEgressNamespace',
    flag: 'global-egress-namespace',
    kind: 'string',
    placeholder: 'NS',
    help: 'Namespace of the cluster-wide EgressNetworks (egress.globalEgressNetworkNamespace)',
    defaultText: 'linkerd-egress, or the install\'s',
    problem: (v: string) => (DNS_LABEL.test(v) ? undefined : 'must be a namespace name'),
  },
  {
    key: 'defaultNamespace',
    flag: 'namespace',
    alias: 'n',
    kind: 'string',
    placeholder: 'NS',
    help: 'Namespace of objects that name none, as kubectl -n',
    defaultText: 'default',
    problem: (v: string) => (DNS_LABEL.test(v) ? undefined : 'must be a namespace name'),
  },
  { key: 'serviceAccountTokenProjection', flag: 'service-account-token-projection', kind: 'boolean', placeholder: 'true|false', help: 'Whether the control plane projects ServiceAccount tokens for proxies', defaultText: 'true', problem: () => undefined },
  {
    key: 'certificateExpiryWarningDays',
    flag: 'certificate-expiry-warning-days',
    kind: 'number',
    placeholder: 'DAYS',
    help: 'Warn for certificates with fewer days left',
    defaultText: '60',
    problem: (v: number) => (Number.isInteger(v) && v >= 0 && v <= 36_500 ? undefined : 'must be a whole number of days'),
  },
  {
    key: 'prometheusServiceAccount',
    flag: 'prometheus',
    kind: 'string',
    placeholder: 'NS/SA',
    help: 'ServiceAccount of the Prometheus that scrapes the proxies (LKD-POL-021)',
    defaultText: 'linkerd-viz/prometheus when present',
    problem: (v: string) => (isServiceAccountRef(v) ? undefined : 'must be NAMESPACE/SERVICEACCOUNT'),
  },
  {
    key: 'nodeCount',
    flag: 'nodes',
    kind: 'number',
    placeholder: 'N',
    help: 'Schedulable nodes of the cluster (LKD-CP-001 says which fault domains HA survives)',
    defaultText: 'counted from Nodes in the inventory, else unknown (information)',
    problem: count,
  },
  {
    key: 'zoneCount',
    flag: 'zones',
    kind: 'number',
    placeholder: 'N',
    help: 'Zones with schedulable nodes (topology.kubernetes.io/zone)',
    defaultText: 'counted from the inventory\'s Node labels, else unknown (information)',
    problem: count,
  },
  {
    key: 'maxRetryAmplification',
    flag: 'max-retry-amplification',
    kind: 'number',
    placeholder: 'N',
    help: 'Worst-case attempts per request at a hop of a chain of declared calls before LKD-CAP-001 warns',
    defaultText: '10',
    problem: count,
  },
  {
    key: 'cniEnabled',
    flag: 'cni',
    kind: 'boolean',
    placeholder: 'true|false',
    help: 'Whether pods use linkerd2-cni instead of linkerd-init (LKD-MESH-011)',
    defaultText: 'the install\'s cniEnabled, else false',
    problem: () => undefined,
  },
  {
    key: 'nativeSidecar',
    flag: 'native-sidecar',
    kind: 'boolean',
    placeholder: 'true|false',
    help: 'Whether the injector adds proxies as native sidecars (proxy.nativeSidecar; LKD-MESH-014)',
    defaultText: 'the install\'s proxy.nativeSidecar, else true',
    problem: () => undefined,
  },
  {
    key: 'unsuppressible',
    flag: 'unsuppressible',
    kind: 'list',
    placeholder: 'IDS',
    help: 'Rule IDs no suppression annotation may silence, comma-separated (such suppressions are listed as not applied)',
    defaultText: 'none (LKD-META-001 and LKD-MESH-009 never are)',
    problem: (v: string[]) => {
      const bad = v.filter((id) => !isRuleId(id));
      return v.length === 0 || bad.length > 0 ? `must be rule IDs like LKD-ROUTE-001 (bad: ${bad.map((b) => JSON.stringify(b)).join(', ') || 'empty'})` : undefined;
    },
  },
];

/** A value as written (CLI text, YAML property, or a typed MeshChecks value) converted to the option's kind. */
function convert(option: ContextOption, raw: unknown): { value?: unknown; problem?: string } {
  switch (option.kind) {
    case 'list': {
      const list = typeof raw === 'string' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : raw;
      return Array.isArray(list) && list.every((v) => typeof v === 'string') ? { value: list } : { problem: 'must be a list of strings' };
    }
    case 'boolean':
      if (typeof raw === 'boolean') return { value: raw };
      return raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { problem: 'must be true or false' };
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      return Number.isFinite(n) ? { value: n } : { problem: 'must be a number' };
    }
    default:
      // YAML reads `kubernetesVersion: 1.31` as a number; the intent is the version string.
      if (typeof raw === 'number') return { value: String(raw) };
      return typeof raw === 'string' && raw.trim() !== '' ? { value: raw.trim() } : { problem: 'must be a non-empty string' };
  }
}

/**
 * Reads every option `get` returns a value for; `fail` turns a problem into the front-end's own error (a usage error,
 * a plugin property error, a coded construct error). `name` says how that front-end spells the option.
 */
export function readContextOptions(
  get: (option: ContextOption) => unknown,
  fail: (option: ContextOption, problem: string) => never,
): AnalysisContextInput {
  const out: Record<string, unknown> = {};
  for (const option of CONTEXT_OPTIONS) {
    const raw = get(option);
    if (raw === undefined || raw === null) continue;
    const { value, problem } = convert(option, raw);
    const bad = problem ?? option.problem(value);
    if (bad !== undefined) fail(option, `${bad} (got ${JSON.stringify(raw)})`);
    out[option.key] = option.key === 'kubernetesVersion' ? String(value).replace(/^v/, '') : value;
  }
  return out as AnalysisContextInput;
}

const HELP_COLUMN = 35;

/** The CLI help lines for the table's flags; a flag too long for its column gets its help on the next line. */
export function contextOptionsUsage(): string {
  return CONTEXT_OPTIONS.map((o) => {
    const flag = `${o.alias ? `-${o.alias}, ` : ''}--${o.flag} ${o.placeholder}`;
    const help = `${o.help} (default: ${o.defaultText})`;
    return flag.length < HELP_COLUMN ? `  ${flag.padEnd(HELP_COLUMN)}${help}` : `  ${flag}\n  ${' '.repeat(HELP_COLUMN)}${help}`;
  }).join('\n');
}
