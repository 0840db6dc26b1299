/** Where a Link's credentials (a kubeconfig for the target cluster's API server) come from: never from Git. */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ExternalSecretsApiVersion } from '../control-plane/identity/external-issuer-secret';
import { InputRule, check, fail } from '../core/errors';
import { parseGoDuration } from '../core/linkerd-grammar';
import { CREDENTIALS_SECRET_TYPE } from '../core/multicluster';

/**
 * Why a refresh interval is refused. Zero is valid to External Secrets (fetch once), but a Link's kubeconfig is then
 * never read again, and a rotated token breaks the link without a sign here.
 */
function refreshProblem(text: string | undefined, ms: number | undefined): string {
  if (ms === 0) {
    return `refreshInterval ${JSON.stringify(text)} makes External Secrets fetch the kubeconfig once and never again, so a rotated `
      + 'token in the secret store breaks the Link.';
  }
  return `refreshInterval ${JSON.stringify(text)} is not a positive Go duration (External Secrets reads it with time.ParseDuration).`;
}

/** What the credentials are for: the Link's target, and where this cluster's control plane runs. */
export interface CredentialsTarget {
  /** Namespace of the Link (the service mirror reads the Secret there). */
  readonly namespace: string;
  /** The Secret's name (`cluster-credentials-<target>`). */
  readonly secretName: string;
  /** The target cluster's name. */
  readonly targetClusterName: string;
  /** The target cluster's identity trust domain. */
  readonly targetTrustDomain: string;
  /** The target cluster's DNS domain. */
  readonly targetClusterDomain: string;
  /** This cluster's control-plane namespace: the destination controller reads a copy there for remote discovery. */
  readonly controlPlaneNamespace: string;
}

/** The labels and annotations `link-gen` puts on the control-plane copy (multicluster/cmd/root.go). */
const CLUSTER_NAME_LABEL = 'multicluster.linkerd.io/cluster-name';
const TRUST_DOMAIN_ANNOTATION = 'multicluster.linkerd.io/trust-domain';
const CLUSTER_DOMAIN_ANNOTATION = 'multicluster.linkerd.io/cluster-domain';
import { validateObjectName } from '../core/names';

/** Options for credentials synced by External Secrets. */
export interface ExternalSecretCredentialsOptions {
  /** The SecretStore or ClusterSecretStore that holds the kubeconfig. */
  readonly secretStoreName: string;
  /** The key of the kubeconfig in the store (e.g. `linkerd/west/kubeconfig`). */
  readonly remoteKey: string;
  /**
   * The kind of the store.
   * @default "ClusterSecretStore"
   */
  readonly secretStoreKind?: string;
  /**
   * How often External Secrets refreshes the Secret, as a Go duration (External Secrets reads it with time.ParseDuration).
   * Positive: External Secrets reads 0 as "fetch once", and the Link would never see a rotated kubeconfig.
   * @default "1h"
   */
  readonly refreshInterval?: string;
  /**
   * The External Secrets API to write (External Secrets Operator 0.17 and later no longer serve v1beta1).
   * @default ExternalSecretsApiVersion.V1
   */
  readonly apiVersion?: ExternalSecretsApiVersion;
}

/**
 * The Secret a Link names in `clusterCredentialsSecret`: a `mirror.linkerd.io/remote-kubeconfig` Secret with key
 * `kubeconfig`, as `linkerd multicluster link-gen` writes it. This library only references it, or asks External
 * Secrets to create it; the token never appears in the synthesized output.
 */
export abstract class MulticlusterCredentials {
  /**
   * Secrets created out of band, e.g. `linkerd --context=west multicluster link-gen --cluster-name west | yq
   * 'select(.kind == "Secret")' | kubectl --context=east apply -f -`: link-gen prints the Link's Secret (in the
   * multicluster namespace) and the copy the destination controller reads for pod-to-pod discovery (in `linkerd`).
   * @param secretName the Secret's name; the default `cluster-credentials-<target>` is what link-gen writes.
   */
  public static fromSecretName(secretName?: string): MulticlusterCredentials {
    return new NamedSecretCredentials(secretName);
  }

  /**
   * External Secrets `ExternalSecret`s (external-secrets.io/v1 unless `apiVersion` says otherwise) that write both Secrets link-gen would: the
   * Link's, and the labelled copy in the control-plane namespace that remote discovery (flat network) needs.
   */
  public static fromExternalSecret(options: ExternalSecretCredentialsOptions): MulticlusterCredentials {
    return new ExternalSecretCredentials(options);
  }

  /**
   * Creates what the credentials need under `scope` and returns the Secret's name.
   * @internal
   */
  public abstract _bind(scope: Construct, target: CredentialsTarget): string;
}

class NamedSecretCredentials extends MulticlusterCredentials {
  constructor(private readonly secretName?: string) {
    super();
  }

  public _bind(scope: Construct, target: CredentialsTarget): string {
    return validateObjectName(scope, this.secretName ?? target.secretName, 'credentials secretName');
  }
}

class ExternalSecretCredentials extends MulticlusterCredentials {
  constructor(private readonly options: ExternalSecretCredentialsOptions) {
    super();
  }

  public _bind(scope: Construct, target: CredentialsTarget): string {
    const o = this.options;
    validateObjectName(scope, o.secretStoreName, 'secretStoreName');
    check(typeof o.remoteKey === 'string' && o.remoteKey.trim() !== '', scope, InputRule.REQUIRED, 'remoteKey is empty.',
      'Pass the key of the kubeconfig in the secret store.');
    check(o.apiVersion === undefined || Object.values(ExternalSecretsApiVersion).includes(o.apiVersion), scope, InputRule.RANGE,
      `apiVersion ${JSON.stringify(o.apiVersion)} is not an ExternalSecretsApiVersion.`, 'Use ExternalSecretsApiVersion.V1 or V1BETA1.');
    const refreshMs = parseGoDuration(o.refreshInterval ?? '1h');
    if (refreshMs === undefined || refreshMs <= 0) {
      fail(scope, InputRule.DURATION, refreshProblem(o.refreshInterval, refreshMs), 'Write it as a Go duration, e.g. "1h" or "30m".');
    }
    this.externalSecret(scope, 'Credentials', target.namespace, target.secretName, {});
    this.externalSecret(scope, 'DestinationCredentials', target.controlPlaneNamespace, target.secretName, {
      labels: { [CLUSTER_NAME_LABEL]: target.targetClusterName },
      annotations: { [TRUST_DOMAIN_ANNOTATION]: target.targetTrustDomain, [CLUSTER_DOMAIN_ANNOTATION]: target.targetClusterDomain },
    });
    return target.secretName;
  }

  private externalSecret(scope: Construct, id: string, namespace: string, name: string, metadata: Record<string, any>): ApiObject {
    const o = this.options;
    return new ApiObject(scope, id, {
      apiVersion: o.apiVersion ?? ExternalSecretsApiVersion.V1,
      kind: 'ExternalSecret',
      metadata: { name, namespace },
      spec: {
        refreshInterval: o.refreshInterval ?? '1h',
        secretStoreRef: { name: o.secretStoreName, kind: o.secretStoreKind ?? 'ClusterSecretStore' },
        target: { name, creationPolicy: 'Owner', template: { type: CREDENTIALS_SECRET_TYPE, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) } },
        data: [{ secretKey: 'kubeconfig', remoteRef: { key: o.remoteKey } }],
      },
    } as any);
  }
}
