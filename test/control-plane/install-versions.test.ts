import { LinkerdVersion, chartVersionProblem, edgeAppVersion, imageProblem, imageTagProblem } from '../../src/core/versions';

describe('LinkerdVersion.V2_20', () => {
  test('pins the 2.20 charts, app and proxy versions, and the cluster requirements', () => {
    const v = LinkerdVersion.V2_20;
    expect({
      chart: v.chartVersion,
      app: v.appVersion,
      proxy: v.proxyVersion,
      repo: v.helmRepository,
      k8s: v.minKubernetesVersion,
      gwMin: v.gatewayApiMinVersion,
      gwMax: v.gatewayApiMaxVersion,
      crds: v.crdsChart,
      cp: v.controlPlaneChart,
      tag: v.imageTag,
    }).toEqual({
      chart: '2026.6.3',
      app: 'edge-26.6.3',
      proxy: 'v2.359.0',
      repo: 'https://helm.linkerd.io/edge',
      k8s: '1.31',
      gwMin: 'v1.2.1',
      gwMax: 'v1.5.1',
      crds: 'linkerd-crds',
      cp: 'linkerd-control-plane',
      tag: 'edge-26.6.3',
    });
  });

  test.each([['1.31', true], ['v1.31.0', true], ['1.32.4-eks.1', true], ['2.0', true], ['1.30', false], ['v1.30.9', false], ['latest', false], ['', false]])(
    'supportsKubernetes(%j) is %s', (version, ok) => {
      expect(LinkerdVersion.V2_20.supportsKubernetes(version)).toBe(ok);
    });

  test.each([['v1.2.1', true], ['1.2.1', true], ['v1.3.0', true], ['v1.5.1', true], ['v1.2.0', false], ['v1.1.1', false], ['v1.5.2', false], ['v1.6', false], ['v1.3.0-rc.1', false], ['', false]])(
    'supportsGatewayApi(%j) is %s', (version, ok) => {
      expect(LinkerdVersion.V2_20.supportsGatewayApi(version)).toBe(ok);
    });
});

describe('LinkerdVersion.ofChart', () => {
  test('the 2.20 chart version gives the V2_20 constant', () => {
    expect(LinkerdVersion.ofChart('2026.6.3')).toBe(LinkerdVersion.V2_20);
  });

  test('derives the edge appVersion from an edge chart version, like Linkerd\'s release CI', () => {
    const v = LinkerdVersion.ofChart('2026.7.12');
    expect(v.appVersion).toBe('edge-26.7.12');
    expect(v.proxyVersion).toBeUndefined();
    expect(v.helmRepository).toBe('https://helm.linkerd.io/edge');
    expect(v.minKubernetesVersion).toBe('1.31');
  });

  test('takes explicit versions for other releases', () => {
    const v = LinkerdVersion.ofChart('1.16.11', { appVersion: 'stable-2.14.10', helmRepository: 'https://helm.linkerd.io/stable', minKubernetesVersion: '1.21' });
    expect([v.chartVersion, v.appVersion, v.helmRepository, v.minKubernetesVersion]).toEqual(['1.16.11', 'stable-2.14.10', 'https://helm.linkerd.io/stable', '1.21']);
  });

  test.each(['latest', 'LATEST', '', '  ', '^2026.6.3', '~2026.6.3', '>=2026.6.0', '<2027', '2026.x', '2026.6.*', '*', '2026.6.1 - 2026.6.3', '2026.6.3 || 2026.7.1', 'v2026.6.3', '2026.6'])(
    'refuses the floating or inexact chart version %j with LKD-VER-001', (version) => {
      expect(() => LinkerdVersion.ofChart(version)).toThrow(/\[LinkerdVersion\.ofChart\] LKD-VER-001: .* Fix: Pass an exact chart version/);
    });

  test('refuses a non-edge chart version without an appVersion, and a floating appVersion', () => {
    expect(() => LinkerdVersion.ofChart('1.16.11')).toThrow(/LKD-VER-001: the appVersion of chart 1\.16\.11 is unknown/);
    expect(() => LinkerdVersion.ofChart('2026.7.1', { appVersion: 'latest' })).toThrow(/LKD-VER-001: .*appVersion/);
  });

  test('refuses unparsable cluster version bounds', () => {
    expect(() => LinkerdVersion.ofChart('2026.7.1', { minKubernetesVersion: 'one' })).toThrow(/minKubernetesVersion "one" is not a version/);
    expect(() => LinkerdVersion.ofChart('2026.7.1', { gatewayApiMaxVersion: 'next' })).toThrow(/gatewayApiMaxVersion "next"/);
  });
});

describe('pinning helpers', () => {
  test.each([
    ['2026.6.3', undefined], ['1.2.3-rc.1+build.5', undefined],
    [undefined, /no chart version/], ['latest', /floats/], ['^1.0.0', /range/], ['1.0', /not an exact/],
  ])('chartVersionProblem(%j)', (version, expected) => {
    const problem = chartVersionProblem(version);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });

  test.each([
    ['cr.l5d.io/linkerd/proxy:edge-26.6.3', undefined],
    ['registry:5000/team/app:1.2', undefined],
    ['nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', undefined],
    ['nginx', /has no tag/],
    ['registry:5000/team/app', /has no tag/],
    ['nginx:latest', /"latest"/],
    ['', /empty/],
  ])('imageProblem(%j)', (image, expected) => {
    const problem = imageProblem(image);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });

  test('imageTagProblem and edgeAppVersion', () => {
    expect(imageTagProblem('edge-26.6.3')).toBeUndefined();
    expect(imageTagProblem('Latest')).toMatch(/latest/);
    expect(imageTagProblem('')).toMatch(/no tag/);
    expect(edgeAppVersion('2026.6.3')).toBe('edge-26.6.3');
    expect(edgeAppVersion('2026.06.3')).toBe('edge-26.6.3');
    expect(edgeAppVersion('1.16.11')).toBeUndefined();
  });
});
