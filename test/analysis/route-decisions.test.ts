/**
 * Per-route decisions of the inbound evaluation (PortPolicy.allowsOnRoutes): a route's requests get through when the
 * Server's authorizations or the route's own admit the caller (linkerd2-proxy `try_route`), each verdict naming the
 * objects that decide. Reachability reads these; it no longer tells route-only grants apart by their wording.
 */
import { MeshIndex } from '../../src/analysis/model/mesh-index';
import { resolveContext } from '../../src/analysis/options';
import { Caller, evaluateInboundPolicy } from '../../src/analysis/policy';
import { meshModel } from '../../src/analysis/reachability';
import { NS, asManifests, meshLab, pick } from '../support/mesh-fixture';

const SERVER_PARENT = [{ group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }];

/** mesh-lab plus two routes on Server orders-http: `/` with no policy of its own, `/admin` open to ServiceAccount admin. */
function lab(): any[] {
  const objects = meshLab();
  const route = (name: string, path: string) => ({
    apiVersion: 'policy.linkerd.io/v1beta3',
    kind: 'HTTPRoute',
    metadata: { name, namespace: NS },
    spec: { parentRefs: SERVER_PARENT, rules: [{ matches: [{ path: { type: 'PathPrefix', value: path } }] }] },
  });
  objects.push(route('orders-api', '/'), route('orders-admin', '/admin'));
  objects.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'admin', namespace: NS } });
  objects.push({
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'AuthorizationPolicy',
    metadata: { name: 'admin-only', namespace: NS },
    spec: {
      targetRef: { group: 'policy.linkerd.io', kind: 'HTTPRoute', name: 'orders-admin' },
      requiredAuthenticationRefs: [{ kind: 'ServiceAccount', name: 'admin', namespace: NS }],
    },
  });
  return objects;
}

function portOf(objects: any[]) {
  const context = resolveContext({});
  const policy = evaluateInboundPolicy(new MeshIndex(asManifests(objects), context.inventory), context);
  return policy.forWorkload(NS, 'orders-v1').find((p) => p.port === 8080)!;
}

const meshed = (serviceAccount: string): Caller => ({ meshed: true, namespace: NS, serviceAccount });
const names = (ids: readonly { kind: string; name: string }[] | undefined) => (ids ?? []).map((id) => `${id.kind}/${id.name}`);

describe('per-route decisions', () => {
  const port = portOf(lab());

  test('a caller the Server admits is allowed on every route, decided by the Server\'s policy and its authentication', () => {
    const decisions = port.allowsOnRoutes(meshed('client'));
    expect(decisions.map((d) => [d.route.route?.id.name, d.allowed])).toEqual([['orders-api', true], ['orders-admin', true]]);
    expect(names(decisions[0].deciders)).toEqual(['AuthorizationPolicy/client-to-orders', 'MeshTLSAuthentication/client-sa']);
    expect(port.allows(meshed('client')).onlyRoutes).toBeUndefined();
  });

  test('a caller only a route admits: the connection is allowed for that route, the other route refuses it', () => {
    const connection = port.allows(meshed('admin'));
    expect(connection.allowed).toBe(true);
    expect(names(connection.onlyRoutes)).toEqual(['HTTPRoute/orders-admin']);
    const [api, admin] = port.allowsOnRoutes(meshed('admin'));
    expect([api.allowed, admin.allowed]).toEqual([false, true]);
    expect(names(admin.deciders)).toEqual(['AuthorizationPolicy/admin-only']);
    expect(admin.reason).toBe('AuthorizationPolicy admin-only on HTTPRoute orders-admin admits meshed mesh-lab/admin');
    expect(names(api.deciders)).toEqual(['HTTPRoute/orders-api', 'Server/orders-http']);
    expect(api.reason).toMatch(/^no AuthorizationPolicy on HTTPRoute orders-api admits meshed mesh-lab\/admin, and nothing on Server orders-http does/);
  });

  test('a caller nothing admits is refused on every route by the Server\'s accessPolicy', () => {
    const decisions = port.allowsOnRoutes(meshed('default'));
    expect(decisions.map((d) => d.allowed)).toEqual([false, false]);
    expect(decisions[0].reason).toMatch(/Server orders-http accessPolicy is deny/);
    expect(names(decisions[0].deciders)).toEqual([
      'Server/orders-http', 'AuthorizationPolicy/client-to-orders', 'AuthorizationPolicy/admin-only',
    ]);
  });

  test('an opaque Server serves no route: a route-level policy admits nothing, per connection', () => {
    const objects = lab();
    pick(objects, 'Server', 'orders-http').spec.proxyProtocol = 'opaque';
    const opaque = portOf(objects);
    expect(opaque.allowsOnRoutes(meshed('admin'))).toEqual([]);
    expect(opaque.allows(meshed('admin'))).toMatchObject({ allowed: false });
    expect(opaque.allows(meshed('admin')).onlyRoutes).toBeUndefined();
  });

  test('reachability shows the same verdicts per route, with the deciding objects', () => {
    const model = meshModel(asManifests(lab()));
    const verdicts = model.decide(model.port('mesh-lab/orders-v1:8080')!, model.caller('mesh-lab/admin'));
    expect(verdicts.map((v) => [v.request, v.allowed, names(v.deciders)])).toEqual([
      ['HTTPRoute orders-api', false, ['HTTPRoute/orders-api', 'Server/orders-http']],
      ['HTTPRoute orders-admin', true, ['AuthorizationPolicy/admin-only']],
    ]);
  });
});

