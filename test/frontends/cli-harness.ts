/**
 * Runs the COMPILED front-ends the way users do. The default is the jsii build in lib/; CDK8S_LINKERD_CLI points at
 * another build's bin.js (e.g. `tsc --outDir /tmp/cli-build`), and the plugin is taken from the same build.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');
export const CLI_BIN = path.resolve(process.env.CDK8S_LINKERD_CLI ?? path.join(REPO_ROOT, 'lib', 'frontends', 'cli', 'bin.js'));
export const PLUGIN_ENTRY = path.resolve(path.dirname(CLI_BIN), '..', 'plugin', 'index.js');

export function assertBuilt(): void {
  if (!fs.existsSync(CLI_BIN)) {
    throw new Error(`${CLI_BIN} does not exist: compile first (npx jsii), or set CDK8S_LINKERD_CLI to a build's bin.js`);
  }
}

/** A build outside the repo finds js-yaml and friends through NODE_PATH; in lib/ this changes nothing. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const nodePath = [NODE_MODULES, process.env.NODE_PATH].filter(Boolean).join(path.delimiter);
  return { ...process.env, NODE_PATH: nodePath, CDK8S_CHECK_UPGRADE: 'false', ...extra };
}

export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: string[], options: { cwd: string; input?: string }): RunResult {
  const result = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd, input: options.input, env: childEnv(), encoding: 'utf8', timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cdk8s-linkerd-${prefix}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes objects as one multi-document YAML file (creating folders) and returns its text. */
export function writeYaml(dir: string, name: string, objects: any[]): string {
  const text = objects.map((o) => yaml.dump(o, { noRefs: true })).join('---\n');
  writeText(dir, name, text);
  return text;
}

export function writeText(dir: string, name: string, text: string): void {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** 1-based line where document `n` (0-based) of a `---`-separated text starts. */
export function documentLine(text: string, n: number): number {
  if (n === 0) return 1;
  const lines = text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '---' && ++seen === n) return i + 2;
  }
  throw new Error(`text has no document ${n}`);
}
