/**
 * Fuzzing what a jsii user (Python, Java, Go, C#) can pass to the public entry points once the TypeScript types are
 * gone: None, null, a number for a string, an object for a list, NaN, negative and huge numbers, strings with
 * newlines, another library object than the one asked for. Every entry point is written once with valid arguments,
 * each argument (and each field of each props object) read through `pick(slot, valid)`; a case replaces one or two
 * slots with hostile values. The contract (oracle.ts): success with output that conforms to the real CRDs, or a coded
 * refusal naming a construct path — never a TypeError, a RangeError or a stack from inside the library.
 */
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { CaseReport, ConformanceCheck, judgeRejection, outputProblems } from './oracle';
import {
  Authentication, AuthorizationPolicy, AuthorizationTarget, DefaultInboundPolicy, EgressNetwork, EgressTrafficPolicy, GrpcRetryCode, GrpcRoute,
  HttpLocalRateLimitPolicy, HttpMethod, HttpRoute, LinkerdControlPlane, LinkerdDelivery, LinkerdIdentity, LinkerdVersion, MeshChecks,
  MeshTlsAuthentication,
  MeshedDeployment, MeshedNamespace, Network, NetworkAuthentication, PathMatch, PodSelection, ProxyProtocol, RetryStatus, RouteBackend, Server,
  RotationStep, ServerAccess, ServerHttpRoute, ServerPort, ServiceReference, TrafficSplit, TrustAnchorRotation, UnmatchedRequests, MeshVerification,
  VerificationProtocol,
} from '../../../src';
import { certs } from '../certs';

type Any = any;

/** Values a jsii language can hand over where the TypeScript type said something else. */
export const HOSTILE_VALUES: ReadonlyArray<() => unknown> = [
  () => undefined, () => null, () => 0, () => -1, () => 1.5, () => NaN, () => Infinity, () => -Infinity, () => 1e308, () => 2 ** 53 + 2,
  () => '', () => ' ', () => 'a\nb', () => 'UPPER_case', () => 'x'.repeat(300), () => '8080', () => 'true', () => '-', () => 'a/b/c',
  () => true, () => false, () => ({}), () => ({ name: 'x' }), () => ({ name: 42 }), () => [], () => [undefined], () => [null], () => ['a'], () => [1, 2],
  () => Duration.seconds(1), () => RetryStatus.SERVER_ERRORS, () => Network.cidr('10.0.0.0/8'), () => PathMatch.exact('/x'), () => ServerPort.number(8080),
  () => ServiceReference.fromName('orders'),
  // Names that reach Object.prototype when a key or a dotted path is used as a property path (test/support/fuzz/prototype-keys.ts).
  () => '__proto__', () => 'constructor', () => 'prototype', () => '__proto__.group', () => '5constructor',
  () => JSON.parse('{"__proto__":{"group":"core","polluted":"yes"}}'), () => ({ constructor: { prototype: { group: 'core' } } }),
];

/** What the entry points need around them: a coherent mesh where the valid arguments synthesize cleanly. */
export interface JsiiEnv {
  readonly app: App;
  readonly chart: Chart;
  readonly service: kplus.Service;
  readonly client: kplus.ServiceAccount;
  readonly orders: MeshedDeployment;
  /** The Server `orders-http` on the orders pods' port 8080 (created on first use). */
  readonly server: () => Server;
}

const FOREIGN_GROUPS = ['cert-manager.io', 'trust.cert-manager.io', 'helm.toolkit.fluxcd.io', 'source.toolkit.fluxcd.io', 'argoproj.io'];
const REPO = path.resolve(__dirname, '..', '..', '..');
const OWN_CODE = [path.join(REPO, 'src') + path.sep, path.join(REPO, 'lib') + path.sep];
const OUTDIR = path.join(os.tmpdir(), 'cdk8s-linkerd-fuzz-unused');

