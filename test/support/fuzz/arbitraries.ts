/**
 * fast-check generators for random meshes. Every knob draws from a small pool of realistic values plus, depending on
 * the case's hostility, values people get wrong (bad percents, quoted numbers, compound durations, names the API
 * server refuses, CIDRs with spaces, …).
 *
 * Hostility 0 generates COHERENT meshes: references point at objects that exist, on ports they expose, without the
 * duplicates and conflicts the checks refuse — so a good share of cases synthesize and exercise the output checks,
 * not only the input checks. Higher levels mix in wrong values (weight h against 10 realistic ones per knob) and
 * drop the coherence, so cross-object mistakes reach the engine.
 */
import * as fc from 'fast-check';
import {
  AccessSpec, AppSpec, BackendSpec, ContainerPortSpec, DurationSpec, EgressSpec, GrpcMatchSpec, GrpcRetrySpec, HeaderSpec,
  HttpMatchSpec, HttpRetrySpec, Loose, MeshSpec, MeshTlsSpec, NetworkSpec, PolicySpec, PolicyTargetSpec, PortChoice,
  RateLimitSpec, RouteRuleSpec, RouteSpec, SelectorSpec, ServerPortSpec, ServerSpec, ServiceRefSpec, SplitSpec, StatusSpec,
  TimeoutsSpec, VersionSpec,
} from './mesh-spec';

export const FUZZ_NAMESPACE = 'fuzz';

/**
 * How hostile a case is: `values` is the weight of a wrong value against REALISTIC_WEIGHT realistic ones at every knob
 * (a mesh has ~40 knobs, so level 1 puts about one mistake into a case, and it usually reaches the output); `tangled`
 * drops the structural coherence (duplicates, conflicting Servers and routes, references across apps).
 */
export interface Hostility {
  readonly values: number;
  readonly tangled: boolean;
}

const REALISTIC_WEIGHT = 40;

/** Levels a case is drawn at; coherent cases twice, so about half of all cases synthesize. */
export const HOSTILITY_LEVELS: readonly Hostility[] = [
  { values: 0, tangled: false }, { values: 0, tangled: false }, { values: 1, tangled: false },
  { values: 1, tangled: true }, { values: 6, tangled: true },
];

/** What generators know about the case: its hostility and the apps already drawn. */
interface Ctx {
  /** Weight of wrong values (Hostility.values). */
  readonly h: number;
  readonly tangled: boolean;
  readonly apps: AppSpec[];
}

/** A value from `valid`, or (with weight `h` against the realistic ones) from `hostile`. */
function pool<T>(h: number, valid: readonly T[], hostile: readonly T[]): fc.Arbitrary<T> {
  return either(h, fc.constantFrom(...valid), hostile.length ? fc.constantFrom(...hostile) : fc.constantFrom(...valid));
}

/** A knob that is realistic at hostility 0 and can also be `hostile` at higher levels. */
function either<T>(h: number, coherent: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>, weight = h): fc.Arbitrary<T> {
  if (h === 0) return coherent;
  return fc.oneof({ arbitrary: coherent, weight: REALISTIC_WEIGHT }, { arbitrary: hostile, weight });
}

/** A structural choice: coherent unless the case is tangled. */
function structure<T>(ctx: { tangled: boolean }, coherent: () => fc.Arbitrary<T>, tangled: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  return ctx.tangled ? tangled() : coherent();
}

/**
 * undefined (the builder then names the object after its index, so names are unique), a name the API server refuses
 * (hostile values), or in tangled cases a shared name, so two objects of one kind can collide.
 */
function objectName(ctx: { h: number; tangled: boolean }, bad: string, shared: string): fc.Arbitrary<string | undefined> {
  const unique = fc.constant(undefined);
  const named = ctx.tangled ? fc.oneof({ arbitrary: unique, weight: 3 }, { arbitrary: fc.constant(shared), weight: 1 }) : unique;
  return either(ctx.h, named, fc.constant(bad));
}

