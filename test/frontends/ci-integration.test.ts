/**
 * What CI users run (issue 37 items 5, 7, 8): the Action's steps as a script against the packed tarball (installed
 * as the Action installs it), the pre-commit hook's entry on a synth folder, and the README's CI commands on the
 * mesh-lab output. The tarball is packed once (npm pack runs prepack, which drops the bundled test data).
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import * as yaml from 'js-yaml';
import { CLI_BIN, REPO_ROOT, assertBuilt, removeDir, tempDir, writeText } from './cli-harness';
import { MeshLab } from '../../examples/mesh-lab/mesh-lab';

let work: string;
let tarball: string;

beforeAll(() => {
  assertBuilt();
  work = tempDir('ci');
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const packed = JSON.parse(out.slice(out.indexOf('[')))[0];
  tarball = path.join(work, packed.filename);
}, 300_000);
afterAll(() => removeDir(work));

/** mesh-lab synthesized as `cdk8s synth` writes it with validations set: manifests plus construct-metadata.json. */
function meshLabOutput(dir: string): string {
  const outdir = path.join(dir, 'dist');
  const app = new App({ outdir, recordConstructMetadata: true });
  new MeshLab(app, 'mesh-lab');
  app.synth();
  expect(fs.existsSync(path.join(outdir, 'construct-metadata.json'))).toBe(true);
  return outdir;
}

function bash(script: string, cwd: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 240_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the GitHub Action (action.yml), its steps run as the runner runs them', () => {
  const action = yaml.load(fs.readFileSync(path.join(REPO_ROOT, 'action.yml'), 'utf8')) as any;

  test('is a composite action with the documented inputs', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(['paths', 'config', 'fail-on', 'sarif-file', 'package']);
  });

  test('installs the packed package and reports annotations and SARIF for a synth folder', () => {
    const dir = tempDir('action');
    try {
      meshLabOutput(dir);
      writeText(dir, '.cdk8s-linkerd.yaml', 'failOn: error\n');
      const inputs: Record<string, string> = { 'paths': 'dist', 'config': '.cdk8s-linkerd.yaml', 'fail-on': '', 'sarif-file': 'out/linkerd.sarif', 'package': tarball };
      const githubEnv = path.join(dir, 'github-env');
      fs.writeFileSync(githubEnv, '');
      let env: Record<string, string> = { GITHUB_ACTION_PATH: REPO_ROOT, RUNNER_TEMP: path.join(dir, 'runner-temp'), GITHUB_ENV: githubEnv };
      let last = { status: 0 as number | null, stdout: '', stderr: '' };
      for (const step of action.runs.steps) {
        // ${{ inputs.x }} in a step's env, as the runner expands it; the scripts read only env.
        const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, String(v).replace(/\$\{\{ inputs\.([a-z-]+) \}\}/g, (_m, name) => inputs[name])]));
        last = bash(step.run, dir, { ...env, ...stepEnv });
        expect({ step: step.name, status: last.status, stderr: last.status === 0 ? '' : last.stderr }).toEqual({ step: step.name, status: 0, stderr: '' });
        const exported = fs.readFileSync(githubEnv, 'utf8').split('\n').filter(Boolean).map((l) => l.split('=', 2) as [string, string]);
        env = { ...env, ...Object.fromEntries(exported) };
      }
      expect(last.stdout.trim().split('\n').pop()).toMatch(/^cdk8s-linkerd: 0 errors, \d+ warnings/);
      expect(last.stderr).toContain('note: skipped dist/construct-metadata.json');
      const sarif = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'linkerd.sarif'), 'utf8'));
      expect(sarif.runs[0].tool.driver.rules.every((r: any) => r.helpUri)).toBe(true);
    } finally {
      removeDir(dir);
    }
  }, 300_000);
});

describe('the packed package', () => {
  test('ships no bundled test data, and the CEL engine still loads from it (--crds)', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listing.filter((f) => /\/testdata\//.test(f))).toEqual([]);
    expect(listing).toContain('package/schemas/cdk8s-linkerd-config.schema.json');
    const dir = tempDir('cel');
    try {
      execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', tarball], { stdio: 'ignore', timeout: 240_000 });
      const route = {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        metadata: { name: 'r', namespace: 'n' },
        spec: { parentRefs: [{ group: '', kind: 'Service', name: 's', port: 80 }], rules: [{ matches: [{ path: { type: 'Exact', value: 'no-slash' } }] }] },
      };
      writeText(dir, 'r.yaml', yaml.dump(route));
      const crds = path.resolve(REPO_ROOT, '..', 'shared', 'reference', 'gateway-api', 'v1.2.1');
      const bin = path.join(dir, 'node_modules', '.bin', 'cdk8s-linkerd');
      const r = spawnSync(bin, ['analyze', 'r.yaml', '--crds', crds, '--format', 'json'], { cwd: dir, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout).findings.map((f: any) => f.ruleId)).toContain('LKD-SCHEMA-001');
    } finally {
      removeDir(dir);
    }
  }, 300_000);
});

describe('the pre-commit hook', () => {
  test('its entry and default args analyse a synth folder in a project that depends on cdk8s-linkerd', () => {
    const [hook] = yaml.load(fs.readFileSync(path.join(REPO_ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as any[];
    expect(hook.id).toBe('cdk8s-linkerd-analyze');
    const dir = tempDir('hook');
    try {
      meshLabOutput(dir);
      // The project's own install of the CLI: node_modules/.bin/cdk8s-linkerd (a shim to the compiled bin.js).
      fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
      const shim = path.join(dir, 'node_modules', '.bin', 'cdk8s-linkerd');
      fs.writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${CLI_BIN}" "$@"\n`, { mode: 0o755 });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0' }));
      const r = bash(`${hook.entry} ${hook.args.join(' ')}`, dir, { NODE_PATH: path.join(REPO_ROOT, 'node_modules') });
      expect(r.stderr).toContain('note: skipped dist/construct-metadata.json');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/0 errors, \d+ warnings/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('README: the CI section', () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

  test('its analyze commands run on the mesh-lab output and write the reports it names', () => {
    const section = readme.slice(readme.indexOf('## CI'));
    const block = /<!-- ci-commands -->\n```bash\n([\s\S]*?)```/.exec(section);
    expect(block).not.toBeNull();
    const commands = block![1].split('\n').filter((l) => l.startsWith('npx cdk8s-linkerd '));
    expect(commands.length).toBeGreaterThan(0);
    const dir = tempDir('readme-ci');
    try {
      meshLabOutput(dir);
      for (const command of commands) {
        const r = bash(command.replace(/^npx cdk8s-linkerd /, `"${process.execPath}" "${CLI_BIN}" `), dir, {});
        expect({ command, status: r.status, stderr: r.stderr.replace(/^cdk8s-linkerd: note: .*\n/gm, '') }).toEqual({ command, status: 0, stderr: '' });
      }
      for (const m of block![1].matchAll(/--output [a-z]+=(\S+)/g)) expect(fs.existsSync(path.join(dir, m[1]))).toBe(true);
    } finally {
      removeDir(dir);
    }
  });

  test('the workflow to copy uses the commands of the block', () => {
    const workflow = /<!-- ci-workflow -->\n```yaml\n([\s\S]*?)```/.exec(readme);
    expect(workflow).not.toBeNull();
    const parsed = yaml.load(workflow![1]) as any;
    const steps = Object.values(parsed.jobs)[0] as any;
    expect(JSON.stringify(steps)).toContain('cdk8s-linkerd analyze');
    expect(JSON.stringify(steps)).toContain('upload-sarif');
  });
});
