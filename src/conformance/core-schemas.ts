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
import { NameCheck, isDns1035Label, isDns1123Label, isDns1123Subdomain } from './formats';
import { OBJECT_META_SCHEMA } from './object-meta';
import { JsonSchema, ValidationRule } from './schema';

export interface CoreKind {
  readonly schema: JsonSchema;
  /** The rule `metadata.name` must satisfy for this kind. */
  readonly nameCheck: NameCheck;
  readonly namespaced: boolean;
}

// ---- building blocks ------------------------------------------------------------------------

const str: JsonSchema = { type: 'string' };
const bool: JsonSchema = { type: 'boolean' };
const int: JsonSchema = { type: 'integer' };
const nonNegative: JsonSchema = { type: 'integer', minimum: 0 };
const positive: JsonSchema = { type: 'integer', minimum: 1 };
const strings: JsonSchema = { type: 'array', items: str };
/** A part of the API accepted without further checks (not modelled here). */
const open: JsonSchema = { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true };

const named = (format: string): JsonSchema => ({ type: 'string', format });
const oneOfStrings = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
const list = (items: JsonSchema, extra: Partial<JsonSchema> = {}): JsonSchema => ({ type: 'array', items, ...extra });
const mapList = (items: JsonSchema, ...keys: string[]): JsonSchema => ({
  'type': 'array', items, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys,
});
const obj = (
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  rules: ValidationRule[] = [],
): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  ...(rules.length > 0 ? { 'x-kubernetes-validations': rules } : {}),
});

/** Resource quantities ("500m", "1Gi", 2): a number or a quantity string. */
const QUANTITY_PATTERN = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
const quantity: JsonSchema = { anyOf: [{ type: 'number' }, { type: 'string', pattern: QUANTITY_PATTERN }] };
const quantityMap: JsonSchema = { type: 'object', additionalProperties: quantity };

const portNumber: JsonSchema = { type: 'integer', minimum: 1, maximum: 65535 };
/** A port given by number (1-65535) or by container port name (IANA_SVC_NAME, ≤15 chars). */
const portRef: JsonSchema = { 'x-kubernetes-int-or-string': true, 'minimum': 1, 'maximum': 65535, 'format': 'k8s-iana-svc-name' };
const protocol: JsonSchema = { type: 'string', enum: ['TCP', 'UDP', 'SCTP'], default: 'TCP' };
/** Integer or percentage ("25%"), as used by rollout and disruption budgets. */
const intOrPercent: JsonSchema = { 'x-kubernetes-int-or-string': true, 'minimum': 0, 'pattern': '^[0-9]+%$' };

const QUALIFIED_NAME_RE = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$';
/** Label maps outside the object's own metadata (selectors, templates): keys and values are checked. */
const labels: JsonSchema = {
  'type': 'object',
  'additionalProperties': named('k8s-label-value'),
  'x-kubernetes-validations': [{ rule: `self.all(k, k.matches('${QUALIFIED_NAME_RE}'))`, message: 'label keys must be qualified names ([prefix/]name)' }],
};

const labelSelector = obj({
  matchLabels: labels,
  matchExpressions: list(obj({
    key: named('k8s-qualified-name'),
    operator: oneOfStrings('In', 'NotIn', 'Exists', 'DoesNotExist'),
    values: strings,
  }, ['key', 'operator'], [{
    rule: "self.operator in ['In', 'NotIn'] ? has(self.values) && size(self.values) > 0 : !has(self.values) || size(self.values) == 0",
    message: 'values must be non-empty for In/NotIn and empty for Exists/DoesNotExist',
    fieldPath: '.values',
  }])),
});

const localObjectReference = obj({ name: str });
const keySelector = obj({ key: str, name: str, optional: bool }, ['key']);

// ---- containers -----------------------------------------------------------------------------

const execAction = obj({ command: strings });
const httpGetAction = obj({
  path: str,
  port: portRef,
  host: str,
  scheme: oneOfStrings('HTTP', 'HTTPS'),
  httpHeaders: list(obj({ name: str, value: str }, ['name', 'value'])),
}, ['port']);
const tcpSocketAction = obj({ port: portRef, host: str }, ['port']);
const grpcAction = obj({ port: portNumber, service: str }, ['port']);

