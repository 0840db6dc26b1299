/**
 * Hand-written structural schemas for the core Kubernetes kinds this library emits.
 *
 * Why hand-written rather than derived from cdk8s-plus-28's generated L1 `toJson_*` functions:
 * those functions only rename keys and drop undefined values; they carry no ranges, enums,
 * name formats or cross-field rules, and their TypeScript "required" markers follow the Go
 * struct tags, not what the API server enforces (e.g. `Container.image` is optional there but
 * required for workloads). The field NAMES below were cross-checked against those generated
 * types (Kubernetes 1.28), so a field the generated types know is never reported as unknown
 * inside the parts modelled in detail. Rarely used sub-structures (affinity, exotic volume
 * sources, DNS config, …) are accepted as open objects rather than guessed at.
 *
 * The schemas use exactly the dialect the CRD validator understands, including
 * `x-kubernetes-validations`, which is how the API server's hand-coded semantic checks
 * (selector must match template labels, probe needs exactly one handler, …) are expressed.
 * A few `format` names (`k8s-dns1123-label`, `k8s-iana-svc-name`, …) exist only for these
 * schemas; see formats.ts.
 */
import {
  bool, int, intOrPercent, labels, labelSelector, list, localObjectReference, mapList, named, nonNegative, obj, oneOfStrings, open, portNumber,
  portRef, positive, protocol, str, strings,
} from './core-schemas/blocks';
import { podSpec, podTemplateSpec, SELECTOR_MATCHES_TEMPLATE } from './core-schemas/pods';
import { isDns1035Label, isDns1123Label, isDns1123Subdomain, NameCheck } from './formats';
import { JsonSchema, ValidationRule } from './schema';

export interface CoreKind {
  readonly schema: JsonSchema;
  /** The rule `metadata.name` must satisfy for this kind. */
  readonly nameCheck: NameCheck;
  readonly namespaced: boolean;
}

// ---- kinds ----------------------------------------------------------------------------------

const deploymentSpec = obj({
  replicas: nonNegative,
  selector: labelSelector,
  template: podTemplateSpec,
  strategy: obj({
    type: oneOfStrings('Recreate', 'RollingUpdate'),
    rollingUpdate: obj({ maxSurge: intOrPercent, maxUnavailable: intOrPercent }),
  }, [], [{ rule: "!(has(self.type) && self.type == 'Recreate' && has(self.rollingUpdate))", message: 'rollingUpdate may not be set when strategy type is Recreate', reason: 'FieldValueForbidden' }]),
  minReadySeconds: nonNegative,
  revisionHistoryLimit: nonNegative,
  progressDeadlineSeconds: positive,
  paused: bool,
}, ['selector', 'template'], [
  SELECTOR_MATCHES_TEMPLATE,
  {
    rule: '!has(self.selector) || (has(self.selector.matchLabels) && size(self.selector.matchLabels) > 0) || (has(self.selector.matchExpressions) && size(self.selector.matchExpressions) > 0)',
    message: 'empty selector is invalid for deployment',
    fieldPath: '.selector',
  },
  {
    rule: "!has(self.template) || !has(self.template.spec) || !has(self.template.spec.restartPolicy) || self.template.spec.restartPolicy == 'Always'",
    message: 'Unsupported value: only "Always" is supported',
    fieldPath: '.template.spec.restartPolicy',
  },
]);

const jobSpec = obj({
  template: podTemplateSpec,
  parallelism: nonNegative,
  completions: nonNegative,
  activeDeadlineSeconds: positive,
  backoffLimit: nonNegative,
  backoffLimitPerIndex: nonNegative,
  maxFailedIndexes: nonNegative,
  completionMode: oneOfStrings('NonIndexed', 'Indexed'),
  suspend: bool,
  selector: labelSelector,
  manualSelector: bool,
  ttlSecondsAfterFinished: nonNegative,
  podFailurePolicy: open,
  podReplacementPolicy: oneOfStrings('TerminatingOrFailed', 'Failed'),
}, ['template'], [{
  rule: "!has(self.template) || !has(self.template.spec) || (has(self.template.spec.restartPolicy) && self.template.spec.restartPolicy in ['OnFailure', 'Never'])",
  message: 'Required value: restartPolicy must be OnFailure or Never for a Job',
  fieldPath: '.template.spec.restartPolicy',
}]);

