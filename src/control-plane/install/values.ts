/**
 * The pure core of the install: typed options plus the identity's values in, validated and sorted chart values out.
 * Every delivery form (cdk8s Helm, Argo CD, Flux, CDKTF) hands exactly these values to its chart.
 */
import { IConstruct } from 'constructs';
import { ZoneSpread } from './fault-domains';
import { HighAvailabilityPreset } from './high-availability';
import { ImageDistribution } from './image-distribution';
import { checkMergedValues } from './merged-values';
import { LinkerdCniOptions, LinkerdInstallOptions, LinkerdProxyOptions, ProxyLogHttpHeaders, ProxyResources, WebhookFailurePolicy } from './options';
import { isReplicaCount } from '../../core/chart-values';
import { parseExactCidr } from '../../core/cidr';
import { DefaultInboundPolicy, isDefaultInboundPolicy } from '../../core/default-inbound-policy';
import { InputRule, check } from '../../core/errors';
import { cloneValues, mergeLayers, sortKeys } from '../../core/helm-values';
import { imageValueProblems } from '../../core/image-values';
import { validateLabelName, validatePortNumber } from '../../core/names';
import { optionalStruct } from '../../core/runtime-checks';
import { LinkerdVersion, VersionRule } from '../../core/versions';
import { isRecord as isPlainObject } from '../../util/json';

/** The chart's defaults for the keys the typed options govern; written explicitly so a chart change cannot move them. */
export const CHART_DEFAULTS = {
  opaquePorts: [25, 587, 3306, 4444, 5432, 6379, 9300, 11211],
  clusterNetworks: ['10.0.0.0/8', '100.64.0.0/10', '172.16.0.0/12', '192.168.0.0/16', 'fd00::/8'],
  gatewayApiVersion: 'v1.2.1',
  namespace: 'linkerd',
  trustDomain: 'cluster.local',
};

/** Release names Linkerd's own docs use, so `helm -n linkerd ls` looks as users expect. */
export const RELEASE_NAMES = { crds: 'linkerd-crds', controlPlane: 'linkerd-control-plane', cni: 'linkerd2-cni' };

/** The linkerd2-cni chart as resolved for delivery. */
export interface ResolvedCni {
  readonly chart: string;
  readonly releaseName: string;
  readonly namespace: string;
  /** linkerd2-cni values, keys sorted. */
  readonly values: Record<string, any>;
}

/** Gateway API switches of linkerd-crds that would install its bundled v1.1.1 HTTPRoute/GRPCRoute CRDs. */
const BUNDLED_GATEWAY_SWITCHES = ['installGatewayAPI', 'enableHttpRoutes'];

/** Everything a delivery form needs, resolved once. */
export interface ResolvedInstall {
  readonly version: LinkerdVersion;
  readonly namespace: string;
  readonly trustDomain: string;
  readonly kubernetesVersion: string;
  readonly gatewayApiVersion: string;
  readonly highAvailability: boolean;
  readonly cniEnabled: boolean;
  readonly crdsReleaseName: string;
  readonly controlPlaneReleaseName: string;
  /** linkerd-crds values, keys sorted. */
  readonly crdsValues: Record<string, any>;
  /** linkerd-control-plane values, keys sorted. */
  readonly controlPlaneValues: Record<string, any>;
  /** True when the values carry the issuer's private key (the identity was told to write it). */
  readonly writesPrivateKey: boolean;
  /** The zone spread asked for explicitly; the delivery form decides the default. */
  readonly zoneSpread?: ZoneSpread;
  /** Where every chart's images come from. */
  readonly images: ImageDistribution;
  /** The CNI chart, when it is installed with the control plane. */
  readonly cni?: ResolvedCni;
}

/** What the identity contributed when it was bound. */
export interface IdentityValues {
  readonly values: Record<string, any>;
  readonly writesPrivateKey: boolean;
  /** The delivery supplies identity.issuer.tls.keyPEM at deploy time (see IdentityBindOptions). */
  readonly issuerKeySuppliedAtDeploy?: boolean;
}

const QUANTITY = /^[+]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

