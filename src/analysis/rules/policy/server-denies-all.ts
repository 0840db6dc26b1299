import { POLICY_GROUP } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { authorizationTargets, serverAuthorizationsFor } from '../../model/inbound/authorizations';
import { serverAccessPolicy, serverPort } from '../../model/inbound/servers';
import { routeFamilyOf, servedServerRoutes, serverProxyProtocol } from '../../model/inbound-routes';
import { specOf } from '../../model/objects';
import { Rule, RuleArea } from '../../rule';

/** A Server defaults to deny; without any authorization its port refuses every connection. */
export const serverDeniesAllRule: Rule = {
  id: 'LKD-POL-009',
  area: RuleArea.POLICY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: whether authorizations exist outside the manifests, and whether denying everything is the '
      + 'intent.',
    title: 'A Server with accessPolicy deny has at least one authorization',
    why: 'Creating a Server switches its port from the default inbound policy to the Server\'s accessPolicy, which defaults to '
      + 'deny in v1beta3. With no AuthorizationPolicy on the Server, its routes or its namespace, every connection is refused '
      + '(except GETs of the pods\' HTTP probe paths, which the generated probe route authorizes while no route is attached; '
      + 'for example Prometheus scrapes in linkerd2#13013, or #7154).',
    fix: 'Add an AuthorizationPolicy targeting the Server, or set accessPolicy (e.g. all-authenticated, or audit while rolling out).',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::inbound_server, PolicyIndex::client_authzs; '
      + 'policy-controller/k8s/index/src/defaults.rs DefaultPolicy::default_authzs',
    badExample: 'kind: Server\nspec:\n  port: 8080\n  podSelector: {matchLabels: {app: orders}}\n# and no AuthorizationPolicy',
    goodExample: 'kind: AuthorizationPolicy\nspec:\n  targetRef: {group: policy.linkerd.io, kind: Server, name: orders-http}\n'
      + '  requiredAuthenticationRefs:\n  - {group: policy.linkerd.io, kind: MeshTLSAuthentication, name: clients}',
  },
  check(ctx) {
    const authz = authorizationTargets(ctx.index);
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) {
      if (serverAccessPolicy(server) !== 'deny') continue;
      // Only the routes the Server serves carry authorizations (a route its protocol or its status drops does not).
      const protocol = serverProxyProtocol(server);
      const routes = servedServerRoutes(ctx.index, server, protocol);
      const authorized = authz.forServer(server).length > 0
        || authz.forNamespace(server.id.namespace ?? '').length > 0
        || routes.some((r) => authz.forRoute(r).length > 0)
        || serverAuthorizationsFor(ctx.index, server).length > 0;
      if (authorized) continue;
      const explicit = specOf(server).accessPolicy === 'deny' ? 'accessPolicy deny' : 'accessPolicy unset (deny, the v1beta3 default)';
      ctx.report(server, `Server ${server.id.name} has ${explicit} and no AuthorizationPolicy targets it, its routes or its namespace; `
        + `port ${JSON.stringify(serverPort(server))} of the selected pods refuses every connection`
        + (routes.length === 0 && routeFamilyOf(protocol) === 'http' ? ' (only GETs of the pods\' HTTP probe paths on that port stay open, through the probe route '
          + 'Linkerd generates while no route is attached).' : '.'));
    }
  },
};
