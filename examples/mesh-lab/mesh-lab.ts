/**
 * The mesh-lab scenario as code: a meshed namespace, an orders service in two versions behind a 90/10 split, and a
 * client that is the only identity allowed to call orders over HTTP.
 */
import { Chart, ChartProps, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  MeshVerification, MeshedDeployment, MeshedNamespace, PodSelection, ProxyProtocol, Server, ServerAccess, ServerPort, ServiceReference, TrafficSplit,
} from '../../src';

export const NAMESPACE = 'mesh-lab';
const ORDERS_PORT = 8080;
const ECHO_IMAGE = 'hashicorp/http-echo:1.0.0';
const CURL_IMAGE = 'curlimages/curl:8.14.1';

/**
 * The lab is a small cluster: cdk8s-plus's default requests (1 CPU / 512Mi per container) would not schedule the
 * lab's pods plus their proxies on a laptop cluster, so each container asks for little.
 */
const SMALL = {
  cpu: { request: kplus.Cpu.millis(10), limit: kplus.Cpu.millis(200) },
  memory: { request: Size.mebibytes(16), limit: Size.mebibytes(64) },
};

/** Containers for hashicorp/http-echo answering `text` on :8080. */
function echoContainer(text: string): kplus.ContainerProps {
  return {
    name: 'echo',
    image: ECHO_IMAGE,
    args: [`-listen=:${ORDERS_PORT}`, `-text=${text}`],
    ports: [{ name: 'http', number: ORDERS_PORT }],
    // The tag is pinned, so pulling on every start only adds latency and registry load.
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    // http-echo declares no USER (it would run as root) and cdk8s-plus sets runAsNonRoot, which the kubelet would
    // refuse; the binary needs no privileges on port 8080, so it runs under a fixed unprivileged UID instead.
    securityContext: { user: 65532, group: 65532 },
    // cdk8s-plus's default startup probe is a TCP knock, which the Linkerd proxy answers itself; an HTTP GET reaches
    // http-echo. While no route is attached to the port, Linkerd generates a probe route that lets `GET <probe path>`
    // in unauthenticated from the probe networks (everywhere by default). The probes therefore use http-echo's own
    // /health endpoint: probing "/" would open the application's root to every caller, the wrong-client and the
    // plaintext plain-client included, whatever the Server's authorization says.
    startup: kplus.Probe.fromHttpGet('/health', { port: ORDERS_PORT }),
    readiness: kplus.Probe.fromHttpGet('/health', { port: ORDERS_PORT }),
    resources: SMALL,
  };
}

/** A curl container that idles so one can `kubectl exec` requests from it. */
function curlContainer(): kplus.ContainerProps {
  return {
    name: 'curl',
    image: CURL_IMAGE,
    command: ['sleep', 'infinity'],
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    // The image's USER is the name "curl_user"; runAsNonRoot cannot verify a non-numeric user, so give its UID/GID.
    securityContext: { user: 100, group: 101 },
    resources: SMALL,
  };
}

/** Props for the MeshLab chart. */
export interface MeshLabProps extends ChartProps {
  /**
   * Create the Server, MeshTLSAuthentication and AuthorizationPolicy that restrict orders to the client.
   * @default true
   */
  readonly withPolicy?: boolean;
}

/** The mesh-lab scenario. */
export class MeshLab extends Chart {
  public readonly clientServiceAccount: kplus.ServiceAccount;
  public readonly ordersServiceAccount: kplus.ServiceAccount;
  public readonly orders: kplus.Service;

