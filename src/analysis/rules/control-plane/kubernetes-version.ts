import { LinkerdVersion } from '../../../core/versions';
import { Severity } from '../../finding';
import { clusterSubject } from '../../model/installs';
import { Rule, RuleArea } from '../../rule';

/** The charts refuse to render below their kubeVersion, and Linkerd is not tested there. */
export const kubernetesVersion: Rule = {
  id: 'LKD-CP-004',
  area: RuleArea.CONTROL_PLANE,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Rejected: Helm refuses the charts on an older cluster (kubeVersion in charts/linkerd-control-'
      + 'plane/Chart.yaml).',
    title: 'The target cluster runs a Kubernetes version Linkerd 2.20 supports (1.31 or later)',
    why: 'The linkerd-crds and linkerd-control-plane charts declare kubeVersion ">=1.31.0-0", so Helm, Argo CD and Flux refuse to '
      + 'install them on older clusters, and linkerd check fails its kubernetes-version check.',
    fix: 'Upgrade the cluster to Kubernetes 1.31 or later and declare it as kubernetesVersion.',
    linkerdSource: 'charts/linkerd-control-plane/Chart.yaml and charts/linkerd-crds/Chart.yaml kubeVersion ">=1.31.0-0"; pkg/k8s/api.go (kubeAPI *KubernetesAPI) CheckVersion (minAPIVersion 1.31.0, the linkerd check kubernetes-version category)',
    badExample: '# MeshChecks.of(app).configure({ kubernetesVersion: "1.30" }), or --kubernetes-version 1.30\nkind: Application\nmetadata: {name: linkerd-control-plane}',
    goodExample: '# MeshChecks.of(app).configure({ kubernetesVersion: "1.31" })\nkind: Application\nmetadata: {name: linkerd-control-plane}',
  },
  check(ctx) {
    const release = LinkerdVersion.V2_20;
    const declared = ctx.context.kubernetesVersion;
    if (release.supportsKubernetes(declared)) return;
    const subject = clusterSubject(ctx.index);
    if (!subject) return;
    ctx.report(subject, `the target cluster's Kubernetes version is ${JSON.stringify(declared)}, but Linkerd ${release.appVersion} (charts `
      + `${release.chartVersion}) needs ${release.minKubernetesVersion} or later; its charts will not install there.`);
  },
};
