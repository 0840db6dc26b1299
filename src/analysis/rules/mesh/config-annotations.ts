import { PULL_POLICIES } from '../../../core/chart-values';
import { goParsesCidr } from '../../../core/cidr';
import { editDistance } from '../../../core/edit-distance';
import { LABELS_GO, LABELS_GO_KEYS, LabelsGoName } from '../../../core/linkerd-annotations.generated';
import { goParseInt32, parseGoDuration } from '../../../core/linkerd-grammar';
import { ADMISSION_WEBHOOKS_LABEL, KeySite, READ_KEYS, UNREAD_KEYS, isProxyConfigKey, proxyKeyStatus, readProxyKeys } from '../../../core/proxy-annotations';
import { Severity } from '../../finding';
import { controlPlaneInstalls } from '../../model/installs';
import { annotationsOf } from '../../model/manifest';
import { IndexedObject, Injection, PodTemplate, carriesLinkerdProxy } from '../../model/mesh-index';
import { controllerPortSet, isMeshed, ownPodTemplates, opaquePortsReadings, proxyInitPortList } from '../../model/policy-view';
import { cniEnabledOf, goBool, nativeSidecarOf, podOrNamespaceAnnotation, proxyInitRunsAsRoot } from '../../model/proxy-settings';
import { Rule, RuleContext, RuleArea } from '../../rule';

/** Returns why a value is wrong, or undefined. */
type Validator = (value: string) => string | undefined;

const oneOf = (...values: string[]): Validator => (v) => (values.includes(v) ? undefined : `must be one of ${values.join(', ')}`);
const text: Validator = (v) => (v.trim() === '' ? 'must not be empty' : undefined);
const bool: Validator = (v) => (goBool(v) !== undefined ? undefined : 'must be true or false');
const uint: Validator = (v) => (/^\d+$/.test(v) ? undefined : 'must be a non-negative integer');
const pullPolicy = oneOf(...PULL_POLICIES);
const enabledDisabled = oneOf('enabled', 'disabled');

const additionalEnv: Validator = (v) => {
  try {
    const parsed: unknown = JSON.parse(v);
    if (Array.isArray(parsed) && parsed.every((e) => e !== null && typeof e === 'object' && typeof (e as any).name === 'string')) return undefined;
  } catch {
    // reported below
  }
  return 'must be a JSON list of Kubernetes EnvVar objects such as [{"name":"X","value":"1"}]';
};

/**
 * Value formats, by labels.go name, as pkg/inject/inject.go ApplyAnnotationOverrides parses them (strconv.ParseBool,
 * ParseInt, time.ParseDuration, resource.ParseQuantity, ...). The vocabulary itself is generated from labels.go
 * (core/linkerd-annotations.generated.ts); which keys are read where is core/proxy-annotations.ts.
 */
const VALIDATORS: Partial<Record<LabelsGoName, Validator>> = {
  // ProxyAccessLogAnnotation: OTHER_READERS (passed on to the proxy unchecked).
  DebugImageAnnotation: text,
  DebugImagePullPolicyAnnotation: pullPolicy,
  DebugImageVersionAnnotation: text,
  ProxyEnableDebugAnnotation: bool,
  ProxyEnableExternalProfilesAnnotation: bool,
  ProxyEnableGatewayAnnotation: bool,
  ProxyEnableHostnameLabels: bool,
  // ProxyImagePullPolicyAnnotation, ProxyImageAnnotation: OTHER_READERS (written into the pod as they are).
  // ProxyOpaquePortsAnnotation: read by components that parse it differently (opaquePortsProblem).
  // ProxyPodInboundPortsAnnotation: OTHER_READERS (the injector overwrites it).
  ProxyAdminShutdownAnnotation: enabledDisabled,
  ProxyAwait: enabledDisabled,
  ProxyDisableInboundProtocolDetectTimeout: bool,
  ProxyDisableOutboundProtocolDetectTimeout: bool,
  ProxyEnableNativeSidecarAnnotation: bool,
  ProxyEnableNativeSidecarAnnotationAlpha: bool,
  ProxyEnableNativeSidecarAnnotationBeta: bool,
  ProxyLogLevelAnnotation: text,
  // The inject key, the proxy's ports, durations, ids, resources, log format and CPU ratio, the skip lists and the
  // require-identity ports: OTHER_READERS, which follow the value to the component that acts on it.
  ProxyVersionOverrideAnnotation: text,
  ProxyWaitBeforeExitSecondsAnnotation: uint,
  ProxyAdditionalEnvAnnotation: additionalEnv,
  // ProxyDefaultInboundPolicyAnnotation: values are LKD-POL-012's.
};

/**
 * Entries proxy-init (and the CNI plugin) leave out of the iptables rules, so their ports go through the proxy after
 * all; what is wrong, or undefined.
 */
function skipPortsProblem(value: string): string | undefined {
  const dropped = proxyInitPortList(value).errors;
  if (dropped.length === 0) return undefined;
  const spaced = dropped.filter((e) => /\s/.test(e));
  const one = dropped.length === 1;
  return 'proxy-init and the CNI plugin (linkerd2-proxy-init pkg/util/portrange.go ParsePortRange, nothing trimmed) cannot read '
    + `${quoted(dropped)}: ${one ? 'it is' : 'they are'} logged and left out of the iptables rules, so ${one ? 'that entry skips' : 'those entries skip'} `
    + `no port${spaced.length > 0 ? `; write the list without spaces (${JSON.stringify(value.replace(/\s+/g, ''))})` : ''}.`;
}

/** Entries of a list parse_portset cannot read (each read alone, as the whole list is read part by part). */
function controllerUnreadable(value: string): string[] {
  return value.split(',').filter((part) => controllerPortSet(part) === undefined).map((part) => part.trim());
}

/** require-identity ports: the policy controller reads them with parse_portset, the whole list or nothing. */
function requireIdentityPortsProblem(value: string): string | undefined {
  if (controllerPortSet(value) !== undefined) return undefined;
  return 'the policy controller (policy-controller/k8s/index/src/inbound/workload.rs ports_annotation, ports.rs parse_portset) '
    + `reads port numbers and lo-hi ranges only, and cannot read ${quoted(controllerUnreadable(value))}, so it discards the whole `
    + 'list: no port of the pod requires identity, and unauthenticated clients get the default policy there.';
}

