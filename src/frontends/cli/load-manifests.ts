/**
 * Reads YAML and JSON files and folders into engine manifests, each remembering its file and the line its document
 * starts on. Shared by the CLI and the cdk8s-cli plugin, so both report the same `file:line` for the same object.
 * What `kubectl apply -f` reads, this reads the same way: folders' *.yaml, *.yml and *.json files, Lists (typed,
 * nested) unrolled into their items; what it cannot read is refused, saying what the input is and what to do.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { yaml11Reading } from './yaml11';
import { KubeObject, Manifest, Yaml11Reading } from '../../analysis/model/manifest';
import { InputError } from '../../core/input-error';
import { compareStrings } from '../../util/compare';

// js-yaml exports its built-in types at runtime; @types/js-yaml does not declare them.
const TYPES = (yaml as unknown as { types: { merge: yaml.Type; float: yaml.Type & JsYamlType } }).types;

/** The parts of a js-yaml type that a replacement reuses. */
interface JsYamlType {
  readonly resolve: (data: string) => boolean;
  readonly construct: (data: string) => unknown;
  readonly predicate: (data: object) => boolean;
  readonly represent: (data: object, style?: string) => string;
  readonly defaultStyle: string;
}

/**
 * Floats with a sign and a leading dot (`+.2`, `-.5e3`): YAML 1.2's core schema reads them as numbers (and so do
 * kubectl and Helm), js-yaml as strings; without this `retryRatio: +.2` would be analysed as the string "+.2".
 */
const SIGNED_DOT_FLOAT = /^[-+]\.[0-9]+(?:[eE][-+]?[0-9]+)?$/;
/** Every plain scalar that is not a float is tried against this: the second character rules most out without a search. */
function isSignedDotFloat(data: string): boolean {
  return data.charCodeAt(1) === 0x2e && SIGNED_DOT_FLOAT.test(data);
}
const FLOAT_12 = new yaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string) => TYPES.float.resolve(data) || isSignedDotFloat(data),
  construct: (data: string) => (SIGNED_DOT_FLOAT.test(data) ? Number(data) : TYPES.float.construct(data)),
  predicate: TYPES.float.predicate,
  represent: TYPES.float.represent,
  defaultStyle: TYPES.float.defaultStyle,
});

/**
 * YAML 1.2 core types (floats as the 1.2 spec writes them) plus merge keys: timestamps stay strings, as the API
 * server's JSON conversion leaves them.
 */
export const SCHEMA = yaml.CORE_SCHEMA.extend({ implicit: [FLOAT_12, TYPES.merge] });
/** What a folder contributes (JSON is read by the same YAML 1.2 reader, which JSON is a subset of). */
const MANIFEST_FILE = /\.(ya?ml|json)$/i;
export const STDIN = '-';

