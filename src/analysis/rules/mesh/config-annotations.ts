import { parseCidr } from '../../../core/cidr';
import { Severity } from '../../finding';
import { annotationsOf } from '../../model/manifest';
import { DEFAULT_POLICY_ANNOTATION, INJECT_ANNOTATION, IndexedObject } from '../../model/mesh-index';
import { Rule, RuleContext, RuleArea } from '../../rule';
import { OPAQUE_PORTS, ownPodTemplates, parsePortList } from '../policy-helpers';

/** Returns why a value is wrong, or undefined. */
type Validator = (value: string) => string | undefined;

const oneOf = (...values: string[]): Validator => (v) => (values.includes(v) ? undefined : `must be one of ${values.join(', ')}`);
const text: Validator = (v) => (v.trim() === '' ? 'must not be empty' : undefined);
const bool: Validator = (v) => (/^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.test(v) ? undefined : 'must be true or false');
const uint: Validator = (v) => (/^\d+$/.test(v) ? undefined : 'must be a non-negative integer');
const port: Validator = (v) => (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535 ? undefined : 'must be a port number 1-65535');
const duration: Validator = (v) => (/^(0|(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+)$/.test(v) ? undefined : 'must be a duration such as 100ms, 10s or 1m30s');
const quantity: Validator = (v) => (/^(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/.test(v) ? undefined : 'must be a Kubernetes quantity such as 100m or 64Mi');
const ratio: Validator = (v) => (/^(\d+(\.\d*)?|\.\d+)$/.test(v) ? undefined : 'must be a decimal number such as 0.5');
const pullPolicy = oneOf('Always', 'IfNotPresent', 'Never');
const enabledDisabled = oneOf('enabled', 'disabled');
const portList = (names: boolean): Validator => (v) => {
  const errors = parsePortList(v, names).errors;
  return errors.length > 0 ? `is not a port list (${errors.join('; ')})` : undefined;
};
const cidrList: Validator = (v) => {
  const bad = v.split(',').map((s) => s.trim()).filter((s) => s !== '' && !parseCidr(s));
  return bad.length > 0 ? `has entries that are not CIDRs: ${bad.join(', ')}` : undefined;
};

interface KeySpec {
  readonly validate: Validator;
  /** Set for keys that still parse but should not be used; says what to do instead. */
  readonly deprecated?: string;
  readonly alpha?: boolean;
}

const C = 'config.linkerd.io/';
const NATIVE = `${C}proxy-enable-native-sidecar`;

/** The proxy-configuration annotations of Linkerd 2.20, with value validators. */
export const KNOWN_KEYS: Record<string, KeySpec> = {
  [INJECT_ANNOTATION]: { validate: oneOf('enabled', 'disabled', 'ingress') },
  [`${C}access-log`]: { validate: oneOf('apache', 'json') },
  [`${C}admin-port`]: { validate: port },
  [`${C}close-wait-timeout`]: { validate: duration },
  [`${C}control-port`]: { validate: port },
  [`${C}debug-image`]: { validate: text },
  [`${C}debug-image-pull-policy`]: { validate: pullPolicy },
  [`${C}debug-image-version`]: { validate: text },
  [DEFAULT_POLICY_ANNOTATION]: { validate: () => undefined }, // values: LKD-POL-012
  [`${C}disable-identity`]: { validate: bool, deprecated: 'identity can no longer be disabled; remove it' },
  [`${C}disable-tap`]: { validate: bool },
  [`${C}enable-debug-sidecar`]: { validate: bool },
  [`${C}enable-external-profiles`]: { validate: bool },
  [`${C}image-pull-policy`]: { validate: pullPolicy },
  [`${C}inbound-port`]: { validate: port },
  [`${C}init-image`]: { validate: text, deprecated: 'Linkerd 2.20 ships proxy-init inside the proxy image, so this has no effect; remove it' },
  [`${C}init-image-version`]: { validate: text, deprecated: 'Linkerd 2.20 ships proxy-init inside the proxy image, so this has no effect; remove it' },
  [OPAQUE_PORTS]: { validate: portList(true) },
  [`${C}outbound-port`]: { validate: port },
  [`${C}pod-inbound-ports`]: { validate: portList(false) },
  [`${C}proxy-admin-shutdown`]: { validate: enabledDisabled },
  [`${C}proxy-await`]: { validate: enabledDisabled },
  [`${C}proxy-cpu-limit`]: { validate: quantity },
  [`${C}proxy-cpu-ratio-limit`]: { validate: ratio },
  [`${C}proxy-cpu-request`]: { validate: quantity },
  [`${C}proxy-disable-inbound-protocol-detect-timeout`]: { validate: bool },
  [`${C}proxy-disable-outbound-protocol-detect-timeout`]: { validate: bool },
  [NATIVE]: { validate: bool },
  // pkg/k8s/labels.go ProxyEnableGatewayAnnotation: "config.linkerd.io/enable-gateway" (the multicluster gateway sets it).
  [`${C}enable-gateway`]: { validate: bool },
  [`${C}proxy-ephemeral-storage-limit`]: { validate: quantity },
  [`${C}proxy-ephemeral-storage-request`]: { validate: quantity },
  [`${C}proxy-gid`]: { validate: uint },
  [`${C}proxy-image`]: { validate: text },
  [`${C}proxy-inbound-connect-timeout`]: { validate: duration },
  [`${C}proxy-inbound-discovery-cache-unused-timeout`]: { validate: duration },
  [`${C}proxy-log-format`]: { validate: oneOf('plain', 'json') },
  [`${C}proxy-log-http-headers`]: { validate: oneOf('off', 'insecure') },
  [`${C}proxy-log-level`]: { validate: text },
  [`${C}proxy-memory-limit`]: { validate: quantity },
  [`${C}proxy-memory-request`]: { validate: quantity },
  [`${C}proxy-outbound-connect-timeout`]: { validate: duration },
  [`${C}proxy-outbound-discovery-cache-unused-timeout`]: { validate: duration },
  [`${C}proxy-require-identity-inbound-ports`]: { validate: portList(false) },
  [`${C}proxy-uid`]: { validate: uint },
  [`${C}proxy-version`]: { validate: text },
  [`${C}shutdown-grace-period`]: { validate: duration },
  [`${C}skip-inbound-ports`]: { validate: portList(false) },
  [`${C}skip-outbound-ports`]: { validate: portList(false) },
  [`${C}skip-subnets`]: { validate: cidrList },
  [`${C}trace-collector`]: { validate: text },
  'config.alpha.linkerd.io/proxy-wait-before-exit-seconds': { validate: uint, alpha: true },
  'config.alpha.linkerd.io/trace-collector-service-account': { validate: text, alpha: true },
  'config.alpha.linkerd.io/proxy-enable-native-sidecar': { validate: bool, deprecated: `use ${NATIVE}` },
  'config.beta.linkerd.io/proxy-enable-native-sidecar': { validate: bool, deprecated: `use ${NATIVE}` },
};

/** Keys handled elsewhere: a label, not an annotation (LKD-MESH-002). */
const NOT_HERE = new Set([`${C}admission-webhooks`]);
const PREFIX = /^config(\.alpha|\.beta)?\.linkerd\.io\//;

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length];
}