function validateVersions(scope: IConstruct, version: LinkerdVersion, kubernetesVersion: string, gatewayApiVersion: string): void {
  check(version instanceof LinkerdVersion, scope, VersionRule.PINNED, 'version is not a LinkerdVersion.',
    'Pass LinkerdVersion.V2_20 or LinkerdVersion.ofChart("<exact chart version>").');
  check(version.supportsKubernetes(kubernetesVersion), scope, VersionRule.KUBERNETES,
    `kubernetesVersion ${JSON.stringify(kubernetesVersion)} is below the chart's minimum ${version.minKubernetesVersion} (kubeVersion ">=${version.minKubernetesVersion}.0-0"), or is not a version.`,
    `Upgrade the cluster to Kubernetes ${version.minKubernetesVersion} or later and declare it, e.g. kubernetesVersion: "${version.minKubernetesVersion}".`);
  check(version.supportsGatewayApi(gatewayApiVersion), scope, VersionRule.GATEWAY_API,
    `gatewayApiVersion ${JSON.stringify(gatewayApiVersion)} is outside the range this Linkerd supports (${version.gatewayApiMinVersion}–${version.gatewayApiMaxVersion}).`,
    `Install Gateway API ${version.gatewayApiMinVersion} (standard channel, recommended) and declare it as gatewayApiVersion.`);
}

function validateNetworks(scope: IConstruct, networks: string[]): string {
  check(Array.isArray(networks) && networks.length > 0, scope, InputRule.REQUIRED, 'clusterNetworks is empty.',
    'List the pod and service CIDRs of the cluster, or omit clusterNetworks for the chart default.');
  for (const cidr of networks) {
    // As the injector reads the joined list (pkg/inject GetPodPatch: split at commas, net.ParseCIDR): a prefix length, no spaces.
    check(typeof cidr === 'string' && cidr.includes('/') && parseExactCidr(cidr) !== undefined, scope, InputRule.RANGE,
      `clusterNetworks entry ${JSON.stringify(cidr)} is not a CIDR as Go's net.ParseCIDR reads it (address/prefix, no spaces).`,
      'Use CIDRs such as "10.0.0.0/8" or "fd00::/8".');
  }
  return networks.join(',');
}

function opaquePortList(scope: IConstruct, ports: number[]): string {
  check(Array.isArray(ports), scope, InputRule.REQUIRED, 'proxy.opaquePorts is not a list.', 'Pass a list of port numbers.');
  return [...new Set(ports.map((p) => validatePortNumber(scope, p, 'proxy.opaquePorts entry')))].sort((a, b) => a - b).join(',');
}

function quantity(scope: IConstruct, value: string | undefined, what: string): string | undefined {
  if (value === undefined) return undefined;
  check(typeof value === 'string' && QUANTITY.test(value), scope, InputRule.RANGE,
    `proxy.resources.${what} ${JSON.stringify(value)} is not a Kubernetes quantity.`, 'Use a quantity such as "100m", "0.5", "64Mi" or "1Gi".');
  return value;
}

function resourceValues(scope: IConstruct, resources: ProxyResources | undefined): Record<string, any> | undefined {
  if (!resources) return undefined;
  const pair = (request?: string, limit?: string) => (request === undefined && limit === undefined ? undefined : { request, limit });
  return {
    cpu: pair(quantity(scope, resources.cpuRequest, 'cpuRequest'), quantity(scope, resources.cpuLimit, 'cpuLimit')),
    memory: pair(quantity(scope, resources.memoryRequest, 'memoryRequest'), quantity(scope, resources.memoryLimit, 'memoryLimit')),
  };
}

function enumValue<T extends string>(scope: IConstruct, value: T | undefined, allowed: Record<string, T>, what: string,
  ruleId: string): T | undefined {
  if (value === undefined) return undefined;
  check(Object.values(allowed).includes(value), scope, ruleId, `${what} ${JSON.stringify(value)} is not one of ${Object.values(allowed).join(', ')}.`,
    `Use a value of the ${what} enum.`);
  return value;
}

function booleanValue(scope: IConstruct, value: boolean | undefined, what: string): boolean | undefined {
  check(value === undefined || typeof value === 'boolean', scope, InputRule.REQUIRED, `${what} must be true or false.`, 'Pass a boolean.');
  return value;
}

