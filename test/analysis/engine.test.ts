import { analyze } from '../../src/analysis/engine';
import { Severity } from '../../src/analysis/finding';
import { ALL_RULES } from '../../src/analysis/rules';
import { SUPPRESS_ANNOTATION } from '../../src/analysis/suppressions';
import { asManifests, meshLab, pick } from '../support/mesh-fixture';

describe('engine', () => {
  test('the baseline mesh has no errors', () => {
    const { findings } = analyze(asManifests(meshLab()));
    expect(findings.filter((f) => f.severity === Severity.ERROR)).toEqual([]);
  });

  test('rule IDs are unique and well formed', () => {
    const ids = ALL_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^LKD-[A-Z]+-\d{3}$/);
  });

  test('a suppression with a reason moves the finding to the audit trail', () => {
    const objects = meshLab();
    const route = pick(objects, 'HTTPRoute', 'orders-split');
    delete route.spec.parentRefs[0].group;
    route.metadata.annotations = { [SUPPRESS_ANNOTATION]: JSON.stringify([{ ruleId: 'LKD-ROUTE-001', reason: 'migrating next sprint' }]) };
    const result = analyze(asManifests(objects));
    expect(result.findings.map((f) => f.ruleId)).not.toContain('LKD-ROUTE-001');
    expect(result.suppressed).toEqual([expect.objectContaining({ reason: 'migrating next sprint', finding: expect.objectContaining({ ruleId: 'LKD-ROUTE-001' }) })]);
  });

  test('a suppression without a reason is an error of its own', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').metadata.annotations = { [SUPPRESS_ANNOTATION]: JSON.stringify([{ ruleId: 'LKD-POL-011' }]) };
    const { findings } = analyze(asManifests(objects));
    expect(findings).toEqual([expect.objectContaining({ ruleId: 'LKD-META-001', severity: Severity.ERROR })]);
  });

  test('findings on inventory objects are never reported', () => {
    const inventoryRoute = pick(meshLab(), 'HTTPRoute', 'orders-split');
    delete inventoryRoute.spec.parentRefs[0].group;
    const { findings } = analyze(asManifests(meshLab()), { inventory: [{ ...inventoryRoute, metadata: { ...inventoryRoute.metadata, name: 'other' } }] });
    expect(findings.filter((f) => f.ruleId === 'LKD-ROUTE-001')).toEqual([]);
  });
});
