/**
 * The cdk8s construct for a pinned Linkerd install: it binds the identity, resolves the chart values once, and hands
 * them to the chosen delivery form. Object order in the output: namespace → identity objects → CRDs → control plane.
 */
import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { LinkerdInstallOptions } from './options';
import { RELEASE_NAMES, ResolvedInstall, copyValues, resolveInstall } from './values';
import { registerChecks, setClusterDefaults } from '../../checks/register';
import { InputRule, check } from '../../core/errors';
import { isDnsSubdomain, validateLabelName } from '../../core/names';
import { optionalList, optionalStruct, requireString, requireStruct } from '../../core/runtime-checks';
import { LinkerdVersion } from '../../core/versions';
import { ADMISSION_WEBHOOKS_LABEL } from '../../core/vocabulary';
import { LinkerdDelivery } from '../delivery/delivery';
import { DeliveryForm } from '../delivery/form';
import { ChartRelease } from '../delivery/releases';
import {
  RunbookOptions, exitRunbook, troubleshootingRunbook, upgradeRunbook, writeRunbookFiles, writeTroubleshootingRunbook,
} from '../delivery/runbooks';
import { IdentityBinding } from '../identity/binding';
import { LinkerdIdentity } from '../identity/identity';

/** Props for LinkerdControlPlane. */
export interface LinkerdControlPlaneProps extends LinkerdInstallOptions {
  /** Trust anchors and issuer: `LinkerdIdentity.fromCertManager()` or `LinkerdIdentity.fromCertificates(...)`. */
  readonly identity: LinkerdIdentity;
  /** How the charts reach the cluster: `LinkerdDelivery.argoCd()`, `.flux()` or `.helm()`. */
  readonly delivery: LinkerdDelivery;
  /**
   * Create the control-plane namespace with the labels Linkerd expects (`linkerd.io/is-control-plane`, which
   * trust-manager Bundles select, and `config.linkerd.io/admission-webhooks: disabled`).
   * @default true
   */
  readonly createNamespace?: boolean;
}

/** The resolved values of both charts. */
export interface LinkerdChartValues {
  /** Values for linkerd-crds. */
  readonly crds: { [key: string]: any };
  /** Values for linkerd-control-plane. */
  readonly controlPlane: { [key: string]: any };
}

/** Validates the install target before the identity is bound to it. */
export function installTarget(scope: Construct, options: LinkerdInstallOptions): { namespace: string; trustDomain: string } {
  const namespace = validateLabelName(scope, options.namespace ?? 'linkerd', 'namespace');
  const trustDomain = options.trustDomain ?? 'cluster.local';
  check(typeof trustDomain === 'string' && isDnsSubdomain(trustDomain), scope, InputRule.NAME,
    `trustDomain ${JSON.stringify(trustDomain)} is not a DNS name.`, 'Use a DNS name such as "cluster.local".');
  return { namespace, trustDomain };
}

/** The control-plane namespace with the labels `linkerd install` puts on it. */
export function namespaceManifest(name: string, form: DeliveryForm): any {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: { 'linkerd.io/is-control-plane': 'true', [ADMISSION_WEBHOOKS_LABEL]: 'disabled', 'linkerd.io/control-plane-ns': name },
      // Argo CD applies the namespace before wave 0 (the CRDs) when a parent Application syncs this output.
      annotations: { 'linkerd.io/inject': 'disabled', ...(form === DeliveryForm.ARGO_CD ? { 'argocd.argoproj.io/sync-wave': '-1' } : {}) },
    },
  };
}

/** The CNI namespace with the labels `linkerd install-cni` puts on it: the DaemonSet needs `privileged`. */
export function cniNamespaceManifest(name: string, form: DeliveryForm): any {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: { 'linkerd.io/cni-resource': 'true', [ADMISSION_WEBHOOKS_LABEL]: 'disabled', 'pod-security.kubernetes.io/enforce': 'privileged' },
      ...(form === DeliveryForm.ARGO_CD ? { annotations: { 'argocd.argoproj.io/sync-wave': '-1' } } : {}),
    },
  };
}

/**
 * A pinned Linkerd 2.20 control plane (charts linkerd-crds and linkerd-control-plane), delivered by cdk8s Helm, Argo CD
 * or Flux with the same resolved values. The CRDs always precede the control plane.
 *
 * @exampleMetadata fixture=shop
 * @example
 * new LinkerdControlPlane(new Chart(app, 'linkerd'), 'Linkerd', {
 *   identity: LinkerdIdentity.fromCertManager(),
 *   delivery: LinkerdDelivery.argoCd({ project: 'platform' }),
 *   highAvailability: true,
 * });
 */
export class LinkerdControlPlane extends Construct {
  /** Namespace of the control plane. */
  public readonly namespace: string;
  /** The pinned release. */
  public readonly version: LinkerdVersion;
  /** How the charts are delivered. */
  public readonly deliveryForm: DeliveryForm;
  /**
   * The namespace object.
   * @default - none when `createNamespace` is false
   */
  public readonly namespaceObject?: ApiObject;
  /** The construct holding the identity's objects. */
  public readonly identityScope: Construct;
  private readonly install: ResolvedInstall;
  private readonly delivery: LinkerdDelivery;
  private readonly extensions: ChartRelease[] = [];
  private readonly delivered: Construct;

