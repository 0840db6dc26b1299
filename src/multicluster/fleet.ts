/**
 * Several clusters in one App: one Chart per cluster (named after it), one trust-anchor bundle for all, one issuer per
 * cluster. The App's checks then analyse each cluster's Chart alone and the fleet rules (LKD-MC-*) across them.
 */
import { App, Chart, ChartProps } from 'cdk8s';
import { IConstruct } from 'constructs';
import { MulticlusterLinkOptions } from './link';
import { MulticlusterMode } from './mode';
import { registerCluster } from '../checks/register';
import { LinkerdIdentity } from '../control-plane/identity/identity';
import { IssuerScheme, StaticIdentityProps } from '../control-plane/identity/static-identity';
import { InputRule, MeshConfigError, check } from '../core/errors';
import { serviceAccountIdentity } from '../core/identity';
import { isDnsLabel, isDnsSubdomain, validateLabelName } from '../core/names';

/** Props for LinkerdFleet. */
export interface LinkerdFleetProps {
  /** The trust-anchor bundle every cluster trusts (PEM): the same bytes everywhere. */
  readonly trustAnchorsPem: string;
}

/** What a cluster of the fleet needs of its own. */
export interface FleetClusterProps extends ChartProps {
  /** Its issuer certificate (PEM), signed by an anchor of the fleet's bundle. Its key is provided out of band. */
  readonly issuerCertificatePem: string;
  /**
   * Its identity trust domain.
   * @default "cluster.local"
   */
  readonly trustDomain?: string;
  /**
   * Its control-plane namespace.
   * @default "linkerd"
   */
  readonly controlPlaneNamespace?: string;
  /**
   * More settings of the static identity (lifetimes, expiry warnings); anchors and issuer come from the fleet.
   * @default - the defaults of LinkerdIdentity.fromCertificates
   */
  readonly identityOptions?: FleetIdentityOptions;
}

/** The static identity's settings that stay per cluster. */
export interface FleetIdentityOptions {
  /**
   * Warn when a certificate has fewer than this many days left.
   * @default 60
   */
  readonly expiryWarningDays?: number;
  /**
   * Fail instead of warn on near expiry.
   * @default false
   */
  readonly failOnExpiryWarning?: boolean;
}

const FLEET_CLUSTER = Symbol.for('cdk8s-linkerd.FleetCluster');

/** One cluster of a fleet: a Chart whose objects go to that cluster only. */
export class FleetCluster extends Chart {
  /**
   * Whether `x` is a FleetCluster (cdk8s makes `instanceof` true for every Chart, so a marker decides).
   */
  public static isFleetCluster(x: any): x is FleetCluster {
    return typeof x === 'object' && x !== null && x[FLEET_CLUSTER] === true;
  }

  /** The FleetCluster `scope` belongs to, if any. */
  public static clusterOf(scope: IConstruct): FleetCluster | undefined {
    return scope.node.scopes.slice().reverse().find((s): s is FleetCluster => FleetCluster.isFleetCluster(s));
  }

  /** The cluster's name (what Links and mirrored Service names use). */
  public readonly clusterName: string;
  /** Its trust domain. */
  public readonly trustDomain: string;
  /** Its control-plane namespace. */
  public readonly controlPlaneNamespace: string;
  /** The identity to give this cluster's LinkerdControlPlane: the fleet's anchors and this cluster's issuer. */
  public readonly identity: LinkerdIdentity;

  /** @internal */
  constructor(app: App, name: string, trustAnchorsPem: string, props: FleetClusterProps) {
    super(app, name, { disableResourceNameHashes: true, ...props });
    Object.defineProperty(this, FLEET_CLUSTER, { value: true });
    this.clusterName = name;
    this.trustDomain = props.trustDomain ?? 'cluster.local';
    check(isDnsSubdomain(this.trustDomain), this, InputRule.NAME, `trustDomain ${JSON.stringify(this.trustDomain)} is not a DNS name.`, 'Use e.g. "cluster.local".');
    this.controlPlaneNamespace = validateLabelName(this, props.controlPlaneNamespace ?? 'linkerd', 'controlPlaneNamespace');
    const identity: StaticIdentityProps = {
      trustAnchorsPem,
      issuerCertificatePem: props.issuerCertificatePem,
      scheme: IssuerScheme.KUBERNETES_TLS,
      expiryWarningDays: props.identityOptions?.expiryWarningDays,
      failOnExpiryWarning: props.identityOptions?.failOnExpiryWarning,
    };
    this.identity = LinkerdIdentity.fromCertificates(identity);
    registerCluster(this, name, { trustDomain: this.trustDomain, controlPlaneNamespace: this.controlPlaneNamespace });
  }

