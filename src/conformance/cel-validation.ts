/**
 * Runs every `x-kubernetes-validations` rule of a schema tree against a defaulted object.
 * A rule runs once per value present at its schema node (once per item for `items` rules);
 * rules under absent optional fields never run, as in the API server.
 */
import { CelInput } from '@bufbuild/cel';
import { CelRuleCache, CompiledRule, evaluateRule, isHarnessGap, rootToCel, toCelValue } from './cel-engine';
import { ConformanceHarnessError, fieldPath, indexPath, keyPath, RawIssue } from './issues';
import { isJsonObject, JsonObject, JsonSchema } from './schema';
import { ownValue } from '../core/own-keys';

/** Compiled rules for every node of one schema tree, keyed by node identity. */
export class SchemaRules {
  /** Compiles all rules of `root` eagerly, so a broken rule fails at load time, not mid-run. */
  public static compile(root: JsonSchema, cache: CelRuleCache, where: string): SchemaRules {
    const byNode = new Map<JsonSchema, CompiledRule[]>();
    collectRules(root, '', cache, where, byNode);
    return new SchemaRules(root, byNode);
  }

  private constructor(public readonly root: JsonSchema, private readonly byNode: ReadonlyMap<JsonSchema, CompiledRule[]>) {}

  public get count(): number {
    let n = 0;
    for (const rules of this.byNode.values()) n += rules.length;
    return n;
  }

  public at(node: JsonSchema): readonly CompiledRule[] {
    return this.byNode.get(node) ?? [];
  }
}

function collectRules(node: JsonSchema, path: string, cache: CelRuleCache, where: string, out: Map<JsonSchema, CompiledRule[]>): void {
  const rules = node['x-kubernetes-validations'];
  if (rules && rules.length > 0) {
    out.set(node, rules.map(rule => cache.compile(rule, `${where} ${path || '<root>'}`)));
  }
  for (const [key, child] of Object.entries(node.properties ?? {})) collectRules(child, fieldPath(path, key), cache, where, out);
  if (node.items) collectRules(node.items, `${path}[*]`, cache, where, out);
  if (isJsonObject(node.additionalProperties)) {
    collectRules(node.additionalProperties as JsonSchema, `${path}[*]`, cache, where, out);
  }
}

/**
 * What to do when a rule cannot be evaluated on a given object. Harness gaps (unknown function,
 * no matching overload) always throw. Data-dependent failures (e.g. a rule reads an absent
 * field) are rejections on a real cluster: 'issue' reports them like the API server does,
 * 'throw' turns them into a ConformanceHarnessError too (useful for curated test data).
 */
export type CelErrorPolicy = 'throw' | 'issue';

interface WalkContext {
  readonly rules: SchemaRules;
  readonly memo: WeakMap<object, CelInput>;
  readonly out: RawIssue[];
  readonly onError: CelErrorPolicy;
}

export function evaluateSchemaRules(obj: JsonObject, rules: SchemaRules, out: RawIssue[], onError: CelErrorPolicy): void {
  const ctx: WalkContext = { rules, memo: new WeakMap(), out, onError };
  walk(obj, rules.root, '', ctx, true);
}

function walk(value: unknown, schema: JsonSchema, path: string, ctx: WalkContext, isRoot = false): void {
  if (value === undefined || value === null) return;
  const rules = ctx.rules.at(schema);
  if (rules.length > 0) {
    const self = isRoot ? rootToCel(value as JsonObject, schema, ctx.memo) : toCelValue(value, schema, ctx.memo);
    for (const rule of rules) runRule(rule, self, path, ctx);
  }
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => walk(item, schema.items as JsonSchema, indexPath(path, i), ctx));
    return;
  }
  if (!isJsonObject(value)) return;
  const mapValues = isJsonObject(schema.additionalProperties) ? schema.additionalProperties as JsonSchema : undefined;
  for (const [key, child] of Object.entries(value)) {
    const declared = ownValue(schema.properties, key);
    if (declared) walk(child, declared, fieldPath(path, key), ctx);
    else if (mapValues) walk(child, mapValues, keyPath(path, key), ctx);
  }
}

function runRule(compiled: CompiledRule, self: CelInput, path: string, ctx: WalkContext): void {
  if (compiled.isTransitionRule) return; // needs oldSelf: only meaningful on update
  const outcome = evaluateRule(compiled, self);
  if (outcome.kind === 'pass') return;
  const { rule } = compiled;
  if (outcome.kind === 'error') {
    const message = `rule could not be evaluated: ${outcome.message}`;
    if (ctx.onError === 'throw' || isHarnessGap(outcome.message)) {
      throw new ConformanceHarnessError(`CEL ${message}\n  at: ${path || '<root>'}\n  rule: ${rule.rule}`);
    }
    ctx.out.push({ path, message, rule: rule.rule });
    return;
  }
  const at = rule.fieldPath ? appendRelativePath(path, rule.fieldPath) : path;
  const prefix = reasonPrefix(rule.reason);
  ctx.out.push({ path: at, message: `${prefix}${outcome.message}`, rule: rule.rule });
}

/** The API server's wording for the optional `reason` of a rule (FieldValueInvalid needs no prefix). */
function reasonPrefix(reason: string | undefined): string {
  switch (reason) {
    case 'FieldValueForbidden': return 'Forbidden: ';
    case 'FieldValueRequired': return 'Required value: ';
    case 'FieldValueDuplicate': return 'Duplicate value: ';
    default: return '';
  }
}

/**
 * Appends a rule's `fieldPath` (`.a.b`, `.a['key.with.dots']`, `.list[0]` is not allowed by the
 * API server) to the path of the node the rule sits on.
 */
export function appendRelativePath(base: string, relative: string): string {
  let path = base;
  const segment = /\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*'((?:[^'\\]|\\.)*)'\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\]/y;
  let offset = 0;
  while (offset < relative.length) {
    segment.lastIndex = offset;
    const m = segment.exec(relative);
    if (!m) return fieldPath(base, relative.replace(/^\./, '')); // unparseable: keep it verbatim
    path = m[1] !== undefined ? fieldPath(path, m[1]) : keyPath(path, m[2] ?? m[3]);
    offset = segment.lastIndex;
  }
  return path;
}
