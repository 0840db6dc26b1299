import { analyze } from '../../../src/analysis/engine';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

const findings = (objects: any[], inventory: any[] = []) =>
  analyze(asManifests(objects), { inventory }).findings.filter((f) => f.ruleId === 'LKD-MESH-010');

describe('LKD-MESH-010 missing ServiceAccount', () => {
  test('passes on the baseline (both identities exist)', () => {
    expect(findings(meshLab())).toEqual([]);
  });

  test('fires when the ServiceAccount a workload runs as is missing, naming the workload', () => {
    const objects = meshLab().filter((o) => !(o.kind === 'ServiceAccount' && o.metadata.name === 'orders'));
    expect(findings(objects).map((f) => f.resource.name).sort()).toEqual(['orders-v1', 'orders-v2']);
    expect(findings(objects)[0].message).toMatch(/mesh-lab\/orders, which exists neither/);
  });

  test('the inventory and the default ServiceAccount count as existing', () => {
    const objects = meshLab();
    const sa = pick(objects, 'ServiceAccount', 'orders');
    expect(findings(objects.filter((o) => o !== sa), [sa])).toEqual([]);
    pick(objects, 'Deployment', 'client').spec.template.spec.serviceAccountName = 'default';
    expect(findings(objects)).toEqual([]);
  });

  // linkerd2's cli/cmd/testdata/inject_tap_deployment.input.yml: a Deployment alone, its namespace deployed elsewhere.
  // Nothing of the kind in that namespace to compare with: unchecked, so info; a near-miss of one that is there: a warning.
  test('a workload alone in a namespace the analysis does not see: info naming the inventory', () => {
    const deployment = pick(meshLab(), 'Deployment', 'client');
    const alone = { ...deployment, metadata: { ...deployment.metadata, namespace: 'linkerd' } };
    const [finding] = findings([alone]);
    expect(finding.severity).toBe('info');
    expect(finding.message).toMatch(/namespace linkerd is not part of this analysis.*--inventory/);
    expect(findings([alone, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd' } }])[0].severity).toBe('error');
    const near = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `${alone.spec.template.spec.serviceAccountName}s`, namespace: 'linkerd' } };
    expect(findings([alone, near])[0].severity).toBe('warning');
    const unrelated = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'prometheus-server', namespace: 'linkerd' } };
    expect(findings([alone, unrelated])[0].severity).toBe('info');
  });
});
