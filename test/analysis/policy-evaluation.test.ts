import { analyze } from '../../src/analysis/engine';
import { Injection, MeshIndex } from '../../src/analysis/model/mesh-index';
import { resolveContext } from '../../src/analysis/options';
import { canReach, canReachAs, callerOf, evaluateInboundPolicy, routeShares } from '../../src/analysis/policy';
import { NS, asManifests, meshLab, pick } from '../support/mesh-fixture';

const POLICY = 'policy.linkerd.io';

function clientLike(objects: any[], name: string, serviceAccountName: string, podAnnotations?: Record<string, string>): any {
  const copy = JSON.parse(JSON.stringify(pick(objects, 'Deployment', 'client')));
  copy.metadata.name = name;
  copy.spec.template.metadata.labels = { 'app.kubernetes.io/name': name };
  copy.spec.selector.matchLabels = { 'app.kubernetes.io/name': name };
  copy.spec.template.spec.serviceAccountName = serviceAccountName;
  if (podAnnotations) copy.spec.template.metadata.annotations = podAnnotations;
  return copy;
}

/** The baseline plus the two callers the scenarios need. */
function lab(): any[] {
  const objects = meshLab();
  objects.push(clientLike(objects, 'wrong-client', 'default'));
  objects.push(clientLike(objects, 'plain-client', 'client', { 'linkerd.io/inject': 'disabled' }));
  return objects;
}

function evaluate(objects: any[], contextInput = {}) {
  const context = resolveContext(contextInput);
  return evaluateInboundPolicy(new MeshIndex(asManifests(objects), context.inventory), context);
}

const orders = { namespace: NS, service: 'orders' };
const from = (name: string) => ({ namespace: NS, name });

