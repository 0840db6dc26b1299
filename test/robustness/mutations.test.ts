/**
 * Mutation catch rate: the valid mesh-lab output is written as cdk8s writes it, then each single mutation (a deleted
 * Service, a dropped parentRef group, a quoted port, …; see mutation-corpus.ts) is written to its own folder and
 * analysed by the compiled CLI exactly as a user runs it:
 *
 *   cdk8s-linkerd analyze --format json --fail-on warning <dir>
 *
 * A mutation counts as caught only when the CLI exits 1 with a finding of the expected severity and rule on the
 * resource that needs fixing, pointing at that resource's document (file and line). Every kind must be caught 100%.
 */
import * as path from 'path';
import { Yaml } from 'cdk8s';
import { runCliBounded } from './cli-process';
import { MUTATIONS, Mutation, meshLabObjects, mutate } from './mutation-corpus';
import { assertBuilt, documentLine, removeDir, tempDir, writeText } from '../frontends/cli-harness';

const FILE = 'mesh-lab.k8s.yaml';

interface Outcome {
  readonly mutation: Mutation;
  readonly caught: boolean;
  readonly why: string;
}

/** Writes objects the way `cdk8s synth` does and returns the text. */
function writeManifests(dir: string, objects: any[]): string {
  const text = Yaml.stringify(...objects);
  writeText(dir, FILE, text);
  return text;
}

function analyzeDir(dir: string): { status: number | null; report: any; stderr: string } {
  const run = runCliBounded(['analyze', '--format', 'json', '--fail-on', 'warning', '.'], { cwd: dir });
  let report: any;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = undefined;
  }
  return { status: run.status, report, stderr: run.stderr };
}

/** The 1-based line where the expected resource's document starts (the last one: a duplicate is reported on the second). */
function expectedLine(text: string, objects: any[], kind: string, name: string): number {
  let index = -1;
  objects.forEach((o, i) => { if (o.kind === kind && o.metadata?.name === name) index = i; });
  return documentLine(text, index);
}

function judge(dir: string, m: Mutation, baseline: any[]): Outcome {
  const objects = mutate(baseline, m);
  const text = writeManifests(dir, objects);
  const { status, report, stderr } = analyzeDir(dir);
  if (!report) return { mutation: m, caught: false, why: `no JSON report (exit ${status}): ${stderr}` };
  const e = m.expected;
  const line = expectedLine(text, objects, e.kind, e.name);
  const hit = report.findings.find((f: any) => f.ruleId === e.ruleId && f.severity === e.severity
    && f.resource.kind === e.kind && f.resource.name === e.name && f.file === FILE && f.line === line);
  if (hit && status === 1) return { mutation: m, caught: true, why: '' };
  const got = report.findings.map((f: any) => `${f.severity} ${f.ruleId} ${f.resource.kind}/${f.resource.name} ${f.file}:${f.line}`).join('; ');
  return { mutation: m, caught: false, why: `exit ${status}; expected ${e.severity} ${e.ruleId} on ${e.kind}/${e.name} ${FILE}:${line}; got: ${got || 'nothing'}` };
}

function catchTable(outcomes: Outcome[]): Record<string, string | number>[] {
  const kinds = [...new Set(outcomes.map((o) => o.mutation.kind))];
  return kinds.map((kind) => {
    const of = outcomes.filter((o) => o.mutation.kind === kind);
    const caught = of.filter((o) => o.caught).length;
    return {
      'mutation kind': kind,
      'expected': [...new Set(of.map((o) => `${o.mutation.expected.severity} ${o.mutation.expected.ruleId}`))].join(', '),
      'instances': of.length,
      'caught': caught,
      'catch rate': `${Math.round((100 * caught) / of.length)}%`,
    };
  });
}

describe('mutation catch rate of the CLI on mesh-lab', () => {
  let root: string;
  let baseline: any[];

  beforeAll(() => {
    assertBuilt();
    root = tempDir('mutations');
    baseline = meshLabObjects();
  });
  afterAll(() => removeDir(root));

  test('the unmutated mesh-lab output is clean even with --fail-on warning (else catches would mean nothing)', () => {
    const dir = path.join(root, 'baseline');
    writeManifests(dir, baseline);
    const { status, report } = analyzeDir(dir);
    expect(report.findings.filter((f: any) => f.severity !== 'info')).toEqual([]);
    expect(status).toBe(0);
  });

  test('the corpus has at least 12 kinds of mutation, several with more than one instance', () => {
    const kinds = new Set(MUTATIONS.map((m) => m.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(12);
    expect([...kinds].filter((k) => MUTATIONS.filter((m) => m.kind === k).length > 1).length).toBeGreaterThanOrEqual(8);
  });

  test('every mutation kind is caught 100% (right severity, rule, resource, file and line)', () => {
    const outcomes = MUTATIONS.map((m, i) => judge(path.join(root, `m${i}`), m, baseline));
    console.table(catchTable(outcomes));
    const missed = outcomes.filter((o) => !o.caught).map((o) => `${o.mutation.kind} / ${o.mutation.instance}: ${o.why}`);
    expect(missed).toEqual([]);
  }, 180_000);
});