function suggestion(key: string): string {
  let best: string | undefined;
  let bestDistance = 4;
  for (const known of Object.keys(KNOWN_KEYS)) {
    const d = editDistance(key, known);
    if (d < bestDistance) {
      best = known;
      bestDistance = d;
    }
  }
  return best ? ` Did you mean ${best}?` : '';
}

/** Keys this rule reads; the cheap prefix test spares the regex for the usual app.kubernetes.io/… keys. */
function isConfigKey(key: string): boolean {
  return key.startsWith('config') && PREFIX.test(key);
}

function checkAnnotations(ctx: RuleContext, subject: IndexedObject, annotations: Record<string, string>, where: string): void {
  for (const key of Object.keys(annotations)) {
    if (NOT_HERE.has(key) || (key !== INJECT_ANNOTATION && !isConfigKey(key))) continue;
    const value = annotations[key];
    const spec = KNOWN_KEYS[key];
    if (!spec) {
      ctx.report(subject, `${where} ${key} is not a Linkerd 2.20 proxy annotation; the injector ignores it.${suggestion(key)}`);
      continue;
    }
    if (spec.deprecated) ctx.report(subject, `${where} ${key} is deprecated: ${spec.deprecated}.`);
    if (spec.alpha) ctx.report(subject, `${where} ${key} is an alpha annotation and may change or disappear between releases.`);
    const problem = spec.validate(String(value));
    if (problem) ctx.report(subject, `${where} ${key} is ${JSON.stringify(value)}, which ${problem}; the injector logs and ignores it.`);
  }
}

function checkServiceAnnotations(ctx: RuleContext, service: IndexedObject): void {
  const annotations = annotationsOf(service.object);
  const opaque = annotations[OPAQUE_PORTS];
  if (opaque !== undefined) {
    const problem = portList(false)(String(opaque));
    if (problem) ctx.report(service, `annotation ${OPAQUE_PORTS} is ${JSON.stringify(opaque)}, which ${problem}; on a Service it lists Service port numbers.`);
  }
  let others: string[] | undefined;
  for (const k of Object.keys(annotations)) if (isConfigKey(k) && k !== OPAQUE_PORTS && !NOT_HERE.has(k)) (others ??= []).push(k);
  if (others) {
    ctx.report(service, `annotation(s) ${others.join(', ')} have no effect on a Service; only ${OPAQUE_PORTS} is read there. `
      + 'Put proxy settings on the pod template.');
  }
}

/** Proxy annotations: known keys, not deprecated or alpha, values that parse. */
export const configAnnotationsRule: Rule = {
  id: 'LKD-MESH-003',
  area: RuleArea.MESH,
  severity: Severity.WARNING,
  doc: {
    title: 'config.linkerd.io annotations are known keys with valid values',
    why: 'The injector ignores unknown config.linkerd.io keys and only logs values it cannot parse, so a typo (skip-inbound-port) '
      + 'or a bad value (opaque-ports: "mysql:3306") silently leaves the proxy with defaults. Alpha and beta keys are unstable, '
      + 'and some keys are deprecated in 2.20 (the native-sidecar alpha/beta forms; init-image, since proxy-init now ships in the proxy image).',
    fix: 'Use the documented config.linkerd.io keys with values in the documented format (ports: "25,3306,4000-4100").',
    badExample: 'annotations:\n  config.linkerd.io/skip-inbound-port: "4222"\n  config.beta.linkerd.io/proxy-enable-native-sidecar: "true"',
    goodExample: 'annotations:\n  config.linkerd.io/skip-inbound-ports: "4222"\n  config.linkerd.io/proxy-enable-native-sidecar: "true"',
  },
  check(ctx) {
    for (const ns of ctx.index.own('', 'Namespace')) checkAnnotations(ctx, ns, annotationsOf(ns.object), 'annotation');
    for (const pod of ownPodTemplates(ctx.index)) {
      checkAnnotations(ctx, pod.owner, pod.annotations, pod.owner.id.kind === 'Pod' ? 'annotation' : 'pod template annotation');
    }
    for (const service of ctx.index.own('', 'Service')) checkServiceAnnotations(ctx, service);
  },
};
