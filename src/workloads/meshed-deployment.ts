import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ProxyConfig, proxyAnnotations } from './proxy-config';
import { claimImportedServiceAccount } from '../checks/claims';
import { registerChecks } from '../checks/register';
import { INJECT_ANNOTATION } from '../core/default-inbound-policy';
import { InputRule, check, fail } from '../core/errors';
import { validateLabelValue, validateObjectName, validatePortNumber, validateServicePortName } from '../core/names';
import { isStruct, optionalBoolean, optionalInteger, optionalList, optionalStruct, requireNamed, requireString, requireStruct } from '../core/runtime-checks';
import { CALLS_ANNOTATION, REFUSED_CALLS_ANNOTATION } from '../core/vocabulary';
import { ServiceReference } from '../routing/service-reference';

export const APP_NAME_LABEL = 'app.kubernetes.io/name';
export const APP_VERSION_LABEL = 'app.kubernetes.io/version';

/** A Service port a workload calls; the checks prove the mesh allows it (LKD-POL-013). */
export interface ServiceCall {
  /** The Service called. */
  readonly service: ServiceReference;
  /** The Service port. */
  readonly port: number;
  /**
   * The request the call makes, when it matters which: Linkerd authorizes per route, and a probe path or a route may
   * be open while other requests are refused.
   * @default any request (the call counts as allowed when some request gets through)
   */
  readonly request?: CallRequest;
}

/** A declared call or refusal as MeshVerification reads it. @internal */
export interface DeclaredRequest {
  /** The entry as the annotation spells it. */
  readonly text: string;
  readonly service: string;
  /** The Service's namespace; undefined: the workload's. */
  readonly namespace?: string;
  readonly port: number;
  readonly method?: string;
  readonly path?: string;
  /** True for addRefusedCall. */
  readonly refused: boolean;
}

/** An HTTP request a declared call makes. */
export interface CallRequest {
  /**
   * The HTTP method, upper case.
   * @default any method
   */
  readonly method?: string;
  /**
   * The request path, starting with "/".
   * @default "/"
   */
  readonly path?: string;
}

/**
 * How Linkerd treats a Service port (`appProtocol`). Linkerd 2.20 reads exactly these values
 * (policy-controller/core/src/outbound.rs, `AppProtocol::from_str`) and treats any other value, e.g. "grpc", as
 * opaque TCP: no routes, no retries, no per-request balancing.
 */
export enum AppProtocol {
  /** HTTP/1 (`http`): only HTTPRoutes apply. */
  HTTP1 = 'http',
  /** HTTP/2 cleartext (`kubernetes.io/h2c`), gRPC included: GRPCRoutes apply, or else HTTPRoutes. */
  HTTP2 = 'kubernetes.io/h2c',
  /** Opaque TCP (`linkerd.io/opaque`): no HTTP routing. */
  OPAQUE = 'linkerd.io/opaque',
  /** Opaque TCP under its other name (`linkerd.io/tcp`), which Linkerd reads as OPAQUE. */
  TCP = 'linkerd.io/tcp',
}

/** A port of the Service a workload exposes. */
export interface ExposedPort {
  /** The Service port callers use (and routes attach to). */
  readonly port: number;
  /**
   * The container port it forwards to.
   * @default - the same number as port
   */
  readonly targetPort?: number;
  /**
   * The port name (required when the Service has more than one port).
   * @default - none
   */
  readonly name?: string;
  /**
   * The protocol Linkerd assumes for the port.
   * @default - none: Linkerd detects the protocol
   */
  readonly appProtocol?: AppProtocol;
}

/** Options for MeshedDeployment.exposeService. */
export interface ExposeServiceOptions {
  /**
   * metadata.name of the Service.
   * @default - the Deployment's name
   */
  readonly name?: string;
  /** The ports (at least one). */
  readonly ports: ExposedPort[];
  /**
   * Select every version of the app (`app.kubernetes.io/name` only), e.g. the stable Service a split attaches to.
   * @default false - this workload's own selector labels (app and version)
   */
  readonly allVersions?: boolean;
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
  /**
   * Service ports (and requests) the mesh must refuse this workload. Synth fails (LKD-POL-026) when the policy would
   * let one in.
   * @default - none declared
   */
  readonly refusedCalls?: ServiceCall[];
}

