import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { readProperties } from '../../src/checks/plugin-settings';
import { HighAvailabilityPreset } from '../../src/control-plane/install/high-availability';
import { main } from '../../src/frontends/cli/main';
import { argoApp } from '../delivery/fixtures';

function run(args: string[], cwd: string): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(args, { cwd, stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
  return { code, out: out.join(''), err: err.join('') };
}

describe('node, zone and CNI facts from the CLI and the plugin', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-facts-'));
  const shop = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' }, annotations: { 'linkerd.io/inject': 'enabled' } } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'orders', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'orders' } }, template: { metadata: { labels: { app: 'orders' } }, spec: { containers: [{ name: 'o', image: 'a:1' }] } } },
    },
  ];
  // The identity's PEMs come from files of the repository, as Argo CD users pass them (LKD-CP-008 leaves those alone).
  const pemFiles = { fileParameters: ['identityTrustAnchorsPEM', 'identity.issuer.tls.crtPEM', 'identity.issuer.tls.keyPEM'].map((name) => ({ name, path: `${name}.pem` })) };
  fs.writeFileSync(path.join(dir, 'cp.yaml'), yaml.dump(argoApp('linkerd-control-plane', 'linkerd-control-plane', '2026.6.3', HighAvailabilityPreset.values(), pemFiles)));
  fs.writeFileSync(path.join(dir, 'shop.yaml'), shop.map((o) => yaml.dump(o)).join('---\n'));
  const cp001 = (out: string) => JSON.parse(out).findings.filter((f: any) => f.ruleId === 'LKD-CP-001').map((f: any) => f.severity);

  test('without facts the HA check is information and the exit code stays 0, even with --fail-on warning', () => {
    const { code, out } = run(['analyze', '--format', 'json', '--fail-on', 'warning', 'cp.yaml'], dir);
    expect(cp001(out)).toEqual(['info']);
    expect(code).toBe(0);
  });

  test('--nodes and --zones say which guarantee holds; too few nodes is a warning', () => {
    expect(cp001(run(['analyze', '--format', 'json', '--nodes', '2', 'cp.yaml'], dir).out)).toEqual(['warning']);
    expect(run(['analyze', '--format', 'text', '--nodes', '3', '--zones', '1', 'cp.yaml'], dir).out).toMatch(/info LKD-CP-001 .*every node is in one zone/);
    expect(run(['analyze', '--nodes', 'three', 'cp.yaml'], dir)).toMatchObject({ code: 2, err: expect.stringMatching(/--nodes must be a number/) });
    expect(run(['analyze', '--nodes', '0', 'cp.yaml'], dir)).toMatchObject({ code: 2, err: expect.stringMatching(/--nodes must be a whole number of at least 1/) });
  });

  test('--cni decides LKD-MESH-011', () => {
    const mesh011 = (args: string[]) => JSON.parse(run(['analyze', '--format', 'json', ...args, 'shop.yaml'], dir).out).findings.filter((f: any) => f.ruleId === 'LKD-MESH-011');
    expect(mesh011([])).toHaveLength(1);
    expect(mesh011(['--cni', 'true'])).toEqual([]);
    expect(run(['analyze', '--cni', 'yes', 'shop.yaml'], dir).code).toBe(2);
  });

  test('the plugin reads nodeCount, zoneCount and cniEnabled, and refuses bad ones', () => {
    expect(readProperties({ nodeCount: 3, zoneCount: 3, cniEnabled: true }).context).toMatchObject({ nodeCount: 3, zoneCount: 3, cniEnabled: true });
    expect(() => readProperties({ nodeCount: 0 })).toThrow(/nodeCount must be a whole number of at least 1/);
    expect(() => readProperties({ cniEnabled: 'yes' })).toThrow(/cniEnabled must be true or false/);
  });
});
