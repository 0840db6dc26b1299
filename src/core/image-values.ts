/**
 * The image keys of every Linkerd chart this library installs. Each chart builds an image from two or three values
 * (`<name>:<version>`, or `<registry>/<name>:<tag>`); an empty version means "the chart's linkerdVersion", which the
 * pinned chart version already fixes. A digest rides in the version value (`edge-26.6.3@sha256:...`), because every
 * template appends `:<version>` and a reference may carry both a tag and a digest (the digest wins).
 */
import { valueAt } from './helm-values';
import { imageTagProblem } from './versions';
import { isRecord as isPlainObject } from '../util/json';

/** How a chart assembles one image from its values. */
export enum ImageLayout {
  /** `<nameKey>:<versionKey>` where the name holds the registry and repository. */
  NAME_VERSION = 'name-version',
  /** `<registryKey>/<nameKey>:<versionKey>`. */
  REGISTRY_NAME_TAG = 'registry-name-tag',
  /** One value holding the whole reference (`registry/repo:tag`). */
  REFERENCE = 'reference',
}

/** One image a chart renders. */
export interface ChartImage {
  /** The image's short name, also its key in a digest map (`proxy`, `controller`, `cni-plugin` …). */
  readonly image: string;
  readonly layout: ImageLayout;
  /** Value holding the repository (NAME_VERSION: registry/repo; REGISTRY_NAME_TAG: repo only; REFERENCE: everything). */
  readonly nameKey: string;
  /** Value holding the tag (empty for REFERENCE). */
  readonly versionKey: string;
  /** Value holding the registry (REGISTRY_NAME_TAG only). */
  readonly registryKey?: string;
  /** The chart's own repository for this image (without tag). */
  readonly upstream: string;
  /** The chart's tag for this image; undefined when it is the chart's linkerdVersion. */
  readonly fixedTag?: string;
}

const nv = (image: string, nameKey: string, versionKey: string, upstream: string, fixedTag?: string): ChartImage =>
  ({ image, layout: ImageLayout.NAME_VERSION, nameKey, versionKey, upstream, fixedTag });
const rnt = (image: string, prefix: string, upstream: string, fixedTag?: string, registryKey = `${prefix}.image.registry`): ChartImage =>
  ({ image, layout: ImageLayout.REGISTRY_NAME_TAG, nameKey: `${prefix}.image.name`, versionKey: `${prefix}.image.tag`, registryKey, upstream, fixedTag });

/**
 * Every image of every chart, by chart name (read from the charts' templates at version-2.20). proxy-init has no image
 * of its own in 2.20: it runs from the proxy image (charts/partials/templates/_proxy-init.tpl), as does the CNI
 * network validator.
 */
export const CHART_IMAGE_TABLE: Readonly<Record<string, readonly ChartImage[]>> = {
  'linkerd-control-plane': [
    nv('proxy', 'proxy.image.name', 'proxy.image.version', 'cr.l5d.io/linkerd/proxy'),
    nv('controller', 'controllerImage', 'controllerImageVersion', 'cr.l5d.io/linkerd/controller'),
    nv('debug', 'debugContainer.image.name', 'debugContainer.image.version', 'cr.l5d.io/linkerd/debug'),
  ],
  'linkerd2-cni': [
    nv('cni-plugin', 'image.name', 'image.version', 'cr.l5d.io/linkerd/cni-plugin', 'v1.6.8'),
  ],
  'linkerd-viz': [
    rnt('metrics-api', 'metricsAPI', 'cr.l5d.io/linkerd/metrics-api'),
    rnt('tap', 'tap', 'cr.l5d.io/linkerd/tap'),
    rnt('tap', 'tapInjector', 'cr.l5d.io/linkerd/tap'),
    rnt('web', 'dashboard', 'cr.l5d.io/linkerd/web'),
    rnt('extension-init', 'namespaceMetadata', 'cr.l5d.io/linkerd/extension-init', 'v0.1.11'),
    rnt('prometheus', 'prometheus', 'prom/prometheus', 'v2.55.1'),
  ],
  'linkerd-multicluster': [
    nv('controller', 'localServiceMirror.image.name', 'localServiceMirror.image.version', 'cr.l5d.io/linkerd/controller'),
    nv('controller', 'controllerDefaults.image.name', 'controllerDefaults.image.version', 'cr.l5d.io/linkerd/controller'),
    rnt('extension-init', 'namespaceMetadata', 'cr.l5d.io/linkerd/extension-init', 'v0.1.11'),
    { image: 'pause', layout: ImageLayout.REFERENCE, nameKey: 'gateway.pauseImage', versionKey: '', upstream: 'registry.k8s.io/pause', fixedTag: '3.2' },
  ],
  'linkerd-multicluster-link': [
    nv('controller', 'controllerImage', 'controllerImageVersion', 'cr.l5d.io/linkerd/controller'),
  ],
};

