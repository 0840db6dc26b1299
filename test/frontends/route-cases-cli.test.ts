/**
 * The acceptance check, end to end through the CLI: every shared route case analyzed with
 * `--crds <Gateway API v1.2.1>` gives an error on every invalid route and none on the valid ones — except the
 * CRD-valid routes Linkerd itself drops, where the engine's own Linkerd rule gives the error, with or without --crds.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { main } from '../../src/frontends/cli/main';
import { LINKERD_DROPS, RouteCase, loadRouteCases, meshFor } from '../support/route-cases';
import { GATEWAY_API_CRDS, describeWithShared } from '../support/shared';

interface JsonFinding { ruleId: string; severity: string; resource: { name: string } }

function analyzeCase(routeCase: RouteCase, withCrds: boolean): { code: number; errors: JsonFinding[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-case-'));
  fs.writeFileSync(path.join(dir, 'mesh.yaml'), meshFor(routeCase).map((o) => yaml.dump(o)).join('---\n'));
  const out: string[] = [];
  const args = ['analyze', '--format', 'json', ...(withCrds ? ['--crds', GATEWAY_API_CRDS] : []), dir];
  const code = main(args, { cwd: dir, stdout: (s) => out.push(s), stderr: () => undefined });
  fs.rmSync(dir, { recursive: true, force: true });
  const findings: JsonFinding[] = JSON.parse(out.join('')).findings;
  return { code, errors: findings.filter((f) => f.severity === 'error' && f.resource.name === routeCase.id) };
}

const cases = loadRouteCases();

describeWithShared('route cases through `cdk8s-linkerd analyze --crds`', () => {
  test.each(cases.filter((c) => !c.valid).map((c) => [c.id, c]))('%s (invalid): at least one error, exit 1', (_, c) => {
    const { code, errors } = analyzeCase(c as RouteCase, true);
    expect(errors.length).toBeGreaterThan(0);
    expect(code).toBe(1);
  });

  test.each(cases.filter((c) => c.valid && !(c.id in LINKERD_DROPS)).map((c) => [c.id, c]))('%s (valid): no error, exit 0', (_, c) => {
    const { code, errors } = analyzeCase(c as RouteCase, true);
    expect(errors).toEqual([]);
    expect(code).toBe(0);
  });

  test.each(Object.entries(LINKERD_DROPS))('%s (valid, dropped by Linkerd): %s errors with and without --crds', (id, ruleId) => {
    const c = cases.find((x) => x.id === id)!;
    for (const withCrds of [true, false]) {
      const { errors } = analyzeCase(c, withCrds);
      expect(errors.map((f) => f.ruleId)).toContain(ruleId);
      expect(errors.map((f) => f.ruleId)).not.toContain('LKD-SCHEMA-001');
    }
  });
});
