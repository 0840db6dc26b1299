/** explain, diff and plan-deny through the compiled CLI, as users run them (exit codes, formats, bad input). */
import * as path from 'path';
import * as yaml from 'js-yaml';
import { findObject, meshLabObjects } from './mesh-lab-fixture';
import { assertBuilt, removeDir, runCli, tempDir, writeText, writeYaml } from '../frontends/cli-harness';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = tempDir('reach');
  writeYaml(dir, 'base/lab.yaml', meshLabObjects());
  const head = meshLabObjects();
  findObject(head, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs = [];
  writeYaml(dir, 'head/lab.yaml', head);
  writeYaml(dir, 'open/lab.yaml', meshLabObjects({ withPolicy: false }));
});
afterAll(() => removeDir(dir));

const cli = (...args: string[]) => runCli(args, { cwd: dir });

describe('diff', () => {
  test('json shape, and --fail-on decides the exit code', () => {
    const run = cli('diff', 'base', 'head', '--format', 'json');
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out)).toEqual(['changes']);
    expect(out.changes[0]).toEqual({
      kind: 'authorization',
      change: 'allowed-to-denied',
      source: 'mesh-lab/client',
      target: 'mesh-lab/orders-v1:8080',
      request: 'every request but GET /health',
      because: expect.any(String),
    });
    expect(cli('diff', 'base', 'head', '--fail-on', 'allowed-to-denied').status).toBe(1);
    expect(cli('diff', 'base', 'head', '--fail-on', 'denied-to-allowed').status).toBe(0);
    expect(cli('diff', 'base', 'base', '--fail-on', 'any').status).toBe(0);
  });

  test('markdown and sarif', () => {
    expect(cli('diff', 'base', 'head', '--format', 'markdown').stdout).toMatch(/^\*\*Mesh change:\*\* 2 calls allowed → denied/);
    const sarif = JSON.parse(cli('diff', 'base', 'head', '--format', 'sarif').stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results[0].ruleId).toBe('LKD-DIFF-AUTHORIZATION');
  });

  test('github and junit: the changes --fail-on names are errors (failures), the others notices', () => {
    const github = cli('diff', 'base', 'head', '--format', 'github', '--fail-on', 'allowed-to-denied');
    expect(github.status).toBe(1);
    const lines = github.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^::error title=authorization allowed-to-denied::mesh-lab\/client -> mesh-lab\/orders-v1:8080 /);
    expect(lines[lines.length - 1]).toMatch(/^cdk8s-linkerd diff: \d+ changes, [1-9]\d* matching --fail-on$/);
    expect(cli('diff', 'base', 'head', '--format', 'github').stdout).not.toMatch(/^::error/m);
    const junit = cli('diff', 'base', 'head', '--format', 'junit', '--fail-on', 'any').stdout;
    expect(junit).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="cdk8s-linkerd diff" tests="(\d+)" failures="\1" errors="0">/);
    expect(junit).toContain('<failure type="authorization"');
    const none = cli('diff', 'base', 'base', '--format', 'junit', '--fail-on', 'any');
    expect(none.status).toBe(0);
    expect(none.stdout).toContain('tests="1" failures="0"');
  });

  test('bad input exits 2 with nothing on stdout', () => {
    writeText(dir, 'broken/x.yaml', 'kind: [');
    for (const args of [['diff', 'base'], ['diff', 'base', 'missing'], ['diff', 'base', 'broken'], ['diff', 'base', 'head', '--fail-on', 'some']]) {
      const run = cli(...args);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
    }
  });
});

describe('explain', () => {
  test('--to in json and text, --to-service', () => {
    const json = JSON.parse(cli('explain', 'base', '--to', 'mesh-lab/orders-v1:8080', '--from', 'mesh-lab/client', '--format', 'json').stdout);
    expect(json.port.server.id.name).toBe('orders-http');
    expect(json.verdicts.map((v: any) => [v.source, v.request, v.allowed])).toEqual([['mesh-lab/client', '*', true], ['mesh-lab/client', 'probe GET /health', true]]);
    const text = cli('explain', 'base', '--to', 'mesh-lab/orders-v1:8080').stdout;
    expect(text).toContain('  Server: Server mesh-lab/orders-http (accessPolicy deny)');
    expect(text).toMatch(/\n {4}unauthenticated +\| DENY +\| ALLOW\n/);
    expect(text).not.toContain('why:');
    const verbose = cli('explain', 'base', '--to', 'mesh-lab/orders-v1:8080', '--verbose').stdout;
    expect(verbose).toContain('    DENY   unauthenticated:');
    expect(verbose).toContain('    ALLOW  unauthenticated [probe GET /health]: GET /health is a probe path');
    expect(cli('explain', 'base', '--to-service', 'mesh-lab/orders:8080').stdout).toContain('mesh-lab/orders-v1:8080 90% (weight 90)');
  });

  test('bad targets exit 2', () => {
    expect(cli('explain', 'base', '--to', 'mesh-lab/nope:8080').status).toBe(2);
    expect(cli('explain', 'base').status).toBe(2);
    expect(cli('explain', 'base', '--to', 'a/b:1', '--to-service', 'a/b:1').status).toBe(2);
  });
});

