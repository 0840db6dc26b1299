/**
 * The one place rules learn how Linkerd is installed: Helm chart installs found in Argo CD Applications, Flux
 * HelmReleases, and a rendered chart's `linkerd-config` ConfigMap (whose `values` key holds the install's values, minus
 * the issuer key). Rules ask for installs and their values instead of parsing delivery objects themselves.
 */
import * as yaml from 'js-yaml';
import { annotationOf, labelOf } from './manifest';
import { perIndex } from './memo';
import { IndexedObject, ObjectStore } from './object-store';
import { mergeLayers } from '../../core/helm-values';
import { LABELS_GO } from '../../core/linkerd-annotations.generated';
import { nullRecord, ownValue, setOwnPath } from '../../core/own-keys';
import { isRecord as isPlainObject } from '../../util/json';

export const CONTROL_PLANE_CHART = 'linkerd-control-plane';
export const LINKERD_CONFIG_MAP = 'linkerd-config';

/** Where an install was read from. */
export enum InstallSource {
  ARGO_CD = 'Argo CD Application',
  FLUX = 'Flux HelmRelease',
  CONFIG_MAP = 'linkerd-config ConfigMap',
}

/** How a chart source pins the version, where it does instead of a chart version field. */
export type SourcePin = { readonly pinned: true } | { readonly unseen: true } | { readonly floats: string };

/** One Helm chart install. */
export interface ChartInstall {
  /** The object findings about this install are reported on. */
  readonly subject: IndexedObject;
  readonly source: InstallSource;
  /** Chart name, when the source names it. */
  readonly chart?: string;
  /** Chart version as written (Argo targetRevision, Flux chart version …); undefined when the source has none. */
  readonly chartVersion?: string;
  /** The field the chart version was read from, for messages. */
  readonly versionField: string;
  /**
   * What the chart's source says of the version, where it decides instead of `chartVersion`: PINNED (an
   * OCIRepository's `ref.digest`, which Flux prefers to any tag or semver; a GitRepository's commit or tag), UNSEEN
   * (a GitRepository not in the manifests, or a Bucket: nothing here says), or why it floats (a branch).
   */
  readonly sourcePin?: SourcePin;
  /** The install's values, when they could be read. */
  readonly values?: Record<string, any>;
  /** Namespace the chart is installed into. */
  readonly namespace?: string;
  /**
   * Value sources the analysis cannot read (Argo CD valueFiles, a Flux valuesFrom Secret or a ConfigMap not in the
   * output), in words: a value `values` leaves unset may be set there.
   */
  readonly unseenValues: string[];
}

/** Linkerd's charts: the core (linkerd-crds, linkerd-control-plane, linkerd2-cni) and extensions (linkerd-viz …). */
export function isLinkerdChart(chart: string | undefined): boolean {
  return typeof chart === 'string' && /^linkerd/.test(chart.slice(chart.lastIndexOf('/') + 1));
}

