/**
 * LKD-MESH-003, values: how Linkerd's components read each proxy-configuration annotation value (linkerd2
 * pkg/inject/inject.go ApplyAnnotationOverrides, the proxy's environment, the CNI plugin), as validators and readers
 * by labels.go name. The rule itself is ../config-annotations.ts.
 */
import { quoted } from './opaque-ports';
import { PULL_POLICIES } from '../../../../core/chart-values';
import { goParsesCidr } from '../../../../core/cidr';
import { LabelsGoName } from '../../../../core/linkerd-annotations.generated';
import { goBool, goParseInt32, parseGoDuration } from '../../../../core/linkerd-grammar';
import { controllerPortSet, proxyInitPortList } from '../../../../core/port-lists';
import { quantityValue } from '../../../../core/quantities';
import { Severity } from '../../../finding';

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
export const VALIDATORS: Partial<Record<LabelsGoName, Validator>> = {
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
export const OTHER_READERS: Partial<Record<LabelsGoName, Reader>> = {
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

export const CNI_READERS: Partial<Record<LabelsGoName, Reader>> = {
  ProxyUIDAnnotation: cniId,
  ProxyGIDAnnotation: cniId,
  ProxyInboundPortAnnotation: cniProxyPort(4143, 'inbound'),
  ProxyOutboundPortAnnotation: cniProxyPort(4140, 'outbound'),
  CloseWaitTimeoutAnnotation: () => ({ text: 'with the CNI plugin no linkerd-init runs and the plugin has no close-wait setting, so it has no effect.' }),
};
