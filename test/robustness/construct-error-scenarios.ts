/**
 * One small scenario per coded check of the mesh constructs (src/core, src/policy, src/routing, src/workloads,
 * src/checks/mesh-checks.ts): each must throw a coded error. The error-message review finds every `check(` call
 * site in those folders and requires a scenario that reaches it, so a new check without a scenario fails the review.
 */
import { Chart, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  Authentication, AuthorizationPolicy, AuthorizationTarget, DefaultInboundPolicy, EgressNetwork, GrpcRetryCode, GrpcRoute, HttpLocalRateLimitPolicy,
  HttpMethod, HttpRoute, IssuerScheme, LinkerdControlPlane, LinkerdDelivery, LinkerdIdentity, MeshChecks, MeshTlsAuthentication, MeshedDeployment,
  MeshVerification, MeshedNamespace, Network, NetworkAuthentication, PathMatch, PodSelection, ProbeAccess, ProxyProtocol, RetryStatus, RouteBackend,
  Server, ServerAccess, ServerGrpcRoute, ServerHttpRoute, ServerPort, ServiceReference, TrafficSplit, UnmatchedRequests,
} from '../../src';

import { certs } from '../support/certs';

type Any = any;

export interface Env {
  readonly chart: Chart;
  /** A Service `orders` exposing port 8080 only. */
  readonly service: kplus.Service;
  readonly client: kplus.ServiceAccount;
  readonly server: () => Server;
}

export interface Scenario {
  readonly name: string;
  /** Builds something wrong; must throw (at construction, or at synth for node validations). */
  readonly run: (env: Env) => void;
  /** The error surfaces when the chart is synthesized (construct validations), not at construction. */
  readonly atSynth?: boolean;
}

export function environment(): Env {
  const app = Testing.app();
  MeshChecks.of(app).configure({ printWarnings: false });
  const chart = new Chart(app, 'lab', { namespace: 'mesh-lab' });
  const service = new kplus.Service(chart, 'Orders', { metadata: { name: 'orders' }, ports: [{ name: 'http', port: 8080, targetPort: 8080 }] });
  const client = new kplus.ServiceAccount(chart, 'Client', { metadata: { name: 'client' } });
  let server: Server | undefined;
  return {
    chart,
    service,
    client,
    server: () => (server ??= new Server(chart, 'OrdersHttp', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080) })),
  };
}

const orders = (e: Env) => ServiceReference.fromService(e.service);
const backend = (e: Env, weight?: number, port = 8080) => RouteBackend.service(orders(e), { port, weight });

function route(e: Env, props: Partial<ConstructorParameters<typeof HttpRoute>[2]> = {}): HttpRoute {
  return new HttpRoute(e.chart, 'Route', { name: 'orders', service: orders(e), port: 8080, rules: [{ backends: [backend(e)] }], ...props });
}

function grpcRoute(e: Env, props: Partial<ConstructorParameters<typeof GrpcRoute>[2]> = {}): GrpcRoute {
  return new GrpcRoute(e.chart, 'Grpc', { name: 'orders-grpc', service: orders(e), port: 8080, rules: [{ backends: [backend(e)] }], ...props });
}

const match = (m: Any) => ({ rules: [{ matches: [m] }] });
const repeat = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
const meshTls = (e: Env, id: string) => new MeshTlsAuthentication(e.chart, id, { name: id.toLowerCase(), serviceAccounts: [e.client] });
const netAuth = (e: Env, id: string) => new NetworkAuthentication(e.chart, id, { name: id.toLowerCase(), networks: [Network.cidr('10.0.0.0/8')] });
const policy = (e: Env, props: Any) => new AuthorizationPolicy(e.chart, 'Policy', { name: 'policy', target: AuthorizationTarget.server(e.server()), requiredAuthentications: [], ...props });
const limit = (e: Env, props: Any) => new HttpLocalRateLimitPolicy(e.chart, 'Limit', { name: 'limit', server: e.server(), ...props });
const split = (e: Env, props: Any) => new TrafficSplit(e.chart, 'Split', {
  name: 'split', service: orders(e), port: 8080, backends: [{ service: ServiceReference.fromName('orders-v1'), percent: 100 }], ...props,
});
const serverRoute = (e: Env, props: Any) => new ServerHttpRoute(e.chart, 'ServerRoute', { name: 'orders-api', server: e.server(), rules: [{}], ...props });
const getRule = { rules: [{ matches: [{ method: HttpMethod.GET }] }] };
const workload = (e: Env, props: Any) => new MeshedDeployment(e.chart, 'Orders-v1', { name: 'orders-v1', app: 'orders', containers: [{ image: 'example/app:1.0.0' }], ...props });

