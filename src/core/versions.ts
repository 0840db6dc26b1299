/**
 * The one source of truth for which Linkerd this library installs. Every delivery form (cdk8s Helm, Argo CD, Flux,
 * CDKTF), every runbook and every version rule reads these numbers from here, so a version bump is one edit.
 */
import { IConstruct } from 'constructs';
import { MeshConfigError } from './errors';

/** Rule IDs of the version and control-plane checks (shared by constructs and the engine). */
export const VersionRule = {
  /** Charts and images are pinned to exact versions. */
  PINNED: 'LKD-VER-001',
  /** Per-workload proxy version overrides match the control plane. */
  PROXY_SKEW: 'LKD-VER-002',
  /** HA: replicas, PDBs, anti-affinity and the nodes they need. */
  HA: 'LKD-CP-001',
  /** webhookFailurePolicy Ignore skips policy validation. */
  WEBHOOK_IGNORE: 'LKD-CP-002',
  /** identity.externalCA without a trust-roots source. */
  EXTERNAL_CA: 'LKD-CP-003',
  /** The cluster's Kubernetes version is below the chart's kubeVersion. */
  KUBERNETES: 'LKD-CP-004',
  /** The cluster's Gateway API bundle is outside what this Linkerd supports. */
  GATEWAY_API: 'LKD-CP-005',
} as const;

/** Options for a Linkerd release other than the ones this library ships constants for. */
export interface LinkerdChartVersionOptions {
  /**
   * The control plane's appVersion (also the tag of the proxy and controller images).
   * @default - derived from an edge chart version: `2026.6.3` gives `edge-26.6.3`
   */
  readonly appVersion?: string;
  /**
   * The proxy binary version the release ships (informational; `linkerd version --proxy` reports it).
   * @default - unknown
   */
  readonly proxyVersion?: string;
  /**
   * The Helm repository that serves the charts.
   * @default "https://helm.linkerd.io/edge"
   */
  readonly helmRepository?: string;
  /**
   * The chart's minimum Kubernetes version (its `kubeVersion`).
   * @default "1.31"
   */
  readonly minKubernetesVersion?: string;
  /**
   * Lowest supported Gateway API bundle.
   * @default "v1.2.1"
   */
  readonly gatewayApiMinVersion?: string;
  /**
   * Highest supported Gateway API bundle.
   * @default "v1.5.1"
   */
  readonly gatewayApiMaxVersion?: string;
}

/** A numeric version triple; missing parts count as 0. */
export type VersionTriple = [number, number, number];

const EXACT_CHART_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const FLOATING_MARKERS = /[\^~><=*|]|(^|\.)[xX](\.|$)|\s-\s/;
const EDGE_CHART_VERSION = /^20(\d\d)\.(\d{1,2})\.(\d+)$/;
const KUBE_VERSION = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+][0-9A-Za-z.+-]*)?$/;
const BUNDLE_VERSION = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/;

