/**
 * A production-shaped Linkerd 2.20 control plane: HA, identity issued by cert-manager and distributed by trust-manager,
 * delivered by Argo CD. The output holds the namespace, the cert-manager/trust-manager objects and two Applications;
 * no key material (cert-manager creates the keys in the cluster).
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { LinkerdIdentity } from '../../src/control-plane/identity';
import { LinkerdControlPlane, WebhookFailurePolicy } from '../../src/control-plane/install';
import { DefaultInboundPolicy } from '../../src/core/default-inbound-policy';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';
import { MeshChecks } from '../../src/checks/mesh-checks';

/** The cluster this example targets: its nodes let the checks confirm that HA's anti-affinity can be satisfied. */
const CLUSTER_NODES = ['node-a', 'node-b', 'node-c'].map((name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } }));

/** Namespaces to restart after an upgrade, canary first. */
export const MESHED_NAMESPACES = ['mesh-lab', 'shop'];

export class ControlPlaneChart extends Chart {
  public readonly linkerd: LinkerdControlPlane;

  constructor(scope: Construct, id: string) {
    super(scope, id, { disableResourceNameHashes: true });
    MeshChecks.of(this).configure({ kubernetesVersion: '1.31', gatewayApiVersion: 'v1.2.1', inventory: CLUSTER_NODES });
    this.linkerd = new LinkerdControlPlane(this, 'Linkerd', {
      identity: LinkerdIdentity.fromCertManager(),
      delivery: LinkerdDelivery.argoCd({ project: 'platform' }),
      highAvailability: true,
      webhookFailurePolicy: WebhookFailurePolicy.FAIL,
      kubernetesVersion: '1.31',
      gatewayApiVersion: 'v1.2.1',
      proxy: { defaultInboundPolicy: DefaultInboundPolicy.AUDIT },
    });
  }
}

/** Synthesizes the manifests and the runbooks into `outdir`; returns the files written. */
export function synthesize(outdir: string): string[] {
  const app = new App({ outdir });
  const chart = new ControlPlaneChart(app, 'linkerd');
  app.synth();
  const runbooks = chart.linkerd.writeRunbooks(path.join(outdir, 'runbooks'), { meshedNamespaces: MESHED_NAMESPACES, extensions: ['viz'] });
  return [path.join(outdir, 'linkerd.k8s.yaml'), ...runbooks];
}