function environment(): JsiiEnv {
  const app = new App({ outdir: OUTDIR });
  MeshChecks.of(app).configure({ printWarnings: false });
  const chart = new Chart(app, 'jsii', { namespace: 'fuzz' });
  const client = new kplus.ServiceAccount(chart, 'Client', { metadata: { name: 'client' } });
  const orders = new MeshedDeployment(chart, 'Orders', {
    name: 'orders', app: 'orders', containers: [{ image: 'example/app:1.0.0', ports: [{ number: 8080, name: 'http' }], securityContext: { user: 1000 } }],
  });
  const service = new kplus.Service(chart, 'Svc', { metadata: { name: 'orders' }, ports: [{ name: 'http', port: 8080, targetPort: 8080 }] });
  service.selectLabel('app.kubernetes.io/name', 'orders');
  let server: Server | undefined;
  return {
    app,
    chart,
    service,
    client,
    orders,
    server: () => (server ??= new Server(chart, 'OrdersHttp', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080), proxyProtocol: ProxyProtocol.HTTP1 })),
  };
}

/** Reads an argument: the valid value, or the hostile one the case chose for this slot. */
export type Pick = <T>(valid: T) => T;

export interface EntryPoint {
  readonly name: string;
  readonly build: (env: JsiiEnv, pick: Pick) => void;
}

const svc = (e: JsiiEnv) => ServiceReference.fromService(e.service);