  /**
   * The mTLS identity a workload of this cluster presents (`<sa>.<ns>.serviceaccount.identity.<control-plane-ns>.<trust
   * domain>`): what another cluster's MeshTLSAuthentication names to admit it pod to pod (flat network).
   */
  public identityOf(serviceAccountName: string, namespace: string): string {
    validateLabelName(this, namespace, 'namespace');
    check(typeof serviceAccountName === 'string' && isDnsSubdomain(serviceAccountName), this, InputRule.NAME,
      `serviceAccountName ${JSON.stringify(serviceAccountName)} is not a valid name.`, 'Pass the ServiceAccount\'s name.');
    return serviceAccountIdentity(serviceAccountName, namespace, this.trustDomain, this.controlPlaneNamespace);
  }

  /**
   * The Link options for linking this cluster to `target` (so this cluster's clients can call `target`'s Services):
   * the target's name, trust domain and control-plane namespace filled in.
   */
  public linkTo(target: FleetCluster, options: FleetLinkOptions = {}): MulticlusterLinkOptions {
    check(FleetCluster.isFleetCluster(target) && target !== this, this, InputRule.CONFLICT, 'linkTo needs another cluster of the fleet.', 'Pass the target FleetCluster.');
    return {
      targetClusterName: target.clusterName,
      targetTrustDomain: target.trustDomain,
      targetControlPlaneNamespace: target.controlPlaneNamespace,
      mode: options.mode,
      gatewayAddress: options.gatewayAddress,
      gatewayPort: options.gatewayPort,
    };
  }
}

/** How a cluster links to another of the fleet. */
export interface FleetLinkOptions {
  /**
   * Gateway or flat network.
   * @default - the LinkerdMulticluster's mode
   */
  readonly mode?: MulticlusterMode;
  /**
   * The target gateway's address (gateway mode).
   * @default - none
   */
  readonly gatewayAddress?: string;
  /**
   * The target gateway's port.
   * @default 4143
   */
  readonly gatewayPort?: number;
}

/** Several clusters sharing one trust anchor bundle, each with its own issuer. */
export class LinkerdFleet {
  /** The fleet's trust-anchor bundle (PEM). */
  public readonly trustAnchorsPem: string;
  private readonly clusters = new Map<string, FleetCluster>();

  constructor(private readonly app: App, props: LinkerdFleetProps) {
    if (!(app instanceof App)) throw new MeshConfigError({ node: { path: 'LinkerdFleet' } } as any, InputRule.REQUIRED, 'a fleet needs the App.', 'Pass the App.');
    if (typeof props?.trustAnchorsPem !== 'string' || props.trustAnchorsPem.trim() === '') {
      throw new MeshConfigError(app, InputRule.REQUIRED, 'trustAnchorsPem is empty.', 'Pass the PEM of the fleet\'s trust anchor(s).');
    }
    this.trustAnchorsPem = props.trustAnchorsPem;
  }

  /** Adds a cluster: a Chart named after it, with an identity from the fleet's anchors and its own issuer. */
  public addCluster(name: string, props: FleetClusterProps): FleetCluster {
    if (typeof name !== 'string' || !isDnsLabel(name)) {
      throw new MeshConfigError(this.app, InputRule.NAME, `cluster name ${JSON.stringify(name)} is not a DNS label.`, 'Use e.g. "east" (mirrored Services are named <service>-<cluster>).');
    }
    if (this.clusters.has(name)) throw new MeshConfigError(this.app, InputRule.CONFLICT, `cluster ${name} was added twice.`, 'Give every cluster its own name.');
    const cluster = new FleetCluster(this.app, name, this.trustAnchorsPem, props);
    this.clusters.set(name, cluster);
    return cluster;
  }

  /** A cluster by name. */
  public cluster(name: string): FleetCluster {
    const cluster = this.clusters.get(name);
    if (!cluster) throw new MeshConfigError(this.app, InputRule.REQUIRED, `the fleet has no cluster ${JSON.stringify(name)}.`, 'Add it with addCluster first.');
    return cluster;
  }

  /** The clusters' names, in the order they were added. */
  public get clusterNames(): string[] {
    return [...this.clusters.keys()];
  }
}
