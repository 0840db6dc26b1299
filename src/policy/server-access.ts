import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { MeshTlsAuthentication, Network, NetworkAuthentication } from './authentication';
import { Authentication, AuthorizationPolicy, AuthorizationTarget } from './authorization-policy';
import { Server } from './server';
import { InputRule, check, fail } from '../core/errors';
import { isNamed, optionalList, requireConstructArgument, requireString, requireStruct } from '../core/runtime-checks';

/** Who may call a Server's port. */
export interface AllowOptions {
  /** Name of the AuthorizationPolicy, e.g. `client-to-orders`. */
  readonly policyName: string;
  /**
   * ServiceAccounts (mesh identities) allowed.
   * @default - none
   */
  readonly serviceAccounts?: kplus.IServiceAccount[];
  /**
   * Namespaces whose every identity is allowed.
   * @default - none
   */
  readonly namespaces?: string[];
  /**
   * Restrict callers to these networks as well.
   * @default - any network
   */
  readonly networks?: Network[];
  /**
   * An existing MeshTlsAuthentication to require instead of creating one, e.g. the one an earlier allow() created
   * (`access.meshTls`) to allow the same clients on another Server. Not combined with serviceAccounts or namespaces.
   * @default - one is created for serviceAccounts and namespaces
   */
  readonly authentication?: MeshTlsAuthentication;
  /**
   * An existing NetworkAuthentication to require instead of creating one. Not combined with networks.
   * @default - one is created for networks
   */
  readonly networkAuthentication?: NetworkAuthentication;
  /**
   * Name of the MeshTLSAuthentication created for the identities.
   * @default - `<policyName>-identities`
   */
  readonly authenticationName?: string;
  /**
   * Name of the NetworkAuthentication created for the networks.
   * @default - `<policyName>-networks`
   */
  readonly networkAuthenticationName?: string;
}

/** The objects `ServerAccess.allow` created. */
export class ServerAccess extends Construct {
  /**
   * Allows the given identities (and optionally networks) to call a Server's port — "orders' http port allows the
   * client identity" — creating a MeshTLSAuthentication (and NetworkAuthentication) and the AuthorizationPolicy.
   *
   * @exampleMetadata fixture=shop
   * @example
   * const clientAccess = ServerAccess.allow(ordersHttp, { policyName: 'client-to-orders', authenticationName: 'client-sa', serviceAccounts: [client] });
   * // The same identity on a second Server reuses its MeshTLSAuthentication.
   * const ordersAdmin = new Server(chart, 'OrdersAdmin', { name: 'orders-admin', selector: PodSelection.app('orders'), port: ServerPort.number(9990) });
   * ServerAccess.allow(ordersAdmin, { policyName: 'client-to-orders-admin', authentication: clientAccess.meshTls });
   */
  public static allow(server: Server, options: AllowOptions): ServerAccess {
    requireConstructArgument(server, Server, 'ServerAccess.allow()',
      'Pass the Server construct. For a Server outside this app, create a MeshTlsAuthentication and an AuthorizationPolicy with AuthorizationTarget.server(Server.fromServerName(...)).');
    requireStruct(server, options, 'allow() options');
    requireString(server, options.policyName, 'allow() policyName');
    const id = `Allow-${options.policyName}`;
    // Checked here because the constructs library would otherwise throw its own uncoded "already a Construct" error.
    if (server.node.tryFindChild(id) !== undefined) {
      fail(server, InputRule.CONFLICT,
        `allow() was already called on this Server with policyName ${JSON.stringify(options.policyName)}.`,
        'Give each allow() its own policyName, or list all identities and networks in one call.');
    }
    return new ServerAccess(server, id, options, server);
  }

  /** The identities accepted, if any were given. */
  public readonly meshTls?: MeshTlsAuthentication;
  /** The networks accepted, if any were given. */
  public readonly network?: NetworkAuthentication;
  /** The policy that ties them to the Server. */
  public readonly policy: AuthorizationPolicy;

  private constructor(scope: Construct, id: string, options: AllowOptions, server: Server) {
    super(scope, id);
    const isString = (v: unknown) => typeof v === 'string';
    optionalList(this, options.serviceAccounts, 'serviceAccounts', isNamed, 'ServiceAccounts');
    optionalList(this, options.namespaces, 'namespaces', isString, 'namespace names');
    optionalList(this, options.networks, 'networks', (n) => n instanceof Network, 'Network.cidr(...) values');
    const hasIdentities = (options.serviceAccounts?.length ?? 0) + (options.namespaces?.length ?? 0) > 0;
    const hasNetworks = (options.networks?.length ?? 0) > 0;
    const reused = options.authentication !== undefined || options.networkAuthentication !== undefined;
    check(hasIdentities || hasNetworks || reused, this, InputRule.REQUIRED,
      'allow() needs at least one ServiceAccount, namespace, network or existing authentication.', 'Pass serviceAccounts: [clientServiceAccount].');
    const reusesMeshTls = options.authentication instanceof MeshTlsAuthentication && !hasIdentities;
    check(options.authentication === undefined || reusesMeshTls, this, InputRule.CONFLICT,
      'authentication is given together with serviceAccounts or namespaces (or is not a MeshTlsAuthentication).',
      'Either reuse an existing MeshTlsAuthentication (authentication: access.meshTls) or list the identities, not both.');
    check(options.networkAuthentication === undefined || (options.networkAuthentication instanceof NetworkAuthentication && !hasNetworks), this,
      InputRule.CONFLICT, 'networkAuthentication is given together with networks (or is not a NetworkAuthentication).',
      'Either reuse an existing NetworkAuthentication or list the networks, not both.');
    this.meshTls = options.authentication ?? (hasIdentities ? new MeshTlsAuthentication(this, 'Identities', {
      name: options.authenticationName ?? `${options.policyName}-identities`,
      namespace: server.namespace,
      serviceAccounts: options.serviceAccounts,
      namespaces: options.namespaces,
    }) : undefined);
    this.network = options.networkAuthentication ?? (hasNetworks ? new NetworkAuthentication(this, 'Networks', {
      name: options.networkAuthenticationName ?? `${options.policyName}-networks`,
      namespace: server.namespace,
      networks: options.networks!,
    }) : undefined);
    const required: Authentication[] = [];
    if (this.meshTls) required.push(Authentication.meshTls(this.meshTls));
    if (this.network) required.push(Authentication.network(this.network));
    this.policy = new AuthorizationPolicy(this, 'Policy', {
      name: options.policyName,
      namespace: server.namespace,
      target: AuthorizationTarget.server(server),
      requiredAuthentications: required,
    });
  }
}
