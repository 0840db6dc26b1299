/**
 * Two clusters, east and west, on one trust anchor (each with its own issuer), linked pod to pod on a flat network:
 * west exports `orders` (mirror.linkerd.io/exported: remote-discovery), east's `client` calls the mirror `orders-west`,
 * and west's policy admits east's client identity (client.shop.serviceaccount.identity.linkerd.east.example).
 * The App's checks analyse each cluster alone and then the fleet (LKD-MC-*): anchors, issuers, Links, the call.
 */
import { App } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { FleetCertificates } from './certs';
import {
  Authentication, AuthorizationPolicy, AuthorizationTarget, ExportedService, FleetCluster, LinkerdControlPlane, LinkerdDelivery,
  LinkerdFleet, LinkerdMulticluster, MeshTlsAuthentication, MeshedDeployment, MeshedNamespace, MulticlusterMode, PodSelection,
  ProxyProtocol, Server, ServerPort, WebhookFailurePolicy,
} from '../../src';

export const NAMESPACE = 'shop';
const ORDERS_PORT = 8080;

/** Webhooks fail closed (LKD-CP-002); production clusters add highAvailability so that an outage does not block applies. */
function controlPlane(cluster: FleetCluster, delivery: LinkerdDelivery): LinkerdControlPlane {
  return new LinkerdControlPlane(cluster, 'Linkerd', {
    identity: cluster.identity, delivery, trustDomain: cluster.trustDomain, webhookFailurePolicy: WebhookFailurePolicy.FAIL,
  });
}

function namespace(cluster: FleetCluster): void {
  new MeshedNamespace(cluster, 'Shop', { name: NAMESPACE });
}

/** West serves orders, exports it pod to pod, and admits only east's client. */
function buildWest(west: FleetCluster, east: FleetCluster, delivery: LinkerdDelivery): ExportedService {
  controlPlane(west, delivery);
  new LinkerdMulticluster(west, 'Multicluster', { delivery, mode: MulticlusterMode.FLAT_NETWORK, trustDomain: west.trustDomain });
  namespace(west);
  new MeshedDeployment(west, 'Orders', {
    name: 'orders',
    app: 'orders',
    containers: [{
      image: 'hashicorp/http-echo:1.0.0',
      args: [`-listen=:${ORDERS_PORT}`, '-text=orders (west)'],
      ports: [{ name: 'http', number: ORDERS_PORT }],
      securityContext: { user: 65532, group: 65532 },
    }],
  });
  const service = new kplus.Service(west, 'OrdersService', { metadata: { name: 'orders', namespace: NAMESPACE }, ports: [{ port: ORDERS_PORT }] });
  service.selectLabel('app.kubernetes.io/name', 'orders'); // the label MeshedDeployment puts on orders' pods
  const exported = ExportedService.export(service, MulticlusterMode.FLAT_NETWORK);

  const server = new Server(west, 'OrdersHttp', {
    name: 'orders-http', namespace: NAMESPACE, selector: PodSelection.app('orders'), port: ServerPort.number(ORDERS_PORT), proxyProtocol: ProxyProtocol.HTTP1,
  });
  // Pod to pod, the call arrives with east's own identity: its trust domain, not west's.
  const eastClient = new MeshTlsAuthentication(west, 'EastClient', { name: 'east-client', namespace: NAMESPACE, identities: [east.identityOf('client', NAMESPACE)] });
  new AuthorizationPolicy(west, 'EastClientToOrders', {
    name: 'east-client-to-orders', namespace: NAMESPACE, target: AuthorizationTarget.server(server), requiredAuthentications: [Authentication.meshTls(eastClient)],
  });
  return exported;
}

/** East links to west and runs the client that calls orders-west. */
function buildEast(east: FleetCluster, west: FleetCluster, delivery: LinkerdDelivery, orders: ExportedService): void {
  controlPlane(east, delivery);
  new LinkerdMulticluster(east, 'Multicluster', {
    delivery, mode: MulticlusterMode.FLAT_NETWORK, trustDomain: east.trustDomain, links: [east.linkTo(west)],
  });
  namespace(east);
  const client = new kplus.ServiceAccount(east, 'Client', { metadata: { name: 'client', namespace: NAMESPACE } });
  new MeshedDeployment(east, 'ClientApp', {
    name: 'client',
    app: 'client',
    serviceAccount: client,
    containers: [{ image: 'curlimages/curl:8.14.1', command: ['sleep', 'infinity'], securityContext: { user: 100, group: 101 } }],
    // orders-west: the name west's orders gets in east (ExportedService.mirroredName('orders', 'west')).
    calls: [{ service: orders.mirrorReference(west.clusterName), port: ORDERS_PORT }],
  });
}

export interface MulticlusterExample {
  readonly fleet: LinkerdFleet;
  readonly east: FleetCluster;
  readonly west: FleetCluster;
}

/** The fleet: both clusters in one App, delivered by Argo CD. */
export function buildFleet(app: App, certs: FleetCertificates): MulticlusterExample {
  const fleet = new LinkerdFleet(app, { trustAnchorsPem: certs.anchorPem });
  const east = fleet.addCluster('east', { issuerCertificatePem: certs.eastIssuerPem, trustDomain: 'east.example', namespace: NAMESPACE });
  const west = fleet.addCluster('west', { issuerCertificatePem: certs.westIssuerPem, trustDomain: 'west.example', namespace: NAMESPACE });
  const delivery = LinkerdDelivery.argoCd({ project: 'platform' });
  const orders = buildWest(west, east, delivery);
  buildEast(east, west, delivery, orders);
  return { fleet, east, west };
}