/** Every exported class with a constructor, static factory or add* method (src/index.ts), with valid arguments. */
export const ENTRY_POINTS: EntryPoint[] = [
  {
    name: 'new Server + ServerPort + PodSelection.app',
    build: (e, p) => new Server(e.chart, 'S', p({
      name: p('orders-http'),
      selector: PodSelection.app(p('orders')),
      port: ServerPort.number(p(8080)),
      proxyProtocol: p(ProxyProtocol.HTTP1),
      accessPolicy: p<DefaultInboundPolicy | undefined>(undefined),
      labels: p<Any>({ team: 'shop' }),
      annotations: p<Any>({ 'example.com/note': 'x' }),
    })),
  },
  {
    name: 'ServerPort.name / PodSelection.labels / workload',
    build: (e, p) => {
      const web = new MeshedDeployment(e.chart, 'Web', { name: 'web', app: 'web', containers: [{ image: 'example/web:1.0.0', ports: [{ number: 9090, name: 'http' }], securityContext: { user: 1000 } }] });
      new Server(e.chart, 'A', { name: 'a', selector: PodSelection.labels(p<Any>({ 'app.kubernetes.io/name': 'orders' })), port: ServerPort.name(p('http')) });
      new Server(e.chart, 'B', { name: 'b', selector: PodSelection.workload(p(web)), port: ServerPort.number(9090), namespace: p<string | undefined>(undefined) });
    },
  },
  {
    name: 'PodSelection.expressions',
    build: (e, p) => new Server(e.chart, 'S', {
      name: 's',
      port: ServerPort.number(8080),
      selector: PodSelection.expressions(p<Any>([p<Any>({ key: p('app.kubernetes.io/name'), operator: p('In'), values: p<Any>(['orders']) })]), p<Any>(undefined)),
    }),
  },
  {
    name: 'new MeshTlsAuthentication + add*',
    build: (e, p) => {
      const auth = new MeshTlsAuthentication(e.chart, 'Auth', p<Any>({ name: p('clients'), serviceAccounts: p<Any>([p<Any>(e.client)]), namespaces: p<Any>(undefined) }));
      auth.addServiceAccount(p<Any>(e.client));
      auth.addNamespace(p('fuzz'));
      const ids = new MeshTlsAuthentication(e.chart, 'Ids', { name: 'ids', identities: p<Any>(['*.fuzz.serviceaccount.identity.linkerd.cluster.local']) });
      ids.addIdentity(p('client.fuzz.serviceaccount.identity.linkerd.cluster.local'));
      new AuthorizationPolicy(e.chart, 'P', {
        name: 'p', target: AuthorizationTarget.server(e.server()), requiredAuthentications: [Authentication.meshTls(auth), Authentication.network(new NetworkAuthentication(e.chart, 'N', { name: 'n', networks: [Network.cidr('10.0.0.0/8')] }))],
      });
      new AuthorizationPolicy(e.chart, 'P2', { name: 'p2', target: AuthorizationTarget.server(e.server()), requiredAuthentications: [Authentication.meshTls(ids)] });
    },
  },
  {
    name: 'new NetworkAuthentication + Network.cidr',
    build: (e, p) => {
      const net = new NetworkAuthentication(e.chart, 'Net', p<Any>({ name: p('net'), networks: p<Any>([Network.cidr(p('10.0.0.0/8'), p<Any>(['10.1.0.0/16']))]) }));
      new AuthorizationPolicy(e.chart, 'P', { name: 'p', target: AuthorizationTarget.server(e.server()), requiredAuthentications: [Authentication.network(net)] });
    },
  },
  {
    name: 'new AuthorizationPolicy + AuthorizationTarget + Authentication',
    build: (e, p) => {
      const target = AuthorizationTarget.server(p<Any>(e.server()));
      new AuthorizationPolicy(e.chart, 'P', p<Any>({
        name: p('policy'),
        target: p<Any>(target),
        requiredAuthentications: p<Any>([Authentication.serviceAccount(p<Any>(e.client))]),
      }));
    },
  },
  {
    name: 'AuthorizationTarget.namespace / httpRoute / grpcRoute',
    build: (e, p) => {
      e.server();
      // Route-level authorization applies to routes attached to a Server (LKD-POL-017).
      const route = new ServerHttpRoute(e.chart, 'R', { name: 'r', server: e.server(), rules: [{}] });
      new AuthorizationPolicy(e.chart, 'P1', { name: 'p1', target: AuthorizationTarget.namespace(p('fuzz')), requiredAuthentications: [Authentication.serviceAccount(e.client)] });
      new AuthorizationPolicy(e.chart, 'P2', { name: 'p2', target: AuthorizationTarget.httpRoute(p<Any>(route)), requiredAuthentications: [Authentication.serviceAccount(e.client)] });
    },
  },
  {
    name: 'ServerAccess.allow',
    build: (e, p) => ServerAccess.allow(p<Any>(e.server()), p<Any>({
      policyName: p('client'),
      serviceAccounts: p<Any>([e.client]),
      namespaces: p<Any>(undefined),
      networks: p<Any>(undefined),
      authenticationName: p<string | undefined>(undefined),
      networkAuthenticationName: p<string | undefined>(undefined),
    })),
  },
  {
    name: 'new HttpLocalRateLimitPolicy',
    build: (e, p) => new HttpLocalRateLimitPolicy(e.chart, 'L', p<Any>({
      name: p('limit'),
      server: p<Any>(e.server()),
      totalRequestsPerSecond: p<number | undefined>(100),
      identityRequestsPerSecond: p<number | undefined>(10),
      overrides: p<Any>([p<Any>({ requestsPerSecond: p(50), clients: p<Any>([e.client]) })]),
    })),
  },
  {
    name: 'new EgressNetwork',
    build: (e, p) => new EgressNetwork(e.chart, 'E', p<Any>({ name: p('egress'), trafficPolicy: p(EgressTrafficPolicy.ALLOW), networks: p<Any>([Network.cidr('203.0.113.0/24', ['203.0.113.128/25'])]) })),
  },
  {
    name: 'new HttpRoute + matches + RouteBackend + retry + timeouts, addRule',
    build: (e, p) => {
      const route = new HttpRoute(e.chart, 'R', p<Any>({
        name: p('orders'),
        service: p<Any>(svc(e)),
        port: p(8080),
        rules: p<Any>([p<Any>({
          matches: p<Any>([p<Any>({ path: p<Any>(PathMatch.prefix(p('/api'))), method: p<Any>(HttpMethod.GET), headers: p<Any>([p<Any>({ name: p('x-version'), value: p('v1'), regex: p<Any>(false) })]) })]),
          backends: p<Any>([p<Any>(RouteBackend.service(p<Any>(ServiceReference.fromName(p('orders'), p<string | undefined>(undefined))), p<Any>({ port: p(8080), weight: p<number | undefined>(1) })))]),
          requestTimeout: p<Any>(Duration.seconds(5)),
        })]),
        retry: p<Any>({
          statuses: p<Any>([p<Any>(RetryStatus.code(p(503))), RetryStatus.range(p(500), p(502))]),
          limit: p<number | undefined>(2),
          timeout: p<Any>(Duration.millis(500)),
        }),
        // The rule sets requestTimeout: a route-level request timeout would hide it (LKD-ROUTE-018).
        timeouts: p<Any>({ request: p<Any>(undefined), response: p<Any>(undefined), idle: p<Any>(Duration.seconds(30)) }),
        unmatched: p<Any>(UnmatchedRequests.ROUTE_TO_SERVICE),
      }));
      route.addRule(p<Any>({ matches: [{ path: PathMatch.exact(p('/health')) }, { path: PathMatch.regex(p('^/v[0-9]+$')) }] }));
    },
  },
  {
    name: 'new GrpcRoute + matches + retry',
    build: (e, p) => {
      const route = new GrpcRoute(e.chart, 'G', p<Any>({
        name: p('orders-grpc'),
        service: svc(e),
        port: 8080,
        rules: p<Any>([{ matches: p<Any>([p<Any>({ service: p<string | undefined>('orders.v1.Orders'), method: p<string | undefined>('Get'), headers: p<Any>(undefined) })]) }]),
        retry: p<Any>({ codes: p<Any>([GrpcRetryCode.UNAVAILABLE]), limit: p<number | undefined>(1), timeout: p<Any>(undefined) }),
      }));
      route.addRule(p<Any>({ backends: [RouteBackend.service(svc(e), { port: 8080 })] }));
    },
  },
  {
    name: 'new TrafficSplit',
    build: (e, p) => {
      for (const name of ['orders-v1', 'orders-v2']) new kplus.Service(e.chart, name, { metadata: { name }, ports: [{ port: 8080 }] });
      new TrafficSplit(e.chart, 'T', p<Any>({
        name: p('split'),
        namespace: p<string | undefined>(undefined),
        service: p<Any>(svc(e)),
        port: p(8080),
        backends: p<Any>([p<Any>({ service: p<Any>(ServiceReference.fromName(p('orders-v1'))), percent: p(90), port: p<number | undefined>(undefined) }), { service: ServiceReference.fromName('orders-v2'), percent: p(10) }]),
        grpc: p<boolean | undefined>(undefined),
        httpRetry: p<Any>(undefined),
        timeouts: p<Any>(undefined),
      }));
    },
  },
  {
    name: 'new MeshedDeployment + ProxyConfig, addCall',
    build: (e, p) => {
      const d = new MeshedDeployment(e.chart, 'D', p<Any>({
        name: p('web'),
        app: p('web'),
        version: p<string | undefined>('v1'),
        replicas: p<number | undefined>(2),
        meshed: p<boolean | undefined>(true),
        containers: p<Any>([p<Any>({ image: p('example/web:1.0.0'), ports: [{ number: 9090, name: 'http' }], securityContext: { user: 1000 } })]),
        serviceAccount: p<Any>(undefined),
        automountServiceAccountToken: p<boolean | undefined>(undefined),
        proxy: p<Any>({
          opaquePorts: p<Any>([3306]),
          skipOutboundPorts: p<Any>(undefined),
          nativeSidecar: p<Any>(true),
          defaultInboundPolicy: p<Any>(DefaultInboundPolicy.ALL_AUTHENTICATED),
        }),
        calls: p<Any>(undefined),
      }));
      d.addCall(p<Any>(svc(e)), p(8080));
    },
  },
  {
    name: 'MeshedDeployment.addRefusedCall, new MeshVerification',
    build: (e, p) => {
      const d = new MeshedDeployment(e.chart, 'D', { name: 'web', app: 'web', containers: [{ image: 'example/web:1.0.0', securityContext: { user: 1000 } }] });
      d.addCall(svc(e), 8080);
      // A Service outside the analysis: the refusal cannot be proved either way (a warning), so the baseline synthesizes.
      d.addRefusedCall(p<Any>(ServiceReference.fromName(p('payments'), p<string | undefined>('billing'))), p(8080), p<Any>({ method: p<Any>('GET'), path: p<Any>('/') }));
      new MeshVerification(e.chart, 'V', p<Any>({
        workloads: p<Any>([d]),
        protocol: p<Any>(VerificationProtocol.HTTP),
        image: p<Any>('curlimages/curl:8.14.1'),
        clusterDomain: p<Any>('cluster.local'),
        timeoutSeconds: p<Any>(10),
      }));
    },
  },
  {
    name: 'new HttpLocalRateLimitPolicy with clusterBudget',
    build: (e, p) => new HttpLocalRateLimitPolicy(e.chart, 'B', p<Any>({
      name: p('budget'),
      server: p<Any>(e.server()),
      clusterBudget: p<Any>({ totalRequestsPerSecond: p<Any>(100), workloads: p<Any>([e.orders]), autoscaled: p<Any>(undefined) }),
    })),
  },
  {
    name: 'new MeshedNamespace',
    build: (e, p) => new MeshedNamespace(e.chart, 'Ns', p<Any>({ name: p('fuzz'), defaultInboundPolicy: p<Any>(undefined), labels: p<Any>({ team: 'shop' }) })),
  },
  {
    name: 'new LinkerdControlPlane + LinkerdIdentity.fromCertManager + LinkerdDelivery',
    build: (e, p) => new LinkerdControlPlane(e.chart, 'Linkerd', p<Any>({
      identity: p<Any>(LinkerdIdentity.fromCertManager(p<Any>({ certManagerNamespace: p<Any>(undefined), issuerDuration: p<Any>(undefined) }))),
      delivery: p<Any>(LinkerdDelivery.flux(p<Any>(undefined))),
      namespace: p<string | undefined>(undefined),
      trustDomain: p<string | undefined>(undefined),
      kubernetesVersion: p<string | undefined>(undefined),
      highAvailability: p<boolean | undefined>(undefined),
      controllerReplicas: p<number | undefined>(undefined),
      clusterNetworks: p<Any>(undefined),
      proxy: p<Any>({ defaultInboundPolicy: p<Any>(undefined), opaquePorts: p<Any>(undefined), nativeSidecar: p<Any>(undefined) }),
      additionalValues: p<Any>({ proxy: p<Any>({ logLevel: 'warn' }), controllerReplicas: p<Any>(undefined), identity: p<Any>(undefined) }),
      additionalCrdsValues: p<Any>(undefined),
      createNamespace: p<boolean | undefined>(undefined),
    })),
  },
  {
    name: 'LinkerdIdentity.fromCertificates + LinkerdDelivery.argoCd + runbooks',
    build: (e, p) => {
      const cp = new LinkerdControlPlane(e.chart, 'Linkerd', {
        identity: LinkerdIdentity.fromCertificates(p<Any>({
          trustAnchorsPem: p(certs.root.certPem),
          issuerCertificatePem: p(certs.issuer.certPem),
          scheme: p<Any>(undefined),
          issuerPrivateKeyPem: p<Any>(undefined),
          writePrivateKey: p<Any>(undefined),
          issuanceLifetime: p<Any>(Duration.hours(24)),
          clockSkewAllowance: p<Any>(undefined),
          expiryWarningDays: p<Any>(30),
          failOnExpiryWarning: p<Any>(undefined),
        })),
        delivery: LinkerdDelivery.argoCd(p<Any>({
          argoCdNamespace: p<Any>('argocd'),
          project: p<Any>('default'),
          destinationServer: p<Any>(undefined),
          automatedSync: p<Any>(true),
          ignoreGeneratedWebhookCertificates: p<Any>(undefined),
        })),
      });
      cp.upgradeRunbook(p<Any>({ meshedNamespaces: p<Any>(['shop']), extensions: p<Any>(['viz']) }));
      cp.exitRunbook(p<Any>(undefined));
    },
  },
  {
    name: 'LinkerdIdentity.fromCertManager (every field) + LinkerdDelivery.flux',
    build: (e, p) => new LinkerdControlPlane(e.chart, 'Linkerd', {
      identity: LinkerdIdentity.fromCertManager({
        certManagerNamespace: p<Any>('cert-manager'),
        rootIssuerName: p<Any>(undefined),
        trustAnchorName: p<Any>(undefined),
        trustAnchorCommonName: p<Any>(undefined),
        trustAnchorDuration: p<Any>(undefined),
        trustAnchorRenewBefore: p<Any>(undefined),
        clusterIssuerName: p<Any>(undefined),
        issuerCommonName: p<Any>(undefined),
        issuerDuration: p<Any>(Duration.hours(48)),
        issuerRenewBefore: p<Any>(Duration.hours(25)),
        previousAnchorSecretName: p<Any>(undefined),
        previousAnchorPem: p<Any>(undefined),
        issuanceLifetime: p<Any>(undefined),
        clockSkewAllowance: p<Any>(undefined),
      }),
      delivery: LinkerdDelivery.flux(p<Any>({ fluxNamespace: p<Any>(undefined), repositoryName: p<Any>('linkerd'), interval: p<Any>(Duration.minutes(5)) })),
      version: p<Any>(LinkerdVersion.V2_20),
      gatewayApiVersion: p<Any>(undefined),
      webhookFailurePolicy: p<Any>(undefined),
    }),
  },
  {
    name: 'new TrustAnchorRotation + runbook',
    build: (e, p) => new TrustAnchorRotation(e.chart, 'Rotation', p<Any>({
      currentAnchorPem: p(certs.root.certPem),
      newAnchorPem: p(certs.newRoot.certPem),
      issuerCertificatePem: p(certs.issuer.certPem),
      step: p(RotationStep.RESTART_AFTER_BUNDLE),
      runningProxiesTrust: p<Any>(undefined),
      scheme: p<Any>(undefined),
      controlPlaneNamespace: p<Any>(undefined),
      meshedNamespaces: p<Any>(['shop']),
      helmRelease: p<Any>(undefined),
      helmChart: p<Any>(undefined),
    })).runbook(),
  },
  {
    name: 'LinkerdVersion.ofChart',
    build: (e, p) => new LinkerdControlPlane(e.chart, 'Linkerd', {
      identity: LinkerdIdentity.fromCertManager(),
      delivery: LinkerdDelivery.flux(),
      version: LinkerdVersion.ofChart(p('2026.6.3'), p<Any>({ appVersion: p<Any>(undefined), minKubernetesVersion: p<Any>(undefined) })),
    }),
  },
  {
    name: 'MeshChecks.configure / suppress',
    build: (e, p) => {
      const options = { printWarnings: false, prometheusServiceAccount: p<Any>(undefined), failOnWarnings: p<Any>(undefined) };
      MeshChecks.of(e.chart).configure(p<Any>(options));
      MeshChecks.suppress(e.orders, p('LKD-POL-011'), p('plaintext health checks until the LB is meshed'));
    },
  },
];

