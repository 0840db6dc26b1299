import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { main } from '../../src/frontends/cli/main';
import { meshLab } from '../support/mesh-fixture';

function run(args: string[], cwd: string): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(args, { cwd, stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
  return { code, out: out.join(''), err: err.join('') };
}

function write(dir: string, file: string, objects: any[]): void {
  fs.writeFileSync(path.join(dir, file), objects.map((o) => yaml.dump(o)).join('---\n'));
}

describe('cdk8s-linkerd analyze --inventory / --cluster-networks', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-inventory-'));
  const all = meshLab();
  const services = all.filter((o) => o.kind === 'Service');
  write(dir, 'app.yaml', all.filter((o) => o.kind !== 'Service'));
  // What `kubectl get svc -n mesh-lab -o yaml` prints: a v1 List.
  write(dir, 'cluster.yaml', [{ apiVersion: 'v1', kind: 'List', items: services }]);

  test('without the inventory, the route\'s Services are missing (errors, exit 1)', () => {
    const { code, out } = run(['analyze', '--format', 'json', 'app.yaml'], dir);
    expect(code).toBe(1);
    expect(JSON.parse(out).findings.map((f: any) => f.ruleId)).toContain('LKD-ROUTE-007');
  });

  test('with the pre-existing Services as inventory, the app is clean and nothing is reported on them', () => {
    const { code, out } = run(['analyze', '--format', 'json', '--inventory', 'cluster.yaml', 'app.yaml'], dir);
    const findings = JSON.parse(out).findings;
    expect(findings.filter((f: any) => f.severity === 'error')).toEqual([]);
    expect(findings.filter((f: any) => f.resource.kind === 'Service')).toEqual([]);
    expect(code).toBe(0);
  });

  test('an unreadable inventory is an input error (exit 2) and a bad CIDR a usage error', () => {
    expect(run(['analyze', '--inventory', 'missing.yaml', 'app.yaml'], dir).code).toBe(2);
    const bad = run(['analyze', '--cluster-networks', '10.0.0.0/8,10.0.0.300/8', 'app.yaml'], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--cluster-networks .*10\.0\.0\.300\/8/);
    expect(run(['analyze', '--cluster-networks', '10.0.0.0/8,fd00::/8', '--inventory', 'cluster.yaml', 'app.yaml'], dir).code).toBe(0);
  });
});
