/**
 * A two-cluster fleet built with the constructs: west serves `orders` (exported in the chosen mode, or with a raw
 * label), east links to west and its `client` declares the call to `orders-west`; west's policy admits one identity.
 * Certificates come from test/support/certs.ts (made at test time).
 */
import { ApiObject, App } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { TestCert, certs, issue } from './certs';
import {
  Authentication, AuthorizationPolicy, AuthorizationTarget, ExportedService, FleetCluster, LinkerdControlPlane, LinkerdDelivery, LinkerdFleet,
  LinkerdMulticluster, MeshChecks, MeshTlsAuthentication, MeshedDeployment, MeshedNamespace, MulticlusterMode, PodSelection, Server, ServerPort,
} from '../../src';
import { Manifest } from '../../src/analysis/model/manifest';

export const NS = 'shop';

export interface FleetFixtureOptions {
  readonly mode: MulticlusterMode;
  /** The identity west's policy admits on orders' port. */
  readonly allowed: (east: FleetCluster, west: FleetCluster) => string;
  /** A raw `mirror.linkerd.io/exported` value instead of ExportedService.export. */
  readonly exportLabel?: string;
  /** The anchor of the whole fleet (default certs.root) and the issuers (default: one of its own per cluster). */
  readonly anchor?: TestCert;
  readonly eastIssuer?: TestCert;
  readonly westIssuer?: TestCert;
}

export interface FleetFixture {
  readonly app: App;
  readonly east: FleetCluster;
  readonly west: FleetCluster;
}

export function fleetFixture(o: FleetFixtureOptions): FleetFixture {
  const app = new App();
  MeshChecks.of(app).configure({ printWarnings: false });
  const anchor = o.anchor ?? certs.root;
  const fleet = new LinkerdFleet(app, { trustAnchorsPem: anchor.certPem });
  const eastIssuer = o.eastIssuer ?? (anchor === certs.root ? certs.issuer : issue({ cn: 'identity.linkerd.east.example', signer: anchor, days: 180 }));
  const westIssuer = o.westIssuer ?? issue({ cn: 'identity.linkerd.west.example', signer: anchor, days: 180 });
  const east = fleet.addCluster('east', { issuerCertificatePem: eastIssuer.certPem, trustDomain: 'east.example', namespace: NS });
  const west = fleet.addCluster('west', { issuerCertificatePem: westIssuer.certPem, trustDomain: 'west.example', namespace: NS });
  const delivery = LinkerdDelivery.argoCd();
  for (const cluster of [east, west]) new LinkerdControlPlane(cluster, 'Linkerd', { identity: cluster.identity, delivery, trustDomain: cluster.trustDomain });
  const gatewayAddress = o.mode === MulticlusterMode.GATEWAY ? '203.0.113.7' : undefined;
  new LinkerdMulticluster(east, 'Mc', { delivery, mode: o.mode, trustDomain: east.trustDomain, links: [east.linkTo(west, { gatewayAddress })] });
  new LinkerdMulticluster(west, 'Mc', { delivery, mode: o.mode, trustDomain: west.trustDomain });
  for (const cluster of [east, west]) new MeshedNamespace(cluster, 'Ns', { name: NS });
  const orders = new MeshedDeployment(west, 'Orders', {
    name: 'orders', app: 'orders', containers: [{ image: 'hashicorp/http-echo:1.0.0', ports: [{ number: 8080 }], securityContext: { user: 65532 } }],
  });
  const svc = new kplus.Service(west, 'OrdersSvc', { metadata: { name: 'orders' }, ports: [{ port: 8080 }] });
  for (const [k, v] of Object.entries(orders.selectorLabels)) svc.selectLabel(k, v);
  const exported = ExportedService.export(svc, o.mode);
  if (o.exportLabel) svc.metadata.addLabel('mirror.linkerd.io/exported', o.exportLabel);
  const server = new Server(west, 'Http', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080) });
  const authn = new MeshTlsAuthentication(west, 'Authn', { name: 'callers', identities: [o.allowed(east, west)] });
  new AuthorizationPolicy(west, 'Policy', { name: 'callers', target: AuthorizationTarget.server(server), requiredAuthentications: [Authentication.meshTls(authn)] });
  const sa = new kplus.ServiceAccount(east, 'Sa', { metadata: { name: 'client' } });
  new MeshedDeployment(east, 'Client', {
    name: 'client',
    app: 'client',
    serviceAccount: sa,
    containers: [{ image: 'curlimages/curl:8.14.1', securityContext: { user: 100 } }],
    calls: [{ service: exported.mirrorReference('west'), port: 8080 }],
  });
  return { app, east, west };
}

/** A cluster's objects, rendered without a synth (Chart.toJson would run the App's checks and throw on errors). */
export function objectsOf(cluster: FleetCluster): any[] {
  return cluster.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c)).map((o) => o.toJson());
}

/** A cluster's objects as engine manifests. */
export function manifestsOf(cluster: FleetCluster): Manifest[] {
  return objectsOf(cluster).map((object) => ({ object }));
}