const probe = obj({
  exec: execAction,
  httpGet: httpGetAction,
  tcpSocket: tcpSocketAction,
  grpc: grpcAction,
  initialDelaySeconds: nonNegative,
  timeoutSeconds: positive,
  periodSeconds: positive,
  successThreshold: positive,
  failureThreshold: positive,
  terminationGracePeriodSeconds: positive,
}, [], [{
  rule: '[has(self.exec), has(self.httpGet), has(self.tcpSocket), has(self.grpc)].filter(x, x).size() == 1',
  message: 'must specify exactly one handler type (exec, httpGet, tcpSocket or grpc)',
}]);

const lifecycleHandler = obj({ exec: execAction, httpGet: httpGetAction, tcpSocket: tcpSocketAction, sleep: obj({ seconds: nonNegative }, ['seconds']) });

const seLinuxOptions = obj({ level: str, role: str, type: str, user: str });
const seccompProfile = obj({
  type: oneOfStrings('RuntimeDefault', 'Unconfined', 'Localhost'),
  localhostProfile: str,
}, ['type'], [{
  rule: "self.type == 'Localhost' ? has(self.localhostProfile) : !has(self.localhostProfile)",
  message: 'localhostProfile must be set if and only if type is Localhost',
}]);
const windowsOptions = obj({ gmsaCredentialSpec: str, gmsaCredentialSpecName: str, hostProcess: bool, runAsUserName: str });

const securityContext = obj({
  allowPrivilegeEscalation: bool,
  capabilities: obj({ add: strings, drop: strings }),
  privileged: bool,
  procMount: oneOfStrings('Default', 'Unmasked'),
  readOnlyRootFilesystem: bool,
  runAsGroup: nonNegative,
  runAsNonRoot: bool,
  runAsUser: nonNegative,
  seLinuxOptions,
  seccompProfile,
  windowsOptions,
}, [], [{
  rule: '!(has(self.privileged) && self.privileged && has(self.allowPrivilegeEscalation) && !self.allowPrivilegeEscalation)',
  message: 'cannot set allowPrivilegeEscalation to false and privileged to true',
}]);

const containerPort = obj({
  containerPort: portNumber,
  hostPort: portNumber,
  hostIP: str,
  name: named('k8s-iana-svc-name'),
  protocol,
}, ['containerPort']);

const envVar = obj({
  name: { type: 'string', pattern: '^[-._a-zA-Z][-._a-zA-Z0-9]*$' },
  value: str,
  valueFrom: obj({
    configMapKeyRef: keySelector,
    secretKeyRef: keySelector,
    fieldRef: obj({ apiVersion: str, fieldPath: str }, ['fieldPath']),
    resourceFieldRef: obj({ containerName: str, divisor: quantity, resource: str }, ['resource']),
  }),
}, ['name'], [{ rule: '!(has(self.value) && size(self.value) > 0 && has(self.valueFrom))', message: 'may not have both value and valueFrom' }]);

const containerFields: Record<string, JsonSchema> = {
  name: named('k8s-dns1123-label'),
  image: { type: 'string', minLength: 1 },
  imagePullPolicy: oneOfStrings('Always', 'Never', 'IfNotPresent'),
  command: strings,
  args: strings,
  workingDir: str,
  ports: {
    ...mapList(containerPort, 'containerPort', 'protocol'),
    'x-kubernetes-validations': [{
      rule: 'self.all(p, !has(p.name) || self.filter(q, has(q.name) && q.name == p.name).size() == 1)',
      message: 'port names must be unique within a container',
    }],
  },
  env: list(envVar),
  envFrom: list(obj({ configMapRef: obj({ name: str, optional: bool }), secretRef: obj({ name: str, optional: bool }), prefix: str })),
  resources: obj({ limits: quantityMap, requests: quantityMap, claims: list(obj({ name: str }, ['name'])) }),
  resizePolicy: list(obj({ resourceName: str, restartPolicy: oneOfStrings('NotRequired', 'RestartContainer') }, ['resourceName', 'restartPolicy'])),
  volumeMounts: list(obj({
    name: str,
    mountPath: { type: 'string', minLength: 1 },
    readOnly: bool,
    subPath: str,
    subPathExpr: str,
    mountPropagation: oneOfStrings('None', 'HostToContainer', 'Bidirectional'),
  }, ['name', 'mountPath'])),
  volumeDevices: list(obj({ name: str, devicePath: str }, ['name', 'devicePath'])),
  livenessProbe: probe,
  readinessProbe: probe,
  startupProbe: probe,
  lifecycle: obj({ postStart: lifecycleHandler, preStop: lifecycleHandler }),
  terminationMessagePath: str,
  terminationMessagePolicy: oneOfStrings('File', 'FallbackToLogsOnError'),
  securityContext,
  stdin: bool,
  stdinOnce: bool,
  tty: bool,
  // Only init containers may set it (to Always, making them sidecars); see the PodSpec rules.
  restartPolicy: oneOfStrings('Always'),
};