export interface InputFile {
  /** How reports name the file: relative to the working directory when inside it, else absolute. */
  readonly display: string;
  /** Absolute path, or `-` for stdin. */
  readonly absolute: string;
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

/** Every *.yaml/*.yml/*.json below a folder, depth-first in name order; symlink loops are visited once. */
function walk(dir: string, seen: Set<string>, out: string[]): void {
  const real = fs.realpathSync(dir);
  if (seen.has(real)) return;
  seen.add(real);
  let entries: string[];
  try {
    entries = fs.readdirSync(dir).sort(compareStrings);
  } catch (e: any) {
    throw new InputError(`${dir}: cannot read folder (${reason(e)})`);
  }
  for (const name of entries) {
    const full = path.join(dir, name);
    const stat = statOrFail(full, full);
    if (stat.isDirectory()) walk(full, seen, out);
    else if (stat.isFile() && MANIFEST_FILE.test(name)) out.push(full);
  }
}

/** The file itself, whatever links lead to it: the same file given twice or through a symlink is read once. */
function fileIdentity(absolute: string): string {
  try {
    return fs.realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** Resolves PATH arguments to files (explicit files are taken whatever their extension), without duplicates. */
export function collectFiles(paths: readonly string[], cwd: string): InputFile[] {
  const files: InputFile[] = [];
  const seen = new Set<string>();
  const add = (absolute: string, display: string) => {
    const key = absolute === STDIN ? STDIN : fileIdentity(absolute);
    if (!seen.has(key)) files.push({ absolute, display });
    seen.add(key);
  };
  for (const given of paths) {
    // path.resolve(cwd, '') is cwd: an empty argument (an unset shell variable) would silently analyse the current folder.
    if (given.trim() === '') throw new InputError('an empty PATH was given (an unset variable?); name a file, a folder, or - for stdin');
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
    if (found.length === 0) throw new InputError(`${given}: no *.yaml, *.yml or *.json files in this folder`);
    for (const file of found) add(file, displayPath(file, cwd));
  }
  return files;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** What a file that is not UTF-8 most likely is, from its first bytes; undefined when it may be UTF-8. */
function utf16Kind(bytes: Buffer): string | undefined {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16 (little-endian, with a byte order mark)';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16 (big-endian, with a byte order mark)';
  // Without a BOM, ASCII text in UTF-16 has a NUL in every other byte.
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0) return 'UTF-16 (little-endian)';
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0) return 'UTF-16 (big-endian)';
  return undefined;
}

/** Decodes a file as UTF-8, refusing (saying what the file is and what to do) text that is something else. */
export function decodeText(bytes: Buffer, display: string): string {
  const utf16 = utf16Kind(bytes);
  if (utf16) throw new InputError(`${display}: the file is ${utf16}, not UTF-8; save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)`);
  // Decoding replaces invalid bytes with U+FFFD; only a text holding one is decoded again, strictly (the fast path
  // costs one native search instead of a second decode).
  const text = bytes.toString('utf8');
  if (!text.includes('\uFFFD')) return text;
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new InputError(`${display}: the file is not valid UTF-8 (binary, or another encoding such as Latin-1); save it as UTF-8`);
  }
}

export function readInput(file: InputFile): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file.absolute === STDIN ? 0 : file.absolute);
  } catch (e: any) {
    throw new InputError(`${file.display}: cannot read (${reason(e)})`);
  }
  return decodeText(bytes, file.display);
}

/**
 * A byte order mark may start every document of a stream (`cat a.yaml b.yaml` of files saved by Windows editors), but
 * the YAML reader drops only the stream's first, and the others would become part of a key. Every BOM at a line start
 * goes, keeping line numbers.
 */
function stripByteOrderMarks(text: string): string {
  return text.includes('\uFEFF') ? text.replace(/(^|\n)\uFEFF+/g, '$1') : text;
}

function loadAll(text: string, file: string, listener?: (event: yaml.EventType, state: yaml.State) => void): unknown[] {
  try {
    return yaml.loadAll(text, null, { filename: file, schema: SCHEMA, listener });
  } catch (e: any) {
    if (e instanceof yaml.YAMLException) {
      throw new InputError(`${file}:${(e.mark?.line ?? 0) + 1}: invalid YAML: ${e.reason}`, 'Correct the YAML at that line.');
    }
    throw e;
  }
}

const KUBE_OBJECT_FIX = 'Give one Kubernetes object (apiVersion, kind, metadata) per document, or a List of them.';

function present(doc: unknown): boolean {
  return doc !== null && doc !== undefined;
}

/** What one text holds: its documents, where each starts, and the scalars YAML 1.1 reads differently. */
export interface LoadedDocuments {
  /** The documents that hold something (empty ones, `---` alone or comments only, are left out). */
  readonly docs: unknown[];
  /** 1-based start line of each document. */
  readonly lines: number[];
  /** Scalars YAML 1.1 readers read differently, by document index. */
  readonly readings: Map<number, Yaml11Reading[]>;
}

/**
 * Parses all documents with a listener: the 1-based line each starts on (counting top-level node opens, one per
 * document), and the scalars YAML 1.1 reads differently (a scalar has no children, so the last open is its own). Each
 * reading is appended to its document's list: linear in the number of readings.
 */