describe('plan-deny', () => {
  test('exit 1 with a plan; its YAML applied, exit 0 and nothing left', () => {
    const run = cli('plan-deny', 'open', '--namespace', 'mesh-lab');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('declared: mesh-lab/client → mesh-lab/orders-v1:8080');
    expect(run.stdout).toContain('not a security boundary');
    const objects = cli('plan-deny', 'open', '--namespace', 'mesh-lab', '--format', 'yaml').stdout;
    expect(yaml.loadAll(objects).map((o: any) => o.kind)).toEqual(['Server', 'MeshTLSAuthentication', 'AuthorizationPolicy', 'Server', 'MeshTLSAuthentication', 'AuthorizationPolicy']);
    writeText(dir, path.join('open', 'plan.yaml'), objects);
    const again = cli('plan-deny', 'open', '--namespace', 'mesh-lab');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^Moving namespace mesh-lab to deny refuses none of the known calls\./);
  });

  test('--cluster and --to-policy; exactly one of --namespace and --cluster', () => {
    const run = cli('plan-deny', 'base', '--cluster', '--to-policy', 'all-authenticated', '--format', 'json');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ policy: 'all-authenticated', refused: [], note: expect.stringMatching(/not a security boundary/) });
    expect(cli('plan-deny', 'base').status).toBe(2);
    expect(cli('plan-deny', 'base', '--cluster', '--namespace', 'mesh-lab').status).toBe(2);
    expect(cli('plan-deny', 'base', '--cluster', '--to-policy', 'audit').status).toBe(2);
  });

  test('--observed must be linkerd viz edges JSON', () => {
    writeText(dir, 'edges.json', '{"not": "a list"}');
    const run = cli('plan-deny', 'base', '--namespace', 'mesh-lab', '--observed', 'edges.json');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/edges.json: expected a JSON list/);
  });

  test('--observed also takes the proxies\' authorization counters: what audit let in is kept allowed', () => {
    const lab = meshLabObjects({ withPolicy: false });
    findObject(lab, 'Namespace', 'mesh-lab').metadata.annotations['config.linkerd.io/default-inbound-policy'] = 'audit';
    writeYaml(dir, 'audit/lab.yaml', lab);
    // Labels as linkerd2-proxy writes them (see observed-metrics.test.ts for the source of each).
    writeText(dir, 'authz.txt', '#\n# POD orders-v2-6b7f9c8d4-q8zt2 (1 of 1)\n#\n'
      + 'inbound_http_authz_allow_total{target_addr="10.42.0.16:8080",target_ip="10.42.0.16",target_port="8080",srv_group="",'
      + 'srv_kind="default",srv_name="audit",srv_port="8080",route_group="",route_kind="default",route_name="default",authz_group="",'
      + 'authz_kind="default",authz_name="audit",tls="no_identity",no_tls_reason="no_tls_from_remote"} 4\n');
    const run = cli('plan-deny', 'audit', '--namespace', 'mesh-lab', '--observed', 'authz.txt', '--format', 'json');
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).refused).toContainEqual(expect.objectContaining({
      origin: 'observed', source: 'unauthenticated', target: 'mesh-lab/orders-v2:8080', from: expect.stringMatching(/^proxy metrics authz.txt:4: .*allowed only by audit/),
    }));
    writeText(dir, 'broken.txt', 'inbound_http_authz_allow_total{tls="true"} 4\n');
    const bad = cli('plan-deny', 'audit', '--namespace', 'mesh-lab', '--observed', 'broken.txt');
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/LKD-INPUT-007: broken.txt: line 1: inbound_http_authz_allow_total has no target_port label/);
  });
});