const container = obj(containerFields, ['name', 'image']);
const initContainer = obj(containerFields, ['name', 'image'], [{
  rule: "(has(self.restartPolicy) && self.restartPolicy == 'Always') || !(has(self.livenessProbe) || has(self.readinessProbe) || has(self.startupProbe) || has(self.lifecycle))",
  message: 'probes and lifecycle may only be set on init containers with restartPolicy: Always (sidecars)',
}]);

// ---- pods -----------------------------------------------------------------------------------

const keyToPath = list(obj({ key: str, path: str, mode: int }, ['key', 'path']));
const volume = obj({
  name: named('k8s-dns1123-label'),
  configMap: obj({ name: str, items: keyToPath, defaultMode: int, optional: bool }),
  secret: obj({ secretName: str, items: keyToPath, defaultMode: int, optional: bool }),
  emptyDir: obj({ medium: str, sizeLimit: quantity }),
  persistentVolumeClaim: obj({ claimName: str, readOnly: bool }, ['claimName']),
  hostPath: obj({ path: str, type: str }, ['path']),
  projected: obj({ sources: list(open), defaultMode: int }),
  downwardAPI: obj({ items: list(open), defaultMode: int }),
  csi: obj({ driver: str, fsType: str, readOnly: bool, volumeAttributes: { type: 'object', additionalProperties: str }, nodePublishSecretRef: localObjectReference }, ['driver']),
  ephemeral: open,
  // Legacy in-tree volume sources: accepted, not modelled.
  awsElasticBlockStore: open,
  azureDisk: open,
  azureFile: open,
  cephfs: open,
  cinder: open,
  fc: open,
  flexVolume: open,
  flocker: open,
  gcePersistentDisk: open,
  gitRepo: open,
  glusterfs: open,
  iscsi: open,
  nfs: open,
  photonPersistentDisk: open,
  portworxVolume: open,
  quobyte: open,
  rbd: open,
  scaleIO: open,
  storageos: open,
  vsphereVolume: open,
}, ['name']);

const podSecurityContext = obj({
  fsGroup: nonNegative,
  fsGroupChangePolicy: oneOfStrings('OnRootMismatch', 'Always'),
  runAsGroup: nonNegative,
  runAsNonRoot: bool,
  runAsUser: nonNegative,
  seLinuxOptions,
  seccompProfile,
  supplementalGroups: list(nonNegative),
  sysctls: list(obj({ name: str, value: str }, ['name', 'value'])),
  windowsOptions,
});

const toleration = obj({
  key: str,
  operator: oneOfStrings('Exists', 'Equal'),
  value: str,
  effect: oneOfStrings('NoSchedule', 'PreferNoSchedule', 'NoExecute'),
  tolerationSeconds: int,
});

const VOLUME_MOUNTS_RESOLVE = (containers: string) =>
  `!has(self.${containers}) || self.${containers}.all(c, !has(c.volumeMounts) || c.volumeMounts.all(m, has(self.volumes) && self.volumes.exists(v, v.name == m.name)))`;

