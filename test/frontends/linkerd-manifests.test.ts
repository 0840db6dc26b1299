/**
 * Linkerd's own manifests (linkerd2 at version-2.20: the test/integration testdata its integration tests apply to a
 * real cluster), read in place from the linkerd2 mirror as rule-sources.test.ts reads it, analysed file by file as
 * `cdk8s-linkerd analyze` would. They work as their authors intend, so no error and no warning may fire, apart from the
 * labelled verdicts below (each with the Linkerd evidence). Nothing is copied into the repository.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { analyzeCommand } from '../../src/frontends/cli/analyze-command';

const MIRROR = process.env.LINKERD2_MIRROR ?? '/work/.mirror/linkerd+linkerd2/repo';
const TAG = 'version-2.20';
const describeWithMirror: jest.Describe = fs.existsSync(MIRROR) ? describe : describe.skip;

interface Verdict {
  /** Rules that must report (a warning or error Linkerd itself would agree with). */
  readonly mustReport?: string[];
  /** The test applies the file through `linkerd inject`: analysed with the annotation `linkerd inject` adds. */
  readonly injected?: boolean;
  /** Not Kubernetes objects (Helm values), or a Go template: not analysed. */
  readonly skip?: boolean;
  readonly note: string;
}

/** The files that need a verdict of their own; every other testdata file must give no error and no warning. */
const VERDICTS: Record<string, Verdict> = {
  'test/integration/deep/opaqueports/testdata/opaque_ports_application.yaml': {
    note: 'opaque-pod marks port 8080 opaque on the pod only, and its Service svc-opaque-pod is headless: clients dial the pod and '
      + 'follow its endpoint profile, so the port is opaque to them (opaque_ports_test.go "calling a meshed service when opaque '
      + 'annotation is on receiving pod" expects no HTTP and TCP with TLS). No LKD-MESH-004: it once fired here, wrongly.',
  },
  'test/integration/external/testdata/external_prometheus.yaml': {
    injected: true,
    note: 'install_test.go applies it through `linkerd inject --manual`; the linkerd.io/inject label beside it is then harmless.',
  },
  'test/integration/deep/dualstack/testdata/ipfamilies-policy.yml': { skip: true, note: 'a Go template (rendered by the test)' },
  'test/integration/tracing/testdata/tracing-values.yaml': { skip: true, note: 'Helm values' },
  'test/integration/tracing/tracing/testdata/jaeger-aio-values.yaml': { skip: true, note: 'Helm values' },
  'test/integration/tracing/tracing/testdata/otel-values.yaml': { skip: true, note: 'Helm values' },
};

function git(...args: string[]): string {
  return execFileSync('git', ['-C', MIRROR, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** What `linkerd inject` adds: linkerd.io/inject: enabled on every pod template. */
function injected(text: string): string {
  const docs = yaml.loadAll(text).filter((d: any) => d && typeof d === 'object') as any[];
  for (const doc of docs) {
    const template = doc.kind === 'CronJob' ? doc.spec?.jobTemplate?.spec?.template : doc.spec?.template;
    if (template) template.metadata = { ...template.metadata, annotations: { ...template.metadata?.annotations, 'linkerd.io/inject': 'enabled' } };
  }
  return docs.map((d) => yaml.dump(d)).join('---\n');
}

function findingsOf(file: string): Array<{ ruleId: string; severity: string; message: string }> {
  let out = '';
  let err = '';
  const code = analyzeCommand(['--format', 'json', file], { cwd: path.dirname(file), stdout: (t) => { out += t; }, stderr: (t) => { err += t; } });
  expect([code === 2, err]).toEqual([false, '']);
  return JSON.parse(out).findings;
}

describeWithMirror('Linkerd\'s own manifests (linkerd2 version-2.20 test/integration testdata)', () => {
  const files = fs.existsSync(MIRROR) ? git('ls-tree', '-r', '--name-only', TAG).split('\n')
    .filter((f) => /^test\/integration\/.*testdata\/[^/]+\.ya?ml$/.test(f)) : [];
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-manifests-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the fixtures are there, and every verdict names one of them', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(VERDICTS).filter((f) => !files.includes(f))).toEqual([]);
  });

  test.each(files.filter((f) => !VERDICTS[f]?.skip).map((f) => [f]))('%s: no false error, no false warning', (file) => {
    const verdict = VERDICTS[file];
    const text = git('show', `${TAG}:${file}`);
    const local = path.join(dir, file.replace(/\//g, '_'));
    fs.writeFileSync(local, verdict?.injected ? injected(text) : text);
    const findings = findingsOf(local);
    const must = verdict?.mustReport ?? [];
    const loud = findings.filter((f) => f.severity !== 'info' && !must.includes(f.ruleId)).map((f) => `${f.severity} ${f.ruleId} ${f.message}`);
    expect(loud).toEqual([]);
    expect(must.filter((r) => !findings.some((f) => f.ruleId === r))).toEqual([]);
  });
});