/** One case: which entry point, which slots get a hostile value, and which. */
export interface JsiiCase {
  readonly entry: number;
  readonly slots: number[];
  readonly values: number[];
}

/** How many slots an entry point reads with valid arguments (counted once by a dry run). */
const slotCounts = new Map<number, number>();

export function slotCount(entry: number): number {
  let count = slotCounts.get(entry);
  if (count === undefined) {
    let n = 0;
    ENTRY_POINTS[entry].build(environment(), <T>(valid: T) => (n++, valid));
    slotCounts.set(entry, count = n);
  }
  return count;
}

export function jsiiCases(): fc.Arbitrary<JsiiCase> {
  return fc.nat(ENTRY_POINTS.length - 1).chain((entry) => fc.record({
    entry: fc.constant(entry),
    // One hostile slot mostly, sometimes two (a wrong value behind another wrong value must be refused too).
    slots: fc.uniqueArray(fc.nat(slotCount(entry) - 1), { minLength: 1, maxLength: 2 }),
    values: fc.array(fc.nat(HOSTILE_VALUES.length - 1), { minLength: 2, maxLength: 2 }),
  }));
}

export function describeCase(c: JsiiCase): string {
  const values = c.slots.map((s, i) => `slot ${s} = ${String(HOSTILE_VALUES[c.values[i]]()).slice(0, 20).replace(/\n/g, '\\n')}`);
  return `${ENTRY_POINTS[c.entry].name} with ${values.join(', ')}`;
}

