import { imageValueProblems } from '../../../core/image-values';
import { chartVersionProblem, imageProblem } from '../../../core/versions';
import { Severity } from '../../finding';
import { PodTemplate } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';
import { ChartInstall, InstallSource, linkerdInstalls } from '../../model/installs';

function checkChartVersion(ctx: RuleContext, install: ChartInstall): void {
  // A rendered linkerd-config carries no chart version: it was pinned (or not) by whoever rendered it.
  if (install.source === InstallSource.CONFIG_MAP) return;
  const problem = chartVersionProblem(install.chartVersion);
  if (problem) {
    ctx.report(install.subject, `${install.source} installs chart ${install.chart} with ${install.versionField} ${JSON.stringify(install.chartVersion ?? '')}: `
      + `${problem}, so the control plane can change without a code change.`);
  }
}

function checkValueImages(ctx: RuleContext, install: ChartInstall): void {
  for (const { problem } of imageValueProblems(install.values)) {
    ctx.report(install.subject, `${install.source} for chart ${install.chart}: ${problem}.`);
  }
}

function checkContainerImages(ctx: RuleContext, pod: PodTemplate, containers: unknown): void {
  // Runs for every pod template: plain loops, no merged container list.
  if (!Array.isArray(containers)) return;
  for (const container of containers) {
    if (!container || typeof container !== 'object') continue;
    const problem = imageProblem(container.image);
    // A floating application image still runs on Linkerd: a supply-chain warning. A floating Linkerd image is an
    // upgrade of the mesh outside the pinned release, so it stays an error.
    const severity = typeof container.image === 'string' && container.image.startsWith('cr.l5d.io/linkerd/') ? Severity.ERROR : Severity.WARNING;
    if (problem) ctx.report(pod.owner, `container ${JSON.stringify(container.name ?? '')}: ${problem}; every restart may run different code.`, { severity });
  }
}

function checkPodImages(ctx: RuleContext, pod: PodTemplate): void {
  checkContainerImages(ctx, pod, pod.spec.initContainers);
  checkContainerImages(ctx, pod, pod.spec.containers);
}

/** Floating charts and images change what runs without a code change, and differently on every node. */
export const pinnedVersions: Rule = {
  id: 'LKD-VER-001',
  area: RuleArea.VERSION,
  severity: Severity.ERROR,
  doc: {
    title: 'Linkerd charts and all images are pinned to exact versions',
    why: 'A Helm chart without an exact version (empty, "latest", or a range such as ^2026.6.0) installs whatever is newest when '
      + 'Argo CD or Flux next reconciles, so the control plane upgrades itself out of order (CRDs and control plane separately). '
      + 'An image without a tag pulls "latest", which differs between nodes and restarts: an error for Linkerd\'s own images '
      + '(cr.l5d.io/linkerd/...), a warning for application images, which run on Linkerd either way.',
    fix: 'Use LinkerdVersion.V2_20 (charts 2026.6.3) or LinkerdVersion.ofChart("<exact version>"); tag every image exactly (or by digest); '
      + 'leave the chart\'s image versions unset so the chart version pins them.',
    badExample: 'kind: HelmRelease\nspec:\n  chart:\n    spec:\n      chart: linkerd-control-plane\n      version: ">=2026.6.0"',
    goodExample: 'kind: HelmRelease\nspec:\n  chart:\n    spec:\n      chart: linkerd-control-plane\n      version: 2026.6.3',
  },
  check(ctx) {
    for (const install of linkerdInstalls(ctx.index)) {
      checkChartVersion(ctx, install);
      checkValueImages(ctx, install);
    }
    for (const pod of ctx.index.podTemplates) {
      if (!pod.owner.inventory) checkPodImages(ctx, pod);
    }
  },
};
