/**
 * Runtime checks at the public entry points. jsii users (Python, Java, Go, C#) lose the TypeScript types: they can pass
 * `None`, a number for a string, a dict for a class, a list with a hole. Without these checks such input either ends in
 * a TypeError from inside the library or, worse, in a manifest that looks fine and means something else (a nameless
 * backendRef, an empty pod selector). Each validator refuses with the coded message (construct path, ID, fix).
 */
import { Construct, IConstruct } from 'constructs';
import { InputRule, fail } from './errors';
import { isDnsSubdomain } from './names';

/** What a value is, in words a user of any jsii language recognises. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined (None/null)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : `the number ${value}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`;
  if (typeof value === 'object') return `an object of type ${(value as object).constructor?.name ?? 'Object'}`;
  return `a ${typeof value}`;
}

/** True for a props object (a struct): a plain object, not null, not a list. */
export function isStruct(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A required props struct (constructor props, options of a static method). */
export function requireStruct(scope: IConstruct, value: unknown, what: string): Record<string, any> {
  if (!isStruct(value)) {
    fail(scope, InputRule.REQUIRED,
      `${what} must be an object, but is ${describeValue(value)}.`,
      `Pass ${what} with its required fields.`);
  }
  return value;
}

/** An optional struct: undefined, or an object. */
export function optionalStruct(scope: IConstruct, value: unknown, what: string): Record<string, any> | undefined {
  if (!(value === undefined || isStruct(value))) {
    fail(scope, InputRule.REQUIRED,
      `${what} must be an object when given, but is ${describeValue(value)}.`,
      `Pass ${what} as an object, or omit it.`);
  }
  return value as Record<string, any> | undefined;
}

/** A required string (not empty). */
export function requireString(scope: IConstruct, value: unknown, what: string): string {
  if (!(typeof value === 'string' && value.length > 0)) {
    fail(scope, InputRule.REQUIRED,
      `${what} must be a non-empty string, but is ${describeValue(value)}.`,
      `Pass ${what} as a string.`);
  }
  return value;
}

/** An optional string (may be empty). */
export function optionalString(scope: IConstruct, value: unknown, what: string): string | undefined {
  if (!(value === undefined || typeof value === 'string')) {
    fail(scope, InputRule.REQUIRED,
      `${what} must be a string when given, but is ${describeValue(value)}.`,
      `Pass ${what} as a string, or omit it.`);
  }
  return value as string | undefined;
}

/** An optional boolean. */
export function optionalBoolean(scope: IConstruct, value: unknown, what: string): boolean | undefined {
  if (!(value === undefined || typeof value === 'boolean')) {
    fail(scope, InputRule.REQUIRED,
      `${what} must be true or false, but is ${describeValue(value)}.`,
      `Pass a boolean for ${what}, or omit it.`);
  }
  return value as boolean | undefined;
}

/** An optional whole number within [min, max]. */
export function optionalInteger(scope: IConstruct, value: unknown, what: string, min: number, max: number): number | undefined {
  if (!(value === undefined || (Number.isInteger(value) && (value as number) >= min && (value as number) <= max))) {
    fail(scope, InputRule.RANGE,
      `${what} must be a whole number from ${min} to ${max}, but is ${describeValue(value)}.`,
      `Pass an integer between ${min} and ${max}.`);
  }
  return value as number | undefined;
}

/**
 * An optional list whose every item passes `item` (a list with a hole — `[None]` — or a dict instead of a list is
 * refused here, before anything reads the items).
 */
export function optionalList<T>(scope: IConstruct, value: unknown, what: string, item: (v: unknown) => boolean, expected: string): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    fail(scope, InputRule.REQUIRED,
      `${what} must be a list, but is ${describeValue(value)}.`,
      `Pass ${what} as a list of ${expected}.`);
  }
  const bad = value.findIndex((v) => !item(v));
  if (bad >= 0) {
    fail(scope, InputRule.REQUIRED,
      `${what}[${bad}] is ${describeValue(value[bad])}, not ${expected}.`,
      `Pass only ${expected} in ${what} (no empty entries).`);
  }
  return value as T[];
}