describe('inbound policy of the mesh-lab baseline', () => {
  const result = evaluate(lab());

  test('lists every declared port of meshed workloads with its Server', () => {
    const rows = result.ports.map((p) => `${p.workload.name}:${p.port}/${p.portName} -> ${p.server?.id.name} (${p.server?.accessPolicy})`);
    expect(rows.sort()).toEqual(['orders-v1:8080/http -> orders-http (deny)', 'orders-v2:8080/http -> orders-http (deny)']);
    expect(result.forWorkload(NS, 'orders-v1')[0].authorizations.map((a) => a.name)).toEqual(['client-to-orders']);
    expect(result.forWorkload(NS, 'orders-v1')[0].defaultPolicy).toMatchObject({ policy: 'all-authenticated', source: 'namespace' });
  });

  test('client reaches orders:8080 through AuthorizationPolicy client-to-orders', () => {
    const decision = canReach(result, from('client'), orders, 8080);
    expect(decision.allowed).toBe(true);
    expect(decision.reason).toMatch(/AuthorizationPolicy client-to-orders admits Deployment mesh-lab\/client/);
  });

  test('the Service port name resolves too', () => {
    expect(canReach(result, from('client'), orders, 'http').allowed).toBe(true);
  });

  test('a wrong-client under the default ServiceAccount is denied', () => {
    const decision = canReach(result, from('wrong-client'), orders, 8080);
    expect(decision.allowed).toBe(false);
    expect(decision.reason).toMatch(/MeshTLSAuthentication client-sa does not match .*wrong-client.*Server orders-http accessPolicy is deny/);
  });

  test('a plain-client with injection disabled is denied', () => {
    expect(callerOf(result.index, from('plain-client'))).toMatchObject({ meshed: false, serviceAccount: 'client' });
    const decision = canReach(result, from('plain-client'), orders, 8080);
    expect(decision.allowed).toBe(false);
    expect(decision.reason).toMatch(/does not match .*plain-client \(unmeshed/);
  });

  test('unknown targets and clients are reported as denials with a reason', () => {
    expect(canReach(result, from('ghost'), orders, 8080)).toMatchObject({ allowed: false, reason: expect.stringMatching(/client workload .*ghost does not exist/) });
    expect(canReach(result, from('client'), { namespace: NS, service: 'nope' }, 8080).reason).toMatch(/Service mesh-lab\/nope does not exist/);
    expect(canReach(result, from('client'), orders, 9999).reason).toMatch(/has no port 9999/);
  });

  test('a workload port can be asked for directly', () => {
    expect(canReach(result, from('client'), { namespace: NS, workload: 'orders-v2' }, 8080).allowed).toBe(true);
    expect(canReach(result, from('wrong-client'), { namespace: NS, workload: 'orders-v2' }, 'http').allowed).toBe(false);
  });
});

describe('without Server and policies, under the cluster default', () => {
  function open(): any[] {
    const objects = lab().filter((o) => !['Server', 'MeshTLSAuthentication', 'AuthorizationPolicy'].includes(o.kind));
    delete pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/default-inbound-policy'];
    return objects;
  }

  test('plain-client is allowed by all-unauthenticated', () => {
    const decision = canReach(evaluate(open()), from('plain-client'), orders, 8080);
    expect(decision.allowed).toBe(true);
    expect(decision.reason).toMatch(/no Server selects .* default inbound policy from the cluster default .* is all-unauthenticated/);
  });

  test('and the engine advises with LKD-POL-011 (info) for each orders workload', () => {
    const found = analyze(asManifests(open())).findings.filter((f) => f.ruleId === 'LKD-POL-011');
    expect(found.map((f) => f.resource.name).sort()).toEqual(['orders-v1', 'orders-v2']);
    expect(found[0]).toMatchObject({ severity: 'info', message: expect.stringMatching(/port\(s\) 8080 \(http\) have no Server/) });
  });

  test('a cluster default of all-authenticated denies plain-client but not client', () => {
    const result = evaluate(open(), { defaultInboundPolicy: 'all-authenticated' });
    expect(canReach(result, from('plain-client'), orders, 8080).allowed).toBe(false);
    expect(canReach(result, from('client'), orders, 8080).allowed).toBe(true);
  });

  test('audit allows and flags the decision', () => {
    const decision = canReach(evaluate(open(), { defaultInboundPolicy: 'audit' }), from('plain-client'), orders, 8080);
    expect(decision).toMatchObject({ allowed: true, audited: true });
  });

  test('cluster-unauthenticated depends on the caller address', () => {
    const result = evaluate(open(), { defaultInboundPolicy: 'cluster-unauthenticated' });
    const port = result.forWorkload(NS, 'orders-v1')[0];
    expect(port.allows({ meshed: false, ip: '10.4.0.7' }).allowed).toBe(true);
    expect(port.allows({ meshed: false, ip: '203.0.113.9' }).allowed).toBe(false);
    expect(port.allows({ meshed: false, inCluster: false }).allowed).toBe(false);
  });
});

describe('opaque ports as the policy controller reads them (ports.rs parse_portset, inbound/index.rs default_inbound_server)', () => {
  /** mesh-lab without Servers, so orders-v1:8080 gets the default server, whose protocol comes from opaque-ports. */
  function protocolOf(podAnnotation: string | undefined, namespaceAnnotation?: string, contextInput = {}): string {
    const objects = lab().filter((o) => !['Server', 'MeshTLSAuthentication', 'AuthorizationPolicy'].includes(o.kind));
    if (podAnnotation !== undefined) pick(objects, 'Deployment', 'orders-v1').spec.template.metadata.annotations = { 'config.linkerd.io/opaque-ports': podAnnotation };
    if (namespaceAnnotation !== undefined) pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/opaque-ports'] = namespaceAnnotation;
    return evaluate(objects, contextInput).forWorkload(NS, 'orders-v1')[0].protocol;
  }

  test('numbers and ranges, trimmed around "-" as well', () => {
    expect(protocolOf(undefined)).toBe('detect');
    expect(protocolOf('8080')).toBe('opaque');
    expect(protocolOf(' 8000-9000 ')).toBe('opaque');
    expect(protocolOf('8079 - 8081')).toBe('opaque');
    expect(protocolOf('+08080')).toBe('opaque');
  });

  test('a port name, or any entry it cannot read, makes the whole list no port at all', () => {
    expect(protocolOf('http')).toBe('detect');
    expect(protocolOf('8080,http')).toBe('detect');
    expect(protocolOf('8080,0')).toBe('detect');
    expect(protocolOf('8080,9000-8000')).toBe('detect');
  });

  test('what the injector writes onto the pod: the namespace\'s list, else the default ports the pod exposes, as text', () => {
    expect(protocolOf(undefined, '8080')).toBe('opaque');
    expect(protocolOf('9090', '8080')).toBe('detect');
    expect(protocolOf(undefined, undefined, { defaultOpaquePorts: '3306,8080' })).toBe('opaque');
    // util.ContainsString compares "8080" with "8000-9000": a range in the chart's list never reaches a pod.
    expect(protocolOf(undefined, undefined, { defaultOpaquePorts: '8000-9000' })).toBe('detect');
  });
});

describe('authorization variants', () => {
  test('a NetworkAuthentication admits callers by address', () => {
    const objects = lab();
    objects.push({ apiVersion: `${POLICY}/v1alpha1`, kind: 'NetworkAuthentication', metadata: { name: 'office', namespace: NS }, spec: { networks: [{ cidr: '192.168.0.0/16', except: ['192.168.9.0/24'] }] } });
    pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.requiredAuthenticationRefs = [{ group: POLICY, kind: 'NetworkAuthentication', name: 'office' }];
    const port = evaluate(objects).forWorkload(NS, 'orders-v1')[0];
    expect(port.allows({ meshed: false, ip: '192.168.1.5' }).allowed).toBe(true);
    expect(port.allows({ meshed: false, ip: '192.168.9.5' }).allowed).toBe(false);
    expect(port.allows({ meshed: true, namespace: NS, serviceAccount: 'client' }).allowed).toBe(false);
  });

  test('a namespace-wide policy and identity strings are honoured', () => {
    const objects = lab();
    pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef = { kind: 'Namespace', name: NS };
    const authn = pick(objects, 'MeshTLSAuthentication', 'client-sa').spec;
    delete authn.identityRefs;
    authn.identities = ['*.mesh-lab.serviceaccount.identity.linkerd.cluster.local'];
    const result = evaluate(objects);
    expect(canReach(result, from('wrong-client'), orders, 8080).allowed).toBe(true);
    expect(canReach(result, from('plain-client'), orders, 8080).allowed).toBe(false);
  });

  test('a route-level policy allows only matching requests', () => {
    const objects = lab();
    pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef = { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'orders-api' };
    objects.push({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'orders-api', namespace: NS },
      spec: { parentRefs: [{ group: POLICY, kind: 'Server', name: 'orders-http' }], rules: [{ matches: [{ path: { value: '/api' } }] }] },
    });
    const decision = canReach(evaluate(objects), from('client'), orders, 8080);
    expect(decision).toMatchObject({ allowed: true, reason: expect.stringMatching(/only for requests matching HTTPRoute orders-api/) });
  });

  test('a legacy ServerAuthorization still admits its clients', () => {
    const objects = lab();
    objects.push({
      apiVersion: `${POLICY}/v1beta1`,
      kind: 'ServerAuthorization',
      metadata: { name: 'legacy', namespace: NS },
      spec: { server: { name: 'orders-http' }, client: { meshTLS: { serviceAccounts: [{ name: 'default' }] } } },
    });
    const decision = canReach(evaluate(objects), from('wrong-client'), orders, 8080);
    expect(decision).toMatchObject({ allowed: true, reason: expect.stringMatching(/legacy ServerAuthorization legacy admits/) });
  });

  // inbound/server_authorization.rs ServerSelector::selects: a full label selector, matchExpressions included.
  test('a legacy ServerAuthorization selects its Servers by matchLabels and matchExpressions', () => {
    const withSelector = (selector: any) => {
      const objects = lab();
      pick(objects, 'Server', 'orders-http').metadata.labels = { tier: 'backend' };
      objects.push({
        apiVersion: `${POLICY}/v1beta1`,
        kind: 'ServerAuthorization',
        metadata: { name: 'legacy', namespace: NS },
        spec: { server: { selector }, client: { meshTLS: { serviceAccounts: [{ name: 'default' }] } } },
      });
      return canReach(evaluate(objects), from('wrong-client'), orders, 8080).allowed;
    };
    expect(withSelector({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['backend'] }] })).toBe(true);
    expect(withSelector({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['frontend'] }] })).toBe(false);
    expect(withSelector({ matchLabels: { tier: 'backend' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['backend'] }] })).toBe(false);
  });

  // grpc/src/inbound.rs to_authz sends an empty network list as the cluster networks (a ServerAuthorization without
  // client.networks); inbound/index.rs policy_client_authz gives an AuthorizationPolicy without NetworkAuthentication
  // 0.0.0.0/0 and ::/0.
  test('a ServerAuthorization naming no network admits only the cluster networks; an AuthorizationPolicy naming none admits every network', () => {
    const outsider = { meshed: false, ip: '203.0.113.7', inCluster: false, label: 'an outsider' };
    const inside = { meshed: false, inCluster: true, label: 'an unmeshed pod' };
    const legacy = (client: any) => {
      const objects = lab();
      objects.push({ apiVersion: `${POLICY}/v1beta1`, kind: 'ServerAuthorization', metadata: { name: 'legacy', namespace: NS }, spec: { server: { name: 'orders-http' }, client } });
      return evaluate(objects);
    };
    const open = legacy({ unauthenticated: true });
    expect(canReachAs(open, outsider, orders, 8080).allowed).toBe(false);
    expect(canReachAs(open, inside, orders, 8080).allowed).toBe(true);
    // With networks, an in-cluster caller of unknown address is admitted only if every cluster network is: as for NetworkAuthentication.
    const narrow = legacy({ unauthenticated: true, networks: [{ cidr: '10.1.0.0/16' }] });
    expect(canReachAs(narrow, inside, orders, 8080).allowed).toBe(false);
    expect(canReachAs(narrow, { ...inside, ip: '10.1.2.3' }, orders, 8080).allowed).toBe(true);
    // An AuthorizationPolicy with no authentication at all admits everyone, from anywhere.
    const objects = lab();
    objects.push({
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'AuthorizationPolicy',
      metadata: { name: 'everyone', namespace: NS },
      spec: { targetRef: { group: POLICY, kind: 'Server', name: 'orders-http' }, requiredAuthenticationRefs: [] },
    });
    const everyone = evaluate(objects);
    expect(canReachAs(everyone, inside, orders, 8080).allowed).toBe(true);
    expect(canReachAs(everyone, outsider, orders, 8080)).toMatchObject({ allowed: true });
    // A NetworkAuthentication with an empty list reaches the proxy as the cluster networks (to_authz).
    objects.push({ apiVersion: `${POLICY}/v1alpha1`, kind: 'NetworkAuthentication', metadata: { name: 'none', namespace: NS }, spec: { networks: [] } });
    pick(objects, 'AuthorizationPolicy', 'everyone').spec.requiredAuthenticationRefs = [{ group: POLICY, kind: 'NetworkAuthentication', name: 'none' }];
    const empty = evaluate(objects);
    expect(canReachAs(empty, inside, orders, 8080).allowed).toBe(true);
    expect(canReachAs(empty, outsider, orders, 8080).allowed).toBe(false);
  });

  test('skip-inbound-ports bypasses the Server', () => {
    const objects = lab();
    pick(objects, 'Deployment', 'orders-v1').spec.template.metadata.annotations = { 'config.linkerd.io/skip-inbound-ports': '8080' };
    const decision = canReach(evaluate(objects), from('plain-client'), { namespace: NS, workload: 'orders-v1' }, 8080);
    expect(decision).toMatchObject({ allowed: true, reason: expect.stringMatching(/skip-inbound-ports/) });
  });

  test('an unmeshed target has no inbound policy', () => {
    const objects = lab();
    pick(objects, 'Deployment', 'orders-v1').spec.template.metadata.annotations = { 'linkerd.io/inject': 'disabled' };
    const result = evaluate(objects);
    expect(result.forWorkload(NS, 'orders-v1')).toEqual([]);
    expect(canReach(result, from('plain-client'), { namespace: NS, service: 'orders-v1' }, 8080).reason).toMatch(/is not meshed/);
    expect(canReach(result, from('plain-client'), orders, 8080).reason).toMatch(/orders-v2 \(one of 2 selected workloads\) denies/);
  });
});

