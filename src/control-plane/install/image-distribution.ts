/**
 * One setting for where every image of every Linkerd chart comes from: the charts' own registries, or a mirror the
 * platform team syncs and controls, optionally pinned by digest. The same distribution feeds linkerd-control-plane
 * (controller, proxy — and so proxy-init and the network validator, which run from the proxy image in 2.20 — and the
 * debug container), linkerd2-cni, linkerd-viz and the multicluster charts.
 */
import { IConstruct } from 'constructs';
import { MeshConfigError } from '../../core/errors';
import { CHART_IMAGE_TABLE, ChartImage, ImageLayout, chartImages } from '../../core/image-values';
import { LinkerdVersion, VersionRule } from '../../core/versions';

/** Options for a distribution. */
export interface ImageDistributionOptions {
  /**
   * Digests by image short name: `proxy`, `controller`, `debug`, `cni-plugin`, `metrics-api`, `tap`, `web`,
   * `extension-init`, `prometheus`, `pause` — each `sha256:<64 hex>`, the digest of the image in the registry used.
   * @default - none: images are pinned by tag only
   */
  readonly digests?: { [image: string]: string };
  /**
   * Ask the checks to warn (LKD-VER-001) for every image of an installed chart that has no digest.
   * @default - true when `digests` is given
   */
  readonly requireDigests?: boolean;
}

const DIGEST = /^sha256:[a-f0-9]{64}$/;
const REGISTRY = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?(\/[a-z0-9]([a-z0-9._-]*[a-z0-9])?)*$/;

/** Every short name a digest may be given for. */
export const IMAGE_NAMES: string[] = [...new Set(Object.values(CHART_IMAGE_TABLE).flat().map((i) => i.image))].sort();

function distributionError(method: string, problem: string, fix: string): MeshConfigError {
  const pseudoScope = { node: { path: `ImageDistribution.${method}` } } as unknown as IConstruct;
  return new MeshConfigError(pseudoScope, VersionRule.PINNED, problem, fix);
}

function checkDigests(method: string, digests: Record<string, string> | undefined): Record<string, string> {
  if (digests === undefined) return {};
  if (typeof digests !== 'object' || digests === null || Array.isArray(digests)) {
    throw distributionError(method, 'digests is not a map of image name to digest.', 'Pass e.g. { proxy: "sha256:..." }.');
  }
  for (const [image, digest] of Object.entries(digests)) {
    if (!IMAGE_NAMES.includes(image)) {
      throw distributionError(method, `digests names an unknown image ${JSON.stringify(image)}.`, `Use one of ${IMAGE_NAMES.join(', ')}.`);
    }
    if (typeof digest !== 'string' || !DIGEST.test(digest)) {
      throw distributionError(method, `digest of ${image} ${JSON.stringify(digest)} is not "sha256:" and 64 lowercase hex digits.`,
        `Read it from the registry, e.g. crane digest <registry>/${image}:<tag>.`);
    }
  }
  return { ...digests };
}

function lastSegment(repository: string): string {
  return repository.slice(repository.lastIndexOf('/') + 1);
}

function setPath(values: Record<string, any>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = values;
  for (const part of parts.slice(0, -1)) node = (node[part] = node[part] ?? {});
  node[parts[parts.length - 1]] = value;
}

/** One image as it will be pulled, and where it comes from (for a mirror sync). */
export interface DistributedImage {
  /** The image's short name (`proxy` …). */
  readonly image: string;
  /** The reference the chart renders. */
  readonly reference: string;
  /** The upstream reference to copy into the mirror. */
  readonly source: string;
}

/** Where the images of every Linkerd chart come from. */
export class ImageDistribution {
  /** The charts' own registries (`cr.l5d.io/linkerd`, `prom`, `registry.k8s.io`) and tags, optionally pinned by digest. */
  public static upstream(options: ImageDistributionOptions = {}): ImageDistribution {
    return new ImageDistribution(undefined, checkDigests('upstream', options.digests), options.requireDigests);
  }

