/**
 * Settings told once: a LinkerdControlPlane in the App is the default of the checks (Kubernetes and Gateway API
 * versions, trust domain, default inbound policy, networks, namespace); MeshChecks.configure still wins.
 */
import { ApiObject, Chart, Testing } from 'cdk8s';
import { MeshChecks } from '../../src/checks/mesh-checks';
import { LinkerdDelivery } from '../../src/control-plane/delivery/delivery';
import { LinkerdIdentity } from '../../src/control-plane/identity/identity';
import { LinkerdControlPlane } from '../../src/control-plane/install/control-plane';

function appWith(props: Record<string, unknown>) {
  const app = Testing.app();
  const chart = new Chart(app, 'cp');
  new LinkerdControlPlane(chart, 'Linkerd', { identity: LinkerdIdentity.fromCertManager(), delivery: LinkerdDelivery.flux(), ...props });
  const mesh = new Chart(app, 'mesh', { namespace: 'shop' });
  new ApiObject(mesh, 'ByName', {
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'MeshTLSAuthentication',
    metadata: { name: 'by-name', namespace: 'shop' },
    spec: { identities: ['client.shop.serviceaccount.identity.linkerd.cluster.local'] },
  });
  return app;
}

const trustFindings = (app: any) => MeshChecks.of(app).analyze().filter((f) => f.ruleId === 'LKD-POL-004');

describe('the App\'s control plane configures the checks', () => {
  test('baseline: a cluster.local identity on a cluster.local control plane is fine', () => {
    expect(trustFindings(appWith({}))).toEqual([]);
  });

  test('trustDomain on the control plane reaches the checks without MeshChecks.configure', () => {
    const findings = trustFindings(appWith({ trustDomain: 'prod.example' }));
    expect(findings.map((f) => f.message)).toEqual([expect.stringMatching(/linkerd\.prod\.example/)]);
  });

  test('MeshChecks.configure still wins over the control plane', () => {
    const app = appWith({ trustDomain: 'prod.example' });
    MeshChecks.of(app).configure({ trustDomain: 'cluster.local' });
    expect(trustFindings(app)).toEqual([]);
  });
});