/** The control-plane chart's images as [name key, version key] (kept for callers of the older table). */
export const CHART_IMAGES: Array<[string, string]> = CHART_IMAGE_TABLE['linkerd-control-plane'].map((i) => [i.nameKey, i.versionKey]);

/** Version keys that override the tag of the proxy everywhere it is injected. */
export const PROXY_VERSION_KEY = 'proxy.image.version';

/** Annotation on a chart install (Argo CD Application, Flux HelmRelease) saying every image must be pinned by digest. */
export const IMAGE_DIGESTS_ANNOTATION = 'analysis.cdk8s-linkerd.io/image-digests';

const DIGEST = /@sha256:[a-f0-9]{64}$/;

/** True when an image reference or tag value ends in a sha256 digest. */
export function hasDigest(value: unknown): boolean {
  return typeof value === 'string' && DIGEST.test(value);
}

export interface ValueProblem {
  readonly path: string;
  readonly problem: string;
}

/** The images of a chart (by name, with or without a repository prefix); empty for a chart not in the table. */
export function chartImages(chart: string | undefined): readonly ChartImage[] {
  if (typeof chart !== 'string') return [];
  return CHART_IMAGE_TABLE[chart.slice(chart.lastIndexOf('/') + 1)] ?? [];
}

function nameProblem(path: string, name: unknown): ValueProblem | undefined {
  if (name === undefined || name === '') return undefined;
  if (typeof name !== 'string') return { path, problem: `${path} is not a string` };
  const afterRegistry = name.slice(name.lastIndexOf('/') + 1);
  if (afterRegistry.includes(':') || name.includes('@')) {
    return { path, problem: `${path} "${name}" carries a tag or digest, but the chart appends ":<version>" itself` };
  }
  return undefined;
}

function versionProblem(path: string, version: unknown): ValueProblem | undefined {
  // Unset or empty: the chart uses its own linkerdVersion, which the exact chart version pins.
  if (version === undefined || version === '') return undefined;
  if (hasDigest(version)) return undefined;
  const problem = imageTagProblem(version);
  return problem ? { path, problem: `${path}: ${problem}` } : undefined;
}

function referenceProblem(path: string, ref: unknown): ValueProblem | undefined {
  if (ref === undefined || ref === '') return undefined;
  if (typeof ref !== 'string') return { path, problem: `${path} is not a string` };
  if (ref.includes('@')) return undefined;
  const colon = ref.indexOf(':', ref.lastIndexOf('/') + 1);
  const problem = imageTagProblem(colon < 0 ? '' : ref.slice(colon + 1));
  return problem ? { path, problem: `${path} "${ref}": ${problem}` } : undefined;
}

function imageProblems(values: Record<string, any>, image: ChartImage): ValueProblem[] {
  if (image.layout === ImageLayout.REFERENCE) return [referenceProblem(image.nameKey, valueAt(values, image.nameKey))].filter(isProblem);
  const byName = nameProblem(image.nameKey, valueAt(values, image.nameKey));
  const byVersion = versionProblem(image.versionKey, valueAt(values, image.versionKey));
  return [byName, byVersion].filter(isProblem);
}

function isProblem(p: ValueProblem | undefined): p is ValueProblem {
  return p !== undefined;
}

/**
 * Image overrides in chart values that are not pinned (a floating tag, or a tag hidden in the image name). Without a
 * chart name, the control-plane chart's keys are checked.
 */
export function imageValueProblems(values: unknown, chart = 'linkerd-control-plane'): ValueProblem[] {
  if (!isPlainObject(values)) return [];
  const images = chartImages(chart);
  const problems = (images.length > 0 ? images : CHART_IMAGE_TABLE['linkerd-control-plane']).flatMap((image) => imageProblems(values, image));
  const linkerdVersion = versionProblem('linkerdVersion', valueAt(values, 'linkerdVersion'));
  if (linkerdVersion) problems.push(linkerdVersion);
  return problems;
}

/** The images of a chart whose values do not pin them by digest (the value that would hold the digest is named). */
export function imagesWithoutDigest(values: unknown, chart: string | undefined): ChartImage[] {
  return chartImages(chart).filter((image) => {
    const key = image.layout === ImageLayout.REFERENCE ? image.nameKey : image.versionKey;
    return !hasDigest(valueAt(values, key));
  });
}
