/**
 * What the linkerd-control-plane chart, or a component that reads its values, refuses or misreads: one pure check,
 * used by the control-plane construct on its merged values (it throws on the first problem) and by LKD-CP-007 on the
 * values of installs in manifests (Flux HelmRelease, Argo CD Application). Only keys that are set are judged, so
 * partial values (the rest in a Secret) are fine.
 *
 * Mirrors linkerd2 at version-2.20: charts/partials/templates/_proxy.tpl and _proxy-init.tpl (their `fail`s),
 * pkg/inject/inject.go (GetPodPatch reads clusterNetworks with net.ParseCIDR), policy-controller/k8s/index/src/
 * defaults.rs (DefaultPolicy::from_str), the chart's `if` tests on boolean keys, pkg/tls/ca.go Validity.Window.
 */
import { parseExactCidr } from './cidr';
import { isDefaultInboundPolicy } from './default-inbound-policy';
import { InputRule } from './errors';
import { valueAt } from './helm-values';
import { parseGoDuration } from './linkerd-grammar';
import { isDnsSubdomain } from './names';
import { describeValue } from './runtime-checks';

/** One value the chart or a component cannot use. */
export interface ChartValueProblem {
  readonly ruleId: string;
  /** The values path, e.g. `proxy.defaultInboundPolicy`. */
  readonly path: string;
  /** What is wrong, naming the value; `where` (e.g. " (merged values)") follows the value. */
  readonly problem: (where: string) => string;
  /** What to write instead, in chart-value terms. */
  readonly fix: string;
  /** The same fix for users of the control-plane construct's typed options, where there is one. */
  readonly typedFix?: string;
  /**
   * The chart renders and runs with the value, which is doubtful only in what it does (a string "true" where a boolean is
   * tested; a null that deletes a default of true; a key it never reads that guards nothing): a warning, not an error.
   */
  readonly doubtful?: boolean;
}

/** `proxy.logHTTPHeaders` values _proxy.tpl takes (ProxyLogHttpHeaders); webhookFailurePolicy values (WebhookFailurePolicy). */
export const LOG_HTTP_HEADERS = ['off', 'insecure'];
export const WEBHOOK_FAILURE_POLICIES = ['Ignore', 'Fail'];
const IPTABLES_MODES = ['nft', 'legacy'];
/** The imagePullPolicy values the API server takes. */
export const PULL_POLICIES: readonly string[] = ['Always', 'IfNotPresent', 'Never'];
const PULL_POLICY_KEYS = ['imagePullPolicy', 'proxy.image.pullPolicy', 'debugContainer.image.pullPolicy'];
/** Keys the chart tests with `if`: a string "false" is truthy there, so it must be a real boolean. */
const BOOLEAN_KEYS = ['cniEnabled', 'proxy.nativeSidecar', 'identity.externalCA', 'enablePodAntiAffinity', 'enablePodDisruptionBudget'];
const QUANTITY = /^[+]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;
const RESOURCE_KEYS = ['proxy.resources.cpu.request', 'proxy.resources.cpu.limit', 'proxy.resources.memory.request', 'proxy.resources.memory.limit'];
const ISSUER_DURATIONS = ['identity.issuer.issuanceLifetime', 'identity.issuer.clockSkewAllowance'];
/** The largest Deployment replicas Kubernetes stores (int32). */
const MAX_INT32 = 2_147_483_647;

/**
 * Whether `controllerReplicas` can be used: the chart writes it into each controller's replicas (an int32) as is, and 0
 * would run no control plane at all.
 */
export function isReplicaCount(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_INT32;
}
/** What a negative issuer duration does to the certificates' validity window. */
const NEGATIVE_WINDOW: Record<string, string> = {
  'identity.issuer.issuanceLifetime': 'expired when issued',
  'identity.issuer.clockSkewAllowance': 'not valid yet when issued',
};

type Problems = ChartValueProblem[];

function enumProblem(
  out: Problems, values: Record<string, any>, path: string, allowed: readonly string[], ruleId: string, consequence: string,
): void {
  const value = valueAt(values, path);
  if (value === undefined || allowed.includes(value)) return;
  out.push({
    ruleId,
    path,
    problem: (where) => `${path} ${describeValue(value)}${where} is not one of ${allowed.join(', ')}: ${consequence}`,
    fix: `Set ${path} to one of ${allowed.join(', ')}.`,
    typedFix: `Set ${path} to one of ${allowed.join(', ')}, preferably through the typed option.`,
  });
}

