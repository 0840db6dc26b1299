/**
 * Reads YAML files and folders into engine manifests, each remembering its file and the line its document starts on.
 * Shared by the CLI and the cdk8s-cli plugin, so both report the same `file:line` for the same object.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { InputError } from './errors';
import { KubeObject, Manifest } from '../../analysis/model/manifest';

/** YAML 1.2 core types plus merge keys: timestamps stay strings, as the API server's JSON conversion leaves them. */
// js-yaml exports its built-in types at runtime; @types/js-yaml does not declare them.
const MERGE_TYPE = (yaml as unknown as { types: { merge: yaml.Type } }).types.merge;
const SCHEMA = yaml.CORE_SCHEMA.extend({ implicit: [MERGE_TYPE] });
const YAML_FILE = /\.ya?ml$/i;
export const STDIN = '-';

export interface InputFile {
  /** How reports name the file: relative to the working directory when inside it, else absolute. */
  readonly display: string;
  /** Absolute path, or `-` for stdin. */
  readonly absolute: string;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function displayPath(absolute: string, cwd: string): string {
  const rel = path.relative(cwd, absolute);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : absolute;
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
  ELOOP: 'too many symbolic links',
};

function reason(e: any): string {
  return REASONS[e?.code] ?? e?.code ?? String(e?.message ?? e);
}

function statOrFail(p: string, shown: string): fs.Stats {
  try {
    return fs.statSync(p);
  } catch (e: any) {
    throw new InputError(`${shown}: cannot read (${reason(e)})`);
  }
}

/** Every *.yaml/*.yml below a folder, depth-first in name order; symlink loops are visited once. */
function walk(dir: string, seen: Set<string>, out: string[]): void {
  const real = fs.realpathSync(dir);
  if (seen.has(real)) return;
  seen.add(real);
  let entries: string[];
  try {
    entries = fs.readdirSync(dir).sort(compareText);
  } catch (e: any) {
    throw new InputError(`${dir}: cannot read folder (${reason(e)})`);
  }
  for (const name of entries) {
    const full = path.join(dir, name);
    const stat = statOrFail(full, full);
    if (stat.isDirectory()) walk(full, seen, out);
    else if (stat.isFile() && YAML_FILE.test(name)) out.push(full);
  }
}

/** Resolves PATH arguments to files (explicit files are taken whatever their extension), without duplicates. */
export function collectFiles(paths: readonly string[], cwd: string): InputFile[] {
  const files: InputFile[] = [];
  const seen = new Set<string>();
  const add = (absolute: string, display: string) => {
    if (!seen.has(absolute)) files.push({ absolute, display });
    seen.add(absolute);
  };
  for (const given of paths) {
    if (given === STDIN) {
      add(STDIN, '<stdin>');
      continue;
    }
    const absolute = path.resolve(cwd, given);
    const stat = statOrFail(absolute, given);
    if (!stat.isDirectory()) {
      add(absolute, displayPath(absolute, cwd));
      continue;
    }
    const found: string[] = [];
    walk(absolute, new Set(), found);
    if (found.length === 0) throw new InputError(`${given}: no *.yaml or *.yml files in this folder`);
    for (const file of found) add(file, displayPath(file, cwd));
  }
  return files;
}

export function readInput(file: InputFile): string {
  try {
    return fs.readFileSync(file.absolute === STDIN ? 0 : file.absolute, 'utf8');
  } catch (e: any) {
    throw new InputError(`${file.display}: cannot read (${reason(e)})`);
  }
}

/** Parses all documents and the 1-based line each starts on, counting top-level node opens (one per document). */
function loadWithLines(text: string, file: string): { docs: unknown[]; lines: number[] } {
  const lines: number[] = [];
  let depth = 0;
  const listener = (event: yaml.EventType, state: yaml.State): void => {
    if (event === 'close') {
      depth--;
      return;
    }
    if (depth === 0) lines.push(state.line + 1);
    depth++;
  };
  try {
    return { docs: yaml.loadAll(text, null, { filename: file, schema: SCHEMA, listener }), lines };
  } catch (e: any) {
    if (e instanceof yaml.YAMLException) {
      throw new InputError(`${file}:${(e.mark?.line ?? 0) + 1}: invalid YAML: ${e.reason}`, 'Correct the YAML at that line.');
    }
    throw e;
  }
}

const KUBE_OBJECT_FIX = 'Give one Kubernetes object (apiVersion, kind, metadata) per document, or a v1 List of them.';

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'null' : `a ${typeof value}`;
}