/** Like optionalList, but the list must be given (it may be empty). */
export function requireList<T>(scope: IConstruct, value: unknown, what: string, item: (v: unknown) => boolean, expected: string): T[] {
  if (value === undefined) {
    fail(scope, InputRule.REQUIRED,
      `${what} is required.`,
      `Pass ${what} as a list of ${expected}.`);
  }
  return optionalList<T>(scope, value, what, item, expected)!;
}

/** A class, whatever its constructor's visibility (the library's value classes have private constructors). */
type ClassOf<T> = { readonly prototype: T; readonly name: string };

/** A value that must be an instance made by the library's own factories (e.g. `ServerPort.number(8080)`). */
export function requireInstance<T>(scope: IConstruct, value: unknown, type: ClassOf<T>, what: string, fix: string): T {
  if (!(value instanceof (type as any))) {
    fail(scope, InputRule.REQUIRED,
      `${what} must be a ${type.name}, but is ${describeValue(value)}.`,
      fix);
  }
  return value as T;
}

/**
 * For a static method handed something other than the construct it builds under (e.g. `ServerAccess.allow()` given
 * `Server.fromServerName(...)`): there is no construct path to name, so the error is reported at the root and names
 * the call instead.
 */
const NO_SCOPE = { node: { path: '' } } as unknown as IConstruct;

export function requireConstructArgument<T>(value: unknown, type: ClassOf<T>, call: string, fix: string): T {
  if (!(value instanceof (type as any))) {
    fail(NO_SCOPE, InputRule.REQUIRED,
      `${call} needs a ${type.name} construct of this app, but was given ${describeValue(value)}${isNamed(value) ? ` (named ${JSON.stringify(value.name)}: a reference, not a construct)` : ''}.`,
      fix);
  }
  return value as T;
}

/** Like requireConstructArgument, for any construct (constructs' own symbol test, so copies of the library agree). */
export function requireAnyConstruct(value: unknown, call: string, fix: string): IConstruct {
  if (!Construct.isConstruct(value)) {
    fail(NO_SCOPE, InputRule.REQUIRED,
      `${call} needs a construct, but was given ${describeValue(value)}.`,
      fix);
  }
  return value as IConstruct;
}

/** True for something that can stand for a named object: an object whose `name` is a string (e.g. an IServiceAccount). */
export function isNamed(value: unknown): value is { readonly name: string } {
  return typeof value === 'object' && value !== null && typeof (value as any).name === 'string';
}

/** A reference to a named object (IServiceAccount, IServer, …), with a valid Kubernetes name. */
export function requireNamed(scope: IConstruct, value: unknown, what: string, fix: string): { readonly name: string; readonly namespace?: string } {
  const name = isNamed(value) ? value.name : undefined;
  if (!(name !== undefined && isDnsSubdomain(name))) {
    fail(scope, InputRule.NAME,
      `${what} must be an object with a valid Kubernetes name, but ${name === undefined ? `is ${describeValue(value)}` : `its name is ${JSON.stringify(name)}`}.`,
      fix);
  }
  return value as { readonly name: string };
}

/** What cdk8s-plus gives an imported ServiceAccount imported without `namespaceName`. */
const IMPORT_DEFAULT_NAMESPACE = 'default';

/**
 * The namespace of a cdk8s-plus object: its metadata's, or, for an imported ServiceAccount
 * (`ServiceAccount.fromServiceAccountName`, which has no metadata), the `namespaceName` it was imported with, read as
 * cdk8s-plus gives it to RBAC bindings (`toSubjectConfiguration`). cdk8s-plus answers "default" when none was given,
 * which cannot be told from an explicit "default": that one is left out, so the reference keeps meaning the namespace
 * of the object it is written into. Undefined when there is none.
 */
