/**
 * The fuzzing contract for one mesh: it either synthesizes — and then every object passes the real CRDs (schema +
 * CEL), the engine reports no error and the output holds what Linkerd needs (invariants.ts) — or it fails with a
 * coded error (LKD-…) that names a construct path existing in the app. Anything else (a TypeError from deep inside,
 * an uncoded message, a path that names nothing) is a finding of the fuzzer.
 */
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Testing } from 'cdk8s';
import { IConstruct } from 'constructs';
import { buildMesh } from './build';
import { linkerdReadsProblems } from './invariants';
import { Loose, MeshSpec } from './mesh-spec';
import { analyze } from '../../../src/analysis/engine';
import { Severity } from '../../../src/analysis/finding';
import { Manifest } from '../../../src/analysis/model/manifest';
import { claimsAbove } from '../../../src/checks/claims';
import { MeshConfigError } from '../../../src/core/errors';

/** Validates objects against the reference CRDs; returns readable issues (empty = conforms). */
export type ConformanceCheck = (objects: any[]) => string[];

export const CODE = /LKD-[A-Z]+-\d{3}/;
const FUZZ_OUTDIR = path.join(os.tmpdir(), 'cdk8s-linkerd-fuzz-unused');
const VALIDATION_HEADER = 'Validation failed with the following errors:';

export type Outcome =
  | { readonly kind: 'synthesized'; readonly objects: any[] }
  | { readonly kind: 'rejected'; readonly ruleIds: string[]; readonly message: string };

export interface CaseReport {
  readonly outcome: Outcome;
  /** Contract violations; empty when the case behaved. */
  readonly problems: string[];
}

function constructPaths(app: App): Set<string> {
  return new Set(app.node.findAll().map((c) => c.node.path).filter((p) => p !== ''));
}

function meshConfigErrorProblems(e: MeshConfigError, paths: Set<string>): string[] {
  const problems: string[] = [];
  if (!/^LKD-[A-Z]+-\d{3}$/.test(e.ruleId)) problems.push(`rule ID ${JSON.stringify(e.ruleId)} is not LKD-AREA-NNN`);
  // A static method with no construct to name reports at '<root>' (ServerAccess.allow(Server.fromServerName(...))) or
  // names itself (LinkerdVersion.ofChart).
  const factory = e.constructPath === '<root>' || /^[A-Z][A-Za-z]+\.[a-z][A-Za-z]+$/.test(e.constructPath);
  if (!factory && !paths.has(e.constructPath)) problems.push(`construct path ${JSON.stringify(e.constructPath)} names no construct of the app`);
  if (!/ Fix: \S/.test(e.message)) problems.push('message has no "Fix:"');
  return problems;
}

/** cdk8s joins every validation message as `[path] message`; the mesh checks (on the root) name the path after "at". */
function validationLineProblems(line: string, paths: Set<string>): string[] {
  const match = /^\[([^\]]*)\] (.*)$/.exec(line);
  if (!match) return [`validation line ${JSON.stringify(line)} is not "[path] message"`];
  const [, constructPath, message] = match;
  const problems: string[] = [];
  if (!CODE.test(message)) problems.push(`validation message ${JSON.stringify(message)} has no rule ID`);
  if (!/Fix: \S/.test(message)) problems.push(`validation message ${JSON.stringify(message)} has no "Fix:"`);
  const named = constructPath !== '' ? constructPath : / at (\S+) \(/.exec(message)?.[1];
  if (!named || !paths.has(named)) problems.push(`validation message ${JSON.stringify(line)} names no construct path of the app`);
  return problems;
}