/** Boolean keys whose chart default is true: a null deletes the default (Helm), and the template's "if" sees nothing. */
const TRUE_BY_DEFAULT = new Set(['proxy.nativeSidecar']);

/**
 * A null value is Helm's way to delete a key, the chart's default with it (pkg/chartutil/coalesce.go coalesceValues), so
 * the template tests nil: harmless where the default is false, and turns off a default of true.
 */
function nullBooleans(out: Problems, values: Record<string, any>): void {
  for (const path of BOOLEAN_KEYS) {
    if (valueAt(values, path) !== null || !TRUE_BY_DEFAULT.has(path)) continue;
    out.push({
      ruleId: InputRule.REQUIRED,
      path,
      doubtful: true,
      problem: (where) => `${path} is null${where}: Helm deletes the key and the chart's default (true) with it, so the template's "if" sees nothing `
        + 'and the setting is off.',
      fix: `Write ${path}: true or false, or leave the key out for the chart's default.`,
    });
  }
}

function scalarProblems(out: Problems, values: Record<string, any>): void {
  const policy = valueAt(values, 'proxy.defaultInboundPolicy');
  if (policy !== undefined && !isDefaultInboundPolicy(policy)) {
    out.push({
      ruleId: 'LKD-POL-012',
      path: 'proxy.defaultInboundPolicy',
      problem: (where) => `proxy.defaultInboundPolicy ${describeValue(policy)}${where} is not one of Linkerd's six policies, so the policy controller cannot parse it (defaults.rs DefaultPolicy::from_str) and exits.`,
      fix: 'Use all-unauthenticated, all-authenticated, cluster-unauthenticated, cluster-authenticated, deny or audit.',
      typedFix: 'Use proxy: { defaultInboundPolicy: DefaultInboundPolicy.DENY } (or another DefaultInboundPolicy value) instead of additionalValues.',
    });
  }
  // _proxy.tpl also takes "" (and then logs no headers, as with off).
  if (valueAt(values, 'proxy.logHTTPHeaders') !== '') {
    enumProblem(out, values, 'proxy.logHTTPHeaders', LOG_HTTP_HEADERS, InputRule.RANGE, 'the proxy template fails on it, so the chart does not render.');
  }
  // Helm deletes a null value (coalesce.go coalesceValues): the template then writes an empty failurePolicy, which the
  // API server defaults.
  if (valueAt(values, 'webhookFailurePolicy') !== null) {
    enumProblem(out, values, 'webhookFailurePolicy', WEBHOOK_FAILURE_POLICIES, InputRule.RANGE, 'the API server refuses the webhook configurations.');
  }
  enumProblem(out, values, 'proxyInit.iptablesMode', IPTABLES_MODES, InputRule.RANGE, 'the proxy-init template fails on it, so the chart does not render.');
  for (const path of PULL_POLICY_KEYS) {
    const value = valueAt(values, path);
    if (value === undefined || value === null || value === '' || PULL_POLICIES.includes(value)) continue;
    out.push({
      ruleId: InputRule.RANGE,
      path,
      problem: (where) => `${path} ${describeValue(value)}${where} is not Always, IfNotPresent or Never: the chart writes it as an imagePullPolicy, and the API server refuses those pods.`,
      fix: `Set ${path} to Always, IfNotPresent or Never.`,
    });
  }
  nullBooleans(out, values);
  // A null is Helm's "delete" (nullBooleans above), not a value the template tests.
  const notBoolean = BOOLEAN_KEYS.find((path) => valueAt(values, path) !== undefined && valueAt(values, path) !== null
    && typeof valueAt(values, path) !== 'boolean');
  if (notBoolean !== undefined) {
    const value = valueAt(values, notBoolean);
    out.push({
      ruleId: InputRule.REQUIRED,
      path: notBoolean,
      doubtful: typeof value === 'string' && /^(true|1|t|yes|on)$/i.test(value),
      problem: (where) => `${notBoolean} is ${describeValue(valueAt(values, notBoolean))}${where}; the chart tests it with "if", where any non-empty string is true.`,
      fix: 'Write true or false (a boolean, not a string).',
      typedFix: 'Pass true or false (a boolean), preferably through the typed option.',
    });
  }
  const replicas = values.controllerReplicas;
  // null: Helm deletes it and the Deployments get an empty replicas, which the API server defaults to 1.
  if (replicas !== undefined && replicas !== null && !isReplicaCount(replicas)) {
    out.push({
      ruleId: InputRule.RANGE,
      path: 'controllerReplicas',
      problem: (where) => `controllerReplicas ${describeValue(replicas)}${where} is not a whole number of at least 1 (a Deployment's replicas).`,
      fix: 'Use 3 for HA (one per node), 1 otherwise.',
    });
  }
  const trustDomain = values.identityTrustDomain;
  if (trustDomain !== undefined && trustDomain !== '' && !(typeof trustDomain === 'string' && isDnsSubdomain(trustDomain))) {
    out.push({
      ruleId: InputRule.NAME,
      path: 'identityTrustDomain',
      problem: (where) => `identityTrustDomain ${describeValue(trustDomain)}${where} is not a DNS name.`,
      fix: 'Use a DNS name such as cluster.local.',
      typedFix: 'Set trustDomain on the control plane instead of additionalValues.',
    });
  }
}

