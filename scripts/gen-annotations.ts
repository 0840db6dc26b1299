/**
 * Writes src/core/linkerd-annotations.generated.ts from linkerd2's pkg/k8s/labels.go at the pinned tag (read in place
 * from ../shared/reference, never copied): every constant whose value is a Kubernetes label/annotation key, with its Go
 * name, its prefix family, the labels.go section it sits in, and whether its comment marks it deprecated.
 * `npx projen gen-annotations` regenerates it; test/core/linkerd-annotations.test.ts fails when the committed file is stale.
 */
import * as fs from 'fs';
import * as path from 'path';

/** One key-shaped constant of labels.go. */
export interface GoKeyConstant {
  readonly goName: string;
  readonly key: string;
  /** The part before the `/`: config.linkerd.io, config.alpha.linkerd.io, linkerd.io, mirror.linkerd.io, ... */
  readonly prefix: string;
  /** The `/* ... *\/` heading of the block the constant is declared in (Labels, Annotations, ...). */
  readonly section: string;
  /** The Go name the `Deprecated: use X instead` comment names, when there is one. */
  readonly replacedBy?: string;
  readonly deprecated: boolean;
}

export const LABELS_GO_SOURCE = path.join('reference', 'linkerd', 'version-2.20', 'pkg-k8s-labels.go');
export const GENERATED_TARGET = path.join('src', 'core', 'linkerd-annotations.generated.ts');

/** A DNS-subdomain prefix, a slash and a qualified name: the shape of every label and annotation key. */
const KEY_SHAPE = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+)\/([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;
const ASSIGNMENT = /^([A-Z][A-Za-z0-9_]*)\s*=\s*(.+?)\s*$/;
const DEPRECATED = /Deprecated:\s*use\s+([A-Za-z0-9_]+)/;

/** Evaluates `Ident + "literal" + ...` against the constants declared so far; undefined for anything else. */
function evaluate(expression: string, known: Map<string, string>): string | undefined {
  let value = '';
  for (const term of expression.split('+').map((t) => t.trim())) {
    const literal = /^"((?:[^"\\]|\\.)*)"$/.exec(term);
    if (literal) value += literal[1];
    else if (known.has(term)) value += known.get(term);
    else return undefined;
  }
  return value;
}

interface RawConstant {
  readonly goName: string;
  readonly value: string;
  readonly section: string;
  readonly comment: string;
}

/** The string constants of the `const ( ... )` blocks, in declaration order. */
export function parseGoConstants(source: string): RawConstant[] {
  const known = new Map<string, string>();
  const out: RawConstant[] = [];
  let inConst = false;
  let inBlockComment = false;
  let blockComment: string[] = [];
  let section = '';
  let comment: string[] = [];
  for (const rawLine of source.split('\n')) {
    const line = rawLine.trim();
    if (!inConst) {
      if (line === 'const (') inConst = true;
      continue;
    }
    if (inBlockComment) {
      if (line.endsWith('*/')) {
        inBlockComment = false;
        const heading = blockComment.map((l) => l.replace(/^\*\s?/, '').trim()).filter((l) => l !== '').join(' ');
        if (heading !== '') section = heading;
      } else {
        blockComment.push(line);
      }
      continue;
    }
    if (line === ')') {
      inConst = false;
      continue;
    }
    if (line.startsWith('/*')) {
      inBlockComment = !line.endsWith('*/') || line === '/*';
      blockComment = [];
      continue;
    }
    if (line.startsWith('//')) {
      comment.push(line.slice(2).trim());
      continue;
    }
    const assignment = ASSIGNMENT.exec(line);
    if (assignment) {
      const value = evaluate(assignment[2], known);
      if (value !== undefined) {
        known.set(assignment[1], value);
        out.push({ goName: assignment[1], value, section, comment: comment.join(' ') });
      }
    }
    comment = [];
  }
  return out;
}

