/**
 * Validates plain Kubernetes objects the way the API server would on create:
 * metadata rules → prune unknown fields (reported, like strict field validation) →
 * structural defaulting → OpenAPI value validation → x-kubernetes-validations (CEL).
 */
import { CelRuleCache } from './cel-engine';
import { CelErrorPolicy, evaluateSchemaRules, SchemaRules } from './cel-validation';
import { CORE_KINDS } from './core-schemas';
import { CrdCatalog } from './crd-catalog';
import { applyDefaults, pruneUnknownFields } from './defaulting';
import { NameCheck } from './formats';
import { ConformanceIssue, RawIssue } from './issues';
import { DEFAULT_NAME_CHECK, OBJECT_META_SCHEMA, validateObjectMetaRules } from './object-meta';
import { cloneJson, isJsonObject, JsonObject, JsonSchema } from './schema';
import { BLOCKING_KEYWORDS, validateSchema } from './structural-validation';

export interface ConformanceValidatorOptions {
  /**
   * Also validate core kinds (Deployment, Service, …) against the built-in schemas.
   * @default true
   */
  readonly coreKinds?: boolean;
  /**
   * A CEL rule that fails to evaluate on some object: 'issue' reports it as the API server
   * would (the object is rejected); 'throw' raises a ConformanceHarnessError. Rules calling
   * unknown functions or hitting type mismatches always throw.
   * @default 'issue'
   */
  readonly celEvaluationErrors?: CelErrorPolicy;
}

/** The outcome for one object: its issues and the object as the API server would store it. */
export interface ConformanceResult {
  readonly issues: ConformanceIssue[];
  /** Pruned and defaulted copy; undefined when no schema applies. */
  readonly defaulted?: JsonObject;
}

/** What validation needs to know about a kind, whichever source (CRD or built-in) it comes from. */
interface ResolvedKind {
  readonly schema: JsonSchema;
  readonly rules: SchemaRules;
  readonly nameCheck: NameCheck;
}

const ROOT_FIELDS = ['apiVersion', 'kind', 'metadata'];
const CEL_SKIPPED = 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

export class ConformanceValidator {
  private readonly coreRules = new Map<string, ResolvedKind>();
  private readonly coreCache = new CelRuleCache();

  constructor(private readonly catalog: CrdCatalog, private readonly options: ConformanceValidatorOptions = {}) {}

  public validate(obj: unknown): ConformanceIssue[] {
    return this.check(obj).issues;
  }

  /** The pruned and defaulted object (throws when no schema applies). */
  public defaulted(obj: unknown): JsonObject {
    const result = this.check(obj);
    if (!result.defaulted) throw new Error(result.issues.map(i => i.message).join('; '));
    return result.defaulted;
  }

  public check(obj: unknown): ConformanceResult {
    const identity = identify(obj);
    const attach = (raw: RawIssue): ConformanceIssue => ({ ...identity, ...raw });
    if (!isJsonObject(obj) || !identity.apiVersion || !identity.kind) {
      return { issues: [attach({ path: '', message: 'an object needs string apiVersion and kind', rule: 'type' })] };
    }
    const resolved = this.resolve(identity.apiVersion, identity.kind);
    if (!resolved) {
      return { issues: [attach({ path: '', message: `no schema for ${identity.apiVersion}/${identity.kind}`, rule: 'schema' })] };
    }
    const raw: RawIssue[] = [];
    const copy = cloneJson(obj);
    validateMetadata(copy, resolved.nameCheck, raw);
    pruneUnknownFields(copy, resolved.schema, '', raw, ROOT_FIELDS);
    applyDefaults(copy, withoutMetadata(resolved.schema));
    validateSchema(copy, withoutMetadata(resolved.schema), '', raw);
    this.runCel(copy, resolved, raw);
    return { issues: raw.map(attach), defaulted: copy };
  }

  /** CEL runs only when the object has no type/enum errors, as in the API server. */
  private runCel(copy: JsonObject, resolved: ResolvedKind, raw: RawIssue[]): void {
    if (resolved.rules.count === 0) return;
    if (raw.some(issue => issue.rule !== undefined && BLOCKING_KEYWORDS.has(issue.rule))) {
      raw.push({ path: '', message: CEL_SKIPPED, rule: 'x-kubernetes-validations' });
      return;
    }
    evaluateSchemaRules(copy, resolved.rules, raw, this.options.celEvaluationErrors ?? 'issue');
  }

  /** CRDs take precedence over the built-in core schemas. */
  private resolve(apiVersion: string, kind: string): ResolvedKind | undefined {
    const crd = this.catalog.lookup(apiVersion, kind);
    if (crd) return { schema: crd.schema, rules: crd.rules, nameCheck: DEFAULT_NAME_CHECK };
    if (this.options.coreKinds === false) return undefined;
    return this.resolveCore(`${apiVersion}/${kind}`);
  }

  private resolveCore(key: string): ResolvedKind | undefined {
    const cached = this.coreRules.get(key);
    if (cached) return cached;
    const core = CORE_KINDS[key];
    if (!core) return undefined;
    const resolved = { schema: core.schema, rules: SchemaRules.compile(core.schema, this.coreCache, key), nameCheck: core.nameCheck };
    this.coreRules.set(key, resolved);
    return resolved;
  }
}

function identify(obj: unknown): { apiVersion: string; kind: string; namespace?: string; name?: string } {
  const o = isJsonObject(obj) ? obj : {};
  const meta = isJsonObject(o.metadata) ? o.metadata : {};
  return {
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '',
    kind: typeof o.kind === 'string' ? o.kind : '',
    ...(typeof meta.namespace === 'string' ? { namespace: meta.namespace } : {}),
    ...(typeof meta.name === 'string' ? { name: meta.name } : {}),
  };
}

/** ObjectMeta is validated with its own schema, whatever the kind's schema says about `metadata`. */
function validateMetadata(copy: JsonObject, nameCheck: NameCheck, raw: RawIssue[]): void {
  if (copy.metadata !== undefined) {
    pruneUnknownFields(copy.metadata, OBJECT_META_SCHEMA, 'metadata', raw);
    validateSchema(copy.metadata, OBJECT_META_SCHEMA, 'metadata', raw);
  }
  validateObjectMetaRules(copy.metadata, nameCheck, raw);
}

const strippedSchemas = new WeakMap<JsonSchema, JsonSchema>();

/** The root schema minus its `metadata` node (validated separately above). Cached per schema. */
function withoutMetadata(schema: JsonSchema): JsonSchema {
  let stripped = strippedSchemas.get(schema);
  if (!stripped) {
    const { metadata: _metadata, ...properties } = schema.properties ?? {};
    stripped = schema.properties?.metadata ? { ...schema, properties } : schema;
    strippedSchemas.set(schema, stripped);
  }
  return stripped;
}