function maybe<T>(arb: fc.Arbitrary<T>, freq = 2): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined, freq });
}

function list<T>(arb: fc.Arbitrary<T>, min: number, max: number): fc.Arbitrary<T[]> {
  return fc.array(arb, { minLength: min, maxLength: max });
}

const anyIndex = fc.nat({ max: 7 });

function appIndex(ctx: Ctx): fc.Arbitrary<number> {
  return fc.nat({ max: ctx.apps.length - 1 });
}

// ---- small values -----------------------------------------------------------------------------

function duration(h: number): fc.Arbitrary<DurationSpec> {
  return fc.record({
    unit: fc.constantFrom('millis', 'seconds', 'minutes', 'hours', 'days'),
    // 90 s is the classic "1m30s"; 100000 of anything overflows Gateway API's 5 digits; 0.5 ms is not whole.
    amount: pool(h, [0, 1, 5, 30, 90, 250, 1500], [100_000, 0.5, 1.25]),
  }) as fc.Arbitrary<DurationSpec>;
}

function loose(h: number, valid: number[], hostile: Loose<number>[]): fc.Arbitrary<Loose<number>> {
  return pool<Loose<number>>(h, valid, hostile);
}

function timeouts(h: number): fc.Arbitrary<TimeoutsSpec> {
  return fc.record({ request: maybe(duration(h)), response: maybe(duration(h)), idle: maybe(duration(h)) });
}

function status(h: number): fc.Arbitrary<StatusSpec> {
  return pool<StatusSpec>(h,
    [{ kind: 'server-errors' }, { kind: 'gateway-errors' }, { kind: 'code', code: 429 }, { kind: 'code', code: 503 }, { kind: 'range', from: 500, to: 504 }],
    [{ kind: 'code', code: 99 }, { kind: 'code', code: 600 }, { kind: 'range', from: 504, to: 500 }, { kind: 'code', code: 503.5 }]);
}

function httpRetry(h: number): fc.Arbitrary<HttpRetrySpec> {
  return fc.record({
    statuses: either(h, list(status(h), 1, 3), fc.constant([])),
    limit: maybe(loose(h, [1, 2, 3], [0, 70_000, '3'])),
    timeout: maybe(duration(h)),
  });
}

function grpcRetry(h: number): fc.Arbitrary<GrpcRetrySpec> {
  return fc.record({
    codes: either(h, list(pool(h, ['cancelled', 'deadline-exceeded', 'internal', 'resource-exhausted', 'unavailable'], ['not-a-code', 'UNAVAILABLE']), 1, 3), fc.constant([])),
    limit: maybe(loose(h, [1, 2], [0, '2'])),
    timeout: maybe(duration(h)),
  });
}

/** The n-th port of the target Service (always one it exposes), or a literal that may not be. */
function portChoice(h: number): fc.Arbitrary<PortChoice> {
  const nth = fc.record({ kind: fc.constant('nth' as const), index: anyIndex });
  return either<PortChoice>(h, nth, fc.record({ kind: fc.constant('literal' as const), value: loose(h, [8080, 9999], [0, 70_000, '8080']) }), 2);
}

const BAD_SERVICE_REFS: ServiceRefSpec[] = [
  { kind: 'name', name: 'missing-svc' }, { kind: 'name', name: 'Bad_Name' }, { kind: 'name', name: 'orders', namespace: 'other-ns' },
  { kind: 'name', name: 'orders', namespace: 'Bad NS' }, { kind: 'name', name: '' },
];

function versionRef(ctx: Ctx): fc.Arbitrary<ServiceRefSpec> {
  return appIndex(ctx).chain((app) => fc.record({
    kind: fc.constant('version' as const), app: fc.constant(app), version: fc.nat({ max: ctx.apps[app].versions.length - 1 }),
  }));
}

