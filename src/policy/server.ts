import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { PodSelection } from './pod-selection';
import { IMeshResource, MeshResource, MeshResourceProps, metadataFor } from '../base';
import { DefaultInboundPolicy, isDefaultInboundPolicy } from '../core/default-inbound-policy';
import { InputRule, check, fail } from '../core/errors';
import { validatePortName, validatePortNumber } from '../core/names';
import { requireStruct } from '../core/runtime-checks';
import * as l1 from '../imports/policy.linkerd.io';

/** The protocol a Server port speaks, so the proxy skips detection. */
export enum ProxyProtocol {
  /** Detect the protocol (the default when omitted). */
  UNKNOWN = 'unknown',
  /** HTTP/1.x. */
  HTTP1 = 'HTTP/1',
  /** HTTP/2. */
  HTTP2 = 'HTTP/2',
  /** gRPC. */
  GRPC = 'gRPC',
  /** Opaque TCP: no protocol detection, no HTTP policy. */
  OPAQUE = 'opaque',
  /** TLS that the application terminates. */
  TLS = 'TLS',
}

/** A Server's port: a number, or the name of a container port. */
export class ServerPort {
  /** A container port number (1..65535). */
  public static number(port: number): ServerPort {
    return new ServerPort(port, 'number');
  }

  /** A container port name. Linkerd reads a quoted number such as "8080" as a name, so names must contain a letter. */
  public static name(name: string): ServerPort {
    return new ServerPort(name, 'name');
  }

  private constructor(private readonly value: number | string, private readonly kind: 'number' | 'name') {}

  /** The number or name, unvalidated. @internal */
  public _value(): number | string {
    return this.value;
  }

  /** The port as written in the Server spec. @internal */
  public _toKube(scope: Construct): number | string {
    // By the factory used, not the value's type: ServerPort.number("8080") from a jsii language is a mistake, not a name.
    if (this.kind === 'number') return validatePortNumber(scope, this.value as number, 'Server port');
    return validatePortName(scope, this.value as string);
  }
}

/** Props for a Server. */
export interface ServerProps extends MeshResourceProps {
  /** The pods this Server applies to. */
  readonly selector: PodSelection;
  /** The pod port. */
  readonly port: ServerPort;
  /**
   * The protocol of the port.
   * @default - detected by the proxy
   */
  readonly proxyProtocol?: ProxyProtocol;
  /**
   * What happens to requests no AuthorizationPolicy allows.
   * @default DefaultInboundPolicy.DENY (the CRD's default)
   */
  readonly accessPolicy?: DefaultInboundPolicy;
}

/** A reference to a Server. */
export interface IServer extends IMeshResource {
  /**
   * The protocol of the port, when known (routes check they are of a kind the Server carries).
   * @default - unknown
   */
  readonly proxyProtocol?: ProxyProtocol;
}

/**
 * A Linkerd Server (policy.linkerd.io/v1beta3): a port of a set of pods that policy applies to. Once a Server selects
 * a port, everything not explicitly authorized is denied (accessPolicy defaults to deny).
 *
 * @exampleMetadata fixture=shop
 * @example
 * const server = new Server(chart, 'OrdersHttp', {
 *   name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080), proxyProtocol: ProxyProtocol.HTTP1,
 * });
 * // Only the client identity may call it.
 * ServerAccess.allow(server, { policyName: 'client-to-orders', authenticationName: 'client-sa', serviceAccounts: [client] });
 */
export class Server extends MeshResource implements IServer {
  /** A Server that exists in the cluster but not in this app. */
  public static fromServerName(name: string, namespace?: string): IServer {
    return { name, namespace };
  }

  public readonly apiObject: ApiObject;
  /** The pods selected. */
  public readonly selector: PodSelection;
  /** The protocol of the port, if given. */
  public readonly proxyProtocol?: ProxyProtocol;
  /** The pod port. */
  public readonly port: ServerPort;

  constructor(scope: Construct, id: string, props: ServerProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    check(props.selector instanceof PodSelection, this, InputRule.REQUIRED, 'selector is required.', 'Pass selector: PodSelection.app("orders") or similar.');
    check(props.port instanceof ServerPort, this, InputRule.REQUIRED, 'port is required.', 'Pass port: ServerPort.number(8080) or ServerPort.name("http").');
    if (props.accessPolicy !== undefined) {
      if (!isDefaultInboundPolicy(props.accessPolicy)) {
        fail(this, 'LKD-POL-012',
          `accessPolicy ${JSON.stringify(props.accessPolicy)} is not one of Linkerd's six policies.`,
          'Use a DefaultInboundPolicy value.');
      }
    }
    if (props.proxyProtocol !== undefined) {
      if (!(Object.values(ProxyProtocol).includes(props.proxyProtocol))) {
        fail(this, 'LKD-POL-012',
          `proxyProtocol ${JSON.stringify(props.proxyProtocol)} is not a protocol Linkerd knows.`,
          'Use a ProxyProtocol value.');
      }
    }
    props.selector._validate(this);
    this.selector = props.selector;
    this.proxyProtocol = props.proxyProtocol;
    this.port = props.port;
    const port = this.port._toKube(this);
    this.apiObject = new l1.Server(this, 'Resource', {
      metadata: metadataFor(this, props),
      spec: Lazy.any({
        produce: () => ({
          podSelector: this.selector._toKube(),
          port,
          proxyProtocol: props.proxyProtocol,
          accessPolicy: props.accessPolicy,
        }),
      }) as any,
    });
  }
}
