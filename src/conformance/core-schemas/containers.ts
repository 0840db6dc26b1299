/** The container part of the core kinds' structural schemas (core-schemas.ts): probes, security contexts, ports, env. */
import {
  bool, keySelector, list, mapList, named, nonNegative, obj, oneOfStrings, portNumber, portRef, positive, protocol, quantity, quantityMap, str,
  strings,
} from './blocks';
import { JsonSchema } from '../schema';

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

export const seLinuxOptions = obj({ level: str, role: str, type: str, user: str });

export const seccompProfile = obj({
  type: oneOfStrings('RuntimeDefault', 'Unconfined', 'Localhost'),
  localhostProfile: str,
}, ['type'], [{
  rule: "self.type == 'Localhost' ? has(self.localhostProfile) : !has(self.localhostProfile)",
  message: 'localhostProfile must be set if and only if type is Localhost',
}]);

export const windowsOptions = obj({ gmsaCredentialSpec: str, gmsaCredentialSpecName: str, hostProcess: bool, runAsUserName: str });

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

export const container = obj(containerFields, ['name', 'image']);

export const initContainer = obj(containerFields, ['name', 'image'], [{
  rule: "(has(self.restartPolicy) && self.restartPolicy == 'Always') || !(has(self.livenessProbe) || has(self.readinessProbe) || has(self.startupProbe) || has(self.lifecycle))",
  message: 'probes and lifecycle may only be set on init containers with restartPolicy: Always (sidecars)',
}]);
