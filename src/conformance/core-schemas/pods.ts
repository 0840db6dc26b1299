/** The pod part of the core kinds' structural schemas (core-schemas.ts): volumes, pod spec, pod templates. */
import {
  bool, int, labels, labelSelector, list, localObjectReference, mapList, named, nonNegative, obj, oneOfStrings, open, positive, quantity,
  quantityMap, str, strings,
} from './blocks';
import { container, initContainer, seccompProfile, seLinuxOptions, windowsOptions } from './containers';
import { OBJECT_META_SCHEMA } from '../object-meta';
import { JsonSchema, ValidationRule } from '../schema';

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

export const podSpec = obj({
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

export const podTemplateSpec = obj({ metadata: templateMetadata, spec: podSpec }, ['spec']);

/** The Deployment/Job rule that the selector must select the template's own labels. */
export const SELECTOR_MATCHES_TEMPLATE: ValidationRule = {
  rule: '!has(self.selector) || !has(self.selector.matchLabels) || !has(self.template) || self.selector.matchLabels.all(k, has(self.template.metadata) && has(self.template.metadata.labels) && k in self.template.metadata.labels && self.template.metadata.labels[k] == self.selector.matchLabels[k])',
  message: '`selector` does not match template `labels`',
  fieldPath: '.template.metadata.labels',
};
