/** Shared setup for the control-plane delivery tests: a chart holding one LinkerdControlPlane, rendered in order. */
import { App, Chart, Testing } from 'cdk8s';
import { MeshChecks } from '../../src/checks/mesh-checks';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';
import { LinkerdIdentity } from '../../src/control-plane/identity/identity';
import { LinkerdControlPlane, LinkerdControlPlaneProps } from '../../src/control-plane/install/control-plane';

export type Props = Partial<LinkerdControlPlaneProps>;

export function controlPlaneChart(props: Props = {}, chartNamespace?: string): { app: App; chart: Chart; cp: LinkerdControlPlane } {
  const app = Testing.app();
  const chart = new Chart(app, 'platform', { namespace: chartNamespace });
  MeshChecks.of(chart).configure({ printWarnings: false });
  const cp = new LinkerdControlPlane(chart, 'Linkerd', {
    identity: LinkerdIdentity.fromCertManager(),
    delivery: LinkerdDelivery.argoCd(),
    ...props,
  });
  return { app, chart, cp };
}

/** Renders like `cdk8s synth`: dependencies ordered, validations run (warnings not printed). */
export function rendered(props: Props = {}, chartNamespace?: string): { cp: LinkerdControlPlane; objects: any[] } {
  const { chart, cp } = controlPlaneChart(props, chartNamespace);
  return { cp, objects: Testing.synth(chart) };
}

export function only(objects: any[], kind: string, name?: string): any {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name ?? ''}, found ${found.length}: ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found[0];
}

export function indexOf(objects: any[], kind: string, name: string): number {
  return objects.findIndex((o) => o.kind === kind && o.metadata.name === name);
}

/** A plain Argo CD Application installing a Linkerd chart (for rule tests). */
export function argoApp(name: string, chart: string, targetRevision: string | undefined, valuesObject?: any, extra: any = {}): any {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'argocd' },
    spec: {
      project: 'default',
      source: { repoURL: 'https://helm.linkerd.io/edge', chart, targetRevision, helm: { valuesObject, ...extra } },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'linkerd' },
    },
  };
}

/** A plain Flux HelmRelease installing a Linkerd chart (for rule tests). */
export function fluxRelease(name: string, chart: string, version: string | undefined, values?: any, extra: any = {}): any {
  return {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name, namespace: 'flux-system' },
    spec: {
      interval: '10m',
      targetNamespace: 'linkerd',
      chart: { spec: { chart, version, sourceRef: { kind: 'HelmRepository', name: 'linkerd' } } },
      values,
      ...extra,
    },
  };
}

/** A Deployment with the given images and pod-template annotations. */
export function workload(name: string, images: string[], annotations: Record<string, string> = {}, namespace = 'shop'): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations },
        spec: { containers: images.map((image, i) => ({ name: `c${i}`, image })) },
      },
    },
  };
}

export function manifests(objects: any[]): Array<{ object: any }> {
  return objects.map((object) => ({ object }));
}
