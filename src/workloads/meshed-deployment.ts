import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ProxyConfig, proxyAnnotations } from './proxy-config';
import { CALLS_ANNOTATION } from '../core/annotations';
import { INJECT_ANNOTATION } from '../core/default-inbound-policy';
import { InputRule, check } from '../core/errors';
import { validateLabelValue, validateObjectName, validatePortNumber } from '../core/names';
import { isStruct, optionalBoolean, optionalInteger, optionalList, optionalStruct, requireNamed, requireString, requireStruct } from '../core/runtime-checks';
import { MeshChecks } from '../frontends/mesh-checks';
import { ServiceReference } from '../routing/service-reference';

export const APP_NAME_LABEL = 'app.kubernetes.io/name';
export const APP_VERSION_LABEL = 'app.kubernetes.io/version';

/** A Service port a workload calls; the checks prove the mesh allows it (LKD-POL-013). */
export interface ServiceCall {
  /** The Service called. */
  readonly service: ServiceReference;
  /** The Service port. */
  readonly port: number;
}

/** Props for a MeshedDeployment. */
export interface MeshedDeploymentProps {
  /** metadata.name of the Deployment. */
  readonly name: string;
  /** The application name: label `app.kubernetes.io/name` on the pods, and what Servers and Services select. */
  readonly app: string;
  /**
   * The version: label `app.kubernetes.io/version`, so per-version Services can select one version.
   * @default - no version label
   */
  readonly version?: string;
  /** The containers of the pod. */
  readonly containers: kplus.ContainerProps[];
  /**
   * The ServiceAccount the pods run as: their mesh identity. Share one between versions of the same app.
   * @default - a ServiceAccount named after the Deployment is created
   */
  readonly serviceAccount?: kplus.IServiceAccount;
  /**
   * Number of replicas.
   * @default 1
   */
  readonly replicas?: number;
  /**
   * Whether Linkerd injects a proxy. `false` writes `linkerd.io/inject: disabled` on the pod template.
   * @default true
   */
  readonly meshed?: boolean;
  /**
   * Proxy settings, written as annotations on the pod template.
   * @default - none
   */
  readonly proxy?: ProxyConfig;
  /**
   * Mount the ServiceAccount token into the app containers. Linkerd's identity does not need it: the injector
   * projects its own token for the proxy (`identity.serviceAccountTokenProjection`, on by default).
   * @default false
   */
  readonly automountServiceAccountToken?: boolean;
  /**
   * Services this workload calls. Synth fails (LKD-POL-013) when the mesh's policy would refuse one of them.
   * @default - none declared
   */
  readonly calls?: ServiceCall[];
}

/**
 * A Deployment whose pods join the mesh under their own ServiceAccount, with the standard app/version labels as its
 * selector (not cdk8s's hashed address label) so that Services and Linkerd Servers can select it by name.
 */
export class MeshedDeployment extends Construct {
  /** The cdk8s-plus Deployment (escape hatch). */
  public readonly deployment: kplus.Deployment;
  /** The ServiceAccount the pods run as. */
  public readonly serviceAccount: kplus.IServiceAccount;
  /** metadata.name of the Deployment. */
  public readonly name: string;
  /** Value of `app.kubernetes.io/name`. */
  public readonly app: string;
  /** Value of `app.kubernetes.io/version`, if set. */
  public readonly version?: string;
  /** Whether the pods are injected. */
  public readonly meshed: boolean;
  private readonly calls: string[] = [];

  constructor(scope: Construct, id: string, props: MeshedDeploymentProps) {
    super(scope, id);
    MeshChecks.of(this);
    requireStruct(this, props, 'props');
    this.name = validateObjectName(this, props.name, 'Deployment name');
    this.app = validateLabelValue(this, props.app, 'app');
    this.version = props.version === undefined ? undefined : validateLabelValue(this, props.version, 'version');
    this.meshed = optionalBoolean(this, props.meshed, 'meshed') ?? true;
    optionalList(this, props.containers, 'containers', isStruct, 'container props ({ image, ... })');
    check(Array.isArray(props.containers) && props.containers.length > 0, this, InputRule.REQUIRED,
      'a MeshedDeployment needs at least one container.', 'Pass containers: [{ image: ... }].');
    props.containers.forEach((c, i) => {
      // An image reference has no whitespace; one with a newline would also break every message that quotes it.
      check(/^\S+$/.test(requireString(this, c.image, `containers[${i}].image`)), this, InputRule.NAME,
        `containers[${i}].image ${JSON.stringify(c.image)} contains whitespace, so it is no image reference.`, 'Use e.g. "registry.example/app:1.2.3".');
    });
    if (props.serviceAccount !== undefined) requireNamed(this, props.serviceAccount, 'serviceAccount', 'Pass a kplus.ServiceAccount (or omit it).');
    optionalInteger(this, props.replicas, 'replicas', 0, 2_147_483_647);
    optionalBoolean(this, props.automountServiceAccountToken, 'automountServiceAccountToken');
    optionalStruct(this, props.proxy, 'proxy');
    optionalList(this, props.calls, 'calls', isStruct, 'calls ({ service, port })');
    this.serviceAccount = props.serviceAccount ?? new kplus.ServiceAccount(this, 'ServiceAccount', {
      metadata: { name: this.name },
      automountToken: false,
    });
    this.deployment = new kplus.Deployment(this, 'Resource', {
      metadata: { name: this.name },
      replicas: props.replicas ?? 1,
      // The hashed cdk8s address label would make selectors unreadable and path-dependent; select by app/version instead.
      select: false,
      serviceAccount: this.serviceAccount,
      automountServiceAccountToken: props.automountServiceAccountToken ?? false,
      containers: props.containers,
    });
    const labels = this.selectorLabels;
    this.deployment.select(kplus.LabelSelector.of({ labels }));
    for (const [key, value] of Object.entries(labels)) this.deployment.podMetadata.addLabel(key, value);
    // Injection and proxy settings belong on the pod template: the injector never reads the Deployment's metadata.
    if (!this.meshed) this.deployment.podMetadata.addAnnotation(INJECT_ANNOTATION, 'disabled');
    for (const [key, value] of Object.entries(proxyAnnotations(this, props.proxy))) this.deployment.podMetadata.addAnnotation(key, value);
    for (const call of props.calls ?? []) this.addCall(call.service, call.port);
  }

  /**
   * Declares that this workload calls a Service port. The declaration is written as an annotation on the Deployment,
   * and synth fails (LKD-POL-013) if the mesh's inbound policy would refuse the call — e.g. after a move to deny.
   */
  public addCall(service: ServiceReference, port: number): void {
    check(service instanceof ServiceReference, this, InputRule.REQUIRED, 'addCall needs a ServiceReference.', 'Pass ServiceReference.fromService(svc).');
    validatePortNumber(this, port, 'called port');
    // Same-namespace calls are written without the namespace, as route refs are: the manifest stays portable.
    const namespace = service.namespace !== undefined && service.namespace !== this.deployment.metadata.namespace ? `.${service.namespace}` : '';
    this.calls.push(`${service.name}${namespace}:${port}`);
    this.deployment.metadata.addAnnotation(CALLS_ANNOTATION, [...new Set(this.calls)].sort().join(','));
  }

  /** The labels this Deployment's pods carry and select on. */
  public get selectorLabels(): { [key: string]: string } {
    return this.version === undefined ? { [APP_NAME_LABEL]: this.app } : { [APP_NAME_LABEL]: this.app, [APP_VERSION_LABEL]: this.version };
  }
}