/** The key-shaped constants: what a label or annotation map can hold. */
export function keyConstants(source: string): GoKeyConstant[] {
  const out: GoKeyConstant[] = [];
  for (const c of parseGoConstants(source)) {
    const shape = KEY_SHAPE.exec(c.value);
    if (!shape) continue;
    const replacedBy = DEPRECATED.exec(c.comment)?.[1];
    out.push({
      goName: c.goName,
      key: c.value,
      prefix: shape[1],
      section: c.section,
      deprecated: /(^|\s)Deprecated:/.test(c.comment),
      ...(replacedBy ? { replacedBy } : {}),
    });
  }
  return out;
}

/** The bare-domain constants other keys are built from (Prefix, ProxyConfigAnnotationsPrefix, ...). */
export function prefixConstants(source: string): Array<{ goName: string; prefix: string }> {
  return parseGoConstants(source)
    .filter((c) => /Prefix[A-Za-z]*$/.test(c.goName) && /^[a-z0-9.-]+\.[a-z]+$/.test(c.value))
    .map((c) => ({ goName: c.goName, prefix: c.value }));
}

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The generated module's text. */
export function renderAnnotationsModule(source: string): string {
  const keys = keyConstants(source);
  const prefixes = prefixConstants(source);
  const lines: string[] = [
    '// Generated by scripts/gen-annotations.ts (`npx projen gen-annotations`) from linkerd2 pkg/k8s/labels.go at tag',
    '// version-2.20 (read from ../shared/reference/linkerd/version-2.20/pkg-k8s-labels.go). Do not edit by hand.',
    '',
    '/** One label or annotation key constant of linkerd2 pkg/k8s/labels.go. */',
    'export interface LinkerdKeyConstant {',
    '  /** The Go constant name in package k8s. */',
    '  readonly goName: string;',
    '  readonly key: string;',
    '  /** The prefix family: the part before the slash. */',
    '  readonly prefix: string;',
    '  /** The labels.go section heading the constant is declared under. */',
    '  readonly section: string;',
    '  /** True when its labels.go comment says Deprecated. */',
    '  readonly deprecated: boolean;',
    '  /** The Go name of the constant that replaces a deprecated one. */',
    '  readonly replacedBy?: string;',
    '}',
    '',
    '/** The prefixes labels.go builds keys from, by Go name. */',
    'export const LABELS_GO_PREFIXES = {',
    ...prefixes.map((p) => `  ${p.goName}: ${q(p.prefix)},`),
    '} as const;',
    '',
    '/** Every key constant of labels.go, by Go name. */',
    'export const LABELS_GO = {',
    ...keys.map((k) => `  ${k.goName}: ${q(k.key)},`),
    '} as const;',
    '',
    '/** The Go name of a labels.go key constant. */',
    'export type LabelsGoName = keyof typeof LABELS_GO;',
    '',
    '/** Every key constant of labels.go with its family, section and deprecation, in declaration order. */',
    'export const LABELS_GO_KEYS: readonly LinkerdKeyConstant[] = [',
    ...keys.map((k) => {
      const parts = [`goName: ${q(k.goName)}`, `key: ${q(k.key)}`, `prefix: ${q(k.prefix)}`, `section: ${q(k.section)}`,
        `deprecated: ${k.deprecated}`];
      if (k.replacedBy) parts.push(`replacedBy: ${q(k.replacedBy)}`);
      return `  { ${parts.join(', ')} },`;
    }),
    '];',
    '',
  ];
  return lines.join('\n');
}

function main(): void {
  const shared = process.env.CDK8S_LINKERD_SHARED ?? path.resolve(__dirname, '..', '..', 'shared');
  const input = path.join(shared, LABELS_GO_SOURCE);
  const target = path.resolve(__dirname, '..', GENERATED_TARGET);
  fs.writeFileSync(target, renderAnnotationsModule(fs.readFileSync(input, 'utf8')));
  process.stdout.write(`wrote ${path.relative(process.cwd(), target)} from ${input}\n`);
}

if (require.main === module) main();