// status/src/index.rs parent_condition_server + parent_has_conflicting_routes: a GRPCRoute naming the Server conflicts its
// HTTPRoutes; inbound/index.rs http_routes keeps only accepted ones (routes.rs accepted_by_server), else the defaults.
describe('a GRPCRoute on the same Server', () => {
  const withGrpc = () => [...lab(), {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GRPCRoute',
    metadata: { name: 'orders-grpc', namespace: NS },
    spec: { parentRefs: SERVER_PARENT, rules: [{ matches: [{ method: { service: 'orders.Orders' } }] }] },
  }];
  test('drops its HTTPRoutes: the route-only grant is gone, and the Server serves the generated default route', () => {
    const port = portOf(withGrpc());
    expect(port.allows(meshed('admin')).allowed).toBe(false);
    expect(port.allowsOnRoutes(meshed('client')).map((d) => [d.route.generated ?? d.route.route?.id.name, d.allowed])).toEqual([['default', true]]);
  });
});

// inbound/index.rs apply_http_route: a binding that fails (a Server parentRef with a port, a sectionName or another
// namespace: routes.rs from_http_parent_ref; a filter it cannot convert: index/http.rs try_gateway_filter) is ignored
// whole, for every Server it names, and the Server gets its default routes.
describe('a route the inbound index cannot bind', () => {
  const variants: Array<[string, (route: any) => void]> = [
    ['a Server parentRef with a port', (route) => { route.spec.parentRefs = [{ ...SERVER_PARENT[0], port: 8080 }]; }],
    ['a second Server parentRef in another namespace', (route) => { route.spec.parentRefs = [...SERVER_PARENT, { ...SERVER_PARENT[0], name: 'x', namespace: 'other' }]; }],
    ['a URLRewrite filter', (route) => {
      route.apiVersion = 'gateway.networking.k8s.io/v1';
      route.spec.rules[0].filters = [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } }];
    }],
  ];
  test.each(variants)('with %s takes its authorizations with it', (_name, edit) => {
    const objects = lab();
    edit(pick(objects, 'HTTPRoute', 'orders-admin'));
    const port = portOf(objects);
    expect(port.allows(meshed('admin')).allowed).toBe(false);
    expect(port.allowsOnRoutes(meshed('client')).map((d) => d.route.route?.id.name)).toEqual(['orders-api']);
  });
});
