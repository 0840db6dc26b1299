/**
 * The issuer Secret by reference: an External Secrets Operator `ExternalSecret` that creates `linkerd-identity-issuer`
 * (kubernetes.io/tls: tls.crt, tls.key, ca.crt) in the cluster from a secret store, so the key never passes through Git
 * or the synthesized output, whatever the delivery form (Argo CD included, which has no valuesFrom). Pair it with
 * `LinkerdIdentity.fromCertificates({ ..., scheme: IssuerScheme.KUBERNETES_TLS })`, the default.
 */
import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { ISSUER_SECRET_NAME } from './static-identity';
import { InputRule, check } from '../../core/errors';
import { validateLabelName, validateObjectName } from '../../core/names';

/** The kind of store the ExternalSecret reads from. */
export enum SecretStoreKind {
  /** A namespaced SecretStore in the control-plane namespace. */
  SECRET_STORE = 'SecretStore',
  /** A cluster-wide ClusterSecretStore. */
  CLUSTER_SECRET_STORE = 'ClusterSecretStore',
}

/** The ExternalSecret API version the cluster's External Secrets Operator serves. */
export enum ExternalSecretsApiVersion {
  /** external-secrets.io/v1 (External Secrets Operator 0.16 and later). */
  V1 = 'external-secrets.io/v1',
  /** external-secrets.io/v1beta1 (older operators). */
  V1BETA1 = 'external-secrets.io/v1beta1',
}

/** Props for ExternalIssuerSecret. */
export interface ExternalIssuerSecretProps {
  /** Name of the SecretStore or ClusterSecretStore. */
  readonly secretStoreName: string;
  /**
   * Kind of the store.
   * @default SecretStoreKind.CLUSTER_SECRET_STORE
   */
  readonly secretStoreKind?: SecretStoreKind;
  /** The key of the issuer entry in the store (e.g. a Vault path or an AWS Secrets Manager name). */
  readonly remoteKey: string;
  /**
   * Property of the entry holding the issuer certificate (PEM).
   * @default "tls.crt"
   */
  readonly certificateProperty?: string;
  /**
   * Property of the entry holding the issuer private key (PEM).
   * @default "tls.key"
   */
  readonly privateKeyProperty?: string;
  /**
   * Property of the entry holding the trust-anchor bundle (PEM), which `linkerd check` reads from ca.crt.
   * @default "ca.crt"
   */
  readonly trustAnchorsProperty?: string;
  /**
   * Namespace of the control plane.
   * @default "linkerd"
   */
  readonly namespace?: string;
  /**
   * How often the operator re-reads the store (a rotated issuer reaches the cluster within this time).
   * @default Duration.hours(1)
   */
  readonly refreshInterval?: Duration;
  /**
   * ExternalSecret API version.
   * @default ExternalSecretsApiVersion.V1
   */
  readonly apiVersion?: ExternalSecretsApiVersion;
}

function property(scope: Construct, value: string | undefined, fallback: string, what: string): string {
  const p = value ?? fallback;
  check(typeof p === 'string' && p.trim() !== '', scope, InputRule.REQUIRED, `${what} is empty.`, `Name the property, e.g. "${fallback}".`);
  return p;
}

/** An ExternalSecret that creates the issuer Secret `linkerd-identity-issuer` from a secret store. */
export class ExternalIssuerSecret extends Construct {
  /** The ExternalSecret object. */
  public readonly externalSecret: ApiObject;

  constructor(scope: Construct, id: string, props: ExternalIssuerSecretProps) {
    super(scope, id);
    const storeKind = props.secretStoreKind ?? SecretStoreKind.CLUSTER_SECRET_STORE;
    check(Object.values(SecretStoreKind).includes(storeKind), this, InputRule.RANGE, `secretStoreKind ${JSON.stringify(storeKind)} is not a SecretStoreKind.`,
      'Use SecretStoreKind.CLUSTER_SECRET_STORE or SecretStoreKind.SECRET_STORE.');
    const apiVersion = props.apiVersion ?? ExternalSecretsApiVersion.V1;
    check(Object.values(ExternalSecretsApiVersion).includes(apiVersion), this, InputRule.RANGE, `apiVersion ${JSON.stringify(apiVersion)} is not an ExternalSecretsApiVersion.`,
      'Use ExternalSecretsApiVersion.V1 or V1BETA1.');
    check(typeof props.remoteKey === 'string' && props.remoteKey.trim() !== '', this, InputRule.REQUIRED, 'remoteKey is empty.', 'Name the issuer entry in the store.');
    check(props.refreshInterval === undefined || props.refreshInterval instanceof Duration, this, InputRule.DURATION, 'refreshInterval is not a Duration.',
      'Pass e.g. Duration.hours(1).');
    const refresh = (props.refreshInterval ?? Duration.hours(1)).toMilliseconds({ integral: false }) / 1000;
    check(Number.isInteger(refresh) && refresh >= 60, this, InputRule.DURATION, `refreshInterval of ${refresh}s is not a whole number of seconds of at least 60.`,
      'Pass e.g. Duration.hours(1).');
    const remote = (prop: string) => ({ key: props.remoteKey, property: prop });
    this.externalSecret = new ApiObject(this, 'Resource', {
      apiVersion,
      kind: 'ExternalSecret',
      metadata: { name: ISSUER_SECRET_NAME, namespace: validateLabelName(this, props.namespace ?? 'linkerd', 'namespace') },
      spec: {
        refreshInterval: refresh % 3600 === 0 ? `${refresh / 3600}h` : `${refresh}s`,
        secretStoreRef: { name: validateObjectName(this, props.secretStoreName, 'secretStoreName'), kind: storeKind },
        target: { name: ISSUER_SECRET_NAME, creationPolicy: 'Owner', template: { type: 'kubernetes.io/tls' } },
        data: [
          { secretKey: 'tls.crt', remoteRef: remote(property(this, props.certificateProperty, 'tls.crt', 'certificateProperty')) },
          { secretKey: 'tls.key', remoteRef: remote(property(this, props.privateKeyProperty, 'tls.key', 'privateKeyProperty')) },
          { secretKey: 'ca.crt', remoteRef: remote(property(this, props.trustAnchorsProperty, 'ca.crt', 'trustAnchorsProperty')) },
        ],
      },
    } as any);
  }
}