/**
 * inject.go copies the value into LINKERD2_PROXY_ACCESS_LOG as it is, and _proxy.tpl leaves the variable out when it is
 * empty (access logging off, overriding the chart's proxy.accessLog); the proxy reads apache or json in any case
 * (linkerd2-proxy linkerd/tracing/src/access_log.rs Format::from_str).
 */
function accessLogProblem(value: string): string | undefined {
  if (value === '' || ['apache', 'json'].includes(value.toLowerCase())) return undefined;
  return 'the injector passes it to the proxy unchecked (LINKERD2_PROXY_ACCESS_LOG), and the proxy knows only apache and json (in any case). '
    + 'Use one of them, or "" for no access log.';
}

/** pkg/inject/report.go disabledByAnnotation: an invalid value on the pod or its namespace turns injection off. */
function injectValueProblem(value: string): string | undefined {
  // An empty value is valid and means unset (report.go isInjectAnnotationValid): Helm writes it for an empty value.
  if (['enabled', 'disabled', 'ingress', ''].includes(value)) return undefined;
  return 'it is not enabled, disabled or ingress, so the injector (pkg/inject/report.go disabledByAnnotation) injects no pod '
    + 'it applies to, even where the other of pod and namespace says enabled.';
}

/**
 * skip-subnets: proxy-init (and the CNI plugin, with the same code) trims each comma-separated entry and refuses the
 * whole configuration on one that net.ParseCIDR cannot read, an empty one from a trailing comma included
 * (linkerd2-proxy-init proxy-init/cmd/root.go BuildFirewallConfiguration): the pod never starts.
 */
function skipSubnetsProblem(value: string): string | undefined {
  if (value === '') return undefined;
  const bad = value.split(',').map((entry) => entry.trim()).filter((entry) => !goParsesCidr(entry));
  if (bad.length === 0) return undefined;
  return 'proxy-init (linkerd2-proxy-init proxy-init/cmd/root.go BuildFirewallConfiguration, net.ParseCIDR of each trimmed entry) '
    + `cannot read ${quoted(bad)}${bad.includes('') ? ' (an empty entry: a trailing or doubled comma)' : ''} and exits with an error, `
    + 'and so does the CNI plugin: the pod never starts. Write each entry as address/prefix, e.g. 10.0.0.0/8.';
}

/** What a value that does not work costs: the rule's warning, or an error where the pod cannot run. */
interface Misread {
  readonly text: string;
  readonly severity?: Severity;
}

/** How a key's value is read by the injector and by what it hands the value to; undefined when it works. */
type Reader = (value: string) => Misread | undefined;

const warning = (problem: Validator): Reader => (value) => {
  const why = problem(value);
  return why === undefined ? undefined : { text: why };
};
const error = (problem: Validator): Reader => (value) => {
  const why = problem(value);
  return why === undefined ? undefined : { text: why, severity: Severity.ERROR };
};


/**
 * A proxy port: the injector takes any int32 (strconv.ParseInt) and writes it into the pod; the API server refuses a
 * containerPort outside 1-65535 (inbound and admin are container ports), the proxy refuses a listen address it cannot
 * read (linkerd2-proxy env.rs parse_socket_addr) and exits.
 */
const proxyPort = (containerPort: boolean): Reader => (value) => {
  const n = goParseInt32(value);
  if (n === undefined) return { text: 'strconv.ParseInt cannot read it, so the injector keeps the default port.' };
  if (n >= 1 && n <= 65535) return undefined;
  if (n === 0 && !containerPort) return undefined;
  return {
    severity: Severity.ERROR,
    text: `the injector takes it (strconv.ParseInt) and writes port ${n} into the pod, which cannot run: `
      + (containerPort ? 'the API server refuses a containerPort outside 1-65535.' : 'the proxy cannot read its listen address and exits.'),
  };
};

/**
 * A duration the injector reads with time.ParseDuration and writes into the proxy's environment as whole
 * milliseconds or seconds; the proxy reads digits and a unit only (linkerd2-proxy env/types.rs parse_duration), so a
 * negative value makes it exit.
 */
const proxyDuration = (envVar: string, unit: 'ms' | 's'): Reader => (value) => {
  const ms = parseGoDuration(value);
  if (ms === undefined) return { text: 'time.ParseDuration cannot read it (use 100ms, 10s, 1m30s), so the injector logs it and keeps the default.' };
  // inject.go writes int(d.Seconds()*1000) "ms" or int(d.Seconds()) "s": Go's int() truncates, so -500us is written 0ms.
  const written = Math.trunc(unit === 'ms' ? ms : ms / 1000);
  if (written >= 0) return undefined;
  return {
    severity: Severity.ERROR,
    text: `the injector takes it (time.ParseDuration) and writes ${written}${unit} as ${envVar} into the proxy's environment, which the proxy `
      + 'cannot read (linkerd2-proxy linkerd/app/src/env/types.rs parse_duration), so it exits and the pod never becomes ready.',
  };
};

/** close-wait-timeout: time.ParseDuration, then whole seconds for proxy-init. */
const closeWait: Validator = (v) => (parseGoDuration(v) === undefined
  ? 'time.ParseDuration cannot read it (use 100ms, 10s, 1m30s), so the injector logs it and ignores it.' : undefined);

/**
 * The injector renders the proxy with the value, and _proxy.tpl fails on anything but insecure, off or empty: the
 * webhook then answers with a denial (controller/webhook/server.go processReq), so the API server refuses the pod.
 */
const logHttpHeaders: Validator = (v) => (['insecure', 'off', ''].includes(v) ? undefined
  : 'the injector\'s proxy template fails on it ("logHTTPHeaders must be one of: insecure | off"), and the webhook denies the pods it '
  + 'injects: the API server refuses them (their Deployment or other workload still applies). Use off or insecure.');

/** The proxy logs JSON when the value, trimmed, is "json" in any case, and plain text otherwise (linkerd/tracing/src/lib.rs). */
const logFormat: Validator = (v) => (['json', 'plain'].includes(v.trim().toLowerCase())
  ? undefined : 'it is neither json nor plain, and the proxy logs plain text for anything but json.');