function serviceRef(ctx: Ctx): fc.Arbitrary<ServiceRefSpec> {
  const coherent = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('app' as const), app: appIndex(ctx) }), weight: 1 },
    { arbitrary: versionRef(ctx), weight: 3 },
  );
  return either(ctx.h, coherent, fc.constantFrom(...BAD_SERVICE_REFS), 1);
}

function refKey(ref: ServiceRefSpec): string {
  return ref.kind === 'name' ? `name:${ref.namespace}/${ref.name}` : `${ref.kind}:${ref.app}:${ref.kind === 'version' ? ref.version : ''}`;
}

function network(h: number): fc.Arbitrary<NetworkSpec> {
  return pool<NetworkSpec>(h,
    [{ cidr: '10.0.0.0/8' }, { cidr: '192.168.1.0/24' }, { cidr: 'fd00::/8' }, { cidr: '10.1.2.3' }, { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] }],
    [{ cidr: '10.0.0.0/33' }, { cidr: '300.1.1.1' }, { cidr: 'not-a-cidr' }, { cidr: ' 10.0.0.0/8' }, { cidr: '10.0.0.0/8', except: ['192.168.0.0/16'] },
      { cidr: '10.0.0.0/8', except: ['10.0.0.0/8'] }, { cidr: '10.0.0.0/8', except: [' 10.1.0.0/16'] }, { cidr: '10.0.0.1/8' }]);
}

function headers(h: number, tangled: boolean): fc.Arbitrary<HeaderSpec[]> {
  const header = fc.record({
    name: pool(h, ['x-version', 'x-user', 'X-Tenant'], ['bad name', 'x:y', '', 'X-Version']),
    value: pool(h, ['v1', 'beta', '^v[0-9]+$'], ['', '(', 'a\nb', 'x'.repeat(4097)]),
    regex: fc.boolean(),
  });
  // Coherent: each header once (names are case-insensitive); hostile levels may repeat one.
  if (tangled) return list(header, 0, 2);
  return fc.uniqueArray(header, { maxLength: 2, selector: (x) => x.name.toLowerCase() });
}

// ---- workloads --------------------------------------------------------------------------------

function containerPorts(h: number): fc.Arbitrary<ContainerPortSpec[]> {
  const port = fc.record({
    // 4143 is the proxy's inbound port: an app container must not take it. 5432 is one of the chart's default opaque
    // ports, where Linkerd serves no HTTP routes (LKD-ROUTE-026): only hostile meshes use it.
    number: pool(h, [80, 8080, 9090, 3000], [4143, 5432]),
    name: maybe(fc.constantFrom('http', 'grpc', 'admin'), 1),
  });
  return fc.uniqueArray(port, { minLength: 1, maxLength: 2, selector: (p) => p.number })
    .map((ports) => ports.filter((p, i) => p.name === undefined || ports.findIndex((q) => q.name === p.name) === i));
}

const often = (value: boolean) => fc.oneof({ arbitrary: fc.constant(value), weight: 9 }, { arbitrary: fc.constant(!value), weight: 1 });

/** Coherent apps run the same ports in every version (as real versions do); hostile ones may differ per version. */
function versions(h: number, tangled: boolean): fc.Arbitrary<VersionSpec[]> {
  const names = either<string[]>(h, fc.constantFrom(['v1'], ['v1', 'v2'], ['v1', 'v2', 'v3']), fc.constant(['v1', 'v1.0-']), 1);
  const make = (version: string, ports: fc.Arbitrary<ContainerPortSpec[]>) => fc.record({
    version: fc.constant(version), ports, meshed: tangled ? often(true) : fc.constant(true), service: tangled ? often(true) : fc.constant(true),
  });
  return fc.tuple(names, containerPorts(h), fc.boolean()).chain(([vs, shared, perVersion]) => fc.tuple(
    ...vs.map((v) => make(v, tangled && perVersion ? containerPorts(h) : fc.constant(shared))),
  ));
}