describe('routeShares', () => {
  test('orders-split sends 90% to orders-v1 and 10% to orders-v2', () => {
    const index = new MeshIndex(asManifests(meshLab()));
    const [split] = routeShares(index);
    expect(split.route.name).toBe('orders-split');
    expect(split.parent).toBe('mesh-lab/orders');
    expect(split.backends.map((b) => [b.name, b.percent])).toEqual([['orders-v1', 90], ['orders-v2', 10]]);
    expect(split.backends[0].share).toBeCloseTo(0.9);
  });

  test('omitted weights count 1, all-zero rules share nothing, no backends means the parent Service', () => {
    const objects = meshLab();
    const rules = pick(objects, 'HTTPRoute', 'orders-split').spec.rules;
    delete rules[0].backendRefs[0].weight;
    delete rules[0].backendRefs[1].weight;
    rules.push({ backendRefs: [{ name: 'orders-v1', port: 8080, weight: 0 }] }, { matches: [{ path: { value: '/legacy' } }] });
    const shares = routeShares(new MeshIndex(asManifests(objects)));
    expect(shares.map((r) => r.backends.map((b) => `${b.name}=${b.percent}${b.implicit ? '*' : ''}`))).toEqual([
      ['orders-v1=50', 'orders-v2=50'], ['orders-v1=0'], ['orders=100*'],
    ]);
  });
});

