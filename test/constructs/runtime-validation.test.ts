/**
 * What a jsii user (Python, Java, Go, C#) can pass once the TypeScript types are gone: None, a number for a string, a
 * dict for a class, a list with a hole. Each must be refused with the coded message (construct path, ID, fix), never
 * written into a manifest that means something else, and never end in a TypeError from inside the library.
 */
import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Authentication, AuthorizationPolicy, AuthorizationTarget, EgressNetwork, HttpRoute, LinkerdControlPlane, LinkerdDelivery, LinkerdIdentity,
  MeshChecks, MeshTlsAuthentication, MeshedDeployment, MeshedNamespace, Network, NetworkAuthentication, PathMatch, PodSelection, RetryStatus,
  RouteBackend, Server, ServerAccess, ServerPort, ServiceReference, TrafficSplit, HttpLocalRateLimitPolicy, ExportedService, LinkerdMulticluster,
  MulticlusterLink, FleetTrustAnchorRotation,
} from '../../src';
import { RotationStep, TrustAnchorRotation, TrustAnchorRotationProps } from '../../src/control-plane/identity';
import { MeshConfigError } from '../../src/core/errors';
import { certs } from '../support/certs';

type Any = any;

function lab() {
  const app = Testing.app();
  MeshChecks.of(app).configure({ printWarnings: false });
  const chart = new Chart(app, 'lab', { namespace: 'mesh-lab' });
  const service = new kplus.Service(chart, 'Orders', { metadata: { name: 'orders' }, ports: [{ name: 'http', port: 8080 }] });
  const client = new kplus.ServiceAccount(chart, 'Client', { metadata: { name: 'client' } });
  const server = () => new Server(chart, 'Http', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080) });
  return { app, chart, service, client, server };
}

/** The coded refusal: `[path] ID: problem Fix: fix`, a MeshConfigError, with no frame of the library on top. */
function refusal(fn: () => unknown): MeshConfigError {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof MeshConfigError)) throw new Error(`expected a MeshConfigError, got ${(e as Error)?.stack ?? e}`);
    expect(e.message).toMatch(/^\[[^\]]+\] LKD-[A-Z]+-\d{3}: .+ Fix: .+/s);
    return e;
  }
  throw new Error('expected a refusal, but nothing was thrown');
}