export function namespaceOf(value: unknown): string | undefined {
  const v = value as any;
  const namespace = v?.metadata?.namespace;
  if (typeof namespace === 'string') return namespace;
  if (v?.metadata === undefined && typeof v?.toSubjectConfiguration === 'function') {
    const imported = v.toSubjectConfiguration()?.namespace;
    return typeof imported === 'string' && imported !== IMPORT_DEFAULT_NAMESPACE ? imported : undefined;
  }
  return undefined;
}

/** A value of a string enum (jsii enums arrive as their string values). */
export function requireEnum<T extends string>(scope: IConstruct, value: unknown, allowed: Record<string, T>, what: string, ruleId: string): T {
  const values = Object.values(allowed);
  if (!values.includes(value as T)) {
    fail(scope, ruleId,
      `${what} ${describeValue(value)} is not one of ${values.join(', ')}.`,
      `Use a value of the ${what} enum.`);
  }
  return value as T;
}

// ---- label and annotation syntax (Kubernetes apimachinery validation) ----------------------------------------------

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
/** Kubernetes limits the total size of an object's annotations (keys plus values) to 256 KiB. */
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/** Why `key` is not a Kubernetes label/annotation key (`[prefix/]name`), or undefined. */
export function qualifiedKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && !(prefix.length > 0 && isDnsSubdomain(prefix))) return 'has a prefix that is not a lower-case DNS subdomain';
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) {
    return 'has a name part that is not 1..63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit';
  }
  return undefined;
}

/** Labels (`metadata.labels`, a selector's matchLabels): keys and values in Kubernetes syntax. */
export function validateLabels(scope: IConstruct, labels: unknown, what: string): Record<string, string> | undefined {
  if (labels === undefined) return undefined;
  if (!isStruct(labels)) {
    fail(scope, InputRule.NAME,
      `${what} must be a map of strings, but is ${describeValue(labels)}.`,
      `Pass ${what} as { key: "value" }.`);
  }
  for (const [key, value] of Object.entries(labels)) {
    const problem = qualifiedKeyProblem(key);
    if (problem !== undefined) {
      fail(scope, InputRule.NAME,
        `${what} key ${JSON.stringify(key)} ${problem}.`,
        'Use keys such as "app.kubernetes.io/name": an optional DNS prefix and "/", then at most 63 letters, digits, "-", "_", ".".');
    }
    if (!(typeof value === 'string' && value.length <= 63 && LABEL_VALUE.test(value))) {
      fail(scope, InputRule.NAME,
        `${what} ${key} has value ${describeValue(value)}, which is not a label value.`,
        'Use a string of at most 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit (or empty).');
    }
  }
  return labels as Record<string, string>;
}

/** Annotations: keys in Kubernetes syntax, values strings (a number would be written unquoted and refused by the API server). */
export function validateAnnotations(scope: IConstruct, annotations: unknown, what: string): Record<string, string> | undefined {
  if (annotations === undefined) return undefined;
  if (!isStruct(annotations)) {
    fail(scope, InputRule.NAME,
      `${what} must be a map of strings, but is ${describeValue(annotations)}.`,
      `Pass ${what} as { key: "value" }.`);
  }
  let bytes = 0;
  for (const [key, value] of Object.entries(annotations)) {
    const problem = qualifiedKeyProblem(key);
    if (problem !== undefined) {
      fail(scope, InputRule.NAME,
        `${what} key ${JSON.stringify(key)} ${problem}.`,
        'Use keys such as "example.com/owner": an optional DNS prefix and "/", then at most 63 letters, digits, "-", "_", ".".');
    }
    if (!(typeof value === 'string')) {
      fail(scope, InputRule.NAME,
        `${what} ${key} has value ${describeValue(value)}; annotation values are strings.`,
        'Quote the value (e.g. "3", "true").');
    }
    bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
  }
  if (bytes > MAX_ANNOTATIONS_BYTES) {
    fail(scope, InputRule.RANGE,
      `${what} take ${bytes} bytes; Kubernetes allows 262144 in total.`,
      'Move large data into a ConfigMap.');
  }
  return annotations as Record<string, string>;
}
