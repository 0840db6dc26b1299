import { analyze } from '../../../src/analysis/engine';
import { CALLS_ANNOTATION } from '../../../src/core/annotations';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

function withCaller(name: string, serviceAccountName: string, calls: string): any[] {
  const objects = meshLab();
  const caller = JSON.parse(JSON.stringify(pick(objects, 'Deployment', 'client')));
  caller.metadata = { name, namespace: 'mesh-lab', annotations: { [CALLS_ANNOTATION]: calls } };
  caller.spec.selector.matchLabels = { 'app.kubernetes.io/name': name };
  caller.spec.template.metadata.labels = { 'app.kubernetes.io/name': name };
  caller.spec.template.spec.serviceAccountName = serviceAccountName;
  return [...objects, caller];
}

const findings = (objects: any[]) => analyze(asManifests(objects)).findings.filter((f) => f.ruleId === 'LKD-POL-013');

describe('LKD-POL-013 declared calls', () => {
  test('passes when the declared call is authorized (client identity → orders:8080)', () => {
    expect(findings(withCaller('client-2', 'client', 'orders:8080'))).toEqual([]);
  });

  test('fires when the caller\'s identity is not authorized, with the reason', () => {
    const [f] = findings(withCaller('wrong-client', 'default', 'orders.mesh-lab:8080'));
    expect(f.resource.name).toBe('wrong-client');
    expect(f.severity).toBe('error');
    expect(f.message).toMatch(/declares that it calls orders\.mesh-lab:8080, but the mesh would refuse it: /);
  });

  test('fires for a Service or port that does not exist, and for entries it cannot read', () => {
    const messages = findings(withCaller('client-2', 'client', 'payments:80, orders:9999, not a call')).map((f) => f.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/payments\.mesh-lab:80.*does not exist/),
      expect.stringMatching(/orders\.mesh-lab:9999.*has no port 9999/),
      expect.stringMatching(/"not a call" is not service\[\.namespace\]:port/),
    ]));
  });
});