  /**
   * Every image re-homed to `registry` (e.g. `registry.example/linkerd`: `cr.l5d.io/linkerd/proxy` becomes
   * `registry.example/linkerd/proxy`, `prom/prometheus` becomes `registry.example/linkerd/prometheus`), same tags,
   * pinned by digest where `digests` says so.
   */
  public static mirror(registry: string, options: ImageDistributionOptions = {}): ImageDistribution {
    if (typeof registry !== 'string' || !REGISTRY.test(registry)) {
      throw distributionError('mirror', `registry ${JSON.stringify(registry)} is not a registry host with an optional path.`,
        'Pass e.g. "registry.example/linkerd" (no scheme, no trailing slash, no tag).');
    }
    return new ImageDistribution(registry, checkDigests('mirror', options.digests), options.requireDigests);
  }

  /**
   * The mirror registry.
   * @default - none: the charts' own registries
   */
  public readonly registry?: string;
  /** Whether the checks should warn about images without a digest. */
  public readonly requireDigests: boolean;
  private readonly digests: Record<string, string>;

  private constructor(registry: string | undefined, digests: Record<string, string>, requireDigests: boolean | undefined) {
    this.registry = registry;
    this.digests = digests;
    this.requireDigests = requireDigests ?? Object.keys(digests).length > 0;
  }

  /** The digest given for an image, if any. */
  public digestOf(image: string): string | undefined {
    return this.digests[image];
  }

  /**
   * The chart values that re-home and pin every image of `chart` (`linkerd-control-plane`, `linkerd2-cni`,
   * `linkerd-viz`, `linkerd-multicluster`, `linkerd-multicluster-link`); empty for the upstream distribution without
   * digests.
   */
  public valuesFor(chart: string, version: LinkerdVersion = LinkerdVersion.V2_20): { [key: string]: any } {
    const values: Record<string, any> = {};
    for (const image of chartImages(chart)) this.writeImage(values, image, version);
    return values;
  }

  /** Every image of `chart` as it will be pulled and where it is copied from (e.g. for `crane copy`). */
  public imagesOf(chart: string, version: LinkerdVersion = LinkerdVersion.V2_20): DistributedImage[] {
    const seen = new Set<string>();
    const out: DistributedImage[] = [];
    for (const image of chartImages(chart)) {
      const tag = image.fixedTag ?? version.appVersion;
      const digest = this.digests[image.image];
      const repository = this.registry ? `${this.registry}/${lastSegment(image.upstream)}` : image.upstream;
      const reference = `${repository}:${tag}${digest ? `@${digest}` : ''}`;
      if (seen.has(reference)) continue;
      seen.add(reference);
      out.push({ image: image.image, reference, source: `${image.upstream}:${tag}` });
    }
    return out;
  }

  private writeImage(values: Record<string, any>, image: ChartImage, version: LinkerdVersion): void {
    const digest = this.digests[image.image];
    if (!this.registry && !digest) return;
    const tag = image.fixedTag ?? version.appVersion;
    const tagged = digest ? `${tag}@${digest}` : undefined;
    switch (image.layout) {
      case ImageLayout.NAME_VERSION:
        if (this.registry) setPath(values, image.nameKey, `${this.registry}/${lastSegment(image.upstream)}`);
        if (tagged) setPath(values, image.versionKey, tagged);
        break;
      case ImageLayout.REGISTRY_NAME_TAG:
        if (this.registry) setPath(values, image.registryKey!, this.registry);
        if (this.registry) setPath(values, image.nameKey, lastSegment(image.upstream));
        if (tagged) setPath(values, image.versionKey, tagged);
        break;
      case ImageLayout.REFERENCE:
        setPath(values, image.nameKey, `${this.registry ? `${this.registry}/${lastSegment(image.upstream)}` : image.upstream}:${tagged ?? tag}`);
        break;
    }
  }
}