  constructor(scope: Construct, id: string, props: MeshLabProps = {}) {
    super(scope, id, { labels: props.labels, disableResourceNameHashes: props.disableResourceNameHashes, namespace: NAMESPACE });
    new MeshedNamespace(this, 'Namespace', { name: NAMESPACE });

    // Each ServiceAccount is a mesh identity; both orders versions share one, so policy treats them alike.
    this.clientServiceAccount = new kplus.ServiceAccount(this, 'ClientIdentity', { metadata: { name: 'client' }, automountToken: false });
    this.ordersServiceAccount = new kplus.ServiceAccount(this, 'OrdersIdentity', { metadata: { name: 'orders' }, automountToken: false });

    for (const version of ['v1', 'v2']) {
      new MeshedDeployment(this, `Orders-${version}`, {
        name: `orders-${version}`, app: 'orders', version, serviceAccount: this.ordersServiceAccount, containers: [echoContainer(version)],
      });
      this.service(`orders-${version}`, version);
    }
    const client = new MeshedDeployment(this, 'Client', { name: 'client', app: 'client', serviceAccount: this.clientServiceAccount, containers: [curlContainer()] });
    this.orders = this.service('orders');
    // The seed's first experiment as a build-time check: synth fails if the policy would ever refuse client → orders.
    // Linkerd authorizes per route, so the call names the request the client makes.
    client.addCall(ServiceReference.fromService(this.orders), ORDERS_PORT, { method: 'GET', path: '/' });

    // withPolicy defaults to true: only an explicit `false` leaves orders open to every caller.
    const openToAll = props.withPolicy === false;
    if (!openToAll) {
      const ordersHttp = new Server(this, 'OrdersHttp', {
        name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(ORDERS_PORT), proxyProtocol: ProxyProtocol.HTTP1,
      });
      ServerAccess.allow(ordersHttp, { policyName: 'client-to-orders', authenticationName: 'client-sa', serviceAccounts: [this.clientServiceAccount] });
    }

    new TrafficSplit(this, 'OrdersSplit', {
      name: 'orders-split',
      service: ServiceReference.fromService(this.orders),
      port: ORDERS_PORT,
      backends: [
        { service: ServiceReference.fromName('orders-v1'), percent: 90 },
        { service: ServiceReference.fromName('orders-v2'), percent: 10 },
      ],
    });
  }

  /** A Service for the orders pods on 8080: those of one version when `version` is given, else every version's. */
  private service(name: string, version?: string): kplus.Service {
    const service = new kplus.Service(this, `Service-${name}`, {
      metadata: { name },
      ports: [{ name: 'http', port: ORDERS_PORT, targetPort: ORDERS_PORT }],
    });
    // The labels MeshedDeployment puts on its pods (its selectorLabels).
    service.selectLabel('app.kubernetes.io/name', 'orders');
    if (version) service.selectLabel('app.kubernetes.io/version', version);
    return service;
  }
}

/**
 * The negative experiment (opt-in): two callers the policy must refuse — one meshed under the `default`
 * ServiceAccount, one with injection disabled (plaintext).
 */
export class NegativeExperiment extends Chart {
  public readonly wrongClient: MeshedDeployment;
  public readonly plainClient: MeshedDeployment;

  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, { labels: props.labels, disableResourceNameHashes: props.disableResourceNameHashes, namespace: NAMESPACE });
    // Refusals as code: synth fails (LKD-POL-026) if the policy would ever let either of them reach orders.
    const orders = ServiceReference.fromName('orders');
    const refused = [{ service: orders, port: ORDERS_PORT, request: { method: 'GET', path: '/' } }];
    this.wrongClient = new MeshedDeployment(this, 'WrongClient', {
      name: 'wrong-client',
      app: 'wrong-client',
      serviceAccount: kplus.ServiceAccount.fromServiceAccountName(this, 'DefaultIdentity', 'default'),
      containers: [curlContainer()],
      refusedCalls: refused,
    });
    this.plainClient = new MeshedDeployment(this, 'PlainClient', {
      name: 'plain-client', app: 'plain-client', meshed: false, containers: [curlContainer()], refusedCalls: refused,
    });
  }
}

/**
 * The evidence after apply (with the negative experiment): a Job per declared call and refusal — client allowed,
 * wrong-client and plain-client refused on orders — each printing one verdict line. Create it last: it reads the
 * calls and refusals the workloads of the app have declared.
 */
export class Verification extends Chart {
  public readonly verification: MeshVerification;

  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, { labels: props.labels, disableResourceNameHashes: props.disableResourceNameHashes, namespace: NAMESPACE });
    this.verification = new MeshVerification(this, 'Verify');
  }
}