function parseYamlValues(text: unknown): Record<string, any> | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = yaml.load(text);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A `--set` value as Helm types it (strvals.go typedVal): true, false and null in any case, and integers without a
 * leading zero, are not strings; `--set-string` (Argo CD's forceString) keeps the text.
 */
function setValue(value: unknown, forceString: boolean): unknown {
  if (forceString || typeof value !== 'string') return value;
  const lower = value.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  if (value === '0') return 0;
  return /^[+-]?[1-9]\d*$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

/** `a.b.c=v` style Helm parameters (Argo CD passes them as --set, or --set-string with forceString) as nested values. */
function parameterValues(parameters: unknown): Record<string, any> | undefined {
  if (!Array.isArray(parameters) || parameters.length === 0) return undefined;
  // The names are the input's: `__proto__.group` is a key path like any other, never a way to Object.prototype.
  const out = nullRecord();
  for (const p of parameters) {
    if (!p || typeof p.name !== 'string') continue;
    setOwnPath(out, p.name.split('.'), setValue(p.value, p.forceString === true));
  }
  return out;
}

function argoSources(spec: any): any[] {
  if (Array.isArray(spec?.sources)) return spec.sources.filter((s: unknown) => isPlainObject(s));
  return isPlainObject(spec?.source) ? [spec.source] : [];
}

/** Argo CD merges `values`, then `valuesObject`, then `parameters`, each overriding the one before. */
function argoInstalls(entry: IndexedObject): ChartInstall[] {
  const spec = entry.object.spec;
  return argoSources(spec).filter((source) => typeof source.chart === 'string').map((source) => ({
    subject: entry,
    source: InstallSource.ARGO_CD,
    chart: source.chart,
    chartVersion: typeof source.targetRevision === 'string' ? source.targetRevision : undefined,
    versionField: 'spec.source.targetRevision',
    values: mergeLayers(parseYamlValues(source.helm?.values), isPlainObject(source.helm?.valuesObject) ? source.helm.valuesObject : undefined,
      parameterValues(source.helm?.parameters)),
    namespace: spec?.destination?.namespace,
    unseenValues: [
      ...unseenValueFiles(source.helm?.valueFiles, 'spec.source.helm.valueFiles'),
      // Values read from files of the repository (a PEM given with --set-file): the analysis cannot read them.
      ...Array.isArray(source.helm?.fileParameters) && source.helm.fileParameters.length > 0 ? ['spec.source.helm.fileParameters'] : [],
    ],
  }));
}

/**
 * A list of values files (Argo CD's `valueFiles`, Flux's `valuesFiles`), as what the analysis cannot read: the chart's
 * own values.yaml is its defaults, anything else (values-ha.yaml, a repository file) may set any value.
 */
function unseenValueFiles(files: unknown, field: string): string[] {
  const read = Array.isArray(files) ? files.filter((f) => typeof f !== 'string' || !/^(\.\/)?values\.yaml$/.test(f)) : [];
  return read.length > 0 ? [`${field} (${read.map(String).join(', ')})`] : [];
}

/** The valuesFrom entries of a HelmRelease the analysis cannot read: Secrets, and ConfigMaps it does not have. */
function unseenValuesFrom(index: ObjectStore, release: IndexedObject): string[] {
  const refs = release.object.spec?.valuesFrom;
  if (!Array.isArray(refs)) return [];
  return refs.filter((ref) => isPlainObject(ref) && !(ref.kind === 'ConfigMap' && typeof ref.name === 'string'
    && index.get('', 'ConfigMap', release.id.namespace, ref.name) !== undefined))
    .map((ref) => `spec.valuesFrom ${String(ref.kind)} ${String(ref.name)}`);
}

/** Values a HelmRelease pulls from ConfigMaps in the output or inventory (Secrets are not read). */
function valuesFrom(index: ObjectStore, release: IndexedObject): Array<Record<string, any> | undefined> {
  const refs = release.object.spec?.valuesFrom;
  if (!Array.isArray(refs)) return [];
  return refs.filter((ref) => ref?.kind === 'ConfigMap' && typeof ref.name === 'string').map((ref) => {
    const configMap = index.get('', 'ConfigMap', release.id.namespace, ref.name);
    const text = ownValue(configMap?.object.data, typeof ref.valuesKey === 'string' ? ref.valuesKey : 'values.yaml');
    if (ref.targetPath) return parameterValues([{ name: ref.targetPath, value: text }]);
    return parseYamlValues(text);
  });
}

/** An OCI content digest, as an OCIRepository's `ref.digest` pins a chart. */
const OCI_DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * How a GitRepository's spec.ref pins what it fetches, in Flux's order of precedence (commit, name, semver, tag,
 * branch; without a ref, the master branch): a semver is a version like any other, so it is returned as one.
 */
function gitRefPin(name: string, ref: any): { pin?: SourcePin; version?: string; field: string } {
  const field = `GitRepository ${name} spec.ref`;
  if (typeof ref?.commit === 'string' && ref.commit !== '') return { pin: { pinned: true }, field };
  if (typeof ref?.name === 'string' && ref.name !== '') {
    return { pin: ref.name.startsWith('refs/tags/') ? { pinned: true } : { floats: `${field}.name "${ref.name}", a reference that moves` }, field };
  }
  if (ref?.semver !== undefined) return { version: ref.semver, field: `${field}.semver` };
  if (typeof ref?.tag === 'string' && ref.tag !== '') return { pin: { pinned: true }, field };
  const branch = typeof ref?.branch === 'string' && ref.branch !== '' ? ref.branch : 'master';
  return { pin: { floats: `${field} follows branch "${branch}"` }, field };
}

/** A chart, its version and where that was read, and how the source pins it where the source decides. */
interface FluxChart {
  readonly chart?: string;
  readonly version?: string;
  readonly field: string;
  readonly pin?: SourcePin;
}

/**
 * A chart from a GitRepository or Bucket: Flux ignores spec.chart.spec.version for these (HelmChartTemplateSpec
 * `version`), and the source's revision is what is installed.
 */
function fluxSourceChart(index: ObjectStore, release: IndexedObject, chartSpec: any): FluxChart | undefined {
  const source = chartSpec.sourceRef;
  if (source?.kind !== 'GitRepository' && source?.kind !== 'Bucket') return undefined;
  const namespace = source.namespace ?? release.id.namespace;
  const repo = source.kind === 'GitRepository' ? index.get('source.toolkit.fluxcd.io', 'GitRepository', namespace, source.name) : undefined;
  if (!repo) return { chart: chartSpec.chart, field: `${source.kind} ${source.name}`, pin: { unseen: true } };
  return { chart: chartSpec.chart, ...gitRefPin(String(source.name), repo.object.spec?.ref) };
}

/**
 * The chart and version a HelmRelease points at: `spec.chart.spec` (from a GitRepository or Bucket: `fluxSourceChart`),
 * or an OCIRepository / HelmChart via `spec.chartRef`.
 */
function fluxChart(index: ObjectStore, release: IndexedObject): FluxChart {
  const chartSpec = release.object.spec?.chart?.spec;
  if (isPlainObject(chartSpec)) {
    return fluxSourceChart(index, release, chartSpec) ?? { chart: chartSpec.chart, version: chartSpec.version, field: 'spec.chart.spec.version' };
  }
  const ref = release.object.spec?.chartRef;
  const namespace = ref?.namespace ?? release.id.namespace;
  if (ref?.kind === 'OCIRepository') {
    const repo = index.get('source.toolkit.fluxcd.io', 'OCIRepository', namespace, ref.name)?.object.spec;
    const url = typeof repo?.url === 'string' ? repo.url : undefined;
    const version = repo?.ref?.digest ?? repo?.ref?.tag ?? repo?.ref?.semver;
    const digest = typeof repo?.ref?.digest === 'string' && OCI_DIGEST.test(repo.ref.digest);
    return { chart: url?.slice(url.lastIndexOf('/') + 1), version, field: `OCIRepository ${ref.name} spec.ref`, ...(digest ? { pin: { pinned: true } } : {}) };
  }
  if (ref?.kind === 'HelmChart') {
    const chart = index.get('source.toolkit.fluxcd.io', 'HelmChart', namespace, ref.name)?.object.spec;
    return { chart: chart?.chart, version: chart?.version, field: `HelmChart ${ref.name} spec.version` };
  }
  return { field: 'spec.chart.spec.version' };
}

/** Flux merges valuesFrom in order, then spec.values on top. */
function fluxInstall(index: ObjectStore, entry: IndexedObject): ChartInstall {
  const spec = entry.object.spec;
  const chart = fluxChart(index, entry);
  return {
    subject: entry,
    source: InstallSource.FLUX,
    chart: chart.chart,
    chartVersion: chart.version,
    versionField: chart.field,
    ...(chart.pin ? { sourcePin: chart.pin } : {}),
    values: mergeLayers(...valuesFrom(index, entry), isPlainObject(spec?.values) ? spec.values : undefined),
    namespace: spec?.targetNamespace ?? entry.id.namespace,
    unseenValues: [...unseenValuesFrom(index, entry), ...unseenValueFiles(spec?.chart?.spec?.valuesFiles, 'spec.chart.spec.valuesFiles')],
  };
}

function configMapInstall(entry: IndexedObject): ChartInstall | undefined {
  const values = parseYamlValues(entry.object.data?.values);
  if (!values) return undefined;
  return {
    subject: entry,
    source: InstallSource.CONFIG_MAP,
    chart: CONTROL_PLANE_CHART,
    versionField: 'data.values',
    values,
    namespace: entry.id.namespace,
    unseenValues: [],
  };
}

/** Whether an install is of `chart` (a chart reference may carry a repository path: `oci://…/linkerd-control-plane`). */
export function isInstallOf(install: ChartInstall, chart: string): boolean {
  return install.chart?.slice(install.chart.lastIndexOf('/') + 1) === chart;
}

/** Every Linkerd chart install in this output (not the inventory), in input order; once per index (shared: do not modify). */
export const linkerdInstalls: (index: ObjectStore) => ChartInstall[] = perIndex(findLinkerdInstalls);

function findLinkerdInstalls(index: ObjectStore): ChartInstall[] {
  const installs: ChartInstall[] = [];
  for (const app of index.own('argoproj.io', 'Application')) installs.push(...argoInstalls(app));
  for (const release of index.own('helm.toolkit.fluxcd.io', 'HelmRelease')) installs.push(fluxInstall(index, release));
  for (const configMap of index.own('', 'ConfigMap')) {
    if (configMap.id.name !== LINKERD_CONFIG_MAP) continue;
    const install = configMapInstall(configMap);
    if (install) installs.push(install);
  }
  return installs.filter((install) => isLinkerdChart(install.chart));
}

/** Installs of linkerd-control-plane whose values could be read; once per index (shared: do not modify). */
export const controlPlaneInstalls: (index: ObjectStore) => Array<ChartInstall & { values: Record<string, any> }> = perIndex((index) =>
  linkerdInstalls(index).filter((i): i is ChartInstall & { values: Record<string, any> } =>
    isInstallOf(i, CONTROL_PLANE_CHART) && i.values !== undefined));

/**
 * Which of Linkerd's charts rendered this object, in words (`Linkerd's viz extension chart`), or undefined for an object
 * a user wrote. Extension charts label every object with `linkerd.io/extension`; the core charts and the CLI annotate
 * theirs with `linkerd.io/created-by: linkerd/helm …` or `linkerd/cli …`.
 */
export function renderedByLinkerdChart(entry: IndexedObject): string | undefined {
  const extension = labelOf(entry.object, LABELS_GO.LinkerdExtensionLabel);
  if (extension !== undefined && extension !== '') return `Linkerd's ${extension} extension chart`;
  return annotationOf(entry.object, LABELS_GO.CreatedByAnnotation)?.startsWith('linkerd/') ? 'a Linkerd chart' : undefined;
}

/** The object to report a cluster-wide problem on: the first Linkerd install, else the first object of the output. */
export function clusterSubject(index: ObjectStore): IndexedObject | undefined {
  return linkerdInstalls(index)[0]?.subject ?? index.objects.find((o) => !o.inventory);
}
