import { Chart, Testing } from 'cdk8s';
import { indexOf, only, rendered } from './fixtures';
import { argoCdApplications, deliverWithArgoCd } from '../../src/control-plane/delivery/argo-cd';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';
import { resolveInstall } from '../../src/control-plane/install/values';

describe('Argo CD delivery', () => {
  const { cp, objects } = rendered({ delivery: LinkerdDelivery.argoCd(), highAvailability: true });
  const crds = only(objects, 'Application', 'linkerd-crds');
  const controlPlane = only(objects, 'Application', 'linkerd-control-plane');

  test('two argoproj.io/v1alpha1 Applications in the argocd namespace, CRDs first', () => {
    for (const app of [crds, controlPlane]) {
      expect(app.apiVersion).toBe('argoproj.io/v1alpha1');
      expect(app.metadata.namespace).toBe('argocd');
    }
    expect(indexOf(objects, 'Application', 'linkerd-crds')).toBeLessThan(indexOf(objects, 'Application', 'linkerd-control-plane'));
  });

  test('sync waves: CRDs "0", control plane "1"', () => {
    expect(crds.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('0');
    expect(controlPlane.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('1');
  });

  test('pinned chart sources with the resolved values as helm.valuesObject', () => {
    expect(crds.spec.source).toEqual({
      repoURL: 'https://helm.linkerd.io/edge',
      chart: 'linkerd-crds',
      targetRevision: '2026.6.3',
      helm: { releaseName: 'linkerd-crds', valuesObject: { installGatewayAPI: false } },
    });
    expect(controlPlane.spec.source).toMatchObject({ repoURL: 'https://helm.linkerd.io/edge', chart: 'linkerd-control-plane', targetRevision: '2026.6.3' });
    expect(controlPlane.spec.source.helm.valuesObject).toEqual(cp.values().controlPlane);
  });

  test('destination namespace, project, automated sync; server-side apply for the CRDs', () => {
    for (const app of [crds, controlPlane]) {
      expect(app.spec.destination).toEqual({ server: 'https://kubernetes.default.svc', namespace: 'linkerd' });
      expect(app.spec.project).toBe('default');
      expect(app.spec.syncPolicy.automated).toEqual({ prune: true, selfHeal: true });
    }
    expect(crds.spec.syncPolicy.syncOptions).toEqual(['ServerSideApply=true', 'PruneLast=true']);
    expect(controlPlane.spec.syncPolicy.syncOptions).toEqual(['PruneLast=true', 'RespectIgnoreDifferences=true']);
  });

  test('ignores the webhook certificates the chart regenerates on every render', () => {
    expect(controlPlane.spec.ignoreDifferences).toEqual([
      { group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'] },
      { group: 'admissionregistration.k8s.io', kind: 'ValidatingWebhookConfiguration', jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'] },
      ...['linkerd-proxy-injector-k8s-tls', 'linkerd-sp-validator-k8s-tls', 'linkerd-policy-validator-k8s-tls'].map((name) => ({
        group: '', kind: 'Secret', name, namespace: 'linkerd', jsonPointers: ['/data'],
      })),
    ]);
    expect(crds.spec).not.toHaveProperty('ignoreDifferences');
  });

  test('options: Argo CD namespace, project, destination, manual sync, no ignores', () => {
    const { objects: custom } = rendered({
      namespace: 'mesh',
      delivery: LinkerdDelivery.argoCd({
        argoCdNamespace: 'gitops',
        project: 'platform',
        destinationServer: 'https://prod.example:6443',
        automatedSync: false,
        ignoreGeneratedWebhookCertificates: false,
      }),
    });
    const app = only(custom, 'Application', 'linkerd-control-plane');
    expect(app.metadata.namespace).toBe('gitops');
    expect(app.spec).toMatchObject({ project: 'platform', destination: { server: 'https://prod.example:6443', namespace: 'mesh' } });
    expect(app.spec.syncPolicy).toEqual({ syncOptions: ['PruneLast=true'] });
    expect(app.spec).not.toHaveProperty('ignoreDifferences');
  });

  test('refuses a bad Argo CD namespace', () => {
    expect(() => rendered({ delivery: LinkerdDelivery.argoCd({ argoCdNamespace: 'Argo CD' }) })).toThrow(/LKD-INPUT-001: argoCdNamespace/);
  });

  test('when the identity writes the issuer key, the control-plane Application carries a reasoned LKD-CERT-005 suppression', () => {
    const chart = new Chart(Testing.app(), 'cp');
    const install = resolveInstall(chart, {}, { values: { identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls', tls: { keyPEM: 'k' } } } }, writesPrivateKey: true });
    const delivered = deliverWithArgoCd(chart, install, {});
    const annotations = (delivered.controlPlane as any).toJson().metadata.annotations;
    expect(JSON.parse(annotations['analysis.cdk8s-linkerd.io/suppress'])).toEqual([{ ruleId: 'LKD-CERT-005', reason: expect.stringMatching(/writePrivateKey/) }]);
    expect((delivered.crds as any).toJson().metadata.annotations).not.toHaveProperty('analysis.cdk8s-linkerd.io/suppress');
  });

  test('the pure builder gives the same manifests as the construct', () => {
    const chart = new Chart(Testing.app(), 'cp');
    const install = resolveInstall(chart, {}, { values: { identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls' } } }, writesPrivateKey: false });
    const apps = argoCdApplications(install);
    expect(apps.crds.metadata.name).toBe('linkerd-crds');
    expect(apps.controlPlane.spec.source.helm.valuesObject).toEqual(install.controlPlaneValues);
  });
});
