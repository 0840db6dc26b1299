/**
 * CEL evaluation of `x-kubernetes-validations`, on top of @bufbuild/cel.
 *
 * What the Kubernetes API server adds to plain CEL, and this module mirrors:
 * - property names are escaped (`namespace` → `__namespace__`, `a-b` → `a__dash__b`, …);
 * - `integer` values are CEL ints (int64), `number` values are doubles;
 * - strings with `format: duration` / `date-time` are CEL durations / timestamps;
 * - at the root, `metadata` only exposes `name` and `generateName`;
 * - the Kubernetes strings extension (`lowerAscii`, `split`, …) is available.
 */
import * as path from 'path';
import { celEnv, celError, CelInput, isCelError, parse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { ConformanceHarnessError } from './issues';
import { isJsonObject, JsonObject, JsonSchema, ValidationRule } from './schema';
import { ownValue } from '../core/own-keys';

type Bindings = Record<string, CelInput>;
type Program = (bindings: Bindings) => unknown;

/** Words CEL reserves; a property with one of these names is reached as `__word__`. */
const CEL_RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function',
  'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);
const ESCAPABLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;
const ESCAPES: Readonly<Record<string, string>> = { '__': '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };
/** Property names repeat endlessly across objects; escape each one once. */
const escapedNames = new Map<string, string | undefined>();

/**
 * The name under which a schema property is visible in CEL, or undefined when the API server
 * makes it inaccessible (names with characters outside `[a-zA-Z0-9_.-/]`).
 */
export function escapeCelPropertyName(name: string): string | undefined {
  if (escapedNames.has(name)) return escapedNames.get(name);
  let escaped: string | undefined;
  if (CEL_RESERVED.has(name)) escaped = `__${name}__`;
  else if (ESCAPABLE.test(name)) escaped = name.replace(/__|[.\-/]/g, match => ESCAPES[match]);
  escapedNames.set(name, escaped);
  return escaped;
}

/** Operators the evaluator implements natively instead of through its function table. */
const BUILTIN_OPERATORS = new Set(['_&&_', '_||_', '_?_:_', '_[_]', '@not_strictly_false']);

/**
 * CEL's `matches` compiles its pattern on every call. Rules such as `self.all(k, k.matches(...))`
 * make that the dominant cost, so the same RE2 engine @bufbuild/cel uses is loaded from beside
 * it and its compiled patterns are cached. If it cannot be found, the built-in behaviour is kept.
 */
type Re2Option = NonNullable<NonNullable<Parameters<typeof celEnv>[0]>['re2']>;

function cachedRe2(): Re2Option | undefined {
  let engine: { compile(pattern: string): { test(text: string): boolean } };
  try {
    const celDir = path.dirname(require.resolve('@bufbuild/cel'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    engine = require(require.resolve('@bufbuild/re2', { paths: [celDir] })).RE2JS;
  } catch {
    return undefined;
  }
  const compiled = new Map<string, { test(text: string): boolean }>();
  return {
    compile(pattern: string) {
      let matcher = compiled.get(pattern);
      if (!matcher) {
        matcher = engine.compile(pattern);
        compiled.set(pattern, matcher);
      }
      return matcher;
    },
  };
}

const ENV = celEnv({ funcs: strings, re2: cachedRe2() });

/** Type denotations usable as identifiers, e.g. `type(self.port) == int`. */
const CEL_TYPE_NAMES = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn'];

/**
 * Evaluation errors that mean the harness (or the rule) is broken rather than the object:
 * the API server's type checker would have refused such a rule when the CRD was created.
 * Everything else (missing key, index out of range, overflow …) rejects the object, as on a cluster.
 */
export function isHarnessGap(message: string): boolean {
  return /unbound function|no matching overload|unresolved attribute/.test(message);
}

/** A rule (and its messageExpression) parsed, checked and planned once. */
export interface CompiledRule {
  readonly rule: ValidationRule;
  /** Transition rules compare with the previous object; there is none on create, so they are skipped. */
  readonly isTransitionRule: boolean;
  readonly program: Program;
  readonly messageProgram?: Program;
}

/**
 * Compiles each distinct rule text once; a catalog shares one cache across all its CRDs.
 * Any rule that does not parse, calls a function the harness does not provide, or names an
 * unknown variable is a harness error: the API server would have rejected the CRD itself.
 */
export class CelRuleCache {
  private readonly programs = new Map<string, { program: Program; usesOldSelf: boolean }>();

  public compile(rule: ValidationRule, where: string): CompiledRule {
    const main = this.program(rule.rule, where);
    const message = rule.messageExpression ? this.program(rule.messageExpression, where) : undefined;
    return {
      rule,
      isTransitionRule: main.usesOldSelf || message?.usesOldSelf === true,
      program: main.program,
      messageProgram: message?.program,
    };
  }

  private program(text: string, where: string): { program: Program; usesOldSelf: boolean } {
    let entry = this.programs.get(text);
    if (!entry) {
      entry = compileExpression(text, where);
      this.programs.set(text, entry);
    }
    return entry;
  }
}

function compileExpression(text: string, where: string): { program: Program; usesOldSelf: boolean } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text);
  } catch (e) {
    throw new ConformanceHarnessError(`CEL rule at ${where} does not compile: ${(e as Error).message}\n  rule: ${text}`);
  }
  const refs = { functions: new Set<string>(), oldSelf: false };
  collectReferences(parsed.expr as unknown as AstNode, new Set(['self', 'oldSelf', ...CEL_TYPE_NAMES]), refs, text, where);
  for (const fn of refs.functions) {
    if (!BUILTIN_OPERATORS.has(fn) && ENV.funcs.find(fn) === undefined) {
      throw new ConformanceHarnessError(`CEL rule at ${where} calls "${fn}", which the harness does not provide\n  rule: ${text}`);
    }
  }
  const planned = plan(ENV, parsed);
  return { program: bindings => planned(bindings), usesOldSelf: refs.oldSelf };
}

/** Just the parts of the CEL AST (cel.expr.Expr) that the reference walk needs. */
interface AstNode {
  readonly exprKind: { readonly case?: string; readonly value?: any };
}

/** Records called functions and rejects identifiers that are not in scope. */
function collectReferences(
  node: AstNode | undefined,
  scope: ReadonlySet<string>,
  refs: { functions: Set<string>; oldSelf: boolean },
  text: string,
  where: string,
): void {
  if (!node) return;
  const { case: kind, value } = node.exprKind;
  const visit = (child: AstNode | undefined, inner: ReadonlySet<string> = scope) => collectReferences(child, inner, refs, text, where);
  switch (kind) {
    case 'identExpr':
      if (!scope.has(value.name)) {
        throw new ConformanceHarnessError(`CEL rule at ${where} references undeclared "${value.name}"\n  rule: ${text}`);
      }
      if (value.name === 'oldSelf') refs.oldSelf = true;
      return;
    case 'selectExpr':
      return visit(value.operand);
    case 'callExpr':
      refs.functions.add(value.function);
      visit(value.target);
      return value.args.forEach((arg: AstNode) => visit(arg));
    case 'listExpr':
      return value.elements.forEach((el: AstNode) => visit(el));
    case 'structExpr':
      return value.entries.forEach((entry: any) => {
        if (entry.keyKind?.case === 'mapKey') visit(entry.keyKind.value);
        visit(entry.value);
      });
    case 'comprehensionExpr': {
      visit(value.iterRange);
      visit(value.accuInit);
      const loopScope = new Set([...scope, value.accuVar, value.iterVar, value.iterVar2].filter(Boolean));
      visit(value.loopCondition, loopScope);
      visit(value.loopStep, loopScope);
      return visit(value.result, new Set([...scope, value.accuVar]));
    }
    default:
      return; // constants
  }
}

/** Outcome of running a rule against one value. */
export type RuleOutcome =
  | { readonly kind: 'pass' }
  | { readonly kind: 'fail'; readonly message: string }
  | { readonly kind: 'error'; readonly message: string };

export function evaluateRule(compiled: CompiledRule, self: CelInput): RuleOutcome {
  const bindings: Bindings = { self };
  const result = safeRun(compiled.program, bindings);
  if (isCelError(result)) return { kind: 'error', message: result.message };
  if (result === true) return { kind: 'pass' };
  if (result !== false) return { kind: 'error', message: `rule returned ${String(result)}, not a bool` };
  return { kind: 'fail', message: failureMessage(compiled, bindings) };
}

function safeRun(program: Program, bindings: Bindings): unknown {
  try {
    return program(bindings);
  } catch (e) {
    return celError(e); // the evaluator reports errors as values; a throw is treated the same way
  }
}

/** messageExpression wins when it yields a non-empty string; otherwise `message`; otherwise the API server's default. */
function failureMessage(compiled: CompiledRule, bindings: Bindings): string {
  if (compiled.messageProgram) {
    const text = safeRun(compiled.messageProgram, bindings);
    if (typeof text === 'string' && text.trim() !== '') return text;
  }
  return compiled.rule.message ?? `failed rule: ${compiled.rule.rule}`;
}

const DURATION_PROGRAM = plan(ENV, parse('duration(s)'));
const TIMESTAMP_PROGRAM = plan(ENV, parse('timestamp(s)'));

/**
 * Builds the CEL view of a JSON value under its schema. Results are memoised per object
 * identity (`memo`), so nested rules do not re-convert the same subtree.
 */
export function toCelValue(value: unknown, schema: JsonSchema, memo: WeakMap<object, CelInput>): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') {
    const cached = memo.get(value);
    if (cached !== undefined) return cached;
    const converted = Array.isArray(value)
      ? value.map(item => toCelValue(item, schema.items ?? {}, memo))
      : objectToCel(value as JsonObject, schema, memo);
    memo.set(value, converted);
    return converted;
  }
  if (typeof value === 'number') return numberToCel(value, schema);
  if (typeof value === 'string') return stringToCel(value, schema);
  return value as CelInput;
}