/** strconv.ParseFloat, then strictly between 0 and 1 (inject.go), else the injector logs it and ignores it. */
const cpuRatio: Validator = (v) => {
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) ? Number(v) : NaN;
  return n > 0 && n < 1 ? undefined : 'it is not a number strictly between 0 and 1, so the injector logs it and ignores it.';
};

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const QUANTITY_SUFFIX = new Map<string, number>([
  ['Ki', 2 ** 10], ['Mi', 2 ** 20], ['Gi', 2 ** 30], ['Ti', 2 ** 40], ['Pi', 2 ** 50], ['Ei', 2 ** 60],
  ['n', 1e-9], ['u', 1e-6], ['m', 1e-3], ['', 1], ['k', 1e3], ['M', 1e6], ['G', 1e9], ['T', 1e12], ['P', 1e15], ['E', 1e18],
]);

/** A Kubernetes quantity as resource.ParseQuantity reads it, as a number (precise enough to compare two). */
function quantityValue(written: string): number | undefined {
  const m = QUANTITY.exec(written);
  if (!m) return undefined;
  const suffix = m[3] ?? '';
  const scale = QUANTITY_SUFFIX.get(suffix) ?? 10 ** Number(suffix.slice(1));
  return (m[1] === '-' ? -1 : 1) * Number(m[2]) * scale;
}

/** A quantity as an exact product mantissa × 10^tens × 2^twos (binary suffixes are powers of two, the rest of ten). */
interface ExactQuantity {
  readonly mantissa: bigint;
  readonly tens: number;
  readonly twos: number;
}

