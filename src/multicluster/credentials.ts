/** Where a Link's credentials (a kubeconfig for the target cluster's API server) come from: never from Git. */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { InputRule, check } from '../core/errors';
import { CREDENTIALS_SECRET_TYPE } from '../core/multicluster';
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
   * How often External Secrets refreshes the Secret.
   * @default "1h"
   */
  readonly refreshInterval?: string;
}

/**
 * The Secret a Link names in `clusterCredentialsSecret`: a `mirror.linkerd.io/remote-kubeconfig` Secret with key
 * `kubeconfig`, as `linkerd multicluster link-gen` writes it. This library only references it, or asks External
 * Secrets to create it; the token never appears in the synthesized output.
 */
export abstract class MulticlusterCredentials {
  /**
   * A Secret created out of band, e.g. `linkerd --context=west multicluster link-gen --cluster-name west | yq
   * 'select(.kind == "Secret")' | kubectl --context=east apply -f -`.
   * @param secretName the Secret's name; the default `cluster-credentials-<target>` is what link-gen writes.
   */
  public static fromSecretName(secretName?: string): MulticlusterCredentials {
    return new NamedSecretCredentials(secretName);
  }

  /** An External Secrets `ExternalSecret` (external-secrets.io/v1beta1) that writes the Secret from a secret store. */
  public static fromExternalSecret(options: ExternalSecretCredentialsOptions): MulticlusterCredentials {
    return new ExternalSecretCredentials(options);
  }

  /**
   * Creates what the credentials need under `scope` and returns the Secret's name.
   * @internal
   */
  public abstract _bind(scope: Construct, namespace: string, defaultName: string): string;
}

class NamedSecretCredentials extends MulticlusterCredentials {
  constructor(private readonly secretName?: string) {
    super();
  }

  public _bind(scope: Construct, _namespace: string, defaultName: string): string {
    return validateObjectName(scope, this.secretName ?? defaultName, 'credentials secretName');
  }
}

class ExternalSecretCredentials extends MulticlusterCredentials {
  constructor(private readonly options: ExternalSecretCredentialsOptions) {
    super();
  }

  public _bind(scope: Construct, namespace: string, defaultName: string): string {
    const o = this.options;
    validateObjectName(scope, o.secretStoreName, 'secretStoreName');
    check(typeof o.remoteKey === 'string' && o.remoteKey.trim() !== '', scope, InputRule.REQUIRED, 'remoteKey is empty.',
      'Pass the key of the kubeconfig in the secret store.');
    new ApiObject(scope, 'Credentials', {
      apiVersion: 'external-secrets.io/v1beta1',
      kind: 'ExternalSecret',
      metadata: { name: defaultName, namespace },
      spec: {
        refreshInterval: o.refreshInterval ?? '1h',
        secretStoreRef: { name: o.secretStoreName, kind: o.secretStoreKind ?? 'ClusterSecretStore' },
        target: { name: defaultName, creationPolicy: 'Owner', template: { type: CREDENTIALS_SECRET_TYPE } },
        data: [{ secretKey: 'kubeconfig', remoteRef: { key: o.remoteKey } }],
      },
    } as any);
    return defaultName;
  }
}