  constructor(scope: Construct, id: string, props: LinkerdControlPlaneProps) {
    super(scope, id);
    registerChecks(this);
    requireStruct(this, props, 'props');
    check(props.identity instanceof LinkerdIdentity, this, InputRule.REQUIRED, 'identity is required.',
      'Pass identity: LinkerdIdentity.fromCertManager() or LinkerdIdentity.fromCertificates({...}).');
    check(props.delivery instanceof LinkerdDelivery, this, InputRule.REQUIRED, 'delivery is required.',
      'Pass delivery: LinkerdDelivery.argoCd(), LinkerdDelivery.flux() or LinkerdDelivery.helm().');
    const target = installTarget(this, props);
    // Told once: what this control plane installs is what the checks assume about the cluster.
    setClusterDefaults(this, {
      kubernetesVersion: props.kubernetesVersion,
      gatewayApiVersion: props.gatewayApiVersion,
      trustDomain: props.trustDomain,
      defaultInboundPolicy: props.proxy?.defaultInboundPolicy,
      clusterNetworks: props.clusterNetworks,
      controlPlaneNamespace: target.namespace,
    });
    this.delivery = props.delivery;
    this.deliveryForm = props.delivery.form;
    this.namespace = target.namespace;
    this.namespaceObject = (props.createNamespace ?? true) ? this.createNamespace(target.namespace) : undefined;
    this.identityScope = new Construct(this, 'Identity');
    const supplied = props.delivery._suppliedValues(RELEASE_NAMES.controlPlane);
    const issuerKeySuppliedAtDeploy = supplied.unknown || supplied.paths.includes('identity.issuer.tls.keyPEM');
    const binding: IdentityBinding = props.identity._bind(this.identityScope, { ...target, issuerKeySuppliedAtDeploy });
    this.install = resolveInstall(this, props, { ...binding, issuerKeySuppliedAtDeploy });
    this.version = this.install.version;
    const cniNamespace = this.install.cni ? this.createClusterScoped('CniNamespace', cniNamespaceManifest(this.install.cni.namespace, this.deliveryForm)) : undefined;
    const delivered = props.delivery._deliver(this, this.install);
    if (this.namespaceObject) {
      this.identityScope.node.addDependency(this.namespaceObject);
      delivered.crds.node.addDependency(this.namespaceObject);
    }
    if (cniNamespace) delivered.crds.node.addDependency(cniNamespace);
    delivered.controlPlane.node.addDependency(this.identityScope);
    this.delivered = delivered.controlPlane;
  }

  /** Whether pods use the CNI plugin instead of linkerd-init (`cniEnabled`). */
  public get cniEnabled(): boolean {
    return this.install.cniEnabled;
  }

  /**
   * Delivers a chart beside the core with this control plane's form, version and images; extensions go after the
   * control plane and are removed before it by the exit runbook.
   * @internal
   */
  public _deliverExtension(scope: Construct, release: ChartRelease): Construct {
    const delivered = this.delivery._deliverRelease(scope, this.install, release);
    delivered.node.addDependency(this.delivered);
    this.extensions.push(release);
    return delivered;
  }

  /** @internal */
  public get _install(): ResolvedInstall {
    return this.install;
  }

  /** The resolved chart values (keys sorted), exactly as every delivery form passes them. */
  public values(): LinkerdChartValues {
    return { crds: copyValues(this.install.crdsValues), controlPlane: copyValues(this.install.controlPlaneValues) };
  }

  /** The upgrade runbook (markdown): CRDs → control plane → prune → restart in cohorts → `linkerd check --proxy`. */
  public upgradeRunbook(options: RunbookOptions = {}): string {
    return upgradeRunbook(this.install, this.delivery._steps(), this.runbookOptions(options));
  }

  /** The exit runbook (markdown): remove injection, restart, verify no proxies, remove extensions, then the core. */
  public exitRunbook(options: RunbookOptions = {}): string {
    return exitRunbook(this.install, this.delivery._steps(), this.runbookOptions(options), this.extensions);
  }

  /**
   * The identity troubleshooting runbook (markdown): leaf certificate, issuer, anchor, clock skew, then single-cluster
   * versus federated trust, with the exact commands.
   */
  public troubleshootingRunbook(): string {
    return troubleshootingRunbook(this.install, this.delivery._steps());
  }

  /** Writes `linkerd-upgrade.md`, `linkerd-exit.md` and `linkerd-identity-troubleshooting.md` into `dir` and returns their paths. */
  public writeRunbooks(dir: string, options: RunbookOptions = {}): string[] {
    requireString(this, dir, 'writeRunbooks() dir');
    return [...writeRunbookFiles(dir, this.upgradeRunbook(options), this.exitRunbook(options)),
      writeTroubleshootingRunbook(dir, this.troubleshootingRunbook())];
  }

  /** Names go into shell commands of the runbooks, so they must be what they claim (no spaces, quotes or `;`). */
  private runbookOptions(options: RunbookOptions): RunbookOptions {
    optionalStruct(this, options, 'runbook options');
    const namespaces = optionalList<string>(this, options.meshedNamespaces, 'meshedNamespaces', (v) => typeof v === 'string', 'namespace names') ?? [];
    namespaces.forEach((ns) => validateLabelName(this, ns, 'meshedNamespaces entry'));
    const extensions = optionalList<string>(this, options.extensions, 'extensions', (v) => typeof v === 'string', 'extension names') ?? [];
    extensions.forEach((name) => validateLabelName(this, name, 'extensions entry'));
    return options;
  }

  private createNamespace(name: string): ApiObject {
    return this.createClusterScoped('Namespace', namespaceManifest(name, this.deliveryForm));
  }

  private createClusterScoped(id: string, manifest: any): ApiObject {
    const obj = new ApiObject(this, id, manifest);
    // A Chart's namespace is stamped on every object, but a Namespace is cluster-scoped and must not carry one.
    if (Chart.of(this).namespace !== undefined) obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    return obj;
  }
}