function apps(h: number, tangled: boolean): fc.Arbitrary<AppSpec[]> {
  const names = either<string[]>(h, fc.shuffledSubarray(['orders', 'users', 'billing'], { minLength: 1, maxLength: 3 }), fc.constant(['orders', 'bad app']), 1);
  return names.chain((ns) => fc.tuple(...ns.map((name) => fc.record({
    name: fc.constant(name),
    versions: versions(h, tangled),
    servicePortOffset: fc.constantFrom(0, 0, 1000),
  }))));
}

// ---- splits and routes ------------------------------------------------------------------------

/** Integer percents that add up to 100 (zeros included): cut 0..100 at count-1 sorted points. */
function validPercents(count: number): fc.Arbitrary<number[]> {
  return list(fc.integer({ min: 0, max: 100 }), count - 1, count - 1).map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), 100];
    return points.slice(1).map((p, i) => p - points[i]);
  });
}

const BAD_PERCENTS: Loose<number>[][] = [[90, 11], [50, 49], [0, 0], [33.3, 66.7], ['90', '10'], [100, -0.5, 0.5], []];

function percents(h: number, versionCount: number): fc.Arbitrary<Loose<number>[]> {
  const hostile = fc.oneof(list(fc.integer({ min: -5, max: 110 }), 1, 3), fc.constantFrom(...BAD_PERCENTS), validPercents(versionCount + 1));
  return either(h, validPercents(versionCount), hostile);
}

function split(ctx: Ctx, app: number): fc.Arbitrary<SplitSpec> {
  const { h } = ctx;
  const grpc = fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 });
  return grpc.chain((isGrpc) => fc.record({
    app: fc.constant(app),
    parentByName: fc.boolean(),
    port: portChoice(h),
    percents: percents(h, ctx.apps[app].versions.length),
    backendPort: either<Loose<number> | undefined>(h, fc.constant(undefined), loose(h, [8080], ['8080', 0])),
    grpc: fc.constant(isGrpc),
    // Realistic: the retry family matches the protocol; a hostile value is the other family's.
    httpRetry: isGrpc ? either(h, fc.constant(undefined), httpRetry(h)) : maybe(httpRetry(h), 1),
    grpcRetry: isGrpc ? maybe(grpcRetry(h), 1) : either(h, fc.constant(undefined), grpcRetry(h)),
    timeouts: maybe(timeouts(h), 1),
  }));
}

function splits(ctx: Ctx): fc.Arbitrary<SplitSpec[]> {
  // Coherent: at most one split per app (two would both attach to the app Service's port).
  const chosen = structure(ctx,
    () => fc.shuffledSubarray([...ctx.apps.keys()], { maxLength: Math.min(2, ctx.apps.length) }),
    () => list(appIndex(ctx), 0, 2));
  return chosen.chain((indices) => fc.tuple(...indices.map((a) => split(ctx, a))));
}

function httpMatch(h: number, tangled: boolean): fc.Arbitrary<HttpMatchSpec> {
  const plain = fc.record({
    type: fc.constantFrom('exact' as const, 'prefix' as const),
    value: pool(h, ['/', '/api', '/api/v1', '/api/'], ['api', '//x', '/a/../b', '/%2F', '/ü', '', '/a#b']),
  });
  const regex = fc.record({ type: fc.constant('regex' as const), value: pool(h, ['^/api/.*', '/v[0-9]+'], ['(', '(?=x)', '']) });
  return fc.record({
    path: maybe(fc.oneof({ arbitrary: plain, weight: 4 }, { arbitrary: regex, weight: 1 })),
    method: maybe(pool(h, ['GET', 'POST', 'PUT', 'DELETE'], ['get', 'FETCH'])),
    headers: headers(h, tangled),
  });
}

