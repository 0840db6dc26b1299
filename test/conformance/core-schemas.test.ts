import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { ConformanceIssue, ConformanceValidator, CrdCatalog } from '../../src/conformance';
import { labChart, synth } from '../support/synth';

const validator = new ConformanceValidator(CrdCatalog.fromDocuments([]));
const render = (issues: ConformanceIssue[]) => issues.map(i => `${i.kind}/${i.name} ${i.path}: ${i.message}`);

function deployment(patch: { spec?: Record<string, unknown>; pod?: Record<string, unknown>; container?: Record<string, unknown> } = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'mesh-lab', labels: { app: 'web' }, annotations: { 'linkerd.io/inject': 'enabled' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' }, annotations: { 'config.linkerd.io/opaque-ports': '5432' } },
        spec: {
          serviceAccountName: 'web',
          automountServiceAccountToken: true,
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          initContainers: [{ name: 'log-shipper', image: 'busybox:1.36', restartPolicy: 'Always', readinessProbe: { exec: { command: ['true'] } } }],
          containers: [{
            name: 'web',
            image: 'ghcr.io/example/web:1.0',
            ports: [{ name: 'http', containerPort: 8080 }, { name: 'admin', containerPort: 9990, protocol: 'TCP' }],
            readinessProbe: { httpGet: { path: '/ready', port: 'admin' }, periodSeconds: 5 },
            livenessProbe: { tcpSocket: { port: 8080 } },
            resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: 0.5e9 } },
            securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
            env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
            ...patch.container,
          }],
          volumes: [{ name: 'tmp', emptyDir: {} }],
          ...patch.pod,
        },
      },
      ...patch.spec,
    },
  };
}

const service = (spec: Record<string, unknown> = {}, name = 'web') => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'mesh-lab' },
  spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }, { name: 'grpc', port: 9090, targetPort: 9090, appProtocol: 'kubernetes.io/h2c' }], ...spec },
});

describe('valid core objects', () => {
  test.each([
    ['Deployment', deployment()],
    ['Service', service()],
    ['headless Service without ports', service({ clusterIP: 'None', ports: undefined })],
    ['ServiceAccount', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'web', namespace: 'mesh-lab' }, automountServiceAccountToken: false }],
    ['Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mesh-lab', annotations: { 'linkerd.io/inject': 'enabled' } } }],
    ['ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { 'app.yaml': 'a: 1' } }],
    ['Secret', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', data: { token: 'c2VjcmV0' }, stringData: { plain: 'x' } }],
    ['PodDisruptionBudget', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { maxUnavailable: '25%', selector: { matchLabels: { app: 'web' } } } }],
    ['NetworkPolicy', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'allow-linkerd' },
      spec: {
        podSelector: { matchLabels: { app: 'web' } },
        policyTypes: ['Ingress'],
        ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'linkerd' } } }], ports: [{ port: 4143 }, { port: 4190, endPort: 4191 }] }],
      },
    }],
    ['Job', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate' }, spec: { backoffLimit: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'm', image: 'migrate:1' }] } } } }],
  ])('%s passes', (_name, obj) => {
    expect(render(validator.validate(JSON.parse(JSON.stringify(obj))))).toEqual([]);
  });

  test('Service ports get the TCP protocol default and the type defaults to ClusterIP', () => {
    const spec = validator.defaulted(service()).spec as { type: string; ports: Array<{ protocol: string }> };
    expect(spec.type).toBe('ClusterIP');
    expect(spec.ports.map(p => p.protocol)).toEqual(['TCP', 'TCP']);
  });

  test('whatever cdk8s-plus-28 synthesizes for common workloads is accepted', () => {
    const chart = labChart();
    const sa = new kplus.ServiceAccount(chart, 'sa', { automountToken: true });
    const cm = new kplus.ConfigMap(chart, 'cm', { data: { key: 'value' } });
    const dep = new kplus.Deployment(chart, 'dep', {
      replicas: 2,
      serviceAccount: sa,
      containers: [{
        name: 'app',
        image: 'nginx:1.27',
        portNumber: 8080,
        readiness: kplus.Probe.fromHttpGet('/healthz', { port: 8080, periodSeconds: Duration.seconds(5) }),
        envVariables: { MODE: kplus.EnvValue.fromValue('prod'), KEY: kplus.EnvValue.fromConfigMap(cm, 'key') },
        securityContext: { user: 1000, group: 3000 },
      }],
    });
    dep.addVolume(kplus.Volume.fromEmptyDir(chart, 'scratch', 'scratch'));
    dep.exposeViaService({ ports: [{ port: 80, targetPort: 8080 }] });
    new kplus.Job(chart, 'job', { containers: [{ image: 'migrate:1' }] });
    new kplus.Namespace(chart, 'ns');
    new kplus.Secret(chart, 'secret', { stringData: { password: 'hunter2' } });
    const policy = new kplus.NetworkPolicy(chart, 'netpol', { selector: dep });
    policy.addIngressRule(kplus.Pods.all(chart, 'all-pods'), [kplus.NetworkPolicyPort.tcp(8080)]);
    const objects = synth(chart);
    expect(objects.map(o => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Job', 'Namespace', 'NetworkPolicy', 'Secret', 'Service', 'ServiceAccount']);
    expect(render(objects.flatMap(o => validator.validate(o)))).toEqual([]);
  });
});