export function loadWithListener(text: string, file: string): LoadedDocuments {
  const opens: number[] = [];
  const found = new Map<number, Yaml11Reading[]>();
  let depth = 0;
  let lastOpen = 0;
  // js-yaml closes a scalar in a block sequence twice (once tried as a mapping key): one reading per scalar end.
  let lastReadingEnd = -1;
  const listener = (event: yaml.EventType, state: yaml.State): void => {
    if (event === 'close') {
      depth--;
      if (state.kind === 'scalar' && state.position !== lastReadingEnd) {
        const reading = yaml11Reading(state.input, lastOpen, state.position, state.result, state.line + 1);
        if (reading) {
          lastReadingEnd = state.position;
          const document = opens.length - 1;
          const list = found.get(document);
          if (list) list.push(reading);
          else found.set(document, [reading]);
        }
      }
      return;
    }
    if (depth === 0) opens.push(state.line + 1);
    lastOpen = state.position;
    depth++;
  };
  const all = loadAll(text, file, listener);
  const docs: unknown[] = [];
  const lines: number[] = [];
  const readings = new Map<number, Yaml11Reading[]>();
  all.forEach((doc, i) => {
    if (!present(doc)) return;
    const r = found.get(i);
    if (r) readings.set(docs.length, r);
    docs.push(doc);
    lines.push(opens[i] ?? 1);
  });
  return { docs, lines, readings };
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a map' : `a ${typeof value}`;
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

/** Lists inside Lists deeper than this are refused (kubectl unrolls nesting; nobody writes this deep). */
const MAX_LIST_DEPTH = 16;

/**
 * A document with `items` is a list, whatever its kind (kubectl's unstructured decoder decides by `items` alone): `kind:
 * List`, typed lists (`kind: ServerList`) and lists of lists stand for their items. An item with neither apiVersion nor
 * kind takes the list's apiVersion and its kind without the `List` suffix, as kubectl fills them in.
 */
function expandList(obj: KubeObject, where: string, trail = ''): KubeObject[] {
  const at = trail ? `${where} (${trail})` : where;
  if (obj.items === undefined || obj.items === null) {
    if (obj.apiVersion === 'v1' && obj.kind === 'List') throw new InputError(`${at}: a v1 List needs an items list`, KUBE_OBJECT_FIX);
    return [obj];
  }
  if (!Array.isArray(obj.items)) throw new InputError(`${at}: a ${obj.kind} with items needs items to be a list (got ${describeValue(obj.items)})`);
  if (trail.split('items[').length > MAX_LIST_DEPTH) throw new InputError(`${at}: Lists nested more than ${MAX_LIST_DEPTH} deep`);
  const itemKind = obj.kind.endsWith('List') ? obj.kind.slice(0, -'List'.length) : obj.kind;
  return obj.items.flatMap((item: unknown, i: number) => {
    const itemTrail = `${trail ? `${trail}.` : ''}items[${i}]`;
    const filled = itemKind !== '' && isBareItem(item) ? { apiVersion: obj.apiVersion, kind: itemKind, ...(item as object) } : item;
    return expandList(asKubeObject(filled, `${where} (${itemTrail})`), where, itemTrail);
  });
}

function isBareItem(item: unknown): boolean {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
  const { apiVersion, kind } = item as KubeObject;
  return (apiVersion === undefined || apiVersion === '') && (kind === undefined || kind === '');
}

/** Aliases may multiply a document's values, but not beyond this (and 10x its distinct values). */
export const MAX_EXPANDED_VALUES = 1_000_000;

/**
 * js-yaml shares an aliased node instead of copying it, so a "billion laughs" document parses in microseconds; but
 * everything that walks or prints it (rules, reports) would visit each alias again, for minutes and gigabytes. Count
 * the expanded size once, with the shared nodes memoized, and refuse documents whose aliases blow it up.
 */
function refuseAliasBomb({ expanded, distinct }: Expansion, where: string): void {
  if (expanded > MAX_EXPANDED_VALUES && expanded > 10 * distinct) {
    throw new InputError(`${where}: YAML aliases expand this document to more than ${MAX_EXPANDED_VALUES} values `
      + `(from ${distinct} written); refusing to analyze what looks like an alias bomb`, 'Write the document without nested aliases.');
  }
}

/** Expanded sizes (each node counted at every place it appears), each shared node walked once; capped past the limit. */
class ExpandedSizes {
  /** Nodes written once: each object, and each scalar at each place it is written (as walked, not expanded). */
  distinct = 0;
  private readonly sizes = new Map<object, number>();
  /** The nodes on the path from the document to the node being walked: meeting one again is a cycle. */
  private readonly walking = new Set<object>();

  constructor(private readonly where: string) {}

  of(value: unknown): number {
    if (typeof value !== 'object' || value === null) return 1;
    const known = this.sizes.get(value);
    if (known !== undefined) return known;
    // An alias inside its own anchor's node makes js-yaml return a node that contains itself; kubectl (go-yaml) refuses
    // such a document, and every walk of it would never end.
    if (this.walking.has(value)) {
      throw new InputError(`${this.where}: a YAML alias is used inside the node of its own anchor, so the document contains itself; `
        + 'kubectl refuses it too', 'Write the aliased value out, or anchor a node that does not contain the alias.');
    }
    this.walking.add(value);
    let total = 1;
    for (const child of Object.values(value)) {
      if (typeof child !== 'object' || child === null) this.distinct++;
      total = Math.min(total + this.of(child), MAX_EXPANDED_VALUES * 10 + 1);
    }
    this.walking.delete(value);
    this.distinct++;
    this.sizes.set(value, total);
    return total;
  }
}

/** A document's size with its aliases expanded, and the nodes written for it (see ExpandedSizes.distinct). */
export interface Expansion {
  readonly expanded: number;
  readonly distinct: number;
}

/** A document js-yaml read: walked whole, since nothing says which nodes are shared. */
export function walkedExpansion(doc: unknown, where = 'the document'): Expansion {
  const sizes = new ExpandedSizes(where);
  const expanded = sizes.of(doc);
  return { expanded, distinct: sizes.distinct };
}

/**
 * Whether a document certainly expands to at most MAX_EXPANDED_VALUES values, each counted at every place it appears
 * (for what js-yaml builds, plain objects and dense arrays, exactly as ExpandedSizes counts). Such a document is no alias bomb and contains no cycle (a cycle never stops
 * counting), so the exact walk, with its map of every node, is needed only past the limit. PyYAML anchors every
 * repeated dict (`&id001`), so its documents would otherwise all pay for that map.
 */
function expandsWithinLimit(doc: unknown): boolean {
  const pending: object[] = [];
  let count = countOrPush(doc, pending);
  while (pending.length > 0 && count <= MAX_EXPANDED_VALUES) {
    const value = pending.pop() as Record<string, unknown>;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) count += countOrPush(value[i], pending);
    } else {
      for (const key in value) count += countOrPush(value[key], pending);
    }
  }
  return pending.length === 0 && count <= MAX_EXPANDED_VALUES;
}