describe('the inputs of the issue are refused with a coded message', () => {
  test('ServiceReference.fromName(undefined) does not become a nameless backendRef', () => {
    const { chart, service } = lab();
    const e = refusal(() => new HttpRoute(chart, 'Route', {
      name: 'orders',
      service: ServiceReference.fromService(service),
      port: 8080,
      rules: [{ backends: [RouteBackend.service(ServiceReference.fromName(undefined as Any), { port: 8080 })] }],
    }));
    expect(e.message).toMatch(/^\[lab\/Route\] LKD-INPUT-001: rules\[0\]\.backendRefs\[0\] service Service name undefined is not a valid DNS label\. Fix: /);
  });

  test('a TrafficSplit to ServiceReference.fromName(undefined) is refused too', () => {
    const { chart, service } = lab();
    const e = refusal(() => new TrafficSplit(chart, 'Split', {
      name: 'split',
      service: ServiceReference.fromService(service),
      port: 8080,
      backends: [{ service: ServiceReference.fromName('orders-v1'), percent: 90 }, { service: ServiceReference.fromName(undefined as Any), percent: 10 }],
    }));
    expect(e.constructPath).toBe('lab/Split/Route');
    expect(e.ruleId).toBe('LKD-INPUT-001');
  });

  test('ServiceReference.fromService(undefined) is refused where it is used', () => {
    const { chart } = lab();
    const e = refusal(() => new HttpRoute(chart, 'Route', { name: 'orders', service: ServiceReference.fromService(undefined as Any), port: 8080 }));
    expect(e.message).toMatch(/^\[lab\/Route\] LKD-INPUT-003: parent: ServiceReference\.fromService\(\) was given undefined \(None\/null\), not a cdk8s-plus Service\. Fix: /);
  });

  test('PodSelection.labels(undefined) does not become podSelector: {} (a deny Server over every pod)', () => {
    const { chart } = lab();
    const e = refusal(() => new Server(chart, 'S', { name: 's', selector: PodSelection.labels(undefined as Any), port: ServerPort.number(8080) }));
    expect(e.message).toMatch(/^\[lab\/S\] LKD-INPUT-003: selector: PodSelection\.labels\(\) was given undefined \(None\/null\), not a map of labels\. Fix: /);
    // An explicit empty map is a deliberate "every pod" selector and stays allowed.
    const all = new Server(chart, 'All', { name: 'all', selector: PodSelection.labels({}), port: ServerPort.number(8080) });
    expect(all.apiObject.toJson().spec.podSelector).toEqual({});
  });

  test.each<[string, () => PodSelection, RegExp]>([
    ['PodSelection.app(undefined)', () => PodSelection.app(undefined as Any), /LKD-INPUT-001: selector matchLabels app\.kubernetes\.io\/name has value undefined/],
    ['PodSelection.workload(undefined)', () => PodSelection.workload(undefined as Any), /LKD-INPUT-003: selector: PodSelection\.workload\(\) was given undefined/],
    ['an invalid label key', () => PodSelection.labels({ 'bad key': 'x' }), /LKD-INPUT-001: selector matchLabels key "bad key" has a name part/],
    ['a label key with an upper-case prefix', () => PodSelection.labels({ 'Example.com/app': 'x' }), /LKD-INPUT-001: selector matchLabels key "Example\.com\/app" has a prefix/],
    ['a number as a label value', () => PodSelection.labels({ app: 8080 as Any }), /LKD-INPUT-001: selector matchLabels app has value the number 8080/],
    ['expressions that are not a list', () => PodSelection.expressions({ key: 'app' } as Any), /LKD-INPUT-003: selector: PodSelection\.expressions\(\) was given an object/],
    ['an unknown operator', () => PodSelection.expressions([{ key: 'app', operator: 'in', values: ['a'] }]), /LKD-INPUT-006: selector matchExpressions\[0\]\.operator the string "in"/],
    ['In without values', () => PodSelection.expressions([{ key: 'app', operator: 'In' }]), /LKD-INPUT-006: selector matchExpressions\[0\] \(In\) needs at least one value/],
    ['Exists with values', () => PodSelection.expressions([{ key: 'app', operator: 'Exists', values: ['a'] }]), /LKD-INPUT-006: .*must not list values/],
    ['a hole in the expressions', () => PodSelection.expressions([undefined as Any]), /LKD-INPUT-003: selector matchExpressions\[0\] is undefined/],
  ])('%s is refused at the Server', (_, selection, message) => {
    const { chart } = lab();
    expect(refusal(() => new Server(chart, 'S', { name: 's', selector: selection(), port: ServerPort.number(8080) })).message).toMatch(message);
  });

  test('invalid label keys and non-string annotation values are not written as is', () => {
    const { chart } = lab();
    expect(refusal(() => new Server(chart, 'A', { name: 'a', selector: PodSelection.app('orders'), port: ServerPort.number(8080), labels: { 'team name': 'x' } })).message)
      .toMatch(/^\[lab\/A\] LKD-INPUT-001: labels key "team name" has a name part/);
    expect(refusal(() => new Server(chart, 'B', { name: 'b', selector: PodSelection.app('orders'), port: ServerPort.number(8080), annotations: { 'example.com/replicas': 3 as Any } })).message)
      .toMatch(/^\[lab\/B\] LKD-INPUT-001: annotations example\.com\/replicas has value the number 3; annotation values are strings\. Fix: Quote the value/);
    expect(refusal(() => new MeshedNamespace(chart, 'Ns', { name: 'ns', labels: { team: 'a b' } })).message).toMatch(/^\[lab\/Ns\] LKD-INPUT-001: labels team has value/);
  });

  test('[undefined] in backends, ServiceAccounts or authentications is a coded refusal, not a TypeError', () => {
    const { chart, service, client } = lab();
    expect(refusal(() => new HttpRoute(chart, 'Route', { name: 'orders', service: ServiceReference.fromService(service), port: 8080, rules: [{ backends: [undefined as Any] }] })).message)
      .toMatch(/^\[lab\/Route\] LKD-INPUT-003: rules\[0\] backends\[0\] is undefined \(None\/null\), not RouteBackend\.service\(\.\.\.\) values\. Fix: /);
    expect(refusal(() => new MeshTlsAuthentication(chart, 'Auth', { name: 'auth', serviceAccounts: [client, undefined as Any] })).message)
      .toMatch(/^\[lab\/Auth\] LKD-INPUT-003: serviceAccounts\[1\] is undefined/);
    const server = new Server(chart, 'Http', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080) });
    expect(refusal(() => new AuthorizationPolicy(chart, 'Policy', { name: 'p', target: AuthorizationTarget.server(server), requiredAuthentications: [undefined as Any] })).message)
      .toMatch(/^\[lab\/Policy\] LKD-INPUT-003: requiredAuthentications\[0\] is undefined/);
    expect(refusal(() => new AuthorizationPolicy(chart, 'Policy2', { name: 'p2', target: AuthorizationTarget.server(server), requiredAuthentications: [Authentication.meshTls(undefined as Any)] })).message)
      .toMatch(/^\[lab\/Policy2\] LKD-INPUT-003: requiredAuthentications\[0\]: Authentication\.meshTls\(\) was given undefined/);
    expect(refusal(() => ServerAccess.allow(server, { policyName: 'x', serviceAccounts: [undefined as Any] })).message)
      .toMatch(/^\[lab\/Http\/Allow-x\] LKD-INPUT-003: serviceAccounts\[0\] is undefined/);
    expect(refusal(() => new NetworkAuthentication(chart, 'Net', { name: 'net', networks: [undefined as Any] })).message).toMatch(/^\[lab\/Net\] LKD-INPUT-003: networks\[0\]/);
  });

  test('a Server without props is refused', () => {
    const { chart } = lab();
    expect(refusal(() => new Server(chart, 'S', undefined as Any)).message).toMatch(/^\[lab\/S\] LKD-INPUT-003: props must be an object, but is undefined \(None\/null\)\. Fix: /);
  });

  test('ServerAccess.allow(Server.fromServerName(...)) is refused: a reference cannot own the policy objects', () => {
    const e = refusal(() => ServerAccess.allow(Server.fromServerName('orders-http') as Any, { policyName: 'x', namespaces: ['mesh-lab'] }));
    expect(e.message).toMatch(/^\[<root>\] LKD-INPUT-003: ServerAccess\.allow\(\) needs a Server construct of this app, but was given an object of type Object \(named "orders-http": a reference, not a construct\)\. Fix: .*AuthorizationTarget\.server\(Server\.fromServerName/);
  });

  test('a reference from Server.fromServerName(undefined) is refused where a policy targets it', () => {
    const { chart } = lab();
    expect(refusal(() => new AuthorizationPolicy(chart, 'P', { name: 'p', target: AuthorizationTarget.server(Server.fromServerName(undefined as Any)), requiredAuthentications: [] })).message)
      .toMatch(/^\[lab\/P\] LKD-INPUT-001: target Server name undefined is not a valid Kubernetes name/);
    expect(refusal(() => new HttpLocalRateLimitPolicy(chart, 'L', { name: 'l', server: Server.fromServerName(42 as Any), totalRequestsPerSecond: 10 })).message)
      .toMatch(/^\[lab\/L\] LKD-INPUT-001: server must be an object with a valid Kubernetes name, but its name is 42|^\[lab\/L\] LKD-INPUT-001: server must be an object with a valid Kubernetes name, but is/);
  });
});

