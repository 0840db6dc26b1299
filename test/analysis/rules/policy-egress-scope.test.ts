/** EgressNetwork scoping (egress_network.rs resolve_egress_network): the client's namespace first, else the global one. */
import { analyze } from '../../../src/analysis/engine';
import { egressScopeFor } from '../../../src/analysis/model/egress';
import { asManifests, meshLab } from '../../support/mesh-fixture';

const egress = (name: string, namespace: string, trafficPolicy = 'Deny') => ({
  apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { name, namespace }, spec: { trafficPolicy },
});

describe('EgressNetwork scope', () => {
  test('baseline: only global EgressNetworks, every namespace resolves against them; no finding', () => {
    const result = analyze(asManifests([...meshLab(), egress('deny-all', 'linkerd-egress')]));
    expect(egressScopeFor(result.index, result.context, 'mesh-lab').networks.map((n) => n.id.name)).toEqual(['deny-all']);
    expect(result.findings.filter((f) => f.ruleId === 'LKD-POL-023')).toEqual([]);
  });

  test('a local EgressNetwork hides the global ones for its namespace only, and LKD-POL-023 says so once', () => {
    const result = analyze(asManifests([...meshLab(), egress('deny-all', 'linkerd-egress'), egress('allow-api', 'mesh-lab', 'Allow'), egress('allow-b', 'mesh-lab', 'Allow')]));
    expect(egressScopeFor(result.index, result.context, 'mesh-lab')).toMatchObject({ local: true });
    expect(egressScopeFor(result.index, result.context, 'mesh-lab').networks.map((n) => n.id.name)).toEqual(['allow-api', 'allow-b']);
    expect(egressScopeFor(result.index, result.context, 'shop').networks.map((n) => n.id.name)).toEqual(['deny-all']);
    const findings = result.findings.filter((f) => f.ruleId === 'LKD-POL-023');
    expect(findings.map((f) => f.resource.name)).toEqual(['allow-api']);
    expect(findings[0].message).toMatch(/no longer see the 1 EgressNetwork\(s\) of the global egress namespace linkerd-egress \(deny-all\)/);
  });

  test('the global egress namespace comes from the install or the option', () => {
    const objects = [...meshLab(), egress('deny-all', 'egress'), egress('allow-api', 'mesh-lab', 'Allow')];
    expect(analyze(asManifests(objects)).findings.filter((f) => f.ruleId === 'LKD-POL-023')).toEqual([]);
    expect(analyze(asManifests(objects), { globalEgressNamespace: 'egress' }).findings.filter((f) => f.ruleId === 'LKD-POL-023')).toHaveLength(1);
  });
});
