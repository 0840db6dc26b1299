/**
 * `.cdk8s-linkerd.yaml`: one file of settings for a repository, read the same way by the CLI, MeshChecks and the
 * cdk8s-cli plugin. It is found in the working directory or a parent up to the repository root (the folder holding
 * .git), or named explicitly. A file that does not validate against the schema is a coded error (LKD-INPUT-008) naming
 * the file, the line and the key: never a silent default.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { CONFIG_FILE_NAME, configSchema } from './config-schema';
import { globToRegExp, matchesAny } from './globs';
import { RuleLevel } from './rule-levels';
import { CONTEXT_OPTIONS, readContextOptions } from '../analysis/context-options';
import { SUPPRESSION_RULE_ID } from '../analysis/engine';
import { Severity } from '../analysis/finding';
import { AnalysisContextInput } from '../analysis/options';
import { ALL_RULES, FLEET_RULES } from '../analysis/rules';
// Only the schema walk (no CEL): these modules load nothing heavy.
import { pruneUnknownFields } from '../conformance/defaulting';
import { RawIssue } from '../conformance/issues';
import { cloneJson, isJsonObject } from '../conformance/schema';
import { validateSchema } from '../conformance/structural-validation';
import { InputRule } from '../core/errors';

/** The rule the CLI adds for --crds (frontends/cli/schema-rule.ts): a config may set its level too. */
const SCHEMA_RULE_ID = 'LKD-SCHEMA-001';

/** Every rule ID a config may name: the pack, the fleet rules and the schema rule (LKD-META-001 is never tuned). */
export function configurableRuleIds(): Set<string> {
  return new Set([...ALL_RULES.map((r) => r.id), ...FLEET_RULES.map((r) => r.id), SCHEMA_RULE_ID]);
}

export interface CheckConfig {
  /** The file read (absolute), or undefined when there is none. */
  readonly file?: string;
  /** Rule ID → level, in the file's order. */
  readonly rules: ReadonlyMap<string, RuleLevel>;
  readonly failOn?: Severity;
  /** The `exclude` globs, as written. */
  readonly exclude: readonly string[];
  /** The `exclude` globs compiled, to match paths relative to the file's folder. */
  readonly excludePatterns: readonly RegExp[];
  readonly docsUrl?: string;
  /** What the checks know about the cluster, converted and checked by the one option table. */
  readonly context: AnalysisContextInput;
}

export const EMPTY_CONFIG: CheckConfig = { rules: new Map(), exclude: [], excludePatterns: [], context: {} };

/**
 * Whether the config file's `exclude` skips the file at `absolutePath` (matched relative to the config file's folder;
 * a file outside that folder, or stdin, is never excluded). The CLI and the cdk8s-cli plugin both ask here.
 */
export function excludedByConfig(absolutePath: string, config: CheckConfig): boolean {
  if (!config.file || absolutePath === '-' || config.excludePatterns.length === 0) return false;
  const rel = path.relative(path.dirname(config.file), absolutePath);
  return !rel.startsWith('..') && !path.isAbsolute(rel) && matchesAny(rel, config.excludePatterns);
}

/** A config file that cannot be used: coded like every bad setting, with where and what to do. */
export class ConfigError extends Error {
  public readonly ruleId = InputRule.SETTING;
  constructor(message: string, public readonly fix: string = 'Correct the file (its schema: schemas/cdk8s-linkerd-config.schema.json in the package).') {
    super(message);
    this.name = 'ConfigError';
  }

  public get coded(): string {
    return `${this.ruleId}: ${this.message} Fix: ${this.fix}`;
  }
}

/** The folder holding .git at or above `start`, or undefined outside a repository. */
function repositoryRoot(start: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The config file for a run started in `cwd`: the nearest `.cdk8s-linkerd.yaml` from `cwd` up to the repository
 * root. Outside a repository only `cwd` is looked at (a file in a home folder must not configure every project).
 */
export function findConfigFile(cwd: string): string | undefined {
  const start = path.resolve(cwd);
  const root = repositoryRoot(start);
  for (let dir = start; ; dir = path.dirname(dir)) {
    const file = path.join(dir, CONFIG_FILE_NAME);
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return file;
    if (root === undefined || dir === root || path.dirname(dir) === dir) return undefined;
  }
}

/** The line of a top-level key in the text (1-based), for messages; 1 when it cannot be told. */
function keyLine(text: string, key: string): number {
  const lines = text.split(/\r?\n/);
  const i = lines.findIndex((l) => l.startsWith(`${key}:`) || l.startsWith(`"${key}":`) || l.startsWith(`'${key}':`));
  return i < 0 ? 1 : i + 1;
}

function readYaml(file: string, shown: string): { text: string; value: unknown } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e: any) {
    throw new ConfigError(`${shown}: cannot read the config file (${e?.code ?? e?.message ?? e}).`, 'Check that the path exists and is readable.');
  }
  try {
    return { text, value: yaml.load(text, { schema: yaml.CORE_SCHEMA, filename: shown }) ?? {} };
  } catch (e: any) {
    const line = typeof e?.mark?.line === 'number' ? e.mark.line + 1 : 1;
    throw new ConfigError(`${shown}:${line}: not valid YAML (${e?.reason ?? e?.message ?? e}).`, 'Correct the YAML syntax.');
  }
}