/** Builds and synthesizes one case and judges it by the fuzzing contract. */
export function runJsiiCase(c: JsiiCase, conformance: ConformanceCheck): CaseReport {
  const env = environment();
  let slot = 0;
  const pick: Pick = <T>(valid: T): T => {
    const at = c.slots.indexOf(slot++);
    return at < 0 ? valid : HOSTILE_VALUES[c.values[at]]() as T;
  };
  let objects: any[];
  try {
    ENTRY_POINTS[c.entry].build(env, pick);
    objects = Testing.synth(env.chart);
  } catch (e) {
    const judged = judgeRejection(e, env.app);
    // The user sees the stack from their own call on: no frame of the library may be left in it.
    const ownFrames = e instanceof Error ? (e.stack ?? '').split('\n').slice(1).filter((f) => OWN_CODE.some((dir) => f.includes(dir))) : [];
    return ownFrames.length === 0 ? judged : { ...judged, problems: [...judged.problems, `the stack shows library frames: ${ownFrames[0].trim()}`] };
  }
  // The reference CRDs are Linkerd's and the Gateway API's; cert-manager, Flux and Argo CD objects are checked by their own suites.
  const checked = (all: any[]) => conformance(all.filter((o) => !FOREIGN_GROUPS.some((g) => String(o.apiVersion).startsWith(`${g}/`))));
  return { outcome: { kind: 'synthesized', objects }, problems: outputProblems(objects, env.chart, checked) };
}