describe('wrong types at the other entry points', () => {
  test.each<[string, (l: ReturnType<typeof lab>) => unknown, RegExp]>([
    ['ServerPort.number("8080") (a quoted number is not a name here)', (l) => new Server(l.chart, 'S', { name: 's', selector: PodSelection.app('a'), port: ServerPort.number('8080' as Any) }),
      /LKD-INPUT-002: Server port "8080" is not a number/],
    ['RetryStatus.code("5xx")', (l) => new HttpRoute(l.chart, 'R', { name: 'r', service: ServiceReference.fromService(l.service), port: 8080, retry: { statuses: [RetryStatus.code('5xx' as Any)] }, rules: [{}] }),
      /LKD-RETRY-002: retry status 5xx is not a code/],
    ['a retry with a hole in its statuses', (l) => new HttpRoute(l.chart, 'R', { name: 'r', service: ServiceReference.fromService(l.service), port: 8080, retry: { statuses: [undefined as Any] }, rules: [{}] }),
      /LKD-INPUT-003: retry\.statuses\[0\] is undefined/],
    ['a path given as a string', (l) => new HttpRoute(l.chart, 'R', { name: 'r', service: ServiceReference.fromService(l.service), port: 8080, rules: [{ matches: [{ path: '/api' as Any }] }] }),
      /LKD-INPUT-003: rules\[0\]\.matches\[0\] path must be a PathMatch, but is the string "\/api"/],
    ['a header regex flag as a string', (l) => new HttpRoute(l.chart, 'R', { name: 'r', service: ServiceReference.fromService(l.service), port: 8080, rules: [{ matches: [{ headers: [{ name: 'x', value: 'y', regex: 'yes' as Any }] }] }] }),
      /LKD-INPUT-003: rules\[0\]\.matches\[0\] header x regex must be true or false/],
    ['rules as an object', (l) => new HttpRoute(l.chart, 'R', { name: 'r', service: ServiceReference.fromService(l.service), port: 8080, rules: { backends: [] } as Any }),
      /LKD-INPUT-003: rules must be a list, but is an object/],
    ['a split backend without a service', (l) => new TrafficSplit(l.chart, 'T', { name: 't', service: ServiceReference.fromService(l.service), port: 8080, backends: [{ percent: 100 } as Any] }),
      /\[lab\/T\] LKD-INPUT-003: backends\[0\] is an object of type Object, not split backends/],
    ['a MeshedDeployment with a container without image', (l) => new MeshedDeployment(l.chart, 'D', { name: 'd', app: 'd', containers: [{} as Any] }),
      /\[lab\/D\] LKD-INPUT-003: containers\[0\]\.image must be a non-empty string/],
    ['replicas as NaN', (l) => new MeshedDeployment(l.chart, 'D', { name: 'd', app: 'd', containers: [{ image: 'a:1' }], replicas: NaN }),
      /\[lab\/D\] LKD-INPUT-006: replicas must be a whole number from 0 to 2147483647, but is NaN/],
    ['a ServiceAccount given as a string', (l) => new MeshedDeployment(l.chart, 'D', { name: 'd', app: 'd', containers: [{ image: 'a:1' }], serviceAccount: 'client' as Any }),
      /\[lab\/D\] LKD-INPUT-001: serviceAccount must be an object with a valid Kubernetes name/],
    ['an EgressNetwork trafficPolicy in lower case', (l) => new EgressNetwork(l.chart, 'E', { name: 'e', trafficPolicy: 'allow' as Any }),
      /\[lab\/E\] LKD-POL-012: trafficPolicy the string "allow" is not one of Allow, Deny/],
    ['Network.cidr with except as a string', (l) => new NetworkAuthentication(l.chart, 'N', { name: 'n', networks: [Network.cidr('10.0.0.0/8', '10.1.0.0/16' as Any)] }),
      /\[lab\/N\] LKD-INPUT-003: except of 10\.0\.0\.0\/8 must be a list/],
    ['a namespace as a number', (l) => new MeshTlsAuthentication(l.chart, 'M', { name: 'm', namespaces: [7 as Any] }),
      /\[lab\/M\] LKD-INPUT-003: namespaces\[0\] is the number 7, not namespace names/],
    ['allow() without options', (l) => ServerAccess.allow(l.server(), undefined as Any), /\[lab\/Http\] LKD-INPUT-003: allow\(\) options must be an object/],
    ['allow() with a numeric policyName', (l) => ServerAccess.allow(l.server(), { policyName: 5 as Any, namespaces: ['a'] }),
      /\[lab\/Http\] LKD-INPUT-003: allow\(\) policyName must be a non-empty string, but is the number 5/],
    ['a control plane without props', (l) => new LinkerdControlPlane(l.chart, 'Cp', undefined as Any), /\[lab\/Cp\] LKD-INPUT-003: props must be an object/],
    ['a static identity without props', (l) => new LinkerdControlPlane(l.chart, 'Cp', { identity: LinkerdIdentity.fromCertificates(undefined as Any), delivery: LinkerdDelivery.flux() }),
      /\[lab\/Cp\/Identity\] LKD-INPUT-003: LinkerdIdentity\.fromCertificates\(\) props must be an object/],
    ['cert-manager identity props as null', (l) => new LinkerdControlPlane(l.chart, 'Cp', { identity: LinkerdIdentity.fromCertManager(null as Any), delivery: LinkerdDelivery.flux() }),
      /\[lab\/Cp\/Identity\] LKD-INPUT-003: LinkerdIdentity\.fromCertManager\(\) props must be an object, but is null/],
    ['delivery options as a string', (l) => new LinkerdControlPlane(l.chart, 'Cp', { identity: LinkerdIdentity.fromCertManager(), delivery: LinkerdDelivery.argoCd('platform' as Any) }),
      /\[lab\/Cp\] LKD-INPUT-003: delivery: LinkerdDelivery\.argoCd\(\) options must be an object, but are the string "platform"/],
  ])('%s', (_, build, message) => {
    expect(refusal(() => build(lab())).message).toMatch(message);
  });

  test('valid input of the same shapes still synthesizes', () => {
    const { chart, service, client } = lab();
    const server = new Server(chart, 'Http', { name: 'orders-http', selector: PodSelection.expressions([{ key: 'app.kubernetes.io/name', operator: 'In', values: ['orders'] }], { tier: 'web' }), port: ServerPort.number(8080), labels: { 'example.com/team': 'shop' }, annotations: { 'example.com/note': 'a b\nc' } });
    ServerAccess.allow(server, { policyName: 'client', serviceAccounts: [client] });
    new HttpRoute(chart, 'Route', { name: 'orders', service: ServiceReference.fromService(service), port: 8080, rules: [{ matches: [{ path: PathMatch.prefix('/api'), headers: [{ name: 'x', value: 'y', regex: false }] }], backends: [RouteBackend.service(ServiceReference.fromName('orders'), { port: 8080 })] }] });
    expect(server.apiObject.toJson().metadata).toMatchObject({ labels: { 'example.com/team': 'shop' }, annotations: { 'example.com/note': 'a b\nc' } });
    expect(server.apiObject.toJson().spec.podSelector).toEqual({ matchLabels: { tier: 'web' }, matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: ['orders'] }] });
  });
});