/** The typed proxy options as chart values (only what was set). */
function proxyValues(scope: IConstruct, given: LinkerdProxyOptions | undefined): Record<string, any> {
  const proxy: LinkerdProxyOptions = optionalStruct(scope, given, 'proxy') ?? {};
  optionalStruct(scope, proxy.resources, 'proxy.resources');
  if (proxy.defaultInboundPolicy !== undefined) {
    check(isDefaultInboundPolicy(proxy.defaultInboundPolicy), scope, 'LKD-POL-012',
      `proxy.defaultInboundPolicy ${JSON.stringify(proxy.defaultInboundPolicy)} is not one of Linkerd's six policies.`, 'Use a DefaultInboundPolicy value.');
  }
  return {
    defaultInboundPolicy: proxy.defaultInboundPolicy,
    nativeSidecar: booleanValue(scope, proxy.nativeSidecar, 'proxy.nativeSidecar'),
    opaquePorts: proxy.opaquePorts === undefined ? undefined : opaquePortList(scope, proxy.opaquePorts),
    logHTTPHeaders: enumValue(scope, proxy.logHttpHeaders, ProxyLogHttpHeaders as any, 'proxy.logHttpHeaders', InputRule.RANGE),
    resources: resourceValues(scope, proxy.resources),
  };
}

function replicas(scope: IConstruct, value: number | undefined): number | undefined {
  check(value === undefined || isReplicaCount(value), scope, InputRule.RANGE,
    `controllerReplicas ${JSON.stringify(value)} is not a whole number of at least 1 (a Deployment's replicas).`, 'Use 3 for HA (one per node), 1 otherwise.');
  return value;
}

/** Layer 1: the chart defaults of every key a typed option governs. */
function chartDefaultLayer(): Record<string, any> {
  return {
    cniEnabled: false,
    clusterNetworks: CHART_DEFAULTS.clusterNetworks.join(','),
    controllerReplicas: 1,
    webhookFailurePolicy: WebhookFailurePolicy.IGNORE,
    proxy: {
      defaultInboundPolicy: DefaultInboundPolicy.ALL_UNAUTHENTICATED,
      nativeSidecar: true,
      opaquePorts: CHART_DEFAULTS.opaquePorts.join(','),
      logHTTPHeaders: ProxyLogHttpHeaders.OFF,
    },
  };
}

function zoneSpreadOf(scope: IConstruct, value: ZoneSpread | undefined): ZoneSpread | undefined {
  return enumValue(scope, value, ZoneSpread as any, 'zoneSpread', InputRule.RANGE);
}

/** cniEnabled follows `cni`; an explicit false beside `cni` would install the plugin and still run linkerd-init. */
function cniEnabledOf(scope: IConstruct, options: LinkerdInstallOptions): boolean | undefined {
  const explicit = booleanValue(scope, options.cniEnabled, 'cniEnabled');
  if (options.cni === undefined) return explicit;
  check(explicit !== false, scope, InputRule.CONFLICT, 'cni installs linkerd2-cni but cniEnabled is false, so pods would still run linkerd-init.',
    'Drop cniEnabled (it follows cni) or drop cni.');
  return true;
}

function resolveCni(scope: IConstruct, cni: LinkerdCniOptions | undefined, images: ImageDistribution,
  version: LinkerdVersion): ResolvedCni | undefined {
  if (cni === undefined) return undefined;
  check(isPlainObject(cni), scope, InputRule.REQUIRED, 'cni is not an object of CNI options.', 'Pass cni: {} or cni: { namespace: "linkerd-cni" }.');
  checkEscapeHatch(scope, 'cni.additionalValues', cni.additionalValues);
  const values = sortKeys(mergeLayers(images.valuesFor(RELEASE_NAMES.cni, version), cni.additionalValues));
  const [first] = imageValueProblems(values, RELEASE_NAMES.cni);
  check(first === undefined, scope, VersionRule.PINNED, `${first?.problem}.`, `Leave ${first?.path} unset (the chart version pins it) or set an exact tag.`);
  return {
    chart: RELEASE_NAMES.cni,
    releaseName: RELEASE_NAMES.cni,
    namespace: validateLabelName(scope, cni.namespace ?? 'linkerd-cni', 'cni.namespace'),
    values,
  };
}

/** Layer 3: what the typed options set explicitly. */
function typedLayer(scope: IConstruct, options: LinkerdInstallOptions): Record<string, any> {
  const zoneSpread = zoneSpreadOf(scope, options.zoneSpread);
  return {
    cniEnabled: cniEnabledOf(scope, options),
    // Both zone modes build on the chart's anti-affinity (required per node, preferred per zone).
    enablePodAntiAffinity: zoneSpread !== undefined && zoneSpread !== ZoneSpread.NONE ? true : undefined,
    clusterNetworks: options.clusterNetworks === undefined ? undefined : validateNetworks(scope, options.clusterNetworks),
    controllerReplicas: replicas(scope, options.controllerReplicas),
    webhookFailurePolicy: enumValue(scope, options.webhookFailurePolicy, WebhookFailurePolicy as any, 'webhookFailurePolicy', InputRule.RANGE),
    proxy: proxyValues(scope, options.proxy),
  };
}