const servicePort = obj({
  name: named('k8s-dns1123-label'),
  protocol,
  port: portNumber,
  targetPort: portRef,
  nodePort: portNumber,
  appProtocol: str,
}, ['port']);

const serviceSpec: JsonSchema = obj({
  type: { type: 'string', enum: ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'], default: 'ClusterIP' },
  ports: {
    ...mapList(servicePort, 'port', 'protocol'),
    'x-kubernetes-validations': [
      { rule: 'size(self) <= 1 || self.all(p, has(p.name) && size(p.name) > 0)', message: 'Required value: port names are required when a Service has more than one port' },
      { rule: 'self.all(p, !has(p.name) || self.filter(q, has(q.name) && q.name == p.name).size() == 1)', message: 'Duplicate value: port names must be unique', reason: 'FieldValueDuplicate' },
    ],
  },
  selector: labels,
  clusterIP: str,
  clusterIPs: strings,
  externalIPs: strings,
  externalName: str,
  externalTrafficPolicy: oneOfStrings('Cluster', 'Local'),
  internalTrafficPolicy: oneOfStrings('Cluster', 'Local'),
  ipFamilies: list(oneOfStrings('IPv4', 'IPv6'), { maxItems: 2 }),
  ipFamilyPolicy: oneOfStrings('SingleStack', 'PreferDualStack', 'RequireDualStack'),
  sessionAffinity: oneOfStrings('ClientIP', 'None'),
  sessionAffinityConfig: obj({ clientIP: obj({ timeoutSeconds: { type: 'integer', minimum: 1, maximum: 86400 } }) }),
  loadBalancerIP: str,
  loadBalancerSourceRanges: strings,
  loadBalancerClass: str,
  allocateLoadBalancerNodePorts: bool,
  healthCheckNodePort: int,
  publishNotReadyAddresses: bool,
}, [], [
  {
    rule: "self.type == 'ExternalName' || (has(self.clusterIP) && self.clusterIP == 'None') || (has(self.ports) && size(self.ports) > 0)",
    message: 'Required value: a Service needs at least one port unless it is headless or ExternalName',
    fieldPath: '.ports',
  },
  { rule: "self.type != 'ExternalName' || has(self.externalName)", message: 'Required value: externalName is required for type ExternalName', fieldPath: '.externalName' },
]);

const networkPolicyPort = obj({ protocol, port: portRef, endPort: portNumber }, [], [{
  rule: '!has(self.endPort) || (has(self.port) && type(self.port) == int && self.endPort >= self.port)',
  message: 'endPort requires a numeric port and must be >= port',
  fieldPath: '.endPort',
}]);

const networkPolicyPeer = obj({
  podSelector: labelSelector,
  namespaceSelector: labelSelector,
  ipBlock: obj({ cidr: str, except: strings }, ['cidr']),
}, [], [{
  rule: 'has(self.ipBlock) ? !has(self.podSelector) && !has(self.namespaceSelector) : has(self.podSelector) || has(self.namespaceSelector)',
  message: 'must specify either ipBlock or a pod/namespace selector, not both',
}]);

const networkPolicySpec = obj({
  podSelector: labelSelector,
  policyTypes: list(oneOfStrings('Ingress', 'Egress'), { maxItems: 2 }),
  ingress: list(obj({ from: list(networkPolicyPeer), ports: list(networkPolicyPort) })),
  egress: list(obj({ to: list(networkPolicyPeer), ports: list(networkPolicyPort) })),
}, ['podSelector']);

const podDisruptionBudgetSpec = obj({
  minAvailable: intOrPercent,
  maxUnavailable: intOrPercent,
  selector: labelSelector,
  unhealthyPodEvictionPolicy: oneOfStrings('IfHealthyBudget', 'AlwaysAllow'),
}, [], [{ rule: '!(has(self.minAvailable) && has(self.maxUnavailable))', message: 'minAvailable and maxUnavailable cannot be both set' }]);

const objectReference = obj({ apiVersion: str, fieldPath: str, kind: str, name: str, namespace: str, resourceVersion: str, uid: str });

/** Keys of ConfigMap/Secret data: ≤253 chars of [-._a-zA-Z0-9]. */
const dataKeys: ValidationRule = { rule: "self.all(k, size(k) <= 253 && k.matches('^[-._a-zA-Z0-9]+$'))", message: "keys must consist of alphanumeric characters, '-', '_' or '.' (at most 253)" };

const stringData: JsonSchema = { 'type': 'object', 'additionalProperties': str, 'x-kubernetes-validations': [dataKeys] };

const byteData: JsonSchema = { 'type': 'object', 'additionalProperties': { type: 'string', format: 'byte' }, 'x-kubernetes-validations': [dataKeys] };

const policyRule = obj({ apiGroups: strings, resources: strings, resourceNames: strings, verbs: { ...strings, minItems: 1 }, nonResourceURLs: strings }, ['verbs']);

const roleRef = obj({ apiGroup: str, kind: oneOfStrings('Role', 'ClusterRole'), name: str }, ['apiGroup', 'kind', 'name']);

const subject = obj({ kind: oneOfStrings('User', 'Group', 'ServiceAccount'), name: str, namespace: str, apiGroup: str }, ['kind', 'name']);

/** Path-segment names (RBAC objects): anything except ".", "..", or text containing "/" or "%". */
const isPathSegmentName: NameCheck = value => {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  return /[/%]/.test(value) ? ["may not contain '/' or '%'"] : [];
};

const rootObject = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => obj(properties, required);

/** Kinds keyed by `apiVersion/kind`. */
export const CORE_KINDS: Readonly<Record<string, CoreKind>> = {
  'apps/v1/Deployment': { schema: rootObject({ spec: deploymentSpec }, ['spec']), nameCheck: isDns1123Subdomain, namespaced: true },
  'batch/v1/Job': { schema: rootObject({ spec: jobSpec }, ['spec']), nameCheck: isDns1123Subdomain, namespaced: true },
  'v1/Pod': { schema: rootObject({ spec: podSpec }, ['spec']), nameCheck: isDns1123Subdomain, namespaced: true },
  'v1/Service': { schema: rootObject({ spec: serviceSpec }), nameCheck: isDns1035Label, namespaced: true },
  'v1/ServiceAccount': {
    schema: rootObject({ automountServiceAccountToken: bool, imagePullSecrets: list(localObjectReference), secrets: list(objectReference) }),
    nameCheck: isDns1123Subdomain,
    namespaced: true,
  },
  'v1/Namespace': { schema: rootObject({ spec: obj({ finalizers: strings }) }), nameCheck: isDns1123Label, namespaced: false },
  'v1/ConfigMap': { schema: rootObject({ data: stringData, binaryData: byteData, immutable: bool }), nameCheck: isDns1123Subdomain, namespaced: true },
  'v1/Secret': { schema: rootObject({ data: byteData, stringData, type: str, immutable: bool }), nameCheck: isDns1123Subdomain, namespaced: true },
  'policy/v1/PodDisruptionBudget': { schema: rootObject({ spec: podDisruptionBudgetSpec }), nameCheck: isDns1123Subdomain, namespaced: true },
  'networking.k8s.io/v1/NetworkPolicy': { schema: rootObject({ spec: networkPolicySpec }), nameCheck: isDns1123Subdomain, namespaced: true },
  'rbac.authorization.k8s.io/v1/Role': { schema: rootObject({ rules: list(policyRule) }), nameCheck: isPathSegmentName, namespaced: true },
  'rbac.authorization.k8s.io/v1/ClusterRole': { schema: rootObject({ rules: list(policyRule), aggregationRule: open }), nameCheck: isPathSegmentName, namespaced: false },
  'rbac.authorization.k8s.io/v1/RoleBinding': { schema: rootObject({ roleRef, subjects: list(subject) }, ['roleRef']), nameCheck: isPathSegmentName, namespaced: true },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { schema: rootObject({ roleRef, subjects: list(subject) }, ['roleRef']), nameCheck: isPathSegmentName, namespaced: false },
};