describe('runbook inputs go into shell commands: only plain names pass', () => {
  test.each<[string, (l: ReturnType<typeof lab>) => unknown, RegExp]>([
    ['a meshed namespace with a shell command in it', (l) => rotation(l.chart, { meshedNamespaces: ['shop; kubectl delete ns linkerd'] }),
      /^\[lab\/Rotation\] LKD-INPUT-001: meshedNamespaces entry "shop; kubectl delete ns linkerd" is not a valid DNS label\. Fix: /],
    ['a Helm release with a space', (l) => rotation(l.chart, { helmRelease: 'linkerd control-plane' }), /^\[lab\/Rotation\] LKD-INPUT-001: helmRelease/],
    ['a Helm chart with a quote', (l) => rotation(l.chart, { helmChart: "linkerd/x' --set a=b" }), /^\[lab\/Rotation\] LKD-INPUT-006: helmChart .* is not a chart reference/],
    ['an unknown scheme', (l) => rotation(l.chart, { scheme: 'linkerd.io/TLS' as Any }), /^\[lab\/Rotation\] LKD-INPUT-006: scheme the string "linkerd\.io\/TLS" is not one of/],
    ['rotation props as None', (l) => new TrustAnchorRotation(l.chart, 'Rotation', undefined as Any), /^\[lab\/Rotation\] LKD-INPUT-003: props must be an object/],
    ['writeRunbook without a folder', (l) => rotation(l.chart, {}).writeRunbook(undefined as Any), /^\[lab\/Rotation\] LKD-INPUT-003: writeRunbook\(\) dir must be a non-empty string/],
    ['control-plane runbook namespaces with a shell command', (l) => controlPlane(l.chart).upgradeRunbook({ meshedNamespaces: ['a && b'] }),
      /^\[lab\/Linkerd\] LKD-INPUT-001: meshedNamespaces entry "a && b" is not a valid DNS label/],
    ['control-plane runbook extensions as a string', (l) => controlPlane(l.chart).exitRunbook({ extensions: 'viz' as Any }), /^\[lab\/Linkerd\] LKD-INPUT-003: extensions must be a list/],
    ['writeRunbooks to a number', (l) => controlPlane(l.chart).writeRunbooks(42 as Any), /^\[lab\/Linkerd\] LKD-INPUT-003: writeRunbooks\(\) dir must be a non-empty string, but is the number 42/],
    ['helmFlags as a string', (l) => new LinkerdControlPlane(l.chart, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), delivery: LinkerdDelivery.helm({ helmFlags: '--debug' as Any }) }),
      /^\[lab\/Linkerd\] LKD-INPUT-003: delivery helmFlags must be a list, but is the string "--debug"/],
    ['automatedSync as a string', (l) => new LinkerdControlPlane(l.chart, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), delivery: LinkerdDelivery.argoCd({ automatedSync: 'false' as Any }) }),
      /^\[lab\/Linkerd\] LKD-INPUT-003: delivery automatedSync must be true or false, but is the string "false"/],
    ['MeshChecks.of(None)', () => MeshChecks.of(undefined as Any), /^\[<root>\] LKD-INPUT-003: MeshChecks\.of\(\) needs a construct, but was given undefined/],
    ['MeshChecks options with a string for failOnWarnings', (l) => MeshChecks.of(l.chart).configure({ failOnWarnings: 'true' as Any }), /^\[<root>\] LKD-INPUT-003: failOnWarnings must be true or false/],
  ])('%s is refused', (_, build, message) => {
    expect(refusal(() => build(lab())).message).toMatch(message);
  });

  test('plain names still pass', () => {
    const { chart } = lab();
    expect(rotation(chart, { step: RotationStep.RESTART_AFTER_BUNDLE, meshedNamespaces: ['shop', 'payments'], helmRelease: 'linkerd-control-plane', helmChart: 'oci://ghcr.io/linkerd/linkerd-control-plane' }).runbook())
      .toContain('shop');
    expect(controlPlane(chart).upgradeRunbook({ meshedNamespaces: ['shop'], extensions: ['viz'] })).toContain('shop');
  });
});