function objectToCel(value: JsonObject, schema: JsonSchema, memo: WeakMap<object, CelInput>): CelInput {
  const out = new Map<string, CelInput>();
  const mapValues = isJsonObject(schema.additionalProperties) ? schema.additionalProperties as JsonSchema : undefined;
  const typed = schema.properties !== undefined && Object.keys(schema.properties).length > 0;
  for (const [key, child] of Object.entries(value)) {
    const prop = ownValue(schema.properties, key);
    if (prop) {
      const name = escapeCelPropertyName(key);
      if (name !== undefined) out.set(name, toCelValue(child, prop, memo));
    } else if (mapValues) {
      out.set(key, toCelValue(child, mapValues, memo)); // map keys are data, never escaped
    } else if (!typed) {
      out.set(key, toCelValue(child, {}, memo)); // schemaless (preserve-unknown-fields) object
    }
  }
  return out;
}

/** `number` is always double; `integer`, int-or-string and untyped whole numbers are int64. */
function numberToCel(value: number, schema: JsonSchema): CelInput {
  if (schema.type === 'number') return value;
  return Number.isInteger(value) ? BigInt(value) : value;
}

function stringToCel(value: string, schema: JsonSchema): CelInput {
  if (schema.type !== 'string') return value;
  const program = schema.format === 'duration' ? DURATION_PROGRAM : schema.format === 'date-time' ? TIMESTAMP_PROGRAM : undefined;
  if (!program) return value;
  const converted = program({ s: value });
  return isCelError(converted) ? value : converted as CelInput;
}

/**
 * The root object as CEL sees it: apiVersion, kind, metadata.name/generateName, and the
 * declared properties.
 */
export function rootToCel(obj: JsonObject, schema: JsonSchema, memo: WeakMap<object, CelInput>): CelInput {
  const out = toCelValue(obj, schema, memo) as Map<string, CelInput>;
  const copy = new Map(out);
  for (const key of ['apiVersion', 'kind']) if (typeof obj[key] === 'string') copy.set(key, obj[key] as string);
  const meta = isJsonObject(obj.metadata) ? obj.metadata : {};
  const visibleMeta = new Map<string, CelInput>();
  for (const key of ['name', 'generateName']) if (typeof meta[key] === 'string') visibleMeta.set(key, meta[key] as string);
  copy.set('metadata', visibleMeta);
  return copy;
}
