/**
 * The generator's one description of a construct's props: each node renders as TypeScript and evaluates to the
 * runtime value the rendered code would produce, so what the generator checks in-process is what the code does.
 */

export type Expr =
  | { readonly k: 'lit'; readonly value: unknown }
  | { readonly k: 'ref'; readonly code: string; readonly value: unknown }
  | { readonly k: 'call'; readonly code: string; readonly args: readonly Expr[]; readonly fn: (...args: any[]) => unknown }
  | { readonly k: 'obj'; readonly entries: ReadonlyArray<readonly [string, Expr]> }
  | { readonly k: 'arr'; readonly items: readonly Expr[] };

export const lit = (value: unknown): Expr => ({ k: 'lit', value });
export const ref = (code: string, value: unknown): Expr => ({ k: 'ref', code, value });
export const call = (code: string, fn: (...args: any[]) => unknown, ...args: Expr[]): Expr => ({ k: 'call', code, fn, args });
export const arr = (items: readonly Expr[]): Expr => ({ k: 'arr', items });
/** An object literal; entries whose value is undefined are left out. */
export const obj = (entries: ReadonlyArray<readonly [string, Expr | undefined]>): Expr =>
  ({ k: 'obj', entries: entries.filter((e): e is [string, Expr] => e[1] !== undefined) });

export function evaluate(e: Expr): any {
  switch (e.k) {
    case 'lit': return e.value;
    case 'ref': return e.value;
    case 'call': return e.fn(...e.args.map(evaluate));
    case 'arr': return e.items.map(evaluate);
    case 'obj': return Object.fromEntries(e.entries.map(([key, value]) => [key, evaluate(value)]));
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A single-quoted TypeScript string literal (the style of TypeScript projects' linters). */
export function quote(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

export function propertyKey(key: string): string {
  return IDENTIFIER.test(key) ? key : quote(key);
}

/** Values as TypeScript literals, indented like hand-written code. */
export function renderValue(value: unknown, indent: string): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => renderValue(v, inner));
    const flat = `[${items.join(', ')}]`;
    return flat.length <= 80 && !flat.includes('\n') ? flat : `[\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const parts = entries.map(([key, v]) => `${propertyKey(key)}: ${renderValue(v, inner)}`);
  const flat = `{ ${parts.join(', ')} }`;
  return flat.length <= 80 && !flat.includes('\n') ? flat : `{\n${parts.map((p) => `${inner}${p},`).join('\n')}\n${indent}}`;
}

export function render(e: Expr, indent: string): string {
  const inner = `${indent}  `;
  switch (e.k) {
    case 'lit': return renderValue(e.value, indent);
    case 'ref': return e.code;
    case 'call': return `${e.code}(${e.args.map((a) => render(a, indent)).join(', ')})`;
    case 'arr': {
      const items = e.items.map((i) => render(i, inner));
      const flat = `[${items.join(', ')}]`;
      return flat.length <= 80 && !flat.includes('\n') ? flat : `[\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}]`;
    }
    case 'obj': {
      if (e.entries.length === 0) return '{}';
      const parts = e.entries.map(([key, value]) => `${propertyKey(key)}: ${render(value, inner)}`);
      const flat = `{ ${parts.join(', ')} }`;
      return flat.length <= 80 && !flat.includes('\n') ? flat : `{\n${parts.map((p) => `${inner}${p},`).join('\n')}\n${indent}}`;
    }
  }
}
