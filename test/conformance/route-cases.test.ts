import * as fs from 'fs';
import { ConformanceIssue, ConformanceValidator, CrdCatalog } from '../../src/conformance';
import { describeWithShared, GATEWAY_API_CRDS, ROUTE_CASES } from '../support/shared';

interface RouteCase {
  readonly id: string;
  readonly kind: string;
  readonly namespace: string;
  readonly valid: boolean;
  readonly rule: string;
  readonly spec: Record<string, unknown>;
}

/** Case ids become object names, so squeeze them into a DNS subdomain. */
function dnsName(id: string): string {
  const cleaned = id.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return cleaned.slice(0, 253) || 'case';
}

function asObject(c: RouteCase) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: c.kind,
    metadata: { name: dnsName(c.id), namespace: c.namespace },
    spec: c.spec,
  };
}

const EVALUATION_ERROR = /^rule could not be evaluated/;
const render = (issues: ConformanceIssue[]) => issues.map(i => `${i.path}: ${i.message}`).join('\n');

describeWithShared('Gateway API v1.2.1 route cases', () => {
  const cases: RouteCase[] = fs.existsSync(ROUTE_CASES) ? JSON.parse(fs.readFileSync(ROUTE_CASES, 'utf8')) : [];
  // Built lazily: jest still runs this callback (without running tests) when ../shared is absent.
  let validator: ConformanceValidator;
  beforeAll(() => {
    validator = new ConformanceValidator(CrdCatalog.fromDirectories([GATEWAY_API_CRDS]));
  });

  // Without ../shared there are no cases, and jest refuses an empty `each` table.
  const valid = cases.filter(c => c.valid).map(c => [c.id, c] as const);
  const invalid = cases.filter(c => !c.valid).map(c => [c.id, c] as const);

  test('the case file holds the 46 expected cases', () => {
    expect(cases).toHaveLength(46);
    expect(new Set(cases.map(c => c.id)).size).toBe(46);
  });

  if (valid.length > 0) {
    test.each(valid)('%s is accepted', (_id, c) => {
      const issues = validator.validate(asObject(c));
      expect(render(issues)).toBe('');
    });
  }

  if (invalid.length > 0) {
    test.each(invalid)('%s is rejected', (_id, c) => {
      const issues = validator.validate(asObject(c));
      // A rejection must come from a real check, not merely from a rule that could not run.
      const real = issues.filter(i => !EVALUATION_ERROR.test(i.message));
      expect(real.length).toBeGreaterThan(0);
      for (const issue of issues) {
        expect(issue).toMatchObject({ apiVersion: 'gateway.networking.k8s.io/v1', kind: c.kind, namespace: c.namespace, name: dnsName(c.id) });
        expect(issue.path).toMatch(/^$|^spec([.[]|$)/); // every problem in these cases sits under spec
      }
    });
  }
});