/**
 * A Deployment whose pods join the mesh under their own ServiceAccount, with the standard app/version labels as its
 * selector (not cdk8s's hashed address label) so that Services and Linkerd Servers can select it by name.
 *
 * @exampleMetadata fixture=shop
 * @example
 * const orders = new MeshedDeployment(chart, 'Orders', {
 *   name: 'orders-v1',
 *   app: 'orders',
 *   version: 'v1',
 *   containers: [{ image: 'hashicorp/http-echo:1.0.0', args: ['-listen=:8080'], ports: [{ number: 8080 }], securityContext: { user: 65532 } }],
 * });
 * // "This workload serves on 8080": the Service orders-v1 selecting this version.
 * const service = orders.exposeService({ ports: [{ port: 8080 }] });
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
  private readonly refusedCalls: string[] = [];
  private readonly declared: DeclaredRequest[] = [];

  constructor(scope: Construct, id: string, props: MeshedDeploymentProps) {
    super(scope, id);
    registerChecks(this);
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
      if (!(/^\S+$/.test(requireString(this, c.image, `containers[${i}].image`)))) {
        fail(this, InputRule.NAME,
          `containers[${i}].image ${JSON.stringify(c.image)} contains whitespace, so it is no image reference.`,
          'Use e.g. "registry.example/app:1.2.3".');
      }
    });
    if (props.serviceAccount !== undefined) requireNamed(this, props.serviceAccount, 'serviceAccount', 'Pass a kplus.ServiceAccount (or omit it).');
    claimImportedServiceAccount(this, props.serviceAccount, undefined);
    optionalInteger(this, props.replicas, 'replicas', 0, 2_147_483_647);
    optionalBoolean(this, props.automountServiceAccountToken, 'automountServiceAccountToken');
    optionalStruct(this, props.proxy, 'proxy');
    optionalList(this, props.calls, 'calls', isStruct, 'calls ({ service, port })');
    optionalList(this, props.refusedCalls, 'refusedCalls', isStruct, 'refused calls ({ service, port })');
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
    for (const call of props.calls ?? []) this.addCall(call.service, call.port, call.request);
    for (const call of props.refusedCalls ?? []) this.addRefusedCall(call.service, call.port, call.request);
  }

  /**
   * Declares that this workload calls a Service port. The declaration is written as an annotation on the Deployment,
   * and synth fails (LKD-POL-013) if the mesh's inbound policy would refuse the call — e.g. after a move to deny.
   */
  public addCall(service: ServiceReference, port: number, request?: CallRequest): void {
    this.calls.push(this.callEntry('addCall', service, port, request, false));
    this.deployment.metadata.addAnnotation(CALLS_ANNOTATION, [...new Set(this.calls)].sort().join(','));
  }

  /**
   * Declares that the mesh must refuse this workload's requests to a Service port (the mirror of addCall): written as
   * the `analysis.cdk8s-linkerd.io/refused-calls` annotation, and synth fails (LKD-POL-026) when the inbound policy
   * would let the request in — evidence that the wrong identity or a plaintext client is refused by the target's proxy.
   */
  public addRefusedCall(service: ServiceReference, port: number, request?: CallRequest): void {
    this.refusedCalls.push(this.callEntry('addRefusedCall', service, port, request, true));
    this.deployment.metadata.addAnnotation(REFUSED_CALLS_ANNOTATION, [...new Set(this.refusedCalls)].sort().join(','));
  }

  /** One entry of the calls grammar (`service[.namespace]:port [METHOD] [/path]`), validated. */
  private callEntry(method: string, service: ServiceReference, port: number, request: CallRequest | undefined, refused: boolean): string {
    check(service instanceof ServiceReference, this, InputRule.REQUIRED, `${method} needs a ServiceReference.`, 'Pass ServiceReference.fromService(svc).');
    service._validate(this, 'called');
    validatePortNumber(this, port, 'called port');
    const verb = request?.method;
    const path = request?.path;
    if (!(verb === undefined || (typeof verb === 'string' && /^[A-Z]{1,20}$/.test(verb)))) {
      fail(this, InputRule.REQUIRED,
        `${method}: method ${JSON.stringify(verb)} is not an HTTP method.`,
        'Pass an upper-case method such as "GET".');
    }
    if (!(path === undefined || (typeof path === 'string' && /^\/\S*$/.test(path) && !path.includes(',')))) {
      fail(this, InputRule.REQUIRED,
        `${method}: path ${JSON.stringify(path)} is not an absolute request path.`,
        'Pass a path that starts with "/" and has no spaces or commas.');
    }
    // Same-namespace calls are written without the namespace, as route refs are: the manifest stays portable.
    const namespace = service.namespace !== undefined && service.namespace !== this.deployment.metadata.namespace ? `.${service.namespace}` : '';
    const requestText = [verb, path].filter((x) => x !== undefined).join(' ');
    service._claim(this);
    const text = `${service.name}${namespace}:${port}${requestText ? ` ${requestText}` : ''}`;
    if (!this.declared.some((d) => d.text === text && d.refused === refused)) {
      this.declared.push({ text, service: service.name, namespace: service.namespace, port, method: verb, path, refused });
    }
    return text;
  }

  /** The calls and refusals declared so far, in declaration order (what MeshVerification turns into Jobs). @internal */
  public _declaredRequests(): readonly DeclaredRequest[] {
    return [...this.declared];
  }

  /**
   * "This workload serves on these ports": a cdk8s-plus Service selecting this workload's pods (or every version of
   * the app), usable at once as a route parent or backend, with its ports known so routes are checked against them.
   */
  public exposeService(options: ExposeServiceOptions): ServiceReference {
    check(Array.isArray(options?.ports) && options.ports.length > 0, this, InputRule.REQUIRED, 'exposeService needs at least one port.',
      'Pass ports: [{ port: 8080 }].');
    const name = validateObjectName(this, options.name ?? this.name, 'Service name');
    if (this.node.tryFindChild(`Service-${name}`) !== undefined) {
      fail(this, InputRule.CONFLICT,
        `Service ${name} was already exposed by this workload.`,
        'Expose each Service once, with all its ports.');
    }
    options.ports.forEach((p, i) => this.checkExposedPort(p, i, options.ports.length));
    const service = new kplus.Service(this, `Service-${name}`, {
      metadata: { name },
      ports: options.ports.map((p) => ({ port: p.port, targetPort: p.targetPort ?? p.port, name: p.name })),
    });
    const labels = options.allVersions ? { [APP_NAME_LABEL]: this.app } : this.selectorLabels;
    for (const [key, value] of Object.entries(labels)) service.selectLabel(key, value);
    // cdk8s-plus-28's ServicePort has no appProtocol; the ports render in the order given, so patch them by index.
    options.ports.forEach((p, i) => {
      if (p.appProtocol !== undefined) ApiObject.of(service).addJsonPatch(JsonPatch.add(`/spec/ports/${i}/appProtocol`, p.appProtocol));
    });
    return ServiceReference.fromService(service);
  }

  private checkExposedPort(p: ExposedPort, i: number, count: number): void {
    if (!(typeof p === 'object' && p !== null)) {
      fail(this, InputRule.REQUIRED,
        `ports[${i}] is not a port object.`,
        'Pass ports: [{ port: 8080 }].');
    }
    validatePortNumber(this, p.port, `ports[${i}].port`);
    if (p.targetPort !== undefined) validatePortNumber(this, p.targetPort, `ports[${i}].targetPort`);
    if (p.name !== undefined) validateServicePortName(this, p.name);
    if (!(count === 1 || p.name !== undefined)) {
      fail(this, InputRule.REQUIRED,
        `ports[${i}] has no name, and a Service with several ports must name each.`,
        'Give every port a name, e.g. "http" and "grpc".');
    }
    if (!(p.appProtocol === undefined || Object.values(AppProtocol).includes(p.appProtocol))) {
      fail(this, InputRule.RANGE,
        `ports[${i}].appProtocol ${JSON.stringify(p.appProtocol)} is not one Linkerd reads; it would treat the port as opaque TCP.`,
        'Use AppProtocol.HTTP1, AppProtocol.HTTP2 (gRPC too) or AppProtocol.OPAQUE.');
    }
  }

  /** The labels this Deployment's pods carry and select on. */
  public get selectorLabels(): { [key: string]: string } {
    return this.version === undefined ? { [APP_NAME_LABEL]: this.app } : { [APP_NAME_LABEL]: this.app, [APP_VERSION_LABEL]: this.version };
  }
}
