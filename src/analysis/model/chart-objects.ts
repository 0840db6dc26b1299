/**
 * Objects a chart install (Argo CD Application, Flux HelmRelease) will create in the cluster, known without rendering
 * it: linkerd-viz's Prometheus ServiceAccount and its `kubelet` NetworkAuthentication, which other objects refer to
 * (`linkerd viz allow-scrapes`). They join the inventory: looked up, never reported on.
 */
import { InstallSource, isInstallOf, linkerdInstalls } from './installs';
import { KubeObject } from './manifest';
import { MeshIndex } from './mesh-index';

export const VIZ_CHART = 'linkerd-viz';
export const VIZ_PROMETHEUS_SERVICE_ACCOUNT = 'prometheus';

/** Namespaces of linkerd-viz installs that run the chart's own Prometheus. */
export function vizPrometheusNamespaces(index: MeshIndex): string[] {
  return linkerdInstalls(index)
    .filter((i) => i.source !== InstallSource.CONFIG_MAP && isInstallOf(i, VIZ_CHART))
    .filter((i) => i.values?.prometheus?.enabled !== false && typeof i.namespace === 'string')
    .map((i) => i.namespace as string);
}

/** The objects the delivered extension charts will create. */
export function impliedChartObjects(index: MeshIndex): KubeObject[] {
  const out: KubeObject[] = [];
  for (const install of linkerdInstalls(index)) {
    if (install.source === InstallSource.CONFIG_MAP || !isInstallOf(install, VIZ_CHART)) continue;
    const namespace = install.namespace ?? 'linkerd-viz';
    out.push({
      apiVersion: 'policy.linkerd.io/v1alpha1',
      kind: 'NetworkAuthentication',
      metadata: { name: 'kubelet', namespace },
      spec: { networks: [{ cidr: '0.0.0.0/0' }, { cidr: '::/0' }] },
    });
    if (install.values?.prometheus?.enabled !== false) {
      out.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: VIZ_PROMETHEUS_SERVICE_ACCOUNT, namespace } });
    }
  }
  return out;
}