/** Values whose template `fail`s unless others are set (_proxy.tpl tracing, _proxy-init.tpl close-wait). */
function dependentProblems(out: Problems, values: Record<string, any>): void {
  if (valueAt(values, 'proxy.tracing.enabled') === true) {
    const missing = ['proxy.tracing.collector.endpoint', 'proxy.tracing.collector.meshIdentity.serviceAccountName', 'proxy.tracing.collector.meshIdentity.namespace']
      .filter((path) => { const v = valueAt(values, path); return v === undefined || v === null || v === ''; });
    if (missing.length > 0) {
      out.push({
        ruleId: InputRule.REQUIRED,
        path: 'proxy.tracing.enabled',
        problem: (where) => `proxy.tracing.enabled is true${where} but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set; the proxy template fails ("... must be set if proxy tracing is enabled"), so the chart does not render.`,
        fix: `Set ${missing.join(', ')}, or leave tracing off.`,
      });
    }
  }
  const closeWait = valueAt(values, 'proxyInit.closeWaitTimeoutSecs');
  if (closeWait !== undefined && closeWait !== 0 && closeWait !== '' && closeWait !== null && valueAt(values, 'proxyInit.runAsRoot') !== true) {
    out.push({
      ruleId: InputRule.REQUIRED,
      path: 'proxyInit.closeWaitTimeoutSecs',
      problem: (where) => `proxyInit.closeWaitTimeoutSecs is ${describeValue(closeWait)}${where} without proxyInit.runAsRoot: true; the proxy-init template fails ("proxyInit.runAsRoot must be set to use proxyInit.closeWaitTimeoutSecs"), so the chart does not render.`,
      fix: 'Set proxyInit.runAsRoot: true as well, or drop proxyInit.closeWaitTimeoutSecs.',
    });
  }
}