function grpcMatch(h: number, tangled: boolean): fc.Arbitrary<GrpcMatchSpec> {
  return fc.record({
    service: maybe(pool(h, ['orders.v1.Orders', 'Health'], ['1bad', 'a..b', ''])),
    method: maybe(pool(h, ['Get', 'List'], ['Get/Put', ''])),
    headers: headers(h, tangled),
  });
}

function backend(ctx: Ctx): fc.Arbitrary<BackendSpec> {
  const { h } = ctx;
  return fc.record({
    target: serviceRef(ctx),
    port: portChoice(h),
    // Realistic weights are positive (or unset); zero shares appear in splits, all-zero rules at hostile levels.
    weight: maybe(loose(h, [1, 50, 100], [0, 1_000_001, -1, 1.5, '5'])),
  });
}

function backends(ctx: Ctx): fc.Arbitrary<BackendSpec[]> {
  return structure(ctx, () => fc.uniqueArray(backend(ctx), { maxLength: 3, selector: (b) => refKey(b.target) }), () => list(backend(ctx), 0, 3));
}

function routeRule(ctx: Ctx): fc.Arbitrary<RouteRuleSpec> {
  const { h } = ctx;
  return fc.record({
    httpMatches: list(httpMatch(h, ctx.tangled), 0, 2),
    grpcMatches: list(grpcMatch(h, ctx.tangled), 0, 2),
    backends: backends(ctx),
    requestTimeout: maybe(duration(h), 1),
  });
}

function route(ctx: Ctx, parent: fc.Arbitrary<ServiceRefSpec>): fc.Arbitrary<RouteSpec> {
  const { h } = ctx;
  return fc.record({
    name: objectName(ctx, 'Route_Bad', 'shared-route'),
    grpc: fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 }),
    parent,
    port: portChoice(h),
    rules: either(h, list(routeRule(ctx), 1, 3), fc.constant([])),
    httpRetry: maybe(httpRetry(h), 1),
    grpcRetry: maybe(grpcRetry(h), 1),
    timeouts: maybe(timeouts(h), 1),
  });
}

function routes(ctx: Ctx): fc.Arbitrary<RouteSpec[]> {
  if (ctx.tangled) return list(route(ctx, serviceRef(ctx)), 0, 2);
  // Coherent: routes attach to version Services (splits own the app Services), one route per parent, so route kinds
  // never mix on a port.
  return fc.uniqueArray(versionRef(ctx), { maxLength: 2, selector: refKey })
    .chain((parents) => fc.tuple(...parents.map((p) => route(ctx, fc.constant(p)))));
}

// ---- policy -----------------------------------------------------------------------------------

function serverPort(h: number): fc.Arbitrary<ServerPortSpec> {
  const container = fc.record({ kind: fc.constant('container' as const), index: anyIndex, byName: fc.boolean() });
  const hostile = fc.oneof(
    fc.record({ kind: fc.constant('number' as const), value: loose(h, [1234], [0, 70_000, 8080.5, '8080']) }),
    // A quoted number is a port NAME to Linkerd, which never matches: the classic mistake.
    fc.record({ kind: fc.constant('name' as const), value: pool(h, ['missing'], ['8080', 'HTTP', 'a-very-long-port-name', 'bad--name']) }),
  );
  return either<ServerPortSpec>(h, container, hostile);
}

function selector(h: number): fc.Arbitrary<SelectorSpec> {
  return pool<SelectorSpec>(h,
    [{ kind: 'app' }, { kind: 'workload' }, { kind: 'version-label' }],
    [{ kind: 'expressions', operator: 'Exists' }, { kind: 'expressions', operator: 'In', values: ['orders', 'users'] },
      { kind: 'labels', labels: { 'app.kubernetes.io/name': 'nobody' } }, { kind: 'expressions', operator: 'Equals', values: ['x'] },
      { kind: 'expressions', operator: 'In', values: [] }, { kind: 'expressions', operator: 'Exists', values: ['x'] },
      { kind: 'labels', labels: { 'bad key!': 'x' } }, { kind: 'labels', labels: {} }]);
}