/** Reads `1.31`, `v1.31.2`, `1.31.0-eks.1` into a triple; undefined when it is not a Kubernetes version. */
export function parseKubernetesVersion(text: unknown): VersionTriple | undefined {
  const m = typeof text === 'string' ? KUBE_VERSION.exec(text.trim()) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

/** Reads a Gateway API bundle version (`v1.2.1`, `1.3`); undefined when it is not one. */
export function parseBundleVersion(text: unknown): VersionTriple | undefined {
  const m = typeof text === 'string' ? BUNDLE_VERSION.exec(text.trim()) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

export function compareVersions(a: VersionTriple, b: VersionTriple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Why a chart version is not an exact, pinned version; undefined when it is one. */
export function chartVersionProblem(version: unknown): string | undefined {
  if (typeof version !== 'string' || version.trim() === '') return 'no chart version is set, so the newest chart is installed';
  const v = version.trim();
  if (/^(latest|stable|edge|head|main|master)$/i.test(v)) return `chart version "${v}" floats to whatever is newest`;
  if (FLOATING_MARKERS.test(v)) return `chart version "${v}" is a range that floats to the newest match`;
  if (!EXACT_CHART_VERSION.test(v)) return `chart version "${v}" is not an exact semantic version`;
  return undefined;
}

const FLOATING_TAGS = new Set(['stable', 'edge', 'main', 'master', 'head', 'nightly', 'dev', 'canary', 'rolling']);

/** Why an image tag is not pinned; undefined when it is. */
export function imageTagProblem(tag: unknown): string | undefined {
  if (typeof tag !== 'string' || tag.trim() === '') return 'no tag is set';
  const t = tag.trim().toLowerCase();
  if (t === 'latest') return 'the tag "latest" moves with every release';
  // Release channels that registries re-point on every release (Linkerd's own `stable`/`edge` among them).
  if (FLOATING_TAGS.has(t)) return `the tag "${tag.trim()}" is a channel that moves with every release`;
  return undefined;
}

/** Why an image reference (`registry/repo:tag` or `repo@sha256:...`) is not pinned; undefined when it is. */
export function imageProblem(image: unknown): string | undefined {
  if (typeof image !== 'string' || image.trim() === '') return 'the image is empty';
  const ref = image.trim();
  if (ref.includes('@')) return undefined;
  const lastSlash = ref.lastIndexOf('/');
  const colon = ref.indexOf(':', lastSlash + 1);
  if (colon < 0) return `image "${ref}" has no tag, so it pulls "latest"`;
  const problem = imageTagProblem(ref.slice(colon + 1));
  return problem ? `image "${ref}": ${problem}` : undefined;
}

/** `edge-26.6.3` from an edge chart version `2026.6.3` (what Linkerd's release CI does); undefined otherwise. */
export function edgeAppVersion(chartVersion: string): string | undefined {
  const m = EDGE_CHART_VERSION.exec(chartVersion);
  return m ? `edge-${m[1]}.${Number(m[2])}.${m[3]}` : undefined;
}

function versionError(method: string, problem: string, fix: string): MeshConfigError {
  // No construct exists yet when a version is chosen; the error names the factory instead of a construct path.
  const pseudoScope = { node: { path: `LinkerdVersion.${method}` } } as unknown as IConstruct;
  return new MeshConfigError(pseudoScope, VersionRule.PINNED, problem, fix);
}

/**
 * A pinned Linkerd release: chart versions, app and proxy versions, and what the cluster must run.
 * Only exact chart versions exist here; floating versions (`latest`, ranges) are refused.
 */
export class LinkerdVersion {
  /**
   * Linkerd 2.20: charts linkerd-crds and linkerd-control-plane 2026.6.3 (appVersion edge-26.6.3, proxy v2.359.0),
   * Kubernetes ≥ 1.31, Gateway API v1.2.1 to v1.5.1.
   */
  public static readonly V2_20 = new LinkerdVersion('2026.6.3', 'edge-26.6.3', 'v2.359.0',
    'https://helm.linkerd.io/edge', '1.31', 'v1.2.1', 'v1.5.1');

  /**
   * Another release, by its exact chart version (e.g. `2026.7.1`). Ranges, `latest` and empty versions are refused
   * (LKD-VER-001), because a floating chart changes the control plane without a code change.
   */
  public static ofChart(chartVersion: string, options: LinkerdChartVersionOptions = {}): LinkerdVersion {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw versionError('ofChart', `options must be an object, but is ${JSON.stringify(options)}.`, 'Pass options as { appVersion: "edge-26.7.1" }, or omit them.');
    }
    const problem = chartVersionProblem(chartVersion);
    if (problem) {
      throw versionError('ofChart', `${problem}.`, 'Pass an exact chart version such as "2026.6.3" (see https://helm.linkerd.io/edge/index.yaml).');
    }
    const version = chartVersion.trim();
    const appVersion = options.appVersion ?? edgeAppVersion(version);
    if (!appVersion || imageTagProblem(appVersion)) {
      throw versionError('ofChart', `the appVersion of chart ${version} is unknown or floating (${JSON.stringify(options.appVersion)}).`,
        'Pass options.appVersion, the exact control-plane version (e.g. "edge-26.7.1").');
    }
    LinkerdVersion.requireParsable(options.minKubernetesVersion, parseKubernetesVersion, 'minKubernetesVersion');
    LinkerdVersion.requireParsable(options.gatewayApiMinVersion, parseBundleVersion, 'gatewayApiMinVersion');
    LinkerdVersion.requireParsable(options.gatewayApiMaxVersion, parseBundleVersion, 'gatewayApiMaxVersion');
    const base = LinkerdVersion.V2_20;
    if (version === base.chartVersion && Object.keys(options).length === 0) return base;
    return new LinkerdVersion(version, appVersion, options.proxyVersion, options.helmRepository ?? base.helmRepository,
      options.minKubernetesVersion ?? base.minKubernetesVersion, options.gatewayApiMinVersion ?? base.gatewayApiMinVersion,
      options.gatewayApiMaxVersion ?? base.gatewayApiMaxVersion);
  }

  private static requireParsable(value: string | undefined, parse: (v: unknown) => VersionTriple | undefined, what: string): void {
    if (value !== undefined && !parse(value)) {
      throw versionError('ofChart', `${what} ${JSON.stringify(value)} is not a version.`, `Pass ${what} like "1.31" or "v1.2.1".`);
    }
  }

  /** Chart name of the CRDs chart. */
  public readonly crdsChart = 'linkerd-crds';
  /** Chart name of the control-plane chart. */
  public readonly controlPlaneChart = 'linkerd-control-plane';

  /** Exact version of both charts (linkerd-crds and linkerd-control-plane). */
  public readonly chartVersion: string;
  /** The control plane's appVersion; the proxy and controller images are tagged with it. */
  public readonly appVersion: string;
  /**
   * The proxy binary version.
   * @default - unknown for releases made with `ofChart` without `proxyVersion`
   */
  public readonly proxyVersion?: string;
  /** The Helm repository serving the charts. */
  public readonly helmRepository: string;
  /** The chart's minimum Kubernetes version. */
  public readonly minKubernetesVersion: string;
  /** Lowest supported Gateway API bundle version. */
  public readonly gatewayApiMinVersion: string;
  /** Highest supported Gateway API bundle version. */
  public readonly gatewayApiMaxVersion: string;

  private constructor(chartVersion: string, appVersion: string, proxyVersion: string | undefined, helmRepository: string,
    minKubernetesVersion: string, gatewayApiMinVersion: string, gatewayApiMaxVersion: string) {
    this.chartVersion = chartVersion;
    this.appVersion = appVersion;
    this.proxyVersion = proxyVersion;
    this.helmRepository = helmRepository;
    this.minKubernetesVersion = minKubernetesVersion;
    this.gatewayApiMinVersion = gatewayApiMinVersion;
    this.gatewayApiMaxVersion = gatewayApiMaxVersion;
  }

  /** The tag of the proxy and controller images (`cr.l5d.io/linkerd/proxy:<tag>`). */
  public get imageTag(): string {
    return this.appVersion;
  }

  /** Whether a cluster of this Kubernetes version (e.g. `1.31`, `v1.32.4`) meets the chart's minimum. */
  public supportsKubernetes(kubernetesVersion: string): boolean {
    const v = parseKubernetesVersion(kubernetesVersion);
    return v !== undefined && compareVersions(v, parseKubernetesVersion(this.minKubernetesVersion)!) >= 0;
  }

  /** Whether this Gateway API bundle version (e.g. `v1.2.1`) is within the supported range. */
  public supportsGatewayApi(gatewayApiVersion: string): boolean {
    const v = parseBundleVersion(gatewayApiVersion);
    return v !== undefined
      && compareVersions(v, parseBundleVersion(this.gatewayApiMinVersion)!) >= 0
      && compareVersions(v, parseBundleVersion(this.gatewayApiMaxVersion)!) <= 0;
  }
}
