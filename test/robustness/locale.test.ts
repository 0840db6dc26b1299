/**
 * The user's locale must not change any output. Node's ICU follows LC_ALL / LANG, so `localeCompare` orders "z" before
 * "t" under Estonian collation (et_EE) and "a-b" before "aB" everywhere; Linkerd and Kubernetes order by bytes. The
 * CLI and a synth run in child processes under `LC_ALL=C` and `LC_ALL=et_EE.UTF-8` and must print the same bytes.
 * (ICU carries its own collation data, so the test needs no libc locale: `locale -a` may list only C and POSIX.)
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { compareStrings } from '../../src/util/compare';
import { CLI_BIN, REPO_ROOT, assertBuilt, childEnv, removeDir, tempDir, writeText } from '../frontends/cli-harness';

const LOCALES = ['C', 'et_EE.UTF-8'];
/** The build's entry point beside the CLI under test (lib/index.js by default). */
const LIB_INDEX = path.resolve(path.dirname(CLI_BIN), '..', '..', 'index.js');

function run(args: string[], locale: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, args, {
    cwd, env: childEnv({ LC_ALL: locale, LANG: locale }), encoding: 'utf8', timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function deployment(name: string): string {
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: lab}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n`
    + `  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n      containers:\n      - name: ${name}\n        image: nginx:1.27.0\n`
    + '        ports: [{containerPort: 8080, name: http}]\n';
}

function server(name: string, app: string): string {
  return `apiVersion: policy.linkerd.io/v1beta3\nkind: Server\nmetadata: {name: ${name}, namespace: lab}\n`
    + `spec:\n  podSelector: {matchLabels: {app: ${app}}}\n  port: 8080\n  proxyProtocol: HTTP/1\n`;
}

/** Names whose byte order and et_EE collation disagree: "t" < "z" by bytes, "z" < "t" in Estonian; "a-b" / "aB" / "ab". */
function meshText(): string {
  return [
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: lab\n  annotations: {linkerd.io/inject: enabled}\n',
    deployment('web'), deployment('api'),
    server('srv-ab', 'web'), server('srv-aB', 'web'), server('srv-a-b', 'web'),
    // Two Servers on the same pod port, same (absent) creation time: Linkerd keeps the first by name, in byte order.
    server('srv-z', 'api'), server('srv-t', 'api'),
  ].join('---\n');
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

describe('byte order, whatever the locale', () => {
  test('no source orders by locale (one comparator: core/compare.ts)', () => {
    const offenders = ['src', 'bench', 'scripts', 'test'].flatMap((d) => (fs.existsSync(path.join(REPO_ROOT, d)) ? sourceFiles(path.join(REPO_ROOT, d)) : []))
      .filter((f) => /\.localeCompare\(|Intl\.Collator/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(REPO_ROOT, f));
    expect(offenders).toEqual([]);
  });

  test('compareStrings is UTF-8 byte order, not collation', () => {
    const names = ['z', 't', 'zh', 'ch', 'h', 'Å', 'a', 'aB', 'a-b', 'ab', 'A', '\u{1F600}', '\uFFFD'];
    const sorted = [...names].sort(compareStrings);
    const byBytes = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(sorted).toEqual(byBytes);
    expect(sorted.slice(0, 3)).toEqual(['A', 'a', 'a-b']);
  });

  test('the CLI prints the same report under LC_ALL=C and LC_ALL=et_EE.UTF-8, and Linkerd\'s winner by name', () => {
    assertBuilt();
    const dir = tempDir('locale');
    try {
      writeText(dir, 'mesh.yaml', meshText());
      const outputs = LOCALES.map((locale) => run([CLI_BIN, 'analyze', '--format', 'json', 'mesh.yaml'], locale, dir));
      for (const out of outputs) expect(out.stderr).toBe('');
      expect(outputs[1].stdout).toBe(outputs[0].stdout);
      const findings = JSON.parse(outputs[0].stdout).findings ?? JSON.parse(outputs[0].stdout);
      const overlaps = (findings as any[]).filter((f) => f.ruleId === 'LKD-POL-008').map((f) => f.resource.name);
      // srv-t wins on api (bytes: "t" < "z"); srv-a-b wins on web ("-" < "B" < "b").
      expect(overlaps).toEqual(['srv-aB', 'srv-ab', 'srv-z']);
      const text = LOCALES.map((locale) => run([CLI_BIN, 'analyze', 'mesh.yaml'], locale, dir).stdout);
      expect(text[1]).toBe(text[0]);
    } finally {
      removeDir(dir);
    }
  });

  test('the synthesized suppression annotation is the same under both locales', () => {
    assertBuilt();
    const script = `
      const { App, Chart, ApiObject } = require('cdk8s');
      const { MeshChecks } = require(${JSON.stringify(LIB_INDEX)});
      const app = new App({ outdir: process.argv[1] });
      const chart = new Chart(app, 'c', { namespace: 'lab' });
      const cm = new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } });
      for (const reason of ['zebra reason', 'tiger reason', 'a-b reason', 'aB reason']) MeshChecks.suppress(cm, 'LKD-MESH-002', reason);
      MeshChecks.suppress(cm, 'LKD-MESH-001', 'ch reason');
      process.stdout.write(chart.toJson()[0].metadata.annotations['analysis.cdk8s-linkerd.io/suppress']);
    `;
    const dir = tempDir('locale-synth');
    try {
      const outputs = LOCALES.map((locale) => run(['-e', script, dir], locale, dir));
      for (const out of outputs) expect(out.stderr).toBe('');
      expect(outputs[1].stdout).toBe(outputs[0].stdout);
      const reasons = outputs[0].stdout;
      expect(JSON.parse(reasons)).toHaveLength(5);
      expect(reasons.indexOf('tiger reason')).toBeLessThan(reasons.indexOf('zebra reason'));
      expect(reasons.indexOf('a-b reason')).toBeLessThan(reasons.indexOf('aB reason'));
    } finally {
      removeDir(dir);
    }
  });
});
