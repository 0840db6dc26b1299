/**
 * The cluster's facts, told once: the control-plane install in the analysed objects configures the checks (Helm values
 * in an Argo CD Application, a Flux HelmRelease, or `linkerd install`'s linkerd-config ConfigMap); explicit options win.
 */
import * as yaml from 'js-yaml';
import { analyze } from '../../src/analysis/engine';
import { asManifests, meshLab } from '../support/mesh-fixture';

function argoInstall(values: Record<string, unknown>): any {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'linkerd-control-plane', namespace: 'argocd' },
    spec: {
      destination: { namespace: 'linkerd' },
      source: { repoURL: 'https://helm.linkerd.io/edge', chart: 'linkerd-control-plane', targetRevision: '2026.6.3', helm: { valuesObject: values } },
    },
  };
}

function configMapInstall(values: Record<string, unknown>, namespace = 'linkerd'): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-config', namespace }, data: { values: yaml.dump(values) } };
}

describe('cluster facts from the install', () => {
  test('baseline: without an install the chart defaults apply', () => {
    const { context } = analyze(asManifests(meshLab()));
    expect([context.trustDomain, context.defaultInboundPolicy, context.controlPlaneNamespace]).toEqual(['cluster.local', 'all-unauthenticated', 'linkerd']);
  });

  test('an Argo CD install sets trust domain, default policy, networks, probe networks and opaque ports', () => {
    const { context } = analyze(asManifests([...meshLab(), argoInstall({
      identityTrustDomain: 'prod.example',
      proxy: { defaultInboundPolicy: 'deny', opaquePorts: '5432' },
      clusterNetworks: '10.0.0.0/8',
      policyController: { probeNetworks: ['10.0.0.0/8'] },
    })]));
    expect(context.trustDomain).toBe('prod.example');
    expect(context.defaultInboundPolicy).toBe('deny');
    expect(context.clusterNetworks).toEqual(['10.0.0.0/8']);
    expect(context.probeNetworks).toEqual(['10.0.0.0/8']);
    expect(context.defaultOpaquePorts).toBe('5432');
  });

  test('linkerd install output (the linkerd-config ConfigMap) names the control-plane namespace, which injected pods carry', () => {
    const { context, index } = analyze(asManifests([...meshLab(), configMapInstall({ proxy: { defaultInboundPolicy: 'all-authenticated' } }, 'mesh-system')]));
    expect(context.controlPlaneNamespace).toBe('mesh-system');
    expect(context.defaultInboundPolicy).toBe('all-authenticated');
    expect(index.podTemplates.find((p) => p.owner.id.name === 'client')!.runtimeLabels['linkerd.io/control-plane-ns']).toBe('mesh-system');
  });

  test('explicit options win over the install', () => {
    const { context } = analyze(asManifests([...meshLab(), argoInstall({ identityTrustDomain: 'prod.example' })]), { trustDomain: 'other.example' });
    expect(context.trustDomain).toBe('other.example');
  });

  test('a trust domain from the install changes verdicts: identities of cluster.local are then foreign (LKD-POL-004)', () => {
    const objects = [...meshLab(), argoInstall({ identityTrustDomain: 'prod.example' })];
    objects.push({
      apiVersion: 'policy.linkerd.io/v1alpha1',
      kind: 'MeshTLSAuthentication',
      metadata: { name: 'by-name', namespace: 'mesh-lab' },
      spec: { identities: ['client.mesh-lab.serviceaccount.identity.linkerd.cluster.local'] },
    });
    const ids = analyze(asManifests(objects)).findings.filter((f) => f.ruleId === 'LKD-POL-004').map((f) => f.resource.name);
    expect(ids).toEqual(['by-name']);
    objects.pop();
    expect(analyze(asManifests(objects)).findings.filter((f) => f.ruleId === 'LKD-POL-004')).toEqual([]);
  });
});