/** Schema problems (unknown keys, wrong types, values outside an enum), each with its line. */
function schemaProblems(value: unknown, text: string, shown: string): RawIssue[] {
  const issues: RawIssue[] = [];
  const copy = cloneJson(value);
  pruneUnknownFields(copy, configSchema(), '', issues);
  validateSchema(copy, configSchema(), '', issues);
  return issues.map((i) => ({ ...i, message: `${shown}:${keyLine(text, i.path.split(/[.[]/)[0])}: ${i.path}: ${i.message}` }));
}

/** The fix for schema problems: an unknown key is answered with the keys there are. */
function schemaFix(issues: readonly RawIssue[]): string | undefined {
  if (!issues.some((i) => i.rule === 'unknown field')) return undefined;
  const keys = Object.keys(configSchema().properties ?? {}).filter((k) => k !== '$schema');
  return `Use only the keys of the schema (schemas/cdk8s-linkerd-config.schema.json in the package): ${keys.join(', ')}.`;
}

function ruleLevels(raw: unknown, text: string, shown: string): Map<string, RuleLevel> {
  const levels = new Map<string, RuleLevel>();
  if (!isJsonObject(raw)) return levels;
  const known = configurableRuleIds();
  for (const [id, level] of Object.entries(raw)) {
    if (id === SUPPRESSION_RULE_ID) {
      throw new ConfigError(`${shown}:${keyLine(text, 'rules')}: rules: ${id} cannot be tuned: a malformed suppression always fails.`, `Remove ${id} from rules and correct the suppression it reports.`);
    }
    if (!known.has(id)) {
      throw new ConfigError(`${shown}:${keyLine(text, 'rules')}: rules: ${JSON.stringify(id)} is not a rule ID.`, 'Name a rule as `cdk8s-linkerd rules` lists it, e.g. LKD-POL-011.');
    }
    levels.set(id, level as RuleLevel);
  }
  return levels;
}

/** Reads and checks a config file; `shown` is how messages name it. */
export function loadConfig(file: string, shown: string = file): CheckConfig {
  const absolute = path.resolve(file);
  const { text, value } = readYaml(absolute, shown);
  if (!isJsonObject(value)) throw new ConfigError(`${shown}:1: the config file must be a mapping of settings.`);
  const problems = schemaProblems(value, text, shown);
  if (problems.length > 0) throw new ConfigError(`${problems.map((p) => p.message).join('; ')}.`, schemaFix(problems));
  const raw = value as Record<string, unknown>;
  const own = (key: string) => (Object.prototype.hasOwnProperty.call(raw, key) ? raw[key] : undefined);
  const context = readContextOptions((o) => own(o.flag), (o, problem) => {
    throw new ConfigError(`${shown}:${keyLine(text, o.flag)}: ${o.flag} ${problem}.`, `Set ${o.flag} to ${o.placeholder}: ${o.help.toLowerCase()}.`);
  });
  const exclude = (own('exclude') as string[] | undefined) ?? [];
  return {
    file: absolute,
    rules: ruleLevels(own('rules'), text, shown),
    failOn: own('failOn') as Severity | undefined,
    exclude,
    excludePatterns: exclude.map(globToRegExp),
    docsUrl: own('docsUrl') as string | undefined,
    context,
  };
}

/** The named file (relative to `cwd`), else the one found from `cwd`, else no settings. */
export function resolveConfig(cwd: string, explicit?: string): CheckConfig {
  if (explicit !== undefined) {
    const absolute = path.resolve(cwd, explicit);
    if (!fs.existsSync(absolute)) throw new ConfigError(`${explicit}: the config file does not exist.`, 'Check the path given to --config (or configFile).');
    return loadConfig(absolute, explicit);
  }
  const found = findConfigFile(cwd);
  return found ? loadConfig(found, path.relative(cwd, found) || found) : EMPTY_CONFIG;
}

/** The context options as a front-end passes them on: the file's, then the front-end's own (which win). */
export function mergeContext(config: CheckConfig, given: AnalysisContextInput): AnalysisContextInput {
  const out: Record<string, unknown> = { ...config.context };
  for (const o of CONTEXT_OPTIONS) {
    const value = (given as Record<string, unknown>)[o.key];
    if (value !== undefined && value !== null) out[o.key] = value;
  }
  return out as AnalysisContextInput;
}
