/**
 * LKD-MESH-003: proxy-configuration annotations Linkerd reads differently from what their author meant. The rule and
 * its loop over pods, Namespaces and Services; its parts are in config-annotations/: values.ts (how each value is
 * read), keys.ts (which keys are read, and where), opaque-ports.ts and pod-resources.ts.
 */
import { checkMisplacedKeys, checkUnreadKeys, keyProblem } from './config-annotations/keys';
import { OPAQUE_PORTS, opaquePortsProblem, POD_SITE, SERVICE_SITE } from './config-annotations/opaque-ports';
import { checkCloseWait, checkResourcePairs, checkWaitBeforeExit } from './config-annotations/pod-resources';
import { CNI_READERS, OTHER_READERS, VALIDATORS } from './config-annotations/values';
import { LABELS_GO } from '../../../core/linkerd-annotations.generated';
import { isProxyConfigKey, KeySite, proxyKeyStatus } from '../../../core/proxy-annotations';
import { ADMISSION_WEBHOOKS_LABEL } from '../../../core/vocabulary';
import { hasOwnKeys, isRecord } from '../../../util/json';
import { Severity } from '../../finding';
import { isMeshed } from '../../model/injector/injection';
import { MetadataMap, annotationsOf, textOf } from '../../model/manifest';
import { IndexedObject, Injection } from '../../model/mesh-index';
import { ownPodTemplates } from '../../model/pod-templates';
import { cniEnabledOf } from '../../model/proxy-settings';
import { Rule, RuleArea, RuleContext } from '../../rule';

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
  ctx: RuleContext, subject: IndexedObject, annotations: MetadataMap, where: string, cni: boolean, uninjected = false,
): void {
  const namespace = subject.id.kind === 'Namespace';
  for (const key of Object.keys(annotations)) {
    if (key === ADMISSION_WEBHOOKS_LABEL || !isProxyConfigKey(key)) continue;
    const problem = keyProblem(key, namespace);
    if (problem) ctx.report(subject, `${where} ${problem}`, { severity: keySeverity(key, uninjected) });
    const status = proxyKeyStatus(key);
    // A value that is not text never reaches the injector: the API server refuses the object (LKD-SCHEMA-002).
    const value = textOf(annotations, key);
    if (status.kind !== 'read' || value === undefined) continue;
    if (key === OPAQUE_PORTS) {
      const misread = opaquePortsProblem(value, POD_SITE);
      if (misread) ctx.report(subject, `${where} ${key} is ${JSON.stringify(value)}: ${misread}`, { severity: Severity.WARNING });
      continue;
    }
    const reader = OTHER_READERS[status.entry.goName];
    const cniReader = cni ? CNI_READERS[status.entry.goName] : undefined;
    if (reader || cniReader) {
      const misread = cniReader?.(value) ?? reader?.(value);
      if (!misread) continue;
      // An invalid linkerd.io/inject is why the pod is uninjected: never idle.
      const idle = uninjected && misread.severity === Severity.ERROR && key !== LABELS_GO.ProxyInjectAnnotation;
      ctx.report(subject, `${where} ${key} is ${JSON.stringify(value)}: ${misread.text}${idle ? ' (This pod is not injected, so nothing reads it now.)' : ''}`,
        { severity: misread.severity && !idle ? misread.severity : Severity.WARNING });
      continue;
    }
    const invalid = VALIDATORS[status.entry.goName]?.(value);
    if (invalid) {
      ctx.report(subject, `${where} ${key} is ${JSON.stringify(value)}, which ${invalid}; the injector logs and ignores it.`,
        { severity: uninjected ? Severity.WARNING : Severity.ERROR });
    }
  }
}

function readOnService(key: string): boolean {
  const status = proxyKeyStatus(key);
  return status.kind === 'read' && status.entry.sites.includes(KeySite.SERVICE);
}

function checkServiceAnnotations(ctx: RuleContext, service: IndexedObject): void {
  const annotations = annotationsOf(service.object);
  const opaque = textOf(annotations, OPAQUE_PORTS);
  if (opaque !== undefined) {
    const problem = opaquePortsProblem(opaque, SERVICE_SITE);
    if (problem) ctx.report(service, `annotation ${OPAQUE_PORTS} is ${JSON.stringify(opaque)}: ${problem}`, { severity: Severity.WARNING });
  }
  let others: string[] | undefined;
  for (const k of Object.keys(annotations)) if (k.startsWith('config') && isProxyConfigKey(k) && !readOnService(k) && k !== ADMISSION_WEBHOOKS_LABEL) (others ??= []).push(k);
  if (others) {
    ctx.report(service, `annotation(s) ${others.join(', ')} have no effect on a Service; only ${OPAQUE_PORTS} is read there. `
      + 'Put proxy settings on the pod template.', { severity: Severity.ERROR });
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
      // Many pod templates have no annotations: their key checks would list an empty map twice.
      if (hasOwnKeys(pod.annotations)) {
        checkAnnotations(ctx, pod.owner, pod.annotations, where, cni, pod.injection === Injection.DISABLED);
        checkMisplacedKeys(ctx, pod.owner, pod.annotations, where, pod.injection === Injection.DISABLED);
      }
      checkWaitBeforeExit(ctx, pod, where);
      if (isMeshed(pod)) {
        checkResourcePairs(ctx, pod, where);
        checkCloseWait(ctx, pod, where);
      }
    }
    // Most Services and objects have no annotations at all: ruled out before an empty map is made and listed for each.
    for (const service of ctx.index.own('', 'Service')) if (isRecord(service.object.metadata?.annotations)) checkServiceAnnotations(ctx, service);
    for (const entry of ctx.index.objects) if (!entry.inventory && isRecord(entry.object.metadata?.annotations)) checkUnreadKeys(ctx, entry);
  },
};
