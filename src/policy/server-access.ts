import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { MeshTlsAuthentication, Network, NetworkAuthentication } from './authentication';
import { Authentication, AuthorizationPolicy, AuthorizationTarget } from './authorization-policy';
import { Server } from './server';
import { InputRule, check } from '../core/errors';
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
   */
  public static allow(server: Server, options: AllowOptions): ServerAccess {
    requireConstructArgument(server, Server, 'ServerAccess.allow()',
      'Pass the Server construct. For a Server outside this app, create a MeshTlsAuthentication and an AuthorizationPolicy with AuthorizationTarget.server(Server.fromServerName(...)).');
    requireStruct(server, options, 'allow() options');
    requireString(server, options.policyName, 'allow() policyName');
    const id = `Allow-${options.policyName}`;
    // Checked here because the constructs library would otherwise throw its own uncoded "already a Construct" error.
    check(server.node.tryFindChild(id) === undefined, server, InputRule.CONFLICT,
      `allow() was already called on this Server with policyName ${JSON.stringify(options.policyName)}.`,
      'Give each allow() its own policyName, or list all identities and networks in one call.');
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
    check(hasIdentities || (options.networks?.length ?? 0) > 0, this, InputRule.REQUIRED,
      'allow() needs at least one ServiceAccount, namespace or network.', 'Pass serviceAccounts: [clientServiceAccount].');
    const required: Authentication[] = [];
    if (hasIdentities) {
      this.meshTls = new MeshTlsAuthentication(this, 'Identities', {
        name: options.authenticationName ?? `${options.policyName}-identities`,
        namespace: server.namespace,
        serviceAccounts: options.serviceAccounts,
        namespaces: options.namespaces,
      });
      required.push(Authentication.meshTls(this.meshTls));
    }
    if (options.networks?.length) {
      this.network = new NetworkAuthentication(this, 'Networks', {
        name: options.networkAuthenticationName ?? `${options.policyName}-networks`,
        namespace: server.namespace,
        networks: options.networks,
      });
      required.push(Authentication.network(this.network));
    }
    this.policy = new AuthorizationPolicy(this, 'Policy', {
      name: options.policyName,
      namespace: server.namespace,
      target: AuthorizationTarget.server(server),
      requiredAuthentications: required,
    });
  }
}
