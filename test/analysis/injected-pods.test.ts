/**
 * What the index says the API server and the proxy injector make of a pod template: the ServiceAccount the pods run as
 * and the labels the injector adds. Rules read these (MESH-010, POL-013, POL-006, POL-008), so a wrong guess here is a
 * false error there.
 */
import { analyze } from '../../src/analysis/engine';
import { asManifests, meshLab, pick } from '../support/mesh-fixture';

const NS = 'mesh-lab';

function podOf(objects: any[], owner: string) {
  return analyze(asManifests(objects)).index.podTemplates.find((p) => p.owner.id.name === owner)!;
}

function idsOf(objects: any[], ...ruleIds: string[]): string[] {
  return analyze(asManifests(objects)).findings.filter((f) => ruleIds.includes(f.ruleId)).map((f) => `${f.ruleId} ${f.resource.name}`);
}

function cronJob(name: string, labels: Record<string, string>): any {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: NS },
    spec: {
      schedule: '0 * * * *',
      jobTemplate: { spec: { template: { metadata: { labels }, spec: { restartPolicy: 'OnFailure', containers: [{ name: 'app', image: 'example/backup:1.0.0', ports: [{ name: 'metrics', containerPort: 9100 }] }] } } } },
    },
  };
}

function server(name: string, matchLabels: Record<string, string>): any {
  return {
    apiVersion: 'policy.linkerd.io/v1beta3',
    kind: 'Server',
    metadata: { name, namespace: NS },
    spec: { podSelector: { matchLabels }, port: 'metrics', proxyProtocol: 'HTTP/1', accessPolicy: 'all-authenticated' },
  };
}

describe('the ServiceAccount a pod runs as', () => {
  // The ServiceAccount admission plugin fills in "default" when serviceAccountName is empty; the v1 conversion takes
  // the deprecated serviceAccount field first. Helm charts commonly render serviceAccountName: "".
  test('an empty serviceAccountName is the default ServiceAccount, or the deprecated serviceAccount field', () => {
    const objects = meshLab();
    const spec = pick(objects, 'Deployment', 'client').spec.template.spec;
    spec.serviceAccountName = '';
    expect(podOf(objects, 'client').serviceAccountName).toBe('default');
    spec.serviceAccount = 'client';
    expect(podOf(objects, 'client').serviceAccountName).toBe('client');
    delete spec.serviceAccountName;
    expect(podOf(objects, 'client').serviceAccountName).toBe('client');
  });

  test('serviceAccountName: "" is no missing ServiceAccount (LKD-MESH-010)', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'client').spec.template.spec.serviceAccountName = '';
    expect(idsOf(objects, 'LKD-MESH-010')).toEqual([]);
    pick(objects, 'Deployment', 'client').spec.template.spec.serviceAccountName = 'nobody';
    expect(idsOf(objects, 'LKD-MESH-010')).toEqual(['LKD-MESH-010 client']);
  });
});

describe('the labels the injector adds', () => {
  test('a Deployment\'s pods are labelled with it', () => {
    expect(podOf(meshLab(), 'client').runtimeLabels['linkerd.io/proxy-deployment']).toBe('client');
  });

  // controller/k8s/metadata_api.go GetOwnerKindAndName reports a CronJob's pods as the CronJob's; pkg/inject/inject.go
  // populateMeta (case *corev1.Pod) has no label for that kind.
  test('a CronJob\'s pods get no linkerd.io/proxy-* label, so a Server selecting one selects nothing and overlaps nothing', () => {
    const objects = [...meshLab(), cronJob('backup', { app: 'backup' }), server('a-by-owner', { 'linkerd.io/proxy-cronjob': 'backup' }), server('b-metrics', { app: 'backup' })];
    const labels = podOf(objects, 'backup').runtimeLabels;
    expect(labels['linkerd.io/workload-ns']).toBe(NS); // injected
    expect(Object.keys(labels).filter((k) => k.startsWith('linkerd.io/proxy-'))).toEqual([]);
    expect(idsOf(objects, 'LKD-POL-008', 'LKD-POL-006')).toEqual(['LKD-POL-006 a-by-owner']);
  });

  // controller/k8s/k8s.go isValidRSParent refuses a Rollout owner, so the pods are labelled with their ReplicaSet's
  // generated name, which no manifest holds.
  test('a Rollout\'s pods carry no linkerd.io/proxy-rollout label', () => {
    const rollout = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'shop', namespace: NS },
      spec: { selector: { matchLabels: { app: 'shop' } }, template: { metadata: { labels: { app: 'shop' } }, spec: { containers: [{ name: 'app', image: 'example/shop:1.0.0' }] } } },
    };
    expect(podOf([...meshLab(), rollout], 'shop').runtimeLabels['linkerd.io/proxy-rollout']).toBeUndefined();
  });
});