function rotation(chart: Chart, props: Partial<TrustAnchorRotationProps>): TrustAnchorRotation {
  return new TrustAnchorRotation(chart, 'Rotation', {
    currentAnchorPem: certs.root.certPem,
    newAnchorPem: certs.newRoot.certPem,
    issuerCertificatePem: certs.issuer.certPem,
    step: RotationStep.BUNDLE_NEW_AND_OLD,
    ...props,
  });
}

function controlPlane(chart: Chart): LinkerdControlPlane {
  return new LinkerdControlPlane(chart, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), delivery: LinkerdDelivery.flux() });
}

describe('multicluster entry points', () => {
  test.each<[string, (l: ReturnType<typeof lab>) => unknown, RegExp]>([
    ['ExportedService.export(None)', () => ExportedService.export(undefined as Any), /^\[<root>\] LKD-INPUT-003: ExportedService\.export\(\) needs a Service construct of this app, but was given undefined/],
    ['ExportedService.exportApiObject({})', () => ExportedService.exportApiObject({} as Any), /^\[<root>\] LKD-INPUT-003: ExportedService\.exportApiObject\(\) needs a construct/],
    ['LinkerdMulticluster without props', (l) => new LinkerdMulticluster(l.chart, 'Mc', undefined as Any), /^\[lab\/Mc\] LKD-INPUT-003: props must be an object/],
    ['MulticlusterLink without props', (l) => new MulticlusterLink(l.chart, 'Link', undefined as Any), /^\[lab\/Link\] LKD-INPUT-003: props must be an object/],
    ['FleetTrustAnchorRotation without props', (l) => new FleetTrustAnchorRotation(l.chart, 'Fleet', undefined as Any), /^\[lab\/Fleet\] LKD-INPUT-003: props must be an object/],
  ])('%s is refused', (_, build, message) => {
    expect(refusal(() => build(lab())).message).toMatch(message);
  });
});