function server(ctx: Ctx, app: fc.Arbitrary<number>): fc.Arbitrary<ServerSpec> {
  const { h } = ctx;
  return fc.record({
    name: objectName(ctx, 'Srv_Bad', 'shared-server'),
    app,
    version: anyIndex,
    selector: selector(h),
    port: serverPort(h),
    proxyProtocol: maybe(pool(h, ['HTTP/1', 'HTTP/2', 'gRPC', 'opaque', 'TLS', 'unknown'], ['http/1'])),
    accessPolicy: maybe(pool(h, ['deny', 'all-authenticated', 'cluster-authenticated', 'audit', 'all-unauthenticated'], ['allow'])),
  });
}

function servers(ctx: Ctx): fc.Arbitrary<ServerSpec[]> {
  if (ctx.tangled) return list(server(ctx, appIndex(ctx)), 0, 3);
  // Coherent: one Server per app, so no two Servers select the same pod port.
  return fc.shuffledSubarray([...ctx.apps.keys()], { maxLength: ctx.apps.length })
    .chain((chosen) => fc.tuple(...chosen.map((a) => server(ctx, fc.constant(a)))));
}

const IDENTITIES = ['users.fuzz.serviceaccount.identity.linkerd.cluster.local', '*.fuzz.serviceaccount.identity.linkerd.cluster.local', '*',
  'spiffe://cluster.local/ns/fuzz/sa/users'];
const BAD_IDENTITIES = ['Not Valid', 'spiffe://Bad/x', 'a..b', 'spiffe://td/ns//x', ''];

function meshTls(ctx: Ctx): fc.Arbitrary<MeshTlsSpec> {
  const { h } = ctx;
  const refs = fc.record({
    serviceAccounts: list(appIndex(ctx), 1, 2),
    namespaces: list(pool(h, [FUZZ_NAMESPACE], ['other-ns', 'Bad NS']), 0, 1),
    identities: fc.constant([] as string[]),
  });
  const strings = fc.record({
    serviceAccounts: fc.constant([] as number[]),
    namespaces: fc.constant([] as string[]),
    identities: list(pool(h, IDENTITIES, BAD_IDENTITIES), 1, 2),
  });
  const broken = fc.constantFrom<MeshTlsSpec>(
    { serviceAccounts: [0], namespaces: [], identities: [IDENTITIES[0]] },
    { serviceAccounts: [], namespaces: [], identities: [] },
  );
  return either(h, fc.oneof({ arbitrary: refs, weight: 3 }, { arbitrary: strings, weight: 1 }), broken);
}

function policyTarget(ctx: Ctx): fc.Arbitrary<PolicyTargetSpec> {
  const { h } = ctx;
  const coherent = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('server' as const), server: anyIndex }), weight: 6 },
    { arbitrary: fc.constant<PolicyTargetSpec>({ kind: 'namespace', name: FUZZ_NAMESPACE }), weight: 1 },
  );
  // The generated routes have Service parents: a policy on one is never consulted (LKD-POL-017, an error), so not coherent.
  const hostile = fc.oneof(
    fc.constantFrom<PolicyTargetSpec>(
      { kind: 'namespace', name: 'other-ns' }, { kind: 'namespace', name: 'Bad NS' },
      { kind: 'server-name', name: 'missing-server' }, { kind: 'server-name', name: 'Bad_Server' },
    ),
    fc.record({ kind: fc.constant('route' as const), route: anyIndex }),
  );
  return either(h, coherent, hostile);
}