const podSpec = obj({
  containers: { ...mapList(container, 'name'), minItems: 1 },
  initContainers: mapList(initContainer, 'name'),
  // The API server refuses ephemeral containers in create requests and pod templates.
  ephemeralContainers: { type: 'array', items: open, maxItems: 0 },
  volumes: mapList(volume, 'name'),
  serviceAccountName: named('k8s-dns1123-subdomain'),
  serviceAccount: str,
  automountServiceAccountToken: bool,
  securityContext: podSecurityContext,
  imagePullSecrets: list(localObjectReference),
  nodeSelector: { type: 'object', additionalProperties: str },
  nodeName: str,
  affinity: open,
  tolerations: list(toleration),
  topologySpreadConstraints: list(obj({
    maxSkew: positive,
    topologyKey: str,
    whenUnsatisfiable: oneOfStrings('DoNotSchedule', 'ScheduleAnyway'),
    labelSelector,
    matchLabelKeys: strings,
    minDomains: positive,
    nodeAffinityPolicy: oneOfStrings('Honor', 'Ignore'),
    nodeTaintsPolicy: oneOfStrings('Honor', 'Ignore'),
  }, ['maxSkew', 'topologyKey', 'whenUnsatisfiable'])),
  restartPolicy: oneOfStrings('Always', 'OnFailure', 'Never'),
  terminationGracePeriodSeconds: nonNegative,
  activeDeadlineSeconds: positive,
  dnsPolicy: oneOfStrings('ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'),
  dnsConfig: open,
  hostNetwork: bool,
  hostPID: bool,
  hostIPC: bool,
  hostUsers: bool,
  shareProcessNamespace: bool,
  hostname: named('k8s-dns1123-label'),
  subdomain: named('k8s-dns1123-label'),
  setHostnameAsFQDN: bool,
  hostAliases: list(obj({ ip: str, hostnames: strings }, ['ip'])),
  priorityClassName: str,
  priority: int,
  preemptionPolicy: oneOfStrings('PreemptLowerPriority', 'Never'),
  runtimeClassName: str,
  schedulerName: str,
  readinessGates: list(obj({ conditionType: str }, ['conditionType'])),
  enableServiceLinks: bool,
  os: obj({ name: oneOfStrings('linux', 'windows') }, ['name']),
  overhead: quantityMap,
  resourceClaims: list(open),
  schedulingGates: list(obj({ name: str }, ['name'])),
}, ['containers'], [
  {
    rule: '!has(self.initContainers) || !has(self.containers) || self.initContainers.all(i, !self.containers.exists(c, c.name == i.name))',
    message: 'container names must be unique across containers and initContainers',
    fieldPath: '.initContainers',
    reason: 'FieldValueDuplicate',
  },
  { rule: '!has(self.containers) || self.containers.all(c, !has(c.restartPolicy))', message: 'restartPolicy may only be set on init containers', fieldPath: '.containers', reason: 'FieldValueForbidden' },
  { rule: VOLUME_MOUNTS_RESOLVE('containers'), message: 'every volumeMounts[].name must match a volume', fieldPath: '.containers' },
  { rule: VOLUME_MOUNTS_RESOLVE('initContainers'), message: 'every volumeMounts[].name must match a volume', fieldPath: '.initContainers' },
]);

/** Pod-template metadata: like ObjectMeta, but no name is needed and labels are checked here. */
const templateMetadata: JsonSchema = {
  ...OBJECT_META_SCHEMA,
  properties: { ...OBJECT_META_SCHEMA.properties, labels },
};
const podTemplateSpec = obj({ metadata: templateMetadata, spec: podSpec }, ['spec']);

/** The Deployment/Job rule that the selector must select the template's own labels. */
const SELECTOR_MATCHES_TEMPLATE: ValidationRule = {
  rule: '!has(self.selector) || !has(self.selector.matchLabels) || !has(self.template) || self.selector.matchLabels.all(k, has(self.template.metadata) && has(self.template.metadata.labels) && k in self.template.metadata.labels && self.template.metadata.labels[k] == self.selector.matchLabels[k])',
  message: '`selector` does not match template `labels`',
  fieldPath: '.template.metadata.labels',
};

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