describe('warnings are printed per App', () => {
  function captureStderr(fn: () => void): string {
    const write = process.stderr.write;
    let out = '';
    (process.stderr as Any).write = (chunk: string) => {
      out += chunk;
      return true;
    };
    try {
      fn();
    } finally {
      process.stderr.write = write;
    }
    return out;
  }

  function appWithWarning(): App {
    const app = Testing.app();
    const chart = new Chart(app, 'lab', { namespace: 'mesh-lab' });
    new MeshedNamespace(chart, 'Ns', { name: 'mesh-lab' });
    // A Server denying everyone with no authorization: whether that is meant depends on what is outside, so LKD-POL-009 warns.
    new Server(chart, 'Srv', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080) });
    new MeshedDeployment(chart, 'Orders', { name: 'orders', app: 'orders', containers: [{ image: 'hashicorp/http-echo:1.0.0', ports: [{ name: 'http', number: 8080 }], securityContext: { user: 65532 } }] });
    return app;
  }

  test('a second App in the same process prints the same warning again (once per App)', () => {
    const first = appWithWarning();
    const second = appWithWarning();
    const once = captureStderr(() => {
      Testing.synth(first.node.findChild('lab') as Chart);
      Testing.synth(first.node.findChild('lab') as Chart);
    });
    const again = captureStderr(() => Testing.synth(second.node.findChild('lab') as Chart));
    expect(once.match(/warning: LKD-POL-009/g)).toHaveLength(1);
    expect(again.match(/warning: LKD-POL-009/g)).toHaveLength(1);
  });
});