const DECIMAL_SUFFIX_TENS = new Map<string, number>([['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18]]);
const BINARY_SUFFIX_TWOS = new Map<string, number>([['Ki', 10], ['Mi', 20], ['Gi', 30], ['Ti', 40], ['Pi', 50], ['Ei', 60]]);
/** Exponents beyond this are compared as floats: no proxy resource is written that way, and 10^n must stay small. */
const MAX_EXACT_EXPONENT = 400;

function exactQuantity(written: string): ExactQuantity | undefined {
  const m = QUANTITY.exec(written);
  if (!m) return undefined;
  const [whole, fraction = ''] = m[2].split('.');
  const suffix = m[3] ?? '';
  const tens = (DECIMAL_SUFFIX_TENS.get(suffix) ?? (BINARY_SUFFIX_TWOS.has(suffix) ? 0 : Number(suffix.slice(1)))) - fraction.length;
  if (Math.abs(tens) > MAX_EXACT_EXPONENT) return undefined;
  const digits = BigInt(`${whole || '0'}${fraction}`);
  return { mantissa: m[1] === '-' ? -digits : digits, tens, twos: BINARY_SUFFIX_TWOS.get(suffix) ?? 0 };
}

/**
 * Whether quantity `a` is above `b`, compared exactly as resource.Quantity.Cmp does: "700m" equals "0.7" (as floats
 * 700 × 0.001 is 0.7000000000000001). Undefined when either cannot be read.
 */
function quantityAbove(a: string, b: string): boolean | undefined {
  const x = exactQuantity(a);
  const y = exactQuantity(b);
  if (!x || !y) {
    const [fx, fy] = [quantityValue(a), quantityValue(b)];
    return fx === undefined || fy === undefined ? undefined : fx > fy;
  }
  const tens = Math.min(x.tens, y.tens);
  const twos = Math.min(x.twos, y.twos);
  const scaled = (q: ExactQuantity) => q.mantissa * 10n ** BigInt(q.tens - tens) * 2n ** BigInt(q.twos - twos);
  return scaled(x) > scaled(y);
}

/**
 * Proxy resources: the injector checks the value with resource.ParseQuantity and writes it into the proxy container
 * as it is; the API server refuses a pod with a negative request or limit.
 */
const proxyQuantity: Reader = (value) => {
  const n = quantityValue(value);
  if (n === undefined) return { text: 'resource.ParseQuantity cannot read it (use 100m, 64Mi), so the injector logs it and ignores it.' };
  if (n >= 0) return undefined;
  return { severity: Severity.ERROR, text: 'the injector writes it into the proxy container as it is, and the API server refuses a pod with a negative resource quantity.' };
};

/** Kubernetes' range for runAsUser and runAsGroup (ValidateNonnegativeField, at most 2^31 - 1). */
const MAX_ID = 2 ** 31 - 1;

/**
 * proxy-uid / proxy-gid: strconv.ParseInt(value, 10, 64), written into the proxy's securityContext (_proxy.tpl; a
 * negative gid leaves runAsGroup out). The API server refuses a pod whose runAsUser or runAsGroup is out of range.
 */
const proxyId = (field: 'runAsUser' | 'runAsGroup'): Reader => (value) => {
  const n = /^[+-]?\d+$/.test(value) ? Number(value) : undefined;
  if (n === undefined || Math.abs(n) > 2 ** 63) return { text: 'strconv.ParseInt cannot read it, so the injector keeps the default.' };
  if (field === 'runAsUser' && n === 0) {
    // _proxy.tpl writes runAsNonRoot: true beside runAsUser, and the kubelet refuses root under runAsNonRoot.
    return {
      severity: Severity.ERROR,
      text: 'the injector writes runAsUser: 0 beside runAsNonRoot: true into the proxy container (_proxy.tpl), and the kubelet refuses '
        + 'to start a container that runs as root under runAsNonRoot (CreateContainerConfigError): the pod never runs. Use a non-zero uid.',
    };
  }
  if ((n >= 0 || field === 'runAsGroup') && n <= MAX_ID) return undefined;
  return {
    severity: Severity.ERROR,
    text: `the injector takes it (strconv.ParseInt) and writes ${field}: ${n} into the proxy container; the API server refuses `
      + `a pod whose ${field} is outside 0-${MAX_ID}.`,
  };
};

/**
 * image-pull-policy: the injector copies the value into the proxy's and linkerd-init's imagePullPolicy (_proxy.tpl,
 * _proxy-init.tpl), and the API server refuses any other value than Always, IfNotPresent or Never.
 */
const pullPolicyWritten: Validator = (v) => (PULL_POLICIES.includes(v) ? undefined
  : 'the injector writes it as the imagePullPolicy of linkerd-proxy and linkerd-init as it is (ApplyAnnotationOverrides, _proxy.tpl), and the '
  + 'API server refuses a pod whose imagePullPolicy is not Always, IfNotPresent or Never: the pods are refused.');

/**
 * proxy-image: the injector writes `image: <name>:<version>` (_proxy.tpl, and _proxy-init.tpl for linkerd-init), so a
 * name that carries its own tag or digest becomes no valid image reference, and the kubelet cannot pull it.
 */
const proxyImageName: Validator = (v) => {
  if (v.trim() === '') return 'must not be empty';
  const last = v.slice(v.lastIndexOf('/') + 1);
  if (!v.includes('@') && !last.includes(':')) return undefined;
  return `it carries its own ${v.includes('@') ? 'digest' : 'tag'}, but the injector appends ":<version>" (image: name:version in _proxy.tpl and `
    + '_proxy-init.tpl), so linkerd-proxy and linkerd-init get no valid image reference (InvalidImageName) and the pods never start. Put the '
    + 'repository in config.linkerd.io/proxy-image and the tag in config.linkerd.io/proxy-version.';
};

/** Keys whose wrong values do more than the injector's log line: what is wrong is what the component that reads them does. */
const OTHER_READERS: Partial<Record<LabelsGoName, Reader>> = {
  // A pod that asks for a proxy gets none: certain (report.go disabledByAnnotation).
  ProxyInjectAnnotation: error(injectValueProblem),
  ProxyImagePullPolicyAnnotation: error(pullPolicyWritten),
  ProxyAccessLogAnnotation: warning(accessLogProblem),
  // GetPodPatch sets PodInboundPorts from the pod's container ports after the overrides: the annotation never counts.
  ProxyPodInboundPortsAnnotation: () => ({
    text: 'the injector computes this list itself from the pod\'s container ports (inject.go GetPodPatch, '
    + 'getPodInboundPorts) and replaces whatever is set here, so it has no effect. Remove it.',
  }),
  ProxyImageAnnotation: error(proxyImageName),
  ProxyIgnoreInboundPortsAnnotation: warning(skipPortsProblem),
  ProxyIgnoreOutboundPortsAnnotation: warning(skipPortsProblem),
  ProxyRequireIdentityOnInboundPortsAnnotation: warning(requireIdentityPortsProblem),
  ProxySkipSubnetsAnnotation: error(skipSubnetsProblem),
  ProxyInboundPortAnnotation: proxyPort(true),
  ProxyAdminPortAnnotation: proxyPort(true),
  ProxyControlPortAnnotation: proxyPort(false),
  ProxyOutboundPortAnnotation: proxyPort(false),
  ProxyInboundConnectTimeout: proxyDuration('LINKERD2_PROXY_INBOUND_CONNECT_TIMEOUT', 'ms'),
  ProxyOutboundConnectTimeout: proxyDuration('LINKERD2_PROXY_OUTBOUND_CONNECT_TIMEOUT', 'ms'),
  ProxyInboundDiscoveryCacheUnusedTimeout: proxyDuration('LINKERD2_PROXY_INBOUND_DISCOVERY_IDLE_TIMEOUT', 's'),
  ProxyOutboundDiscoveryCacheUnusedTimeout: proxyDuration('LINKERD2_PROXY_OUTBOUND_DISCOVERY_IDLE_TIMEOUT', 's'),
  ProxyShutdownGracePeriodAnnotation: proxyDuration('LINKERD2_PROXY_SHUTDOWN_GRACE_PERIOD', 'ms'),
  CloseWaitTimeoutAnnotation: warning(closeWait),
  ProxyLogFormatAnnotation: warning(logFormat),
  ProxyLogHTTPHeaders: error(logHttpHeaders),
  ProxyCPURatioLimitAnnotation: warning(cpuRatio),
  ProxyCPURequestAnnotation: proxyQuantity,
  ProxyCPULimitAnnotation: proxyQuantity,
  ProxyMemoryRequestAnnotation: proxyQuantity,
  ProxyMemoryLimitAnnotation: proxyQuantity,
  ProxyEphemeralStorageRequestAnnotation: proxyQuantity,
  ProxyEphemeralStorageLimitAnnotation: proxyQuantity,
  ProxyUIDAnnotation: proxyId('runAsUser'),
  ProxyGIDAnnotation: proxyId('runAsGroup'),
};

/**
 * With the CNI plugin, linkerd-init does not run (charts/patch/templates/patch.json) and linkerd2-proxy-init
 * cni-plugin/main.go sets up the pod's iptables: it reads proxy-uid and proxy-gid from the pod, else its namespace
 * (getAnnotationOverride) with strconv.Atoi and fails the pod's network setup on anything else; it redirects to the
 * ports of its own configuration (4143/4140 by default), not the inbound-port and outbound-port annotations; and it has
 * no close-wait setting.
 */
const cniId: Reader = (value) => (/^[+-]?\d+$/.test(value) && Math.abs(Number(value)) < 2 ** 63 ? undefined : {
  severity: Severity.ERROR,
  text: 'the CNI plugin reads it with strconv.Atoi (cni-plugin/main.go), fails, and does not set up the pod\'s network: the pod never starts.',
});
const cniProxyPort = (defaultPort: number, side: string): Reader => (value) => {
  const n = goParseInt32(value);
  if (n === undefined || n === defaultPort) return undefined;
  return {
    severity: Severity.ERROR,
    text: `the proxy listens on ${n}, but the CNI plugin redirects ${side} traffic to the port of its own configuration (${defaultPort} by default, `
      + 'cni-plugin/main.go), which this annotation does not change: that traffic no longer reaches the proxy. Remove the annotation.',
  };
};
const CNI_READERS: Partial<Record<LabelsGoName, Reader>> = {
  ProxyUIDAnnotation: cniId,
  ProxyGIDAnnotation: cniId,
  ProxyInboundPortAnnotation: cniProxyPort(4143, 'inbound'),
  ProxyOutboundPortAnnotation: cniProxyPort(4140, 'outbound'),
  CloseWaitTimeoutAnnotation: () => ({ text: 'with the CNI plugin no linkerd-init runs and the plugin has no close-wait setting, so it has no effect.' }),
};

const OPAQUE_PORTS = LABELS_GO.ProxyOpaquePortsAnnotation;
const WAIT_BEFORE_EXIT = LABELS_GO.ProxyWaitBeforeExitSecondsAnnotation;
const CLOSE_WAIT = LABELS_GO.CloseWaitTimeoutAnnotation;

const quoted = (entries: string[]) => entries.map((e) => JSON.stringify(e)).join(', ');

/** Where an opaque-ports value sits decides what a name in it means and what the policy controller serves from it. */
interface OpaqueSite {
  /** What a name stands for there. */
  readonly names: string;
  /** What follows when the policy controller reads no port of it. */
  readonly effect: string;
}

const POD_SITE: OpaqueSite = { names: 'container port names', effect: 'the pods\' inbound policy detects the protocol on these ports' };
const SERVICE_SITE: OpaqueSite = { names: 'Service port names', effect: 'client proxies detect the protocol on these ports (and HTTPRoutes apply)' };

/**
 * opaque-ports is read by Go (the injector, the destination controller: per entry, names resolved, bad entries
 * skipped) and by Rust (the policy controller's parse_portset: numbers and ranges only, the whole list or nothing).
 * What is wrong where they differ or drop something, or undefined.
 */
function opaquePortsProblem(value: string, site: OpaqueSite): string | undefined {
  const { controller, names, skippedByGo } = opaquePortsReadings(value);
  if (controller === undefined) {
    const why = [
      names.length > 0 ? `it names ${quoted(names)} (${site.names})` : '',
      skippedByGo.length > 0 ? `${quoted(skippedByGo)} ${skippedByGo.length === 1 ? 'is' : 'are'} no port or range` : '',
    ].filter(Boolean).join(', and ');
    return 'the policy controller (policy-controller/k8s/index/src/ports.rs parse_portset) reads port numbers and lo-hi ranges only, '
      + `and ${why || 'it reads no entry'}, so it discards the whole list: no port in it is opaque there, and ${site.effect}`
      + `${names.length > 0 ? '; list the port numbers instead' : ''}.`;
  }
  if (skippedByGo.length === 0) return undefined;
  const one = skippedByGo.length === 1;
  return `the policy controller reads ${quoted(skippedByGo)}, but the injector and the destination controller skip ${one ? 'it' : 'them'} `
    + '(pkg/util/portrange.go ParsePortRange allows no spaces around "-"), so the proxy\'s startup list and the destination '
    + `controller's answers leave ${one ? 'that range' : 'those ranges'} out; write ${quoted(skippedByGo.map((e) => e.replace(/\s+/g, '')))}.`;
}

/** The same setting under another family or with/without the proxy- prefix (proxy-enable-gateway is enable-gateway). */
function sameSetting(key: string, known: string): boolean {
  const name = (k: string) => k.slice(k.indexOf('/') + 1).replace(/^proxy-/, '');
  return name(key) === name(known);
}

function suggestion(key: string): string {
  let best: string | undefined;
  let bestDistance = 4;
  for (const known of readProxyKeys()) {
    if (sameSetting(key, known)) return ` Did you mean ${known}?`;
    const d = editDistance(key, known);
    if (d < bestDistance) {
      best = known;
      bestDistance = d;
    }
  }
  return best ? ` Did you mean ${best}?` : '';
}

/** What is wrong with one key, or undefined; `namespace` when the key sits on a Namespace. */
function keyProblem(key: string, namespace: boolean): string | undefined {
  const status = proxyKeyStatus(key);
  switch (status.kind) {
    case 'unknown':
      return `${key} is not a Linkerd 2.20 annotation (not in linkerd2 pkg/k8s/labels.go); the injector ignores it.${suggestion(key)}`;
    case 'removed':
      return `${key} is not a Linkerd 2.20 annotation any more (gone from pkg/k8s/labels.go): ${status.instead}.`;
    case 'unread':
      return `${key} is defined in linkerd2 pkg/k8s/labels.go (${status.goName}) but nothing in Linkerd 2.20 reads it, so it has no effect; remove it.`;
    case 'read': {
      const entry = status.entry;
      if (namespace && !entry.sites.includes(KeySite.NAMESPACE)) {
        return `${key} is read from pod annotations only (${entry.readBy}); the injector does not copy a Namespace's value to its pods. `
          + 'Put it on the pod templates.';
      }
      if (entry.replacedBy) {
        return `${key} is deprecated (pkg/k8s/labels.go): use ${entry.replacedBy}. Linkerd 2.20 still reads it, but only while ${entry.replacedBy} is not set.`;
      }
      return undefined;
    }
  }
}

/**
 * How sure a key finding is: the injector certainly ignores a key it does not read there (an error), a deprecated key
 * it still reads is advice, and on a pod the injector leaves alone nothing reads any key now (a warning).
 */
function keySeverity(key: string, uninjected: boolean): Severity {
  const status = proxyKeyStatus(key);
  if (status.kind === 'read' && status.entry.replacedBy) return Severity.INFO;
  return uninjected ? Severity.WARNING : Severity.ERROR;
}

/**
 * `uninjected`: the annotations of a pod the injector leaves alone. Nothing acts on its values now, so what would stop
 * an injected pod is only a warning there.
 */
/** `cni`: the CNI plugin replaces linkerd-init (read once per analysis, not per pod). */
function checkAnnotations(
  ctx: RuleContext, subject: IndexedObject, annotations: Record<string, string>, where: string, cni: boolean, uninjected = false,
): void {
  const namespace = subject.id.kind === 'Namespace';
  for (const key of Object.keys(annotations)) {
    if (key === ADMISSION_WEBHOOKS_LABEL || !isProxyConfigKey(key)) continue;
    const problem = keyProblem(key, namespace);
    if (problem) ctx.report(subject, `${where} ${problem}`, { severity: keySeverity(key, uninjected) });
    const status = proxyKeyStatus(key);
    if (status.kind !== 'read') continue;
    const value = annotations[key];
    if (key === OPAQUE_PORTS) {
      const misread = opaquePortsProblem(String(value), POD_SITE);
      if (misread) ctx.report(subject, `${where} ${key} is ${JSON.stringify(value)}: ${misread}`, { severity: Severity.WARNING });
      continue;
    }
    const reader = OTHER_READERS[status.entry.goName];
    const cniReader = cni ? CNI_READERS[status.entry.goName] : undefined;
    if (reader || cniReader) {
      const misread = cniReader?.(String(value)) ?? reader?.(String(value));
      if (!misread) continue;
      // An invalid linkerd.io/inject is why the pod is uninjected: never idle.
      const idle = uninjected && misread.severity === Severity.ERROR && key !== LABELS_GO.ProxyInjectAnnotation;
      ctx.report(subject, `${where} ${key} is ${JSON.stringify(value)}: ${misread.text}${idle ? ' (This pod is not injected, so nothing reads it now.)' : ''}`,
        { severity: misread.severity && !idle ? misread.severity : Severity.WARNING });
      continue;
    }
    const invalid = VALIDATORS[status.entry.goName]?.(String(value));
    if (invalid) {
      ctx.report(subject, `${where} ${key} is ${JSON.stringify(value)}, which ${invalid}; the injector logs and ignores it.`,
        { severity: uninjected ? Severity.WARNING : Severity.ERROR });
    }
  }
}

/** Each proxy resource: its name in messages, its chart value under proxy.resources, and its two annotations. */
const RESOURCE_PAIRS: ReadonlyArray<readonly [string, string, LabelsGoName, LabelsGoName]> = [
  ['CPU', 'cpu', 'ProxyCPURequestAnnotation', 'ProxyCPULimitAnnotation'],
  ['memory', 'memory', 'ProxyMemoryRequestAnnotation', 'ProxyMemoryLimitAnnotation'],
  ['ephemeral storage', 'ephemeral-storage', 'ProxyEphemeralStorageRequestAnnotation', 'ProxyEphemeralStorageLimitAnnotation'],
];

/** One side of a request/limit pair as the injector ends up with it, and where it came from. */
interface ResourceValue {
  readonly value: string;
  readonly source: string;
}

/**
 * The proxy's request above its limit: the API server refuses the pod (a request must not exceed its limit). Each
 * value is the pod's own or its namespace's annotation, as the injector reads them, else the install's
 * proxy.resources value (ApplyAnnotationOverrides replaces only what an annotation sets; _resources.tpl writes both).
 */
function checkResourcePairs(ctx: RuleContext, pod: PodTemplate, where: string): void {
  const installResources = controlPlaneInstalls(ctx.index)[0]?.values.proxy?.resources;
  const effective = (key: string, chartKey: string, side: 'request' | 'limit'): ResourceValue | undefined => {
    const value = podOrNamespaceAnnotation(pod, key);
    if (value !== undefined) return { value: String(value), source: key };
    const installed = installResources?.[chartKey]?.[side];
    return typeof installed === 'string' && installed !== '' ? { value: installed, source: `the install's proxy.resources.${chartKey}.${side}` } : undefined;
  };
  for (const [resource, chartKey, requestName, limitName] of RESOURCE_PAIRS) {
    const request = effective(LABELS_GO[requestName], chartKey, 'request');
    const limit = effective(LABELS_GO[limitName], chartKey, 'limit');
    // Both from the install: its own values, refused for every pod alike; that is not this pod's annotation.
    if (!request || !limit || (request.source !== LABELS_GO[requestName] && limit.source !== LABELS_GO[limitName])) continue;
    if (quantityAbove(request.value, limit.value) !== true) continue;
    const pair = request.source === LABELS_GO[requestName]
      ? `${request.source} ${JSON.stringify(request.value)} is above ${limit.source} ${JSON.stringify(limit.value)}`
      : `${limit.source} ${JSON.stringify(limit.value)} is below ${request.source} ${JSON.stringify(request.value)}`;
    ctx.report(pod.owner, `${where} ${pair}: the injector writes both into the proxy container, and the API server refuses a pod whose `
      + `${resource} request exceeds its limit.`, { severity: Severity.ERROR });
  }
}

/** labels.go: the wait "must be smaller than terminationGracePeriodSeconds configured for the Pod" (30 s by default). */
function checkWaitBeforeExit(ctx: RuleContext, pod: PodTemplate, podWhere: string): void {
  // The injector copies a namespace's wait onto pods without one (it is one of ProxyAlphaConfigAnnotations).
  const value = podOrNamespaceAnnotation(pod, WAIT_BEFORE_EXIT);
  if (value === undefined || !/^\d+$/.test(String(value))) return;
  const own = pod.annotations[WAIT_BEFORE_EXIT] !== undefined;
  // A namespace's value reaches only the pods the injector injects.
  if (!own && !isMeshed(pod)) return;
  const where = own ? podWhere : `Namespace ${pod.namespace}'s annotation`;
  const native = nativeSidecarOf(ctx.index, ctx.context, pod);
  // "0" asks for no wait, which a native sidecar gives anyway (linkerd-viz's chart writes it on its pods).
  if (native.on && isMeshed(pod) && Number(value) > 0) {
    // _proxy.tpl adds the preStop sleep only to a proxy that is an ordinary container.
    ctx.report(pod.owner, `${where} ${WAIT_BEFORE_EXIT} has no effect: the proxy runs as a native sidecar (${native.origin}), which `
      + 'Kubernetes stops only after the app containers, and the injector adds the wait (a preStop sleep) only to a proxy that is an '
      + 'ordinary container. Remove it.', { severity: Severity.WARNING });
    return;
  }
  const grace = typeof pod.spec.terminationGracePeriodSeconds === 'number' ? pod.spec.terminationGracePeriodSeconds : 30;
  if (Number(value) >= grace) {
    ctx.report(pod.owner, `${where} ${WAIT_BEFORE_EXIT} is ${value} s, not less than the pod's terminationGracePeriodSeconds (${grace}); `
      + 'the kubelet kills the proxy before the wait ends. Raise terminationGracePeriodSeconds or lower the wait.', { severity: Severity.WARNING });
  }
}

/**
 * A close-wait timeout of a second or more makes _proxy-init.tpl pass --timeout-close-wait-secs, which it refuses to
 * render unless proxyInit.runAsRoot is set: the webhook denies the pod. inject.go reads the pod's own annotation only.
 */
function checkCloseWait(ctx: RuleContext, pod: PodTemplate, where: string): void {
  const value = pod.annotations[CLOSE_WAIT];
  const ms = value === undefined ? undefined : parseGoDuration(String(value));
  // int64(d.Seconds()): what the template tests, truncated toward zero.
  if (ms === undefined || Math.trunc(ms / 1000) === 0 || carriesLinkerdProxy(pod.spec)) return;
  if (cniEnabledOf(ctx.index, ctx.context).enabled || proxyInitRunsAsRoot(ctx.index)) return;
  ctx.report(pod.owner, `${where} ${CLOSE_WAIT} is ${JSON.stringify(value)}, but proxyInit.runAsRoot is not set: the injector's proxy-init `
    + 'template fails ("proxyInit.runAsRoot must be set to use proxyInit.closeWaitTimeoutSecs") and the webhook denies the pod, so the '
    + 'API server refuses every pod of the workload. Set proxyInit.runAsRoot: true in the install, or remove the annotation.', { severity: Severity.ERROR });
}

function readOnService(key: string): boolean {
  const status = proxyKeyStatus(key);
  return status.kind === 'read' && status.entry.sites.includes(KeySite.SERVICE);
}

function checkServiceAnnotations(ctx: RuleContext, service: IndexedObject): void {
  const annotations = annotationsOf(service.object);
  const opaque = annotations[OPAQUE_PORTS];
  if (opaque !== undefined) {
    const problem = opaquePortsProblem(String(opaque), SERVICE_SITE);
    if (problem) ctx.report(service, `annotation ${OPAQUE_PORTS} is ${JSON.stringify(opaque)}: ${problem}`, { severity: Severity.WARNING });
  }
  let others: string[] | undefined;
  for (const k of Object.keys(annotations)) if (k.startsWith('config') && isProxyConfigKey(k) && !readOnService(k) && k !== ADMISSION_WEBHOOKS_LABEL) (others ??= []).push(k);
  if (others) {
    ctx.report(service, `annotation(s) ${others.join(', ')} have no effect on a Service; only ${OPAQUE_PORTS} is read there. `
      + 'Put proxy settings on the pod template.', { severity: Severity.ERROR });
  }
}

/** Proxy keys Linkerd reads, by the name after their prefix (`proxy-await` → config.linkerd.io/proxy-await). */
const READ_KEYS_BY_NAME = new Map<string, string>(READ_KEYS.map((k) => [k.key.slice(k.key.indexOf('/') + 1), k.key]));
READ_KEYS_BY_NAME.set('inject', LABELS_GO.ProxyInjectAnnotation);
READ_KEYS_BY_NAME.set('injection', LABELS_GO.ProxyInjectAnnotation);
/** Every key labels.go defines: none of them is a misspelling, whatever its name. */
const BY_ANY_KEY = new Set<string>(LABELS_GO_KEYS.map((k) => k.key));

/**
 * A key that is not one Linkerd reads but names one of them under another prefix or separator
 * (`linkerd.io/proxy-await`, `config.linkerd.io.opaque-ports`, `inject.linkerd.io`): the injector ignores it. Only keys
 * that mention linkerd.io are looked at, and only a name that is exactly a read key's.
 */
function misplacedKey(key: string): string | undefined {
  // config.* keys are checked one by one above (keyProblem); labels.go keys are what they are.
  if (!key.includes('linkerd.io') || BY_ANY_KEY.has(key) || isProxyConfigKey(key)) return undefined;
  const name = key.slice(Math.max(key.lastIndexOf('/'), key.lastIndexOf('.')) + 1);
  const first = key.split(/[./]/)[0];
  const meant = READ_KEYS_BY_NAME.get(name) ?? READ_KEYS_BY_NAME.get(first);
  return meant !== undefined && meant !== key ? meant : undefined;
}

function checkMisplacedKeys(
  ctx: RuleContext, subject: IndexedObject, annotations: Record<string, string>, where: string, uninjected = false,
): void {
  for (const key of Object.keys(annotations)) {
    const meant = misplacedKey(key);
    if (meant) {
      ctx.report(subject, `${where} ${key} is not a key Linkerd reads, so the injector ignores it; the key is ${meant}.`,
        { severity: uninjected ? Severity.WARNING : Severity.ERROR });
    }
  }
}

/** labels.go keys outside the proxy-config families that nothing reads (the config families are checked above). */
function checkUnreadKeys(ctx: RuleContext, entry: IndexedObject): void {
  for (const key of Object.keys(annotationsOf(entry.object))) {
    if (UNREAD_KEYS.has(key) && !isProxyConfigKey(key)) {
      ctx.report(entry, `annotation ${key} is defined in linkerd2 pkg/k8s/labels.go but nothing in Linkerd 2.20 reads it, so it has no effect; remove it.`,
        { severity: Severity.ERROR });
    }
  }
}

/** Proxy annotations: keys Linkerd 2.20 reads (vocabulary generated from labels.go), on objects it reads them from, with values that parse. */
export const configAnnotationsRule: Rule = {
  id: 'LKD-MESH-003',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Ignored: the injector drops keys it does not read there and values it cannot parse (pkg/inject/inject.go '
      + 'ApplyAnnotationOverrides); values that stop the pod are errors too (Rejected, Fails to start). Deprecated '
      + 'keys still read are info; keys on a pod the injector leaves alone, and values whose effect depends on the '
      + 'traffic, are warnings.',
    title: 'config.linkerd.io annotations are Linkerd 2.20 keys, read where they are set, with valid values',
    why: 'The vocabulary is linkerd2 pkg/k8s/labels.go at version-2.20 (generated into src/core/linkerd-annotations.generated.ts); '
      + 'which keys are read, and from which object, is src/core/proxy-annotations.ts, citing pkg/inject/inject.go. The injector '
      + 'ignores keys it does not know and only logs values it cannot parse (ApplyAnnotationOverrides), so a typo (skip-inbound-port), '
      + 'a key removed from labels.go (init-image, disable-identity, trace-collector), or a bad value (opaque-ports: "mysql:3306") '
      + 'silently leaves the proxy with defaults. A Namespace passes only the keys in inject.go ProxyAnnotations / '
      + 'ProxyAlphaConfigAnnotations on to its pods (AppendNamespaceAnnotations): enable-gateway, proxy-cpu-ratio-limit, the debug '
      + 'image keys, close-wait-timeout and the beta native-sidecar key on a Namespace do nothing. The alpha and beta native-sidecar '
      + 'keys are deprecated in labels.go (still read, below the stable key). config.alpha.linkerd.io/proxy-wait-before-exit-seconds '
      + 'is the only form of that setting and inject.go reads it, so it is not reported as unstable; labels.go says it must be '
      + 'smaller than the pod\'s terminationGracePeriodSeconds. On a Service only opaque-ports is read (inject.go '
      + 'CreateOpaquePortsPatch, policy-controller outbound/index.rs). Keys of labels.go that no component reads '
      + '(mirror.linkerd.io/probe-failure-threshold and probe-timeout at 2.20) are reported on any object. opaque-ports is read '
      + 'twice, by parsers that differ: the injector and the destination controller (Go) resolve port names and skip an entry '
      + 'they cannot read, with no spaces allowed around "-"; the policy controller (Rust parse_portset) reads numbers and '
      + 'ranges only, trimmed around "-" too, and one entry it cannot read (a port name included) makes it read the whole list '
      + 'as no port, so that pod\'s inbound policy, or that Service\'s outbound policy, detects the protocol. The injector passes '
      + 'skip-inbound-ports and skip-outbound-ports on unparsed; proxy-init and the CNI plugin split them at commas without trimming '
      + 'and leave out (with a log line) each entry ParsePortRange cannot read, so "4222, 6222" skips 4222 only. '
      + 'proxy-require-identity-inbound-ports is read by the policy controller with parse_portset: one entry it cannot read, and '
      + 'no port requires identity. skip-subnets is worse: one entry net.ParseCIDR cannot read (a bare address, an empty entry '
      + 'after a trailing comma) makes proxy-init, or the CNI plugin, exit with an error, and the pod never starts; that is an error. '
      + 'The proxy ports are read with strconv.ParseInt and written into the pod as they are: one outside 1-65535 makes the pod '
      + 'unrunnable (an error). The proxy durations are read with time.ParseDuration (1m30s, .5s and +2s are fine) and handed '
      + 'to the proxy in whole milliseconds or seconds; a negative one makes the proxy exit (an error). The proxy logs JSON for '
      + '"json" in any case and plain text for anything else. proxy-uid and proxy-gid, and the proxy\'s resource quantities, go '
      + 'into the proxy container as written: an id outside 0-2147483647, a negative quantity or a request above its limit, '
      + 'and the API server refuses the pod (errors). Two values make the injector\'s own templates fail, and the webhook then '
      + 'answers with a denial, so the pods are refused while their workload applies (errors): proxy-log-http-headers other '
      + 'than off or insecure (_proxy.tpl), and a close-wait-timeout of a second or more without the install\'s '
      + 'proxyInit.runAsRoot, unless the CNI plugin replaces proxy-init (_proxy-init.tpl). What would stop an injected pod is '
      + 'a warning on a pod the injector leaves alone.',
    fix: 'Use the keys Linkerd 2.20 reads, where it reads them, with values in the documented format (ports: "25,3306,4000-4100").',
    linkerdSource: 'pkg/k8s/labels.go (annotation vocabulary); pkg/inject/inject.go ApplyAnnotationOverrides, '
      + 'AppendNamespaceAnnotations (ProxyAnnotations, ProxyAlphaConfigAnnotations), (conf *ResourceConfig) '
      + 'CreateOpaquePortsPatch; pkg/util/parsing.go GetPortRanges, ParseContainerOpaquePorts and pkg/util/portrange.go '
      + 'ParsePortRange (Go reading of opaque-ports); policy-controller/k8s/index/src/ports.rs parse_portset, '
      + 'policy-controller/k8s/index/src/inbound/workload.rs ports_annotation (Rust reading, opaque-ports and '
      + 'proxy-require-identity-inbound-ports); charts/partials/templates/_proxy-init.tpl (--inbound-ports-to-ignore); '
      + 'linkerd2-proxy-init (the ref Dockerfile.proxy builds) pkg/iptables/iptables.go makeMultiportDestinations, '
      + 'cni-plugin/main.go getAnnotationOverride, pkg/util/portrange.go ParsePortRange (skip ports); '
      + 'linkerd2-proxy-init proxy-init/cmd/root.go BuildFirewallConfiguration (skip-subnets); '
      + 'charts/partials/templates/_proxy.tpl (the proxy\'s environment: listen addresses, timeouts, log format; the '
      + 'logHTTPHeaders fail), charts/partials/templates/_proxy-init.tpl (closeWaitTimeoutSecs needs runAsRoot), '
      + 'charts/patch/templates/patch.json (no proxy-init with cniEnabled), controller/webhook/server.go processReq (a handler '
      + 'error is a denial); '
      + 'linkerd2-proxy (the .proxy-version of version-2.20) linkerd/tracing/src/lib.rs (the log format), '
      + 'linkerd/app/src/env/types.rs parse_duration',
    badExample: 'annotations:\n  config.linkerd.io/skip-inbound-port: "4222"\n  config.beta.linkerd.io/proxy-enable-native-sidecar: "true"',
    goodExample: 'annotations:\n  config.linkerd.io/skip-inbound-ports: "4222"\n  config.linkerd.io/proxy-enable-native-sidecar: "true"',
  },
  check(ctx) {
    const cni = cniEnabledOf(ctx.index, ctx.context).enabled;
    for (const ns of ctx.index.own('', 'Namespace')) {
      checkAnnotations(ctx, ns, annotationsOf(ns.object), 'annotation', cni);
      checkMisplacedKeys(ctx, ns, annotationsOf(ns.object), 'annotation');
    }
    for (const pod of ownPodTemplates(ctx.index)) {
      const where = pod.owner.id.kind === 'Pod' ? 'annotation' : 'pod template annotation';
      checkAnnotations(ctx, pod.owner, pod.annotations, where, cni, pod.injection === Injection.DISABLED);
      checkMisplacedKeys(ctx, pod.owner, pod.annotations, where, pod.injection === Injection.DISABLED);
      checkWaitBeforeExit(ctx, pod, where);
      if (isMeshed(pod)) {
        checkResourcePairs(ctx, pod, where);
        checkCloseWait(ctx, pod, where);
      }
    }
    for (const service of ctx.index.own('', 'Service')) checkServiceAnnotations(ctx, service);
    for (const entry of ctx.index.objects) if (!entry.inventory) checkUnreadKeys(ctx, entry);
  },
};
