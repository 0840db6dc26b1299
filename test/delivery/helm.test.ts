import { Chart, HelmProps, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';
import { DeliveryForm } from '../../src/control-plane/delivery/form';
import { deliverWithHelm, helmChartProps, kubeVersionFlag } from '../../src/control-plane/delivery/helm';
import { resolveInstall } from '../../src/control-plane/install/values';

function install(options = {}) {
  return resolveInstall(new Chart(Testing.app(), 'cp'), options, { values: { identityTrustDomain: 'cluster.local', identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls' } } }, writesPrivateKey: false });
}

describe('cdk8s Helm delivery: what would be handed to Helm (helm itself never runs here)', () => {
  test('pins both charts to the 2.20 repository and version, with the resolved values', () => {
    const resolved = install({ kubernetesVersion: '1.32' });
    const props = helmChartProps(resolved);
    const common = {
      repo: 'https://helm.linkerd.io/edge', version: '2026.6.3', namespace: 'linkerd', helmExecutable: 'helm', helmFlags: ['--kube-version', 'v1.32.0'],
    };
    expect(props.crds).toEqual({ ...common, chart: 'linkerd-crds', releaseName: 'linkerd-crds', values: { installGatewayAPI: false } });
    expect(props.controlPlane).toEqual({ ...common, chart: 'linkerd-control-plane', releaseName: 'linkerd-control-plane', values: resolved.controlPlaneValues });
  });

  test('appends the user\'s flags and executable, and hands out copies of the values', () => {
    const resolved = install({ namespace: 'mesh' });
    const props = helmChartProps(resolved, { helmExecutable: '/opt/helm/bin/helm', helmFlags: ['--skip-tests'] });
    expect(props.controlPlane).toMatchObject({ helmExecutable: '/opt/helm/bin/helm', helmFlags: ['--kube-version', 'v1.31.0', '--skip-tests'], namespace: 'mesh' });
    props.controlPlane.values!.controllerReplicas = 7;
    expect(resolved.controlPlaneValues.controllerReplicas).toBe(1);
  });

  test('kubeVersionFlag normalizes what users write', () => {
    expect(['1.31', 'v1.33.2', '1.31.4-gke.100'].map(kubeVersionFlag)).toEqual(['v1.31.0', 'v1.33.2', 'v1.31.4']);
  });

  test('creates the CRDs child first and makes the control plane depend on it', () => {
    const scope = new Chart(Testing.app(), 'cp');
    const calls: Array<{ id: string; props: HelmProps }> = [];
    const recorder = (s: Construct, id: string, props: HelmProps) => {
      calls.push({ id, props });
      return new Construct(s, id);
    };
    const resolved = install();
    const delivered = deliverWithHelm(scope, resolved, {}, recorder);
    expect(calls.map((c) => [c.id, c.props.chart, c.props.releaseName])).toEqual([
      ['Crds', 'linkerd-crds', 'linkerd-crds'], ['ControlPlane', 'linkerd-control-plane', 'linkerd-control-plane'],
    ]);
    expect(calls.map((c) => c.props)).toEqual([helmChartProps(resolved).crds, helmChartProps(resolved).controlPlane]);
    expect(delivered.controlPlane.node.dependencies).toEqual([delivered.crds]);
  });
});

describe('LinkerdDelivery.helm()', () => {
  test('is the HELM form, with kubectl-based runbook steps (constructing it in a chart would run helm)', () => {
    const delivery = LinkerdDelivery.helm({ helmFlags: ['--debug'] });
    expect(delivery.form).toBe(DeliveryForm.HELM);
    expect(delivery._steps().title).toBe('cdk8s-rendered Helm charts, applied with kubectl');
  });
});
