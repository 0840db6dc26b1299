import { IMAGE_DIGESTS_ANNOTATION, ImageLayout, imageValueProblems, imagesWithoutDigest } from '../../../core/image-values';
import { chartVersionProblem, imageProblem } from '../../../core/versions';
import { Severity } from '../../finding';
import { ChartInstall, InstallSource, linkerdInstalls } from '../../model/installs';
import { annotationOf } from '../../model/manifest';
import { PodTemplate } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';

function checkChartVersion(ctx: RuleContext, install: ChartInstall): void {
  // A rendered linkerd-config carries no chart version: it was pinned (or not) by whoever rendered it.
  if (install.source === InstallSource.CONFIG_MAP) return;
  const pin = install.sourcePin;
  if (pin && 'floats' in pin) {
    ctx.report(install.subject, `${install.source} installs chart ${install.chart} from ${pin.floats}, so the control plane can change without a code change.`,
      { fix: 'Pin the GitRepository to a tag or commit (spec.ref.tag / spec.ref.commit), or install from a Helm or OCI repository with an exact chart version.' });
    return;
  }
  if (pin) return;
  const problem = chartVersionProblem(install.chartVersion);
  if (problem) {
    ctx.report(install.subject, `${install.source} installs chart ${install.chart} with ${install.versionField} ${JSON.stringify(install.chartVersion ?? '')}: `
      + `${problem}, so the control plane can change without a code change.`);
  }
}

function chartName(install: ChartInstall): string {
  const chart = install.chart ?? '';
  return chart.slice(chart.lastIndexOf('/') + 1);
}

function checkValueImages(ctx: RuleContext, install: ChartInstall): void {
  for (const { problem } of imageValueProblems(install.values, chartName(install))) {
    ctx.report(install.subject, `${install.source} for chart ${install.chart}: ${problem}.`);
  }
}

/** The user asked for digests (the install carries the annotation): every image the chart renders must have one. */
function checkDigests(ctx: RuleContext, install: ChartInstall): void {
  if (annotationOf(install.subject.object, IMAGE_DIGESTS_ANNOTATION) !== 'required') return;
  const missing = imagesWithoutDigest(install.values, chartName(install));
  if (missing.length === 0) return;
  const keys = [...new Set(missing.map((i) => `${i.image} (${i.layout === ImageLayout.REFERENCE ? i.nameKey : i.versionKey})`))];
  ctx.report(install.subject, `${install.source} for chart ${install.chart} asks for images pinned by digest (${IMAGE_DIGESTS_ANNOTATION}: required), `
    + `but ${keys.join(', ')} ${keys.length === 1 ? 'has' : 'have'} none, so a re-pushed tag changes what runs.`, {
    fix: `Add the digests: ImageDistribution.mirror(registry, { digests: { ${[...new Set(missing.map((i) => i.image))].map((i) => `'${i}': 'sha256:...'`).join(', ')} } }).`,
  });
}

/**
 * `imageProblem` of each image once per check: it depends on the reference alone, and thousands of pod templates
 * usually run a few images.
 */
type ImageProblems = Map<unknown, string | undefined>;

function problemOf(problems: ImageProblems, image: unknown): string | undefined {
  if (problems.has(image)) return problems.get(image);
  const problem = imageProblem(image);
  problems.set(image, problem);
  return problem;
}

function checkContainerImages(ctx: RuleContext, pod: PodTemplate, containers: unknown, problems: ImageProblems): void {
  // Runs for every pod template: plain loops, no merged container list.
  if (!Array.isArray(containers)) return;
  for (const container of containers) {
    if (!container || typeof container !== 'object') continue;
    const problem = problemOf(problems, container.image);
    if (!problem) continue;
    // What a floating image runs depends on what the registry serves at the next pull. For Linkerd's own images that is
    // the mesh changing outside its release (a warning); for an application's it is supply-chain advice (info), as
    // Linkerd's own test manifests show (curlimages/curl, nginx).
    const severity = typeof container.image === 'string' && container.image.startsWith('cr.l5d.io/linkerd/') ? Severity.WARNING : Severity.INFO;
    ctx.report(pod.owner, `container ${JSON.stringify(container.name ?? '')}: ${problem}; every restart may run different code.`, { severity });
  }
}

function checkPodImages(ctx: RuleContext, pod: PodTemplate, problems: ImageProblems): void {
  checkContainerImages(ctx, pod, pod.spec.initContainers, problems);
  checkContainerImages(ctx, pod, pod.spec.containers, problems);
}

/** Floating charts and images change what runs without a code change, and differently on every node. */
export const pinnedVersions: Rule = {
  id: 'LKD-VER-001',
  area: RuleArea.VERSION,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: what the chart repository or registry serves when the object is next reconciled or the pod '
      + 'restarts; the version is not pinned, so it can change without a code change. A floating application image is info: '
      + 'supply-chain advice, the mesh does not change with it.',
    title: 'Linkerd charts and all images are pinned to exact versions',
    why: 'A Helm chart without an exact version (empty, "latest", or a range such as ^2026.6.0) installs whatever is newest when '
      + 'Argo CD or Flux next reconciles, so the control plane upgrades itself out of order (CRDs and control plane separately). '
      + 'An image without a tag pulls "latest", and a channel tag (stable, edge, main …) moves with every release; both differ between '
      + 'nodes and restarts: an error for Linkerd\'s own images (cr.l5d.io/linkerd/...), a warning for application images, which run on '
      + 'Linkerd either way. When an install asks for digests (annotation analysis.cdk8s-linkerd.io/image-digests: required, written by '
      + 'ImageDistribution with digests), an image of the chart without a digest is a warning.',
    fix: 'Use LinkerdVersion.V2_20 (charts 2026.6.3) or LinkerdVersion.ofChart("<exact version>") (an OCIRepository may pin the '
      + 'chart by ref.digest instead); tag every image exactly (or by digest); '
      + 'leave the chart\'s image versions unset so the chart version pins them.',
    linkerdSource: 'not Linkerd: supply-chain policy of this library (Helm, Argo CD and Flux resolve chart ranges and '
      + 'untagged images)',
    badExample: 'kind: HelmRelease\nspec:\n  chart:\n    spec:\n      chart: linkerd-control-plane\n      version: ">=2026.6.0"',
    goodExample: 'kind: HelmRelease\nspec:\n  chart:\n    spec:\n      chart: linkerd-control-plane\n      version: 2026.6.3',
  },
  check(ctx) {
    for (const install of linkerdInstalls(ctx.index)) {
      checkChartVersion(ctx, install);
      checkValueImages(ctx, install);
      checkDigests(ctx, install);
    }
    const problems: ImageProblems = new Map();
    for (const pod of ctx.index.podTemplates) {
      if (!pod.owner.inventory) checkPodImages(ctx, pod, problems);
    }
  },
};
