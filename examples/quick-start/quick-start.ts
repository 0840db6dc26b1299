// The README's short example, kept as a file so CI type-checks and synthesizes it (tests import buildQuickStart);
// main.ts synthesizes it.
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  MeshedDeployment, MeshedNamespace, PodSelection, ProxyProtocol, Server, ServerAccess, ServerPort, TrafficSplit,
} from '../../src';

export function buildQuickStart(app: App): Chart {
  const chart = new Chart(app, 'shop', { namespace: 'shop' });
  new MeshedNamespace(chart, 'Ns', { name: 'shop' });

  const client = new kplus.ServiceAccount(chart, 'Client', { metadata: { name: 'client' } });
  new MeshedDeployment(chart, 'ClientApp', {
    name: 'client',
    app: 'client',
    serviceAccount: client,
    containers: [{ image: 'curlimages/curl:8.14.1', command: ['sleep', 'infinity'], securityContext: { user: 100 } }],
  });
  const orders: kplus.ContainerProps = {
    image: 'hashicorp/http-echo:1.0.0', args: ['-listen=:8080'], ports: [{ number: 8080 }], securityContext: { user: 65532 },
  };
  const ordersV1 = new MeshedDeployment(chart, 'Orders-v1', { name: 'orders-v1', app: 'orders', version: 'v1', containers: [orders] });
  const ordersV2 = new MeshedDeployment(chart, 'Orders-v2', { name: 'orders-v2', app: 'orders', version: 'v2', containers: [orders] });
  // "This workload serves on 8080": a Service per version (orders-v1, orders-v2), and the stable one over all versions.
  const v1 = ordersV1.exposeService({ ports: [{ port: 8080 }] });
  const v2 = ordersV2.exposeService({ ports: [{ port: 8080 }] });
  const stable = ordersV1.exposeService({ name: 'orders', allVersions: true, ports: [{ port: 8080 }] });

  // "orders' port 8080 allows the client identity": a Server, a MeshTLSAuthentication and an AuthorizationPolicy.
  const ordersHttp = new Server(chart, 'OrdersHttp', {
    name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080), proxyProtocol: ProxyProtocol.HTTP1,
  });
  ServerAccess.allow(ordersHttp, { policyName: 'client-to-orders', authenticationName: 'client-sa', serviceAccounts: [client] });

  // 90/10 between the versions; refuses shares that do not add up to 100. The parent is always group core + port.
  new TrafficSplit(chart, 'Split', {
    name: 'orders-split',
    service: stable,
    port: 8080,
    backends: [{ service: v1, percent: 90 }, { service: v2, percent: 10 }],
  });
  return chart;
}