function listProblems(out: Problems, values: Record<string, any>): void {
  const networks = values.clusterNetworks;
  // As the injector reads it: outer commas trimmed, then every item through Go's net.ParseCIDR (no spaces, a prefix length).
  const items = typeof networks === 'string' && networks !== '' ? networks.replace(/^,+|,+$/g, '').split(',') : [];
  const badNetwork = items.find((cidr) => !cidr.includes('/') || parseExactCidr(cidr) === undefined);
  if (networks !== undefined && (typeof networks !== 'string' || badNetwork !== undefined)) {
    out.push({
      ruleId: InputRule.RANGE,
      path: 'clusterNetworks',
      problem: (where) => `clusterNetworks ${describeValue(networks)}${where} is not a comma-separated list of CIDRs${badNetwork !== undefined ? ` (${JSON.stringify(badNetwork)})` : ''}; `
        + 'the injector reads each item with net.ParseCIDR, nothing trimmed, and refuses every pod it should inject.',
      fix: 'Write the CIDRs separated by commas, without spaces, e.g. 10.0.0.0/8,fd00::/8.',
      typedFix: 'Use clusterNetworks: ["10.0.0.0/8", ...] (the typed option) instead of additionalValues.',
    });
  }
  const ports = valueAt(values, 'proxy.opaquePorts');
  const isPort = (p: string) => /^\d+$/.test(p) && Number(p) >= 1 && Number(p) <= 65535;
  const portOrRange = (item: string) => item.split('-').length <= 2 && item.split('-').every(isPort);
  // One trailing comma is dropped, and each item trimmed, by every reader (pkg/util/parsing.go GetPortRanges, ports.rs
  // parse_portset, the proxy's parse_port_range_set).
  if (ports !== undefined && ports !== null && ports !== '' && !(typeof ports === 'string' && ports.replace(/,$/, '').split(',').every((item) => portOrRange(item.trim())))) {
    out.push({
      ruleId: InputRule.PORT,
      path: 'proxy.opaquePorts',
      problem: (where) => `proxy.opaquePorts ${describeValue(ports)}${where} is not a comma-separated list of ports or port ranges.`,
      fix: 'Write ports and lo-hi ranges separated by commas, e.g. 3306,5432,11211.',
      typedFix: 'Use proxy: { opaquePorts: [3306, 5432] } (the typed option) instead of additionalValues.',
    });
  }
  for (const path of RESOURCE_KEYS) {
    const q = valueAt(values, path);
    if (q === undefined || q === null || q === '' || (typeof q === 'string' && QUANTITY.test(q))) continue;
    out.push({ ruleId: InputRule.RANGE, path, problem: (where) => `${path} ${describeValue(q)}${where} is not a Kubernetes quantity.`, fix: 'Use a quantity such as "100m", "0.5", "64Mi" or "1Gi".' });
  }
  for (const path of ISSUER_DURATIONS) {
    const d = valueAt(values, path);
    // Empty (or null, which Helm deletes) renders an empty flag, and linkerd-identity keeps its default
    // (controller/cmd/identity/main.go: `if pbd := *identityIssuanceLifeTime; pbd != ""`).
    if (d === undefined || d === null || d === '') continue;
    const ms = parseGoDuration(d);
    if (ms === undefined) {
      out.push({
        ruleId: InputRule.DURATION,
        path,
        problem: (where) => `${path} ${describeValue(d)}${where} is not a Go duration.`,
        fix: 'Use a Go duration such as "24h0m0s" or "20s".',
        typedFix: 'Use a Go duration such as "24h0m0s" or "20s", preferably through the identity\'s typed option.',
      });
    } else if (ms < 0) {
      out.push({
        ruleId: InputRule.DURATION,
        path,
        problem: (where) => `${path} ${describeValue(d)}${where} is negative, so linkerd-identity issues certificates that are ${NEGATIVE_WINDOW[path]} (pkg/tls/ca.go Validity.Window).`,
        fix: 'Give it a positive Go duration, or leave it unset for the chart\'s default.',
      });
    } else if (ms === 0) {
      out.push({
        ruleId: InputRule.DURATION,
        path,
        problem: (where) => `${path} is zero${where}, which linkerd-identity reads as its default (pkg/tls/ca.go Validity.Window).`,
        fix: 'Give it a positive Go duration, or leave it unset for the chart\'s default.',
      });
    }
  }
}

/**
 * Keys the 2.20 chart never reads, written where an older chart or a plausible guess puts them: nothing fails, and the
 * setting silently does not apply. `error`: a security setting the cluster then lacks.
 */
const UNREAD_KEYS: ReadonlyArray<{ readonly path: string; readonly error: boolean; readonly why: string; readonly fix: string }> = [
  {
    path: 'defaultInboundPolicy',
    error: true,
    why: 'the chart reads the cluster\'s default inbound policy from proxy.defaultInboundPolicy only (destination.yaml --default-policy, '
      + '_proxy.tpl), so this one is ignored and the default stays all-unauthenticated',
    fix: 'Move it to proxy.defaultInboundPolicy.',
  },
  {
    path: 'policyController.defaultAllowPolicy',
    error: true,
    why: 'this is the name from before Linkerd 2.12; the 2.20 chart reads proxy.defaultInboundPolicy only, so the default stays '
      + 'all-unauthenticated',
    fix: 'Move it to proxy.defaultInboundPolicy.',
  },
  {
    path: 'proxyInit.image',
    error: false,
    why: 'proxy-init has no image of its own in Linkerd 2.20: it runs from the proxy image (_proxy-init.tpl), so this is ignored',
    fix: 'Remove it; to mirror the images, set proxy.image.name (and the other images) instead.',
  },
  {
    path: 'global',
    error: false,
    why: 'the chart layout of Linkerd 2.9 and before; the 2.20 chart reads no global.* value, so none of these apply',
    fix: 'Move each value to its 2.20 key (see the chart\'s values.yaml).',
  },
];

function unreadKeyProblems(out: Problems, values: Record<string, any>): void {
  for (const { path, error, why, fix } of UNREAD_KEYS) {
    if (valueAt(values, path) === undefined) continue;
    out.push({
      ruleId: InputRule.REQUIRED,
      path,
      doubtful: !error,
      problem: (where) => `${path} is set${where}, but ${why}.`,
      fix,
    });
  }
}

/** Every problem of a linkerd-control-plane values tree, in a fixed order. */
export function controlPlaneValueProblems(values: Record<string, any>): ChartValueProblem[] {
  const out: Problems = [];
  unreadKeyProblems(out, values);
  scalarProblems(out, values);
  dependentProblems(out, values);
  listProblems(out, values);
  return out;
}