const controlPlane = (e: Env, additionalValues: Record<string, Any>, identity: LinkerdIdentity = staticIdentity()) =>
  new LinkerdControlPlane(e.chart, 'Linkerd', { identity, delivery: LinkerdDelivery.flux(), additionalValues });
function staticIdentity(): LinkerdIdentity {
  return LinkerdIdentity.fromCertificates({ trustAnchorsPem: certs.root.certPem, issuerCertificatePem: certs.issuer.certPem });
}
function optedInIdentity(): LinkerdIdentity {
  return LinkerdIdentity.fromCertificates({
    trustAnchorsPem: certs.root.certPem,
    issuerCertificatePem: certs.issuer.certPem,
    issuerPrivateKeyPem: certs.issuer.keyPem,
    writePrivateKey: true,
    scheme: IssuerScheme.LINKERD_TLS,
  });
}

export const SCENARIOS: Scenario[] = [
  // core/durations.ts
  { name: 'a timeout that is not a Duration', run: (e) => route(e, { timeouts: { request: 5 as Any } }) },
  { name: 'a timeout of half a millisecond', run: (e) => route(e, { timeouts: { request: Duration.millis(0.5) } }) },
  { name: 'a declared call without a ServiceReference', run: (e) => workload(e, {}).addCall('orders' as Any, 8080) },
  { name: 'a declared call to port 0', run: (e) => workload(e, {}).addCall(ServiceReference.fromName('orders'), 0) },
  { name: 'a declared refusal with a relative path', run: (e) => workload(e, {}).addRefusedCall(ServiceReference.fromName('orders'), 8080, { path: 'orders' }) },
  { name: 'a MeshVerification with nothing declared to verify', run: (e) => new MeshVerification(e.chart, 'Verify') },
  {
    name: 'a MeshVerification with a cluster domain that is no DNS name',
    run: (e) => {
      workload(e, {}).addCall(ServiceReference.fromName('orders'), 8080);
      return new MeshVerification(e.chart, 'Verify', { clusterDomain: 'Cluster Local' });
    },
  },
  { name: 'a declared call with a lower-case method', run: (e) => workload(e, {}).addCall(ServiceReference.fromName('orders'), 8080, { method: 'get' }) },
  { name: 'a declared call with a relative path', run: (e) => workload(e, {}).addCall(ServiceReference.fromName('orders'), 8080, { path: 'orders' }) },
  { name: 'a rule timeout of 100000 seconds (no single Gateway API unit)', run: (e) => route(e, { rules: [{ requestTimeout: Duration.seconds(100_000) }] }) },
  // core/names.ts
  { name: 'an object name with an underscore', run: (e) => new Server(e.chart, 'Bad', { name: 'orders_http', selector: PodSelection.app('orders'), port: ServerPort.number(8080) }) },
  { name: 'a namespace name with capitals', run: (e) => new MeshedNamespace(e.chart, 'Ns', { name: 'Mesh-Lab' }) },
  { name: 'a quoted number as a Server port name', run: (e) => new Server(e.chart, 'Quoted', { name: 'quoted', selector: PodSelection.app('orders'), port: ServerPort.name('8080') }) },
  { name: 'a Server port outside 1..65535', run: (e) => new Server(e.chart, 'Big', { name: 'big', selector: PodSelection.app('orders'), port: ServerPort.number(70_000) }) },
  { name: 'an app label value with a space', run: (e) => workload(e, { app: 'orders app' }) },
  // policy/authentication.ts
  { name: 'an identity that is neither DNS-like nor SPIFFE', run: (e) => new MeshTlsAuthentication(e.chart, 'Ids', { name: 'ids', identities: ['Not Valid'] }) },
  { name: 'identity strings mixed with ServiceAccounts', run: (e) => new MeshTlsAuthentication(e.chart, 'Mixed', { name: 'mixed', serviceAccounts: [e.client], identities: ['*'] }) },
  { name: 'a network that is not a CIDR', run: (e) => new NetworkAuthentication(e.chart, 'Net', { name: 'net', networks: [Network.cidr('10.0.0.0/33')] }) },
  { name: 'an except outside its network', run: (e) => new NetworkAuthentication(e.chart, 'Net', { name: 'net', networks: [Network.cidr('10.0.0.0/8', ['192.168.0.0/16'])] }) },
  { name: 'a NetworkAuthentication without networks', run: (e) => new NetworkAuthentication(e.chart, 'Net', { name: 'net', networks: [] }) },
  { name: 'a MeshTLSAuthentication that accepts nobody', run: (e) => new MeshTlsAuthentication(e.chart, 'Nobody', { name: 'nobody' }), atSynth: true },
  // policy/authorization-policy.ts
  { name: 'a policy without a target', run: (e) => policy(e, { target: undefined }) },
  { name: 'a policy without requiredAuthentications', run: (e) => policy(e, { requiredAuthentications: undefined }) },
  { name: 'a Namespace target in another namespace', run: (e) => policy(e, { target: AuthorizationTarget.namespace('other') }) },
  { name: 'two MeshTLSAuthentications in one policy', run: (e) => policy(e, { requiredAuthentications: [Authentication.meshTls(meshTls(e, 'A')), Authentication.meshTls(meshTls(e, 'B'))] }) },
  { name: 'two NetworkAuthentications in one policy', run: (e) => policy(e, { requiredAuthentications: [Authentication.network(netAuth(e, 'A')), Authentication.network(netAuth(e, 'B'))] }) },
  // policy/rate-limit-policy.ts
  { name: 'a total rate of 0', run: (e) => limit(e, { totalRequestsPerSecond: 0 }) },
  { name: 'a per-identity rate above the total', run: (e) => limit(e, { totalRequestsPerSecond: 100, identityRequestsPerSecond: 200 }) },
  { name: 'a rate limit without limits', run: (e) => limit(e, {}) },
  { name: 'a per-proxy total and a cluster budget', run: (e) => limit(e, { totalRequestsPerSecond: 10, clusterBudget: { totalRequestsPerSecond: 20, workloads: [workload(e, {})] } }) },
  { name: 'a cluster budget of 0', run: (e) => limit(e, { clusterBudget: { totalRequestsPerSecond: 0, workloads: [workload(e, {})] } }) },
  { name: 'a cluster budget without workloads', run: (e) => limit(e, { clusterBudget: { totalRequestsPerSecond: 20, workloads: [] } }) },
  { name: 'a cluster budget with an unknown autoscaled choice', run: (e) => limit(e, { clusterBudget: { totalRequestsPerSecond: 20, workloads: [workload(e, {})], autoscaled: 'avg' as Any } }) },
  {
    name: 'a rate limit in another namespace than its Server',
    run: (e) => new HttpLocalRateLimitPolicy(new Chart(e.chart.node.root as Construct, 'other', { namespace: 'other' }), 'Limit',
      { name: 'limit', server: e.server(), totalRequestsPerSecond: 10 }),
  },
  { name: 'an override without clients', run: (e) => limit(e, { overrides: [{ requestsPerSecond: 10, clients: [] }] }) },
  // policy/server-access.ts
  {
    name: 'allow() twice with one policy name',
    run: (e) => { for (let i = 0; i < 2; i++) ServerAccess.allow(e.server(), { policyName: 'client', serviceAccounts: [e.client] }); },
  },
  { name: 'allow() with nobody', run: (e) => ServerAccess.allow(e.server(), { policyName: 'nobody' }) },
  {
    name: 'allow() reusing an authentication and listing identities too',
    run: (e) => {
      const first = ServerAccess.allow(e.server(), { policyName: 'first', serviceAccounts: [e.client] });
      ServerAccess.allow(e.server(), { policyName: 'second', authentication: first.meshTls, serviceAccounts: [e.client] });
    },
  },
  {
    name: 'allow() reusing a NetworkAuthentication and listing networks too',
    run: (e) => ServerAccess.allow(e.server(), { policyName: 'nets', networkAuthentication: netAuth(e, 'Nets'), networks: [Network.cidr('10.0.0.0/8')] }),
  },
  // policy/probe-access.ts
  { name: 'ProbeAccess without a workload', run: (e) => new ProbeAccess(e.chart, 'Probes', { server: e.server(), workload: undefined as Any }) },
  { name: 'ProbeAccess for a workload with no HTTP probe on the Server port', run: (e) => new ProbeAccess(e.chart, 'Probes', { server: e.server(), workload: workload(e, {}) }) },
  {
    name: 'ProbeAccess on a Server whose port name no container declares',
    run: (e) => new ProbeAccess(e.chart, 'Probes', {
      server: new Server(e.chart, 'Named', { name: 'orders-named', selector: PodSelection.app('orders'), port: ServerPort.name('http') }),
      workload: workload(e, {}),
    }),
  },
  // policy/server-route.ts
  { name: 'a Server route without a Server', run: (e) => serverRoute(e, { server: undefined }) },
  { name: 'a Server route in another namespace than its Server', run: (e) => serverRoute(e, { namespace: 'elsewhere' }) },
  {
    name: 'an HTTPRoute on a gRPC Server',
    run: (e) => serverRoute(e, { server: new Server(e.chart, 'Grpc', { name: 'orders-grpc', selector: PodSelection.app('orders'), port: ServerPort.number(9090), proxyProtocol: ProxyProtocol.GRPC }) }),
  },
  { name: 'a Server route with 17 rules', run: (e) => serverRoute(e, { rules: repeat(17, () => ({})) }) },
  { name: 'a Server HTTPRoute rule with 65 matches', run: (e) => serverRoute(e, { rules: [{ matches: repeat(65, (i) => ({ path: PathMatch.exact(`/p${i}`) })) }] }) },
  {
    name: 'a Server GRPCRoute rule with 9 matches',
    run: (e) => new ServerGrpcRoute(e.chart, 'ServerGrpc', { name: 'orders-rpc', server: e.server(), rules: [{ matches: repeat(9, () => ({ method: 'Get' })) }] }),
  },
  { name: 'Server route rules that are not a list', run: (e) => serverRoute(e, { rules: {} }) },
  { name: 'a Server route without rules', run: (e) => serverRoute(e, { rules: [] }), atSynth: true },
  { name: 'a Server route that leaves requests unmatched', run: (e) => serverRoute(e, { rules: [{ matches: [{ path: PathMatch.prefix('/api') }] }] }), atSynth: true },
  // policy/server.ts
  { name: 'a Server without a selector', run: (e) => new Server(e.chart, 'S', { name: 's', selector: undefined as Any, port: ServerPort.number(8080) }) },
  { name: 'a Server without a port', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.app('orders'), port: undefined as Any }) },
  { name: 'an unknown accessPolicy', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.app('orders'), port: ServerPort.number(8080), accessPolicy: 'allow' as Any }) },
  { name: 'an unknown proxyProtocol', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.app('orders'), port: ServerPort.number(8080), proxyProtocol: 'http/1' as ProxyProtocol }) },
  // routing/grpc-route.ts, http-route.ts
  { name: 'a GRPCRoute without rules', run: (e) => grpcRoute(e, { rules: [] }), atSynth: true },
  { name: 'a GRPCRoute rule with 9 matches', run: (e) => grpcRoute(e, { rules: [{ matches: repeat(9, () => ({ method: 'Get' })) }] }) },
  { name: 'an HTTPRoute without rules', run: (e) => route(e, { rules: [] }), atSynth: true },
  {
    name: 'an HTTPRoute rule request timeout hidden by the route\'s',
    run: (e) => route(e, { timeouts: { request: Duration.seconds(10) }, rules: [{ requestTimeout: Duration.seconds(5) }] }),
  },
  { name: 'an HTTPRoute rule with 65 matches', run: (e) => route(e, { rules: [{ matches: repeat(65, (i) => ({ path: PathMatch.exact(`/p${i}`) })) }] }) },
  { name: 'a route with 17 rules', run: (e) => route(e, { rules: repeat(17, () => ({})) }) },
  // routing/matches.ts
  { name: 'an empty path', run: (e) => route(e, match({ path: PathMatch.exact('') })) },
  { name: 'a path regex that does not compile', run: (e) => route(e, match({ path: PathMatch.regex('(') })) },
  { name: 'a relative path', run: (e) => route(e, match({ path: PathMatch.prefix('api') })) },
  { name: 'a path with //', run: (e) => route(e, match({ path: PathMatch.prefix('/api//v1') })) },
  { name: '17 header matches', run: (e) => route(e, match({ headers: repeat(17, (i) => ({ name: `x-h${i}`, value: 'v' })) })) },
  { name: 'a header name with a space', run: (e) => route(e, match({ headers: [{ name: 'x version', value: 'v1' }] })) },
  { name: 'the same header twice (case-insensitive)', run: (e) => route(e, match({ headers: [{ name: 'x-version', value: 'v1' }, { name: 'X-Version', value: 'v2' }] })) },
  { name: 'an empty header value', run: (e) => route(e, match({ headers: [{ name: 'x-version', value: '' }] })) },
  { name: 'a header value with a newline', run: (e) => route(e, match({ headers: [{ name: 'x-version', value: 'v1\nv2' }] })) },
  { name: 'an unknown HTTP method', run: (e) => route(e, match({ method: 'FETCH' as HttpMethod })) },
  { name: 'a gRPC service that is not a dotted name', run: (e) => grpcRoute(e, match({ service: '1orders' })) },
  { name: 'a gRPC method that is not an identifier', run: (e) => grpcRoute(e, match({ method: 'Get/Put' })) },
  // routing/retry.ts
  { name: 'a retry status of 99', run: (e) => route(e, { retry: { statuses: [RetryStatus.code(99)] } }) },
  { name: 'a retry limit of 0', run: (e) => route(e, { retry: { statuses: [RetryStatus.GATEWAY_ERRORS], limit: 0 } }) },
  { name: 'a retry without statuses', run: (e) => route(e, { retry: { statuses: [] } }) },
  { name: 'an unknown gRPC retry code', run: (e) => grpcRoute(e, { retry: { codes: ['nope' as GrpcRetryCode] } }) },
  // routing/route-backend.ts, route-base.ts
  { name: 'a backend port the Service does not expose', run: (e) => route(e, { rules: [{ backends: [backend(e, undefined, 9090)] }] }) },
  { name: 'a weight above 1000000', run: (e) => route(e, { rules: [{ backends: [backend(e, 2_000_000)] }] }) },
  { name: '17 backends in one rule', run: (e) => route(e, { rules: [{ backends: repeat(17, (i) => RouteBackend.service(ServiceReference.fromName(`b${i}`), { port: 8080 })) }] }) },
  { name: 'every weight 0', run: (e) => route(e, { rules: [{ backends: [backend(e, 0)] }] }) },
  {
    name: 'a backend in the route\'s unset namespace while the parent Service is in another',
    run: (e) => new HttpRoute(new Chart(e.chart.node.scope as Construct, 'nowhere'), 'Route', {
      name: 'orders', service: ServiceReference.fromName('orders', 'shop'), port: 8080, rules: [{ backends: [RouteBackend.service(ServiceReference.fromName('orders-v2'), { port: 8080 })] }],
    }),
  },
  { name: 'a route without a Service', run: (e) => route(e, { service: undefined as Any }) },
  { name: 'a parent port the Service does not expose', run: (e) => route(e, { port: 9090 }) },
  { name: 'the same backend twice', run: (e) => route(e, { rules: [{ backends: [backend(e, 1), backend(e, 2)] }] }) },
  // routing/traffic-split.ts
  { name: 'a split without backends', run: (e) => split(e, { backends: [] }) },
  { name: 'a split percent of 33.3', run: (e) => split(e, { backends: [{ service: ServiceReference.fromName('orders-v1'), percent: 33.3 }] }) },
  { name: 'split percents adding up to 90', run: (e) => split(e, { backends: [{ service: ServiceReference.fromName('orders-v1'), percent: 90 }] }) },
  { name: 'HTTP retries on a gRPC split', run: (e) => split(e, { grpc: true, httpRetry: { statuses: [RetryStatus.GATEWAY_ERRORS] } }) },
  { name: 'split rules that are not a list', run: (e) => split(e, { rules: 'reads' }) },
  { name: 'a split rule without matches', run: (e) => split(e, { rules: [{ name: 'reads', matches: [] }] }) },
  { name: 'a split rule named like the split', run: (e) => split(e, { rules: [{ name: 'split', matches: [{ method: HttpMethod.GET }] }] }) },
  {
    name: 'split retries for unmatched requests that are NOT_FOUND',
    run: (e) => split(e, { unmatched: UnmatchedRequests.NOT_FOUND, httpRetry: { statuses: [RetryStatus.GATEWAY_ERRORS] }, rules: [{ name: 'reads', matches: [{ method: HttpMethod.GET }] }] }),
  },
  { name: 'HTTP split rules with grpc: true', run: (e) => split(e, { grpc: true, rules: [{ name: 'reads', matches: [{ method: HttpMethod.GET }] }] }) },
  // routing/unmatched.ts
  { name: 'an unknown unmatched value', run: (e) => route(e, { unmatched: 'Drop' as UnmatchedRequests }) },
  { name: 'a route whose every rule has matches, with no catch-all', run: (e) => route(e, getRule), atSynth: true },
  { name: 'ROUTE_TO_SERVICE on a route that matches everything', run: (e) => route(e, { unmatched: UnmatchedRequests.ROUTE_TO_SERVICE }), atSynth: true },
  // workloads/*
  { name: 'a MeshedDeployment without containers', run: (e) => workload(e, { containers: [] }) },
  { name: 'exposeService without ports', run: (e) => workload(e, {}).exposeService({ ports: [] }) },
  { name: 'a Service exposed twice', run: (e) => { const w = workload(e, {}); for (let i = 0; i < 2; i++) w.exposeService({ ports: [{ port: 8080 }] }); } },
  { name: 'a Service port that is not an object', run: (e) => workload(e, {}).exposeService({ ports: [null as Any] }) },
  { name: 'two unnamed Service ports', run: (e) => workload(e, {}).exposeService({ ports: [{ port: 8080 }, { port: 9090 }] }) },
  { name: 'an appProtocol Linkerd does not read', run: (e) => workload(e, {}).exposeService({ ports: [{ port: 8080, appProtocol: 'grpc' as Any }] }) },
  { name: 'an unknown namespace default inbound policy', run: (e) => new MeshedNamespace(e.chart, 'Ns', { name: 'mesh-lab', defaultInboundPolicy: 'nope' as DefaultInboundPolicy }) },
  { name: 'opaquePorts that is not a list', run: (e) => workload(e, { proxy: { opaquePorts: 3306 as Any } }) },
  { name: 'a Service port name that is no DNS label', run: (e) => workload(e, {}).exposeService({ ports: [{ port: 8080, name: 'HTTP_Admin' }] }) },
  { name: 'nativeSidecar as a string', run: (e) => workload(e, { proxy: { nativeSidecar: 'yes' as Any } }) },
  { name: 'an unknown pod default inbound policy', run: (e) => workload(e, { proxy: { defaultInboundPolicy: 'nope' as DefaultInboundPolicy } }) },
  // core/runtime-checks.ts: what a jsii user (Python, Java, Go) can pass once the types are gone
  { name: 'a Server without props (None)', run: (e) => new Server(e.chart, 'S', undefined as Any) },
  { name: 'a retry given as a string', run: (e) => route(e, { retry: 'gateway-error' as Any }) },
  { name: 'a container without an image', run: (e) => workload(e, { containers: [{}] }) },
  { name: 'meshed given as a string', run: (e) => workload(e, { meshed: 'yes' }) },
  { name: 'replicas given as NaN', run: (e) => workload(e, { replicas: NaN }) },
  { name: 'route rules given as an object instead of a list', run: (e) => route(e, { rules: { backends: [] } as Any }) },
  { name: 'a hole ([None]) in a rule\'s backends', run: (e) => route(e, { rules: [{ backends: [undefined as Any] }] }) },
  { name: 'a split whose backends are None', run: (e) => split(e, { backends: undefined }) },
  { name: 'a path match given as a string', run: (e) => route(e, match({ path: '/api' })) },
  { name: 'ServerAccess.allow on Server.fromServerName(...)', run: () => ServerAccess.allow(Server.fromServerName('orders-http') as Any, { policyName: 'x', namespaces: ['mesh-lab'] }) },
  { name: 'a ServiceAccount given as a string', run: (e) => workload(e, { serviceAccount: 'client' }) },
  { name: 'an EgressNetwork trafficPolicy in lower case', run: (e) => new EgressNetwork(e.chart, 'Egress', { name: 'egress', trafficPolicy: 'allow' as Any }) },
  { name: 'labels given as a list', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.app('orders'), port: ServerPort.number(8080), labels: ['team'] as Any }) },
  { name: 'a label key with a space', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.app('orders'), port: ServerPort.number(8080), labels: { 'team name': 'shop' } }) },
  { name: 'a number as a selector label value', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.labels({ app: 8080 as Any }), port: ServerPort.number(8080) }) },
  { name: 'annotations given as a string', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.app('orders'), port: ServerPort.number(8080), annotations: 'owner=shop' as Any }) },
  { name: 'an annotation key with a space', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.app('orders'), port: ServerPort.number(8080), annotations: { 'my note': 'x' } }) },
  { name: 'a number as an annotation value', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.app('orders'), port: ServerPort.number(8080), annotations: { 'example.com/replicas': 3 as Any } }) },
  { name: 'annotations over 256 KiB', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.app('orders'), port: ServerPort.number(8080), annotations: { 'example.com/blob': 'x'.repeat(300_000) } }) },
  { name: 'MeshChecks options with a string for failOnWarnings', run: (e) => MeshChecks.of(e.chart).configure({ failOnWarnings: 'true' as Any }) },
  { name: 'an Argo CD project given as a number', run: (e) => new LinkerdControlPlane(e.chart, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), delivery: LinkerdDelivery.argoCd({ project: 5 as Any }) }) },
  { name: 'a rate-limit override without requestsPerSecond', run: (e) => limit(e, { overrides: [{ clients: [e.client] }] }) },
  { name: 'a container image with a newline', run: (e) => workload(e, { containers: [{ image: 'example/app:1.0.0\nlatest' }] }) },
  { name: 'MeshChecks.suppress on None instead of a construct', run: () => MeshChecks.suppress(undefined as Any, 'LKD-POL-011', 'a reason') },
  // factory input checked where it is used
  { name: 'Authentication.meshTls(None)', run: (e) => policy(e, { requiredAuthentications: [Authentication.meshTls(undefined as Any)] }) },
  { name: 'PodSelection.labels(None) (it would select every pod)', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.labels(undefined as Any), port: ServerPort.number(8080) }) },
  { name: 'a label expression with the operator in lower case', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.expressions([{ key: 'app', operator: 'in', values: ['orders'] }]), port: ServerPort.number(8080) }) },
  { name: 'a label expression In without values', run: (e) => new Server(e.chart, 'S', { name: 's', selector: PodSelection.expressions([{ key: 'app', operator: 'In' }]), port: ServerPort.number(8080) }) },
  { name: 'ServiceReference.fromService(None)', run: (e) => route(e, { service: ServiceReference.fromService(undefined as Any) }) },
  // control-plane/install/merged-values.ts: additionalValues may not bypass what the typed options refuse
  { name: 'additionalValues with a linkerd.io/tls issuer scheme but no issuer key', run: (e) => controlPlane(e, { identity: { issuer: { scheme: 'linkerd.io/tls', tls: { crtPEM: certs.issuer.certPem } } } }) },
  { name: 'additionalValues with an unknown issuer scheme', run: (e) => controlPlane(e, { identity: { issuer: { scheme: 'kubernetes.io/TLS' } } }) },
  { name: 'additionalValues replacing an opted-in issuer key with another issuer\'s', run: (e) => controlPlane(e, { identity: { issuer: { tls: { keyPEM: certs.newIssuer.keyPem } } } }, optedInIdentity()) },
  { name: 'additionalValues smuggling an issuer private key without writePrivateKey', run: (e) => controlPlane(e, { identity: { issuer: { tls: { keyPEM: certs.issuer.keyPem } } } }) },
  { name: 'additionalValues with a zero issuanceLifetime (linkerd-identity reads it as one year)', run: (e) => controlPlane(e, { identity: { issuer: { issuanceLifetime: '0s' } } }) },
  { name: 'additionalValues with empty trust anchors', run: (e) => controlPlane(e, { identity: { externalCA: false }, identityTrustAnchorsPEM: '' }) },
  { name: 'additionalValues with an unknown header logging mode', run: (e) => controlPlane(e, { proxy: { logHTTPHeaders: 'on' } }) },
  { name: 'additionalValues with an unknown defaultInboundPolicy', run: (e) => controlPlane(e, { proxy: { defaultInboundPolicy: 'allow-all' } }) },
  { name: 'additionalValues with "false" (a string) for cniEnabled', run: (e) => controlPlane(e, { cniEnabled: 'false' }) },
  { name: 'additionalValues with controllerReplicas "3" (a string)', run: (e) => controlPlane(e, { controllerReplicas: '3' }) },
  { name: 'additionalValues with a trust domain that is not a DNS name', run: (e) => controlPlane(e, { identityTrustDomain: 'Cluster Local' }) },
  { name: 'additionalValues with a space in clusterNetworks', run: (e) => controlPlane(e, { clusterNetworks: '10.0.0.0/8, 192.168.0.0/16' }) },
  { name: 'additionalValues with a named opaque port', run: (e) => controlPlane(e, { proxy: { opaquePorts: '3306,mysql' } }) },
  { name: 'additionalValues with a proxy memory limit that is not a quantity', run: (e) => controlPlane(e, { proxy: { resources: { memory: { limit: '1 gig' } } } }) },
  { name: 'additionalValues with an issuance lifetime that is not a Go duration', run: (e) => controlPlane(e, { identity: { issuer: { issuanceLifetime: '1 day' } } }) },
  { name: 'additionalValues with a negative issuanceLifetime (certificates expired when issued)', run: (e) => controlPlane(e, { identity: { issuer: { issuanceLifetime: '-24h' } } }) },
  { name: 'additionalValues with a negative clockSkewAllowance (certificates not valid yet)', run: (e) => controlPlane(e, { identity: { issuer: { clockSkewAllowance: '-1h' } } }) },
  // control-plane/delivery/delivery.ts
  { name: 'delivery options given as a string', run: (e) => new LinkerdControlPlane(e.chart, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), delivery: LinkerdDelivery.argoCd('platform' as Any) }) },
  // checks/mesh-checks.ts
  { name: 'a suppression with a malformed rule ID', run: (e) => MeshChecks.suppress(e.server(), 'POL-11', 'a reason') },
  { name: 'a suppression without a reason', run: (e) => MeshChecks.suppress(e.server(), 'LKD-POL-011', '') },
  { name: 'a Prometheus ServiceAccount that is not namespace/name', run: (e) => MeshChecks.of(e.chart).configure({ prometheusServiceAccount: 'prometheus' }) },
  { name: 'a node count that is not a whole number', run: (e) => MeshChecks.of(e.chart).configure({ nodeCount: 2.5 }) },
  { name: 'cniEnabled that is not a boolean', run: (e) => MeshChecks.of(e.chart).configure({ cniEnabled: 'yes' as any }) },
  { name: 'a suppression on a construct without objects', run: (e) => MeshChecks.suppress(new Construct(e.chart, 'Empty'), 'LKD-POL-011', 'a reason') },
];