function asKubeObject(value: unknown, where: string): KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`${where}: expected a Kubernetes object, got ${describeValue(value)}`, KUBE_OBJECT_FIX);
  }
  const obj = value as KubeObject;
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
    throw new InputError(`${where}: not a Kubernetes object (apiVersion and kind must be strings)`, KUBE_OBJECT_FIX);
  }
  return obj;
}

/** `kind: List` (what `kubectl get -o yaml` prints) stands for its items. */
function expandList(obj: KubeObject, where: string): KubeObject[] {
  if (obj.apiVersion !== 'v1' || obj.kind !== 'List') return [obj];
  if (!Array.isArray(obj.items)) throw new InputError(`${where}: a v1 List needs an items list`, KUBE_OBJECT_FIX);
  return obj.items.map((item: unknown, i: number) => asKubeObject(item, `${where} (items[${i}])`));
}

/** Aliases may multiply a document's values, but not beyond this (and 10x its distinct values). */
export const MAX_EXPANDED_VALUES = 1_000_000;

/**
 * js-yaml shares an aliased node instead of copying it, so a "billion laughs" document parses in microseconds; but
 * everything that walks or prints it (rules, reports) would visit each alias again, for minutes and gigabytes. Count
 * the expanded size once, with the shared nodes memoized, and refuse documents whose aliases blow it up.
 */
function checkAliasExpansion(doc: unknown, where: string): void {
  const sizes = new Map<object, number>();
  let distinct = 0;
  const size = (value: unknown): number => {
    if (typeof value !== 'object' || value === null) return 1;
    const known = sizes.get(value);
    if (known !== undefined) return known;
    let total = 1;
    for (const child of Object.values(value)) {
      if (typeof child !== 'object' || child === null) distinct++;
      total = Math.min(total + size(child), MAX_EXPANDED_VALUES * 10 + 1);
    }
    distinct++;
    sizes.set(value, total);
    return total;
  };
  const expanded = size(doc);
  if (expanded > MAX_EXPANDED_VALUES && expanded > 10 * distinct) {
    throw new InputError(`${where}: YAML aliases expand this document to more than ${MAX_EXPANDED_VALUES} values `
      + `(from ${distinct} written); refusing to analyze what looks like an alias bomb`, 'Write the document without nested aliases.');
  }
}

/** Manifests of one YAML text; empty documents (`---` alone, comments only) are skipped. */
export function parseManifests(text: string, file: string): Manifest[] {
  const { docs, lines } = loadWithLines(text, file);
  // An alias needs an anchor (`&name`): a text without "&" cannot hold one, so the size walk is skipped.
  const mayHaveAliases = text.includes('&');
  const manifests: Manifest[] = [];
  docs.forEach((doc, i) => {
    if (doc === null || doc === undefined) return;
    const line = lines[i] ?? 1;
    const where = `${file}:${line}`;
    if (mayHaveAliases) checkAliasExpansion(doc, where);
    for (const object of expandList(asKubeObject(doc, where), where)) manifests.push({ object, source: { file, line } });
  });
  return manifests;
}

export function loadManifests(paths: readonly string[], cwd: string): Manifest[] {
  return collectFiles(paths, cwd).flatMap((file) => parseManifests(readInput(file), file.display));
}