function checkEscapeHatch(scope: IConstruct, what: string, values: unknown): void {
  check(values === undefined || isPlainObject(values), scope, InputRule.REQUIRED, `${what} is not an object of chart values.`,
    `Pass ${what} as nested values, e.g. { proxy: { logLevel: "warn" } }.`);
}

function checkImages(scope: IConstruct, values: Record<string, any>): void {
  const [first] = imageValueProblems(values);
  check(first === undefined, scope, VersionRule.PINNED, `${first?.problem}.`,
    `Leave ${first?.path} unset (the chart version pins the images) or set an exact tag such as "edge-26.6.3".`);
}

function checkCrdsValues(scope: IConstruct, values: Record<string, any>, version: LinkerdVersion): void {
  const enabled = BUNDLED_GATEWAY_SWITCHES.find((key) => values[key] === true);
  check(enabled === undefined, scope, VersionRule.GATEWAY_API,
    `linkerd-crds value ${enabled} installs the chart's bundled Gateway API CRDs (v1.1.1 experimental), below the supported ${version.gatewayApiMinVersion}.`,
    `Install Gateway API ${version.gatewayApiMinVersion} separately (kubectl apply --server-side -f https://github.com/kubernetes-sigs/gateway-api/releases/download/${version.gatewayApiMinVersion}/standard-install.yaml) and keep installGatewayAPI false.`);
}

/** Resolves options and the identity's values into the chart values every delivery form uses. */
export function resolveInstall(scope: IConstruct, options: LinkerdInstallOptions, identity: IdentityValues): ResolvedInstall {
  const version = options.version ?? LinkerdVersion.V2_20;
  const kubernetesVersion = options.kubernetesVersion ?? version.minKubernetesVersion;
  const gatewayApiVersion = options.gatewayApiVersion ?? CHART_DEFAULTS.gatewayApiVersion;
  validateVersions(scope, version, kubernetesVersion, gatewayApiVersion);
  const namespace = validateLabelName(scope, options.namespace ?? CHART_DEFAULTS.namespace, 'namespace');
  const highAvailability = booleanValue(scope, options.highAvailability, 'highAvailability') ?? false;
  checkEscapeHatch(scope, 'additionalValues', options.additionalValues);
  checkEscapeHatch(scope, 'additionalCrdsValues', options.additionalCrdsValues);
  const images = options.images ?? ImageDistribution.upstream();
  check(images instanceof ImageDistribution, scope, VersionRule.PINNED, 'images is not an ImageDistribution.',
    'Pass ImageDistribution.mirror("registry.example/linkerd", { digests }) or ImageDistribution.upstream().');
  const controlPlaneValues = sortKeys(mergeLayers(
    chartDefaultLayer(),
    highAvailability ? HighAvailabilityPreset.values() : undefined,
    typedLayer(scope, options),
    images.valuesFor(RELEASE_NAMES.controlPlane, version),
    identity.values,
    options.additionalValues,
  ));
  checkImages(scope, controlPlaneValues);
  checkMergedValues(scope, controlPlaneValues, identity.values, identity.writesPrivateKey, identity.issuerKeySuppliedAtDeploy === true);
  const crdsValues = sortKeys(mergeLayers({ installGatewayAPI: false }, options.additionalCrdsValues));
  checkCrdsValues(scope, crdsValues, version);
  return {
    version,
    namespace,
    trustDomain: options.trustDomain ?? CHART_DEFAULTS.trustDomain,
    kubernetesVersion,
    gatewayApiVersion,
    highAvailability,
    cniEnabled: controlPlaneValues.cniEnabled === true,
    crdsReleaseName: RELEASE_NAMES.crds,
    controlPlaneReleaseName: RELEASE_NAMES.controlPlane,
    crdsValues,
    controlPlaneValues,
    writesPrivateKey: identity.writesPrivateKey,
    zoneSpread: zoneSpreadOf(scope, options.zoneSpread),
    images,
    cni: resolveCni(scope, options.cni, images, version),
  };
}

/** A deep copy of resolved values, so callers can never change what another delivery form writes. */
export function copyValues(values: Record<string, any>): Record<string, any> {
  return cloneValues(values);
}