describe('invalid core objects', () => {
  test('a Deployment container without image', () => {
    const obj = deployment();
    delete (obj.spec.template.spec.containers[0] as Record<string, unknown>).image;
    expect(validator.validate(obj)).toMatchObject([{ kind: 'Deployment', name: 'web', path: 'spec.template.spec.containers[0].image', message: 'Required value', rule: 'required' }]);
  });

  test('a Service port of 70000', () => {
    const issues = validator.validate(service({ ports: [{ port: 70000 }] }));
    expect(issues).toMatchObject([{ kind: 'Service', path: 'spec.ports[0].port', rule: 'maximum' }]);
  });

  test('an unknown field under spec', () => {
    expect(validator.validate(deployment({ spec: { replica: 3 } }))).toMatchObject([{ path: 'spec.replica', message: 'unknown field "replica"' }]);
  });

  test.each([
    ['container port name longer than 15 characters', deployment({ container: { ports: [{ name: 'metrics-endpoint', containerPort: 9100 }] } }), 'spec.template.spec.containers[0].ports[0].name'],
    ['container port 0', deployment({ container: { ports: [{ containerPort: 0 }] } }), 'spec.template.spec.containers[0].ports[0].containerPort'],
    ['probe port name with upper case', deployment({ container: { readinessProbe: { httpGet: { port: 'Admin' } } } }), 'spec.template.spec.containers[0].readinessProbe.httpGet.port'],
    ['probe with two handlers', deployment({ container: { livenessProbe: { tcpSocket: { port: 1 }, exec: { command: ['x'] } } } }), 'spec.template.spec.containers[0].livenessProbe'],
    ['container name not a DNS label', deployment({ container: { name: 'Web_1' } }), 'spec.template.spec.containers[0].name'],
    ['selector that misses the template labels', deployment({ spec: { selector: { matchLabels: { app: 'api' } } } }), 'spec.template.metadata.labels'],
    ['volume mount without a volume', deployment({ pod: { volumes: [] } }), 'spec.template.spec.containers'],
    ['restartPolicy on a regular container', deployment({ container: { restartPolicy: 'Always' } }), 'spec.template.spec.containers'],
    ['init container restartPolicy other than Always', deployment({ pod: { initContainers: [{ name: 'i', image: 'i', restartPolicy: 'Never' }] } }), 'spec.template.spec.initContainers[0].restartPolicy'],
    ['probe on a non-sidecar init container', deployment({ pod: { initContainers: [{ name: 'i', image: 'i', readinessProbe: { exec: { command: ['true'] } } }] } }), 'spec.template.spec.initContainers[0]'],
    ['init container reusing a container name', deployment({ pod: { initContainers: [{ name: 'web', image: 'i' }] } }), 'spec.template.spec.initContainers'],
    ['duplicate container names', deployment({ pod: { containers: [{ name: 'a', image: 'a' }, { name: 'a', image: 'b' }], volumes: [] } }), 'spec.template.spec.containers[1]'],
    ['serviceAccountName with upper case', deployment({ pod: { serviceAccountName: 'Web' } }), 'spec.template.spec.serviceAccountName'],
    ['template label value with a space', deployment({ spec: { template: { metadata: { labels: { app: 'web', tier: 'a b' } }, spec: deployment().spec.template.spec } } }), 'spec.template.metadata.labels[tier]'],
    ['negative replicas', deployment({ spec: { replicas: -1 } }), 'spec.replicas'],
  ])('Deployment: %s', (_name, obj, path) => {
    expect(validator.validate(obj).map(i => i.path)).toContain(path);
  });

  test.each([
    ['Service name starting with a digit', service({}, '1web'), 'metadata.name'],
    ['two unnamed Service ports', service({ ports: [{ port: 80 }, { port: 81 }] }), 'spec.ports'],
    ['duplicate Service port/protocol', service({ ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] }), 'spec.ports[1]'],
    ['Service without ports', service({ ports: [] }), 'spec.ports'],
    ['unknown Service type', service({ type: 'Internal' }), 'spec.type'],
    ['targetPort 0', service({ ports: [{ port: 80, targetPort: 0 }] }), 'spec.ports[0].targetPort'],
  ])('Service: %s', (_name, obj, path) => {
    expect(validator.validate(obj).map(i => i.path)).toContain(path);
  });

  test.each([
    ['Namespace name with a dot', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mesh.lab' } }, 'metadata.name'],
    ['ConfigMap key with a slash', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'a/b': 'x' } }, 'data'],
    ['Secret data that is not base64', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'not base64!' } }, 'data[k]'],
    ['PDB with minAvailable and maxUnavailable', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p' }, spec: { minAvailable: 1, maxUnavailable: 1 } }, 'spec'],
    ['NetworkPolicy peer with ipBlock and selector', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'n' },
      spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] },
    }, 'spec.ingress[0].from[0]'],
    ['Job without restartPolicy', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { containers: [{ name: 'm', image: 'm' }] } } } }, 'spec.template.spec.restartPolicy'],
    ['ServiceAccount with unknown field', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' }, automount: true }, 'automount'],
  ])('%s', (_name, obj, path) => {
    expect(validator.validate(obj).map(i => i.path)).toContain(path);
  });
});