/** pkg/inject/report.go disabledByAnnotation and Injectable, healthcheck/sidecar.go HasExistingSidecars. */
describe('which pods the proxy injector injects', () => {
  const injectionOf = (edit: (objects: any[]) => void, name = 'orders-v1') => {
    const objects = meshLab();
    edit(objects);
    const pod = new MeshIndex(asManifests(objects)).podTemplates.find((p) => p.owner.id.name === name)!;
    return pod.injection;
  };
  const podAnnotations = (o: any[], annotations: Record<string, string>) => { pick(o, 'Deployment', 'orders-v1').spec.template.metadata.annotations = annotations; };
  const nsInject = (o: any[], value: string | undefined) => {
    const ns = pick(o, 'Namespace', NS);
    if (value === undefined) delete ns.metadata.annotations['linkerd.io/inject']; else ns.metadata.annotations['linkerd.io/inject'] = value;
  };

  test('the annotation truth table: an enabling namespace yields to the pod\'s disabled, else the pod\'s own value decides', () => {
    expect(injectionOf(() => {})).toBe(Injection.ENABLED);
    expect(injectionOf((o) => podAnnotations(o, { 'linkerd.io/inject': 'disabled' }))).toBe(Injection.DISABLED);
    expect(injectionOf((o) => { nsInject(o, undefined); podAnnotations(o, { 'linkerd.io/inject': 'ingress' }); })).toBe(Injection.ENABLED);
    expect(injectionOf((o) => nsInject(o, undefined))).toBe(Injection.DISABLED);
    expect(injectionOf((o) => { nsInject(o, 'disabled'); podAnnotations(o, { 'linkerd.io/inject': 'enabled' }); })).toBe(Injection.ENABLED);
  });
  test('a value outside enabled/disabled/ingress, on the namespace or the pod, disables injection', () => {
    expect(injectionOf((o) => podAnnotations(o, { 'linkerd.io/inject': 'true' }))).toBe(Injection.DISABLED);
    expect(injectionOf((o) => { nsInject(o, 'on'); podAnnotations(o, { 'linkerd.io/inject': 'enabled' }); })).toBe(Injection.DISABLED);
  });
  test('a pod that already carries Linkerd\'s proxy is meshed, whatever the annotations say', () => {
    const withProxy = (o: any[]) => {
      nsInject(o, 'disabled');
      pick(o, 'Deployment', 'orders-v1').spec.template.spec.containers.push({ name: 'linkerd-proxy', image: 'cr.l5d.io/linkerd/proxy:edge-25.4.1' });
    };
    expect(injectionOf(withProxy)).toBe(Injection.ENABLED);
  });
  test('the webhook\'s default selectors leave out kube-system, cert-manager and control-plane components', () => {
    expect(injectionOf((o) => { pick(o, 'Deployment', 'orders-v1').spec.template.metadata.labels['linkerd.io/control-plane-component'] = 'x'; })).toBe(Injection.DISABLED);
    const inKubeSystem = meshLab().map((obj) => (obj.metadata?.namespace === NS ? { ...obj, metadata: { ...obj.metadata, namespace: 'kube-system' } } : obj));
    inKubeSystem.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system', annotations: { 'linkerd.io/inject': 'enabled' } } });
    const pod = new MeshIndex(asManifests(inKubeSystem)).podTemplates.find((p) => p.owner.id.name === 'orders-v1')!;
    expect([pod.injection, pod.injectionSkipped]).toEqual([Injection.DISABLED, 'the injector webhook\'s namespaceSelector leaves out namespace kube-system']);
  });
});
