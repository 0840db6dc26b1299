/**
 * A production-shaped Linkerd 2.20 control plane: HA, identity issued by cert-manager and distributed by trust-manager,
 * the CNI plugin instead of linkerd-init, and the viz extension, all delivered by Argo CD (CNI and CRDs in wave 0, the
 * control plane in wave 1, viz in wave 2). The output holds the namespaces, the cert-manager/trust-manager objects,
 * four Applications, the `linkerd viz allow-scrapes` objects for the namespace that moves to deny, and one deliberate
 * tap grant; no key material (cert-manager creates the keys in the cluster).
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MeshChecks } from '../../src/checks/mesh-checks';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';
import { LinkerdViz, TapAccess, TapSubject, VizScrapeAccess } from '../../src/control-plane/extensions';
import { LinkerdIdentity } from '../../src/control-plane/identity';
import { LinkerdControlPlane, WebhookFailurePolicy, ZoneSpread } from '../../src/control-plane/install';
import { DefaultInboundPolicy } from '../../src/core/default-inbound-policy';

/** One of the cluster's nodes, in zone eu-west-1<zone>. */
function node(zone: string) {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${zone}`, labels: { 'topology.kubernetes.io/zone': `eu-west-1${zone}` } } };
}

/** The namespace that moves to a deny default: viz's Prometheus keeps scraping it through allow-scrapes' objects. */
export const DENY_NAMESPACE = 'shop';

// What runs in that namespace is deployed by its own team (so it is inventory here: looked up, never reported on).
const SHOP_NAMESPACE = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: {
    name: DENY_NAMESPACE,
    labels: { 'pod-security.kubernetes.io/enforce': 'restricted' },
    annotations: { 'linkerd.io/inject': 'enabled', 'config.linkerd.io/default-inbound-policy': 'deny' },
  },
};
const SHOP_ORDERS = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'orders', namespace: DENY_NAMESPACE },
  spec: {
    selector: { matchLabels: { app: 'orders' } },
    template: {
      metadata: { labels: { app: 'orders' } },
      spec: { containers: [{ name: 'orders', image: 'hashicorp/http-echo:1.0.0', ports: [{ containerPort: 8080 }] }] },
    },
  },
};

/** Namespaces to restart after an upgrade, canary first. */
export const MESHED_NAMESPACES = ['mesh-lab', 'shop'];

/**
 * Everything the checks are told exists in the cluster: its nodes (one per zone, so the checks can say which fault
 * domains HA survives) and what runs in the deny namespace.
 */
export const CLUSTER_INVENTORY = [node('a'), node('b'), node('c'), SHOP_NAMESPACE, SHOP_ORDERS];

export class ControlPlaneChart extends Chart {
  public readonly linkerd: LinkerdControlPlane;
  public readonly viz: LinkerdViz;

  constructor(scope: Construct, id: string) {
    super(scope, id, { disableResourceNameHashes: true });
    MeshChecks.of(this).configure({ kubernetesVersion: '1.31', gatewayApiVersion: 'v1.2.1', inventory: CLUSTER_INVENTORY });
    this.linkerd = new LinkerdControlPlane(this, 'Linkerd', {
      identity: LinkerdIdentity.fromCertManager(),
      delivery: LinkerdDelivery.argoCd({ project: 'platform' }),
      highAvailability: true,
      webhookFailurePolicy: WebhookFailurePolicy.FAIL,
      kubernetesVersion: '1.31',
      gatewayApiVersion: 'v1.2.1',
      proxy: { defaultInboundPolicy: DefaultInboundPolicy.AUDIT },
      // Meshed pods need no NET_ADMIN/NET_RAW, so namespaces can enforce Pod Security "restricted"; cniEnabled follows.
      cni: {},
      // Argo CD cannot post-render the chart, so the zone spread is the chart's preferred one (the checks say so).
      zoneSpread: ZoneSpread.PREFERRED,
    });
    this.viz = new LinkerdViz(this, 'Viz', { controlPlane: this.linkerd });
    new VizScrapeAccess(this, 'ShopScrapes', { namespace: DENY_NAMESPACE, viz: this.viz });
    new TapAccess(this, 'SreTap', { viz: this.viz, subject: TapSubject.group('sre'), bindingName: 'sre-linkerd-viz-tap' });
  }
}

/** Synthesizes the manifests and the runbooks into `outdir`; returns the files written. */
export function synthesize(outdir: string): string[] {
  const app = new App({ outdir });
  const chart = new ControlPlaneChart(app, 'linkerd');
  app.synth();
  const runbooks = chart.linkerd.writeRunbooks(path.join(outdir, 'runbooks'), { meshedNamespaces: MESHED_NAMESPACES });
  return [path.join(outdir, 'linkerd.k8s.yaml')].concat(runbooks);
}