function policy(ctx: Ctx): fc.Arbitrary<PolicySpec> {
  const { h } = ctx;
  // Linkerd admits at most one MeshTLSAuthentication or one ServiceAccount (not both) and one NetworkAuthentication.
  const identity = structure(ctx,
    () => fc.oneof(
      fc.record({ meshTls: list(meshTls(ctx), 0, 1), serviceAccounts: fc.constant([] as number[]) }),
      fc.record({ meshTls: fc.constant([] as MeshTlsSpec[]), serviceAccounts: list(appIndex(ctx), 0, 1) }),
    ),
    () => fc.record({ meshTls: list(meshTls(ctx), 0, 2), serviceAccounts: list(appIndex(ctx), 0, 2) }));
  return fc.record({
    name: objectName(ctx, 'Pol!', 'shared-policy'),
    target: policyTarget(ctx),
    identity,
    networks: list(list(network(h), 1, 2), 0, ctx.tangled ? 2 : 1),
  }).map(({ identity: id, ...rest }) => ({ ...rest, ...id }));
}

function access(ctx: Ctx): fc.Arbitrary<AccessSpec> {
  const { h } = ctx;
  return fc.record({
    policyName: objectName(ctx, 'Allow Bad', 'shared-access'),
    server: anyIndex,
    serviceAccounts: either(h, list(appIndex(ctx), 1, 2), fc.constant([])),
    namespaces: list(pool(h, [FUZZ_NAMESPACE], ['Bad NS']), 0, 1),
    networks: list(network(h), 0, 1),
  });
}

function rateLimit(ctx: Ctx): fc.Arbitrary<RateLimitSpec> {
  const { h } = ctx;
  // Coherent: a total, and per-client limits at or below it.
  return fc.record({
    name: objectName(ctx, 'Rl_Bad', 'shared-limit'),
    server: anyIndex,
    total: either(h, fc.constant<Loose<number> | undefined>(100), maybe(loose(h, [10, 100], [0, 1.5, '10', 5e9]))),
    identity: maybe(loose(h, [10], [0, 1.5, '10', 5e9, 1000])),
    overrides: list(fc.record({ requestsPerSecond: loose(h, [10, 50], [0, '10', 1000]), clients: either(h, list(appIndex(ctx), 1, 2), fc.constant([])) }), 0, 1),
  });
}

function egress(ctx: Ctx): fc.Arbitrary<EgressSpec> {
  const { h } = ctx;
  return fc.record({
    name: objectName(ctx, 'Egress_Bad', 'shared-egress'),
    trafficPolicy: pool(h, ['Allow', 'Deny'], ['allow', '']),
    networks: maybe(list(pool(h, [{ cidr: '203.0.113.0/24' }, { cidr: '198.51.100.7' }], [{ cidr: '10.0.0.0/40' }, { cidr: ' 203.0.113.0/24' }]), 1, 2)),
  });
}

/** One random mesh at a given hostility. */
export function meshAt(level: Hostility): fc.Arbitrary<MeshSpec> {
  const h = level.values;
  return apps(h, level.tangled).chain((drawn) => {
    const ctx: Ctx = { h, tangled: level.tangled, apps: drawn };
    return fc.record({
      namespace: either(h, fc.constant(FUZZ_NAMESPACE), fc.constant('Fuzz_NS'), 1),
      defaultInboundPolicy: maybe(pool(h, ['all-authenticated', 'cluster-authenticated', 'deny', 'audit', 'all-unauthenticated'], ['nope']), 1),
      apps: fc.constant(drawn),
      splits: splits(ctx),
      servers: servers(ctx),
      accesses: list(access(ctx), 0, 2),
      policies: list(policy(ctx), 0, 2),
      routes: routes(ctx),
      rateLimits: list(rateLimit(ctx), 0, 1),
      egress: list(egress(ctx), 0, 2),
    });
  });
}

/** Random meshes over every hostility level, tagged with the level (shown with a counterexample). */
export function meshes(): fc.Arbitrary<{ hostility: Hostility; spec: MeshSpec }> {
  return fc.constantFrom(...HOSTILITY_LEVELS).chain((hostility) => meshAt(hostility).map((spec) => ({ hostility, spec })));
}