/** Judges a thrown error: a coded refusal naming a construct of the app, or a contract violation. */
export function judgeRejection(e: unknown, app: App): { outcome: Outcome; problems: string[] } {
  const paths = constructPaths(app);
  if (e instanceof MeshConfigError) {
    return { outcome: { kind: 'rejected', ruleIds: [e.ruleId], message: e.message }, problems: meshConfigErrorProblems(e, paths) };
  }
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof Error && message.startsWith(VALIDATION_HEADER)) {
    const lines = message.split('\n').slice(1).map((l) => l.trim()).filter(Boolean);
    const ruleIds = lines.map((l) => CODE.exec(l)?.[0] ?? '?');
    return { outcome: { kind: 'rejected', ruleIds, message }, problems: lines.flatMap((l) => validationLineProblems(l, paths)) };
  }
  const stack = e instanceof Error ? (e.stack ?? '').split('\n').slice(0, 6).join('\n') : message;
  return { outcome: { kind: 'rejected', ruleIds: [], message }, problems: [`threw an uncoded ${e instanceof Error ? e.name : typeof e}: ${stack}`] };
}

/**
 * The synthesized objects as the construct front-end hands them to the engine: each with what the constructs above it
 * say exists in the cluster (a `ServiceReference.fromName` backend), which makes an unresolved reference a warning.
 */
function manifestsOf(scope: IConstruct): Manifest[] {
  return scope.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c))
    .map((obj) => ({ object: obj.toJson(), source: { constructPath: obj.node.path, claims: claimsAbove(obj) } }));
}

/** What is wrong with synthesized output (of `scope`): CRD conformance, engine errors, what Linkerd cannot read. */
export function outputProblems(objects: any[], scope: IConstruct, conformance: ConformanceCheck): string[] {
  const errors = analyze(manifestsOf(scope)).findings.filter((f) => f.severity === Severity.ERROR);
  return [
    ...conformance(objects).map((i) => `conformance: ${i}`),
    ...errors.map((f) => `engine error after a successful synth: ${f.ruleId} ${f.resource.kind}/${f.resource.name}: ${f.message}`),
    ...linkerdReadsProblems(objects).map((p) => `Linkerd/API server: ${p}`),
  ];
}

function quoted(value: Loose<number> | undefined): boolean {
  return typeof value === 'string';
}

/**
 * Inputs that can never make valid output, so they MUST be refused (a model of the obvious; the output checks catch
 * the subtle). Only positions that are always used count.
 */
export function mustReject(spec: MeshSpec): string | undefined {
  for (const s of spec.splits) {
    const ok = s.percents.length > 0 && s.percents.every((p) => Number.isInteger(p) && (p as number) >= 0 && (p as number) <= 100)
      && s.percents.reduce<number>((sum, p) => sum + (p as number), 0) === 100;
    if (!ok) return `split percents ${JSON.stringify(s.percents)} are not whole shares of 100`;
    if (s.port.kind === 'literal' && quoted(s.port.value)) return 'a split port is a string';
  }
  for (const s of spec.servers) {
    if (s.port.kind === 'name' && /^\d+$/.test(s.port.value)) return `Server port name ${JSON.stringify(s.port.value)} is a quoted number`;
    if (s.port.kind === 'number' && !(Number.isInteger(s.port.value) && (s.port.value as number) >= 1 && (s.port.value as number) <= 65535)) {
      return `Server port ${JSON.stringify(s.port.value)} is not a port number`;
    }
  }
  for (const r of spec.routes) {
    for (const rule of r.rules) {
      if (rule.backends.some((b) => quoted(b.weight) || (b.port.kind === 'literal' && quoted(b.port.value)))) return 'a backend weight or port is a string';
      if (rule.backends.length > 0 && rule.backends.every((b) => b.weight === 0)) return 'a rule has only zero weights';
    }
    if (r.rules.length === 0) return 'a route has no rules';
  }
  return undefined;
}

/** Builds and synthesizes one mesh and judges the result. */
export function runCase(spec: MeshSpec, conformance: ConformanceCheck): CaseReport {
  // Charts are rendered in memory (chart.toJson runs every validation), so nothing is written to this outdir; a fixed
  // one avoids the temp folder Testing.app() would create per case.
  const app = new App({ outdir: FUZZ_OUTDIR });
  let objects: any[];
  try {
    objects = Testing.synth(buildMesh(spec, app));
  } catch (e) {
    return judgeRejection(e, app);
  }
  const problems = outputProblems(objects, app, conformance);
  const expected = mustReject(spec);
  if (expected) problems.push(`synthesized although ${expected}`);
  return { outcome: { kind: 'synthesized', objects }, problems };
}