/** Counts a value: a scalar is done, a container is left on `pending` for its children. */
function countOrPush(value: unknown, pending: object[]): number {
  if (typeof value === 'object' && value !== null) pending.push(value);
  return 1;
}

/** Manifests of one YAML (or JSON) text; empty documents (`---` alone, comments only) are skipped. */
export function parseManifests(text: string, file: string): Manifest[] {
  // A byte order mark may start any document (see stripByteOrderMarks).
  const { docs, lines, readings } = loadWithListener(stripByteOrderMarks(text), file);
  // An alias needs an anchor (`&name`): a text without "&" cannot hold one, so the size walk is skipped.
  const walkForAliases = text.includes('&');
  const manifests: Manifest[] = [];
  docs.forEach((doc, i) => {
    const line = lines[i] ?? 1;
    const where = `${file}:${line}`;
    if (walkForAliases && !expandsWithinLimit(doc)) refuseAliasBomb(walkedExpansion(doc, where), where);
    const objects = expandList(asKubeObject(doc, where), where);
    // The document's readings go with its first object (a List's items share one document).
    const yaml11Readings = readings.get(i);
    objects.forEach((object, n) => manifests.push({
      object, source: n === 0 && yaml11Readings ? { file, line, yaml11Readings } : { file, line },
    }));
  });
  return manifests;
}

export function loadManifests(paths: readonly string[], cwd: string): Manifest[] {
  return collectFiles(paths, cwd).flatMap((file) => parseManifests(readInput(file), file.display));
}
