/** One reason the API server would reject an object. */
export interface ConformanceIssue {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
  /** Where the problem is, in the API server's notation, e.g. `spec.rules[0].backendRefs[1].port`. */
  readonly path: string;
  readonly message: string;
  /** The CEL rule text, or the schema keyword (`required`, `pattern`, `unknown field` …) that failed. */
  readonly rule?: string;
}

/** An issue before the object identity (apiVersion/kind/name) is attached. */
export interface RawIssue {
  readonly path: string;
  readonly message: string;
  readonly rule?: string;
}

/**
 * Thrown when the harness itself cannot do its job (a rule that does not compile, a CEL function
 * the harness does not provide, a rule that fails to evaluate). It is never turned into a
 * "valid" verdict, so a gap in the harness cannot make a broken object look correct.
 */
export class ConformanceHarnessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformanceHarnessError';
  }
}

/** Paths are built the way the API server prints them: `a.b[2].c`, map keys as `labels[app]`. */
export function fieldPath(parent: string, field: string): string {
  return parent === '' ? field : `${parent}.${field}`;
}

export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

export function keyPath(parent: string, key: string): string {
  return `${parent}[${key}]`;
}

/** Short, bounded rendering of a value for error messages. */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
