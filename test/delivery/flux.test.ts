import { Duration } from 'cdk8s';
import { indexOf, only, rendered } from './fixtures';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';

describe('Flux delivery', () => {
  const { cp, objects } = rendered({ delivery: LinkerdDelivery.flux(), highAvailability: true });
  const repository = only(objects, 'HelmRepository', 'linkerd');
  const crds = only(objects, 'HelmRelease', 'linkerd-crds');
  const controlPlane = only(objects, 'HelmRelease', 'linkerd-control-plane');

  test('a source.toolkit.fluxcd.io/v1 HelmRepository for the pinned repository', () => {
    expect(repository).toMatchObject({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      metadata: { name: 'linkerd', namespace: 'flux-system' },
      spec: { url: 'https://helm.linkerd.io/edge', interval: '10m' },
    });
  });

  test('two helm.toolkit.fluxcd.io/v2 HelmReleases with exact chart versions and the resolved values', () => {
    for (const [release, chart] of [[crds, 'linkerd-crds'], [controlPlane, 'linkerd-control-plane']]) {
      expect(release.apiVersion).toBe('helm.toolkit.fluxcd.io/v2');
      expect(release.metadata.namespace).toBe('flux-system');
      expect(release.spec).toMatchObject({
        interval: '10m',
        releaseName: chart,
        targetNamespace: 'linkerd',
        chart: { spec: { chart, version: '2026.6.3', sourceRef: { kind: 'HelmRepository', name: 'linkerd', namespace: 'flux-system' } } },
      });
    }
    expect(crds.spec.values).toEqual(cp.values().crds);
    expect(controlPlane.spec.values).toEqual(cp.values().controlPlane);
  });

  test('the control plane dependsOn the CRDs release; the CRDs depend on nothing', () => {
    expect(controlPlane.spec.dependsOn).toEqual([{ name: 'linkerd-crds', namespace: 'flux-system' }]);
    expect(crds.spec).not.toHaveProperty('dependsOn');
    expect(indexOf(objects, 'HelmRepository', 'linkerd')).toBeLessThan(indexOf(objects, 'HelmRelease', 'linkerd-crds'));
    expect(indexOf(objects, 'HelmRelease', 'linkerd-crds')).toBeLessThan(indexOf(objects, 'HelmRelease', 'linkerd-control-plane'));
  });

  test('options: namespace, repository name, interval', () => {
    const { objects: custom } = rendered({ delivery: LinkerdDelivery.flux({ fluxNamespace: 'gitops', repositoryName: 'linkerd-edge', interval: Duration.seconds(90) }) });
    const release = only(custom, 'HelmRelease', 'linkerd-control-plane');
    expect(release.metadata.namespace).toBe('gitops');
    expect(release.spec.interval).toBe('90s');
    expect(release.spec.chart.spec.sourceRef).toEqual({ kind: 'HelmRepository', name: 'linkerd-edge', namespace: 'gitops' });
    expect(release.spec.dependsOn).toEqual([{ name: 'linkerd-crds', namespace: 'gitops' }]);
    expect(only(custom, 'HelmRepository', 'linkerd-edge').spec.interval).toBe('90s');
  });

  test.each([
    [{ interval: Duration.millis(1500) }, /LKD-INPUT-005: interval/],
    [{ fluxNamespace: 'Flux' }, /LKD-INPUT-001: fluxNamespace/],
    [{ repositoryName: 'Linkerd Edge' }, /LKD-INPUT-001: repositoryName/],
  ])('refuses %j', (options, message) => {
    expect(() => rendered({ delivery: LinkerdDelivery.flux(options) })).toThrow(message);
  });
});
