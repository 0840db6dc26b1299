/**
 * A fast reader for the block-style YAML that cdk8s, kubectl, Helm and PyYAML write: block mappings and sequences,
 * plain and one-line quoted scalars, literal block scalars, empty flow collections, anchors and aliases. It reads
 * line by line instead of character by character, about twice as fast as js-yaml on manifests.
 *
 * It is only a fast path. The first thing outside that subset (a tag, a flow collection with content, a multi-line
 * plain or quoted scalar, a folded scalar, a merge key, a tab, a CR, a duplicate key, anything js-yaml would refuse)
 * makes it give up on the whole text, and the caller reads the text with js-yaml instead. What it returns is what
 * js-yaml returns with the same schema (YAML 1.2 core plus merge keys), with the same document lines and YAML 1.1
 * readings as the js-yaml listener in load-manifests.ts: test/frontends/block-yaml.test.ts holds it to that on every
 * manifest in the repository and ../shared, and on generated and mutated texts.
 */
import * as yaml from 'js-yaml';
import { yaml11Reading } from './yaml11';
import { Yaml11Reading } from '../../analysis/model/manifest';

/** What a text's documents are, read by this reader or by js-yaml (load-manifests.ts). */
export interface LoadedDocuments {
  /** The documents that hold something (empty ones, `---` alone or comments only, are left out). */
  readonly docs: unknown[];
  /** 1-based start line of each document. */
  readonly lines: number[];
  /** Scalars YAML 1.1 readers read differently, by document index. */
  readonly readings: Map<number, Yaml11Reading[]>;
  /**
   * Set by this reader only: the aliases of each document that has any, by document index (a document missing here
   * has none). js-yaml's result has no such record, so its documents are walked to find out.
   */
  readonly aliases?: Map<number, DocumentAliases>;
}

/** What a document's aliases are, counted while reading: enough to bound its expanded size without walking it. */
export interface DocumentAliases {
  /** Keys of its mappings plus items of its sequences, aliases included, each node counted once however shared. */
  readonly positions: number;
  /** The node each alias stands for, once per alias. */
  readonly targets: unknown[];
}

/** Thrown (one shared object, no stack) when the text leaves the subset; never escapes readBlockYaml. */
const OUTSIDE: unique symbol = Symbol('outside the block subset');

function outside(): never {
  throw OUTSIDE;
}

// js-yaml exports its built-in types at runtime; @types/js-yaml does not declare them.
const TYPES = (yaml as unknown as { types: Record<string, yaml.Type & { resolve(s: string): boolean; construct(s: string): unknown }> }).types;
/** The core schema's implicit types, in js-yaml's order (merge keys, `<<`, are left to js-yaml). */
const IMPLICIT = [TYPES.null, TYPES.bool, TYPES.int, TYPES.float];

/** The same test js-yaml runs on its whole input before reading; a text that fails it is left to js-yaml's error. */
const NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
/** The same characters and every surrogate: one character class, searched faster; only a text it finds is tested again. */
const MAYBE_NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]/;

const SPACE = 0x20;
const HASH = 0x23;
const DASH = 0x2d;
const COLON = 0x3a;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const AMP = 0x26;
const STAR = 0x2a;
const PIPE = 0x7c;
const BACKSLASH = 0x5c;

/** Characters that cannot begin a plain scalar in block context (js-yaml's indicators); `-`, `?`, `:` only before a space. */
function isIndicator(c: number): boolean {
  switch (c) {
    case 0x2c: case 0x5b: case 0x5d: case 0x7b: case 0x7d: // , [ ] { }
    case HASH: case AMP: case STAR: case 0x21: case PIPE: case 0x3e: // # & * ! | >
    case SQUOTE: case DQUOTE: case 0x25: case 0x40: case 0x60: // ' " % @ `
      return true;
    default:
      return false;
  }
}

/** Whether a plain scalar can be something other than a string under the core schema, from its first character. */
function mayResolve(c: number): boolean {
  // digits, + - . ~ and the first letters of null/true/false in any case
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === DASH || c === 0x2e || c === 0x7e
    || c === 0x6e || c === 0x4e || c === 0x74 || c === 0x54 || c === 0x66 || c === 0x46;
}

function resolvePlain(text: string): unknown {
  if (text === '<<') outside();
  if (!mayResolve(text.charCodeAt(0))) return text;
  for (const type of IMPLICIT) if (type.resolve(text)) return type.construct(text);
  return text;
}

/** Sets a key as js-yaml does (`__proto__` as an own property); a duplicate key is js-yaml's error to report. */
function setKey(map: Record<string, unknown>, key: string, value: unknown): void {
  if (Object.prototype.hasOwnProperty.call(map, key)) outside();
  if (key === '__proto__') Object.defineProperty(map, key, { configurable: true, enumerable: true, writable: true, value });
  else map[key] = value;
}

/**
 * The next occurrence of one character at or after a position, remembered: the reader asks in nearly increasing order,
 * so the text is searched about once, natively, instead of character by character in JavaScript (which runs slowly
 * until V8 has optimized it: most inputs are too small for that).
 */
class NextChar {
  private from = Number.MAX_SAFE_INTEGER;
  private found = -1;

  constructor(private readonly text: string, private readonly char: string) {}

  /** The index of the first occurrence at or after `i`, or the text's length when there is none. */
  public at(i: number): number {
    if (i < this.from || (this.found !== -1 && this.found < i)) {
      this.from = i;
      this.found = this.text.indexOf(this.char, i);
    }
    return this.found === -1 ? this.text.length : this.found;
  }
}

/**
 * What recent plain scalars read as, by their text: a repeated key or value (`name`, `namespace`, `TCP`) is compared in
 * place, natively, instead of copied out of the text, resolved and, for keys, looked up among V8's internalized
 * strings again. A small table indexed by length and end characters; a collision only replaces the entry.
 */
class SeenScalars {
  private static readonly SIZE = 1024;
  private readonly texts: (string | undefined)[] = new Array(SeenScalars.SIZE);
  private readonly values: unknown[] = new Array(SeenScalars.SIZE);

  constructor(private readonly text: string) {}

  /** What the text between `start` and `end` read as before, or undefined. */
  public lookup(start: number, end: number): unknown {
    const slot = this.slot(end - start, this.text.charCodeAt(start), this.text.charCodeAt(end - 1));
    const seen = this.texts[slot];
    return seen !== undefined && seen.length === end - start && this.text.startsWith(seen, start) ? this.values[slot] : undefined;
  }

  public remember(text: string, value: unknown): void {
    if (value === undefined || text.length === 0) return;
    const slot = this.slot(text.length, text.charCodeAt(0), text.charCodeAt(text.length - 1));
    this.texts[slot] = text;
    this.values[slot] = value;
  }

  private slot(length: number, first: number, last: number): number {
    return (length * 31 + first * 7 + last) % SeenScalars.SIZE;
  }
}

class Reader {
  /** Start of the current line. */
  private pos = 0;
  /** End of the current line (the index of its newline, or the text's length). */
  private end = 0;
  /** 0-based number of the current line. */
  private line = 0;
  /** Column and index where the current line's content begins (after `- ` for a compact mapping in a sequence item). */
  private indent = 0;
  private content = 0;
  /** The next tab at or after `pos`: a tab outside a block scalar's content leaves the subset. */
  private nextTab: number;
  /** Plain keys and values seen before, without a YAML 1.1 reading (manifests repeat most of them). */
  private readonly keys: SeenScalars;
  private readonly values: SeenScalars;
  private readonly colons: NextChar;
  private readonly hashes: NextChar;
  private readonly anchors = new Map<string, unknown>();
  private docReadings: Yaml11Reading[] = [];
  /** Mapping keys and sequence items of the current document; read only for a document with an alias. */
  private positions = 0;
  private aliasTargets: unknown[] = [];

  constructor(private readonly text: string) {
    this.keys = new SeenScalars(text);
    this.values = new SeenScalars(text);
    this.colons = new NextChar(text, ':');
    this.hashes = new NextChar(text, '#');
    this.nextTab = text.indexOf('\t');
    this.setLine(0);
  }

  read(): LoadedDocuments {
    const docs: unknown[] = [];
    const lines: number[] = [];
    const readings = new Map<number, Yaml11Reading[]>();
    const aliases = new Map<number, DocumentAliases>();
    for (;;) {
      this.skipToContent();
      if (this.atEof()) break;
      if (this.atDocumentStart()) {
        this.nextLine();
        continue;
      }
      const startLine = this.line + 1;
      // Anchors are per document; most documents have none and no reading, so nothing is allocated for them.
      if (this.anchors.size > 0) this.anchors.clear();
      this.positions = 0;
      const doc = this.rootNode();
      this.skipToContent();
      if (!this.atEof() && !this.atDocumentStart()) outside();
      if (this.docReadings.length > 0) {
        readings.set(docs.length, this.docReadings);
        this.docReadings = [];
      }
      if (this.aliasTargets.length > 0) {
        aliases.set(docs.length, { positions: this.positions, targets: this.aliasTargets });
        this.aliasTargets = [];
      }
      docs.push(doc);
      lines.push(startLine);
    }
    return { docs, lines, readings, aliases };
  }

  private setLine(pos: number): void {
    this.pos = pos;
    const nl = this.text.indexOf('\n', pos);
    this.end = nl === -1 ? this.text.length : nl;
    let i = pos;
    while (i < this.end && this.text.charCodeAt(i) === SPACE) i++;
    this.indent = i - pos;
    this.content = i;
  }

  private nextLine(): void {
    this.line++;
    this.setLine(this.end + 1);
  }

  private atEof(): boolean {
    return this.pos >= this.text.length;
  }

  private blank(): boolean {
    return this.content >= this.end || this.text.charCodeAt(this.content) === HASH;
  }

  /** Skips empty and comment-only lines; refuses a tab outside block scalars, directives and `...`. */
  private skipToContent(): void {
    while (!this.atEof()) {
      if (this.nextTab !== -1 && this.nextTab < this.pos) this.nextTab = this.text.indexOf('\t', this.pos);
      if (this.nextTab !== -1 && this.nextTab < this.end) outside();
      if (!this.blank()) {
        if (this.indent === 0) this.checkLineStart();
        return;
      }
      this.nextLine();
    }
  }

  /** Directives and the document end marker are left to js-yaml. */
  private checkLineStart(): void {
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x25 || (c === 0x2e && this.text.startsWith('...', this.pos))) outside();
  }

  /** `---` alone on its line (or followed by a comment) starts a document; `--- value` is left to js-yaml. */
  private atDocumentStart(): boolean {
    if (this.indent !== 0 || !this.text.startsWith('---', this.pos)) return false;
    const after = this.pos + 3;
    if (after >= this.end) return true;
    if (this.text.charCodeAt(after) !== SPACE) return false;
    const rest = this.skipSpaces(after, this.end);
    if (rest < this.end && this.text.charCodeAt(rest) !== HASH) outside();
    return true;
  }

  private skipSpaces(i: number, end: number): number {
    while (i < end && this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  private rootNode(): unknown {
    if (this.isSequenceItem()) return this.sequence(this.indent);
    if (this.keyEnd(this.content) < 0) outside();
    return this.mapping(this.indent);
  }

  private isSequenceItem(): boolean {
    if (this.text.charCodeAt(this.content) !== DASH) return false;
    const next = this.content + 1;
    return next >= this.end || this.text.charCodeAt(next) === SPACE;
  }

  /**
   * Where the key that starts at `i` ends (the index of its `:`), or -1 when the line holds no `key:` there. Plain
   * keys end at the first `:` followed by a space or the line's end; quoted keys at their closing quote.
   */
  private keyEnd(i: number): number {
    const c = this.text.charCodeAt(i);
    if (c === DQUOTE || c === SQUOTE) {
      const close = this.quoteEnd(i);
      const colon = this.skipSpaces(close + 1, this.end);
      return colon < this.end && this.text.charCodeAt(colon) === COLON && this.separated(colon + 1) ? colon : -1;
    }
    if (isIndicator(c) || c === COLON || ((c === DASH || c === 0x3f) && this.separated(i + 1))) return -1;
    const comment = this.commentStart(i);
    for (let j = this.colons.at(i); j < comment; j = this.colons.at(j + 1)) if (this.separated(j + 1)) return j;
    return -1;
  }

  /** Where a comment (` #`) starts on the current line at or after `i`, else the line's end. */
  private commentStart(i: number): number {
    for (let h = this.hashes.at(i); h < this.end; h = this.hashes.at(h + 1)) if (this.text.charCodeAt(h - 1) === SPACE) return h;
    return this.end;
  }

  /** Whether index `i` is the line's end or a space (what must follow a `:` indicator). */
  private separated(i: number): boolean {
    return i >= this.end || this.text.charCodeAt(i) === SPACE;
  }

  /** The index of the closing quote of the quoted scalar opening at `i`, on the same line (else outside the subset). */
  private quoteEnd(i: number): number {
    const quote = this.text.charCodeAt(i);
    for (let j = i + 1; j < this.end; j++) {
      const d = this.text.charCodeAt(j);
      if (quote === DQUOTE && d === BACKSLASH) {
        j++;
        continue;
      }
      if (d !== quote) continue;
      if (quote === SQUOTE && this.text.charCodeAt(j + 1) === SQUOTE) {
        j++;
        continue;
      }
      return j;
    }
    return outside();
  }

  private quoted(open: number, close: number): string {
    const body = this.text.slice(open + 1, close);
    if (this.text.charCodeAt(open) === SQUOTE) return body.includes("''") ? body.replace(/''/g, "'") : body;
    if (!body.includes('\\')) return body;
    // JSON's escapes mean the same in YAML's double-quoted style; the others (\x, \U, \N, \_ ...) are left to js-yaml.
    try {
      return JSON.parse(`"${body}"`) as string;
    } catch {
      return outside();
    }
  }

  private mapping(indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    for (;;) {
      if (this.isSequenceItem()) outside();
      const colon = this.keyEnd(this.content);
      if (colon < 0) outside();
      const key = this.key(this.content, colon);
      const value = this.valueAfter(colon + 1, indent, true);
      setKey(map, key, value);
      this.positions++;
      this.skipToContent();
      if (this.indent > indent && !this.atEof()) outside();
      if (this.atEof() || this.indent < indent || this.atDocumentStart()) return map;
    }
  }

  private key(start: number, colon: number): string {
    const c = this.text.charCodeAt(start);
    if (c === DQUOTE || c === SQUOTE) return this.quoted(start, this.quoteEnd(start));
    let end = colon;
    while (end > start && this.text.charCodeAt(end - 1) === SPACE) end--;
    if (end - start > 1024) outside();
    const known = this.keys.lookup(start, end);
    if (known !== undefined) return known as string;
    const text = this.text.slice(start, end);
    const value = resolvePlain(text);
    const key = String(value);
    if (!this.noteReading(text, value)) this.keys.remember(text, key);
    return key;
  }

  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    for (;;) {
      items.push(this.sequenceItem(indent));
      this.positions++;
      this.skipToContent();
      if (this.indent > indent && !this.atEof()) outside();
      if (this.atEof() || this.indent < indent || this.atDocumentStart() || !this.isSequenceItem()) return items;
    }
  }

  private sequenceItem(indent: number): unknown {
    const after = this.skipSpaces(this.content + 1, this.end);
    if (after >= this.end || this.text.charCodeAt(after) === HASH) return this.nested(indent, false);
    const c = this.text.charCodeAt(after);
    if (c === DASH && this.separated(after + 1)) outside();
    if (c !== AMP && c !== STAR && this.keyEnd(after) >= 0) {
      // `- key: value`: a mapping whose entries line up under `key`.
      this.indent = after - this.pos;
      this.content = after;
      return this.mapping(this.indent);
    }
    return this.valueAfter(this.content + 1, indent, false);
  }

  /**
   * The value after a `:` or `- ` at `from` on the current line, for a node at `indent`. It is on the same line (a
   * scalar, `{}` / `[]`, a block scalar, an alias, with an optional anchor) or, when the line ends there, below it.
   */
  private valueAfter(from: number, indent: number, inMapping: boolean): unknown {
    let i = this.skipSpaces(from, this.end);
    let anchor: string | undefined;
    if (i < this.end && this.text.charCodeAt(i) === AMP) {
      const nameEnd = this.tokenEnd(i + 1);
      anchor = this.text.slice(i + 1, nameEnd);
      if (anchor === '') outside();
      i = this.skipSpaces(nameEnd, this.end);
    }
    let value: unknown;
    if (i >= this.end || this.text.charCodeAt(i) === HASH) {
      value = this.nested(indent, inMapping);
    } else {
      value = this.inlineValue(i, indent, anchor !== undefined);
    }
    if (anchor !== undefined) this.anchors.set(anchor, value);
    return value;
  }

  /** Anchor and alias names run to the next space or flow indicator (`,[]{}`), as js-yaml reads them. */
  private tokenEnd(i: number): number {
    for (; i < this.end; i++) {
      const c = this.text.charCodeAt(i);
      if (c === SPACE || c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) break;
    }
    return i;
  }

  /** The block node on the lines below a key or `-` with nothing after it; null when there is none. */
  private nested(indent: number, inMapping: boolean): unknown {
    this.nextLine();
    this.skipToContent();
    if (this.atEof() || this.atDocumentStart()) return null;
    if (this.indent > indent) {
      if (this.isSequenceItem()) return this.sequence(this.indent);
      return this.mapping(this.indent);
    }
    // A sequence may sit at its key's own indentation (kubectl writes `key:\n- item`).
    if (this.indent === indent && inMapping && this.isSequenceItem()) return this.sequence(indent);
    return null;
  }

  private inlineValue(i: number, indent: number, anchored: boolean): unknown {
    const c = this.text.charCodeAt(i);
    if (c === STAR) {
      if (anchored) outside();
      const nameEnd = this.tokenEnd(i + 1);
      const name = this.text.slice(i + 1, nameEnd);
      if (!this.anchors.has(name)) outside();
      this.endOfValue(nameEnd);
      this.nextLine();
      const target = this.anchors.get(name);
      this.aliasTargets.push(target);
      return target;
    }
    if (c === PIPE) return this.literal(i, indent);
    if (c === DQUOTE || c === SQUOTE) {
      const close = this.quoteEnd(i);
      this.endOfValue(close + 1);
      const value = this.quoted(i, close);
      this.nextLine();
      return value;
    }
    if (c === 0x7b || c === 0x5b) return this.emptyFlow(i);
    return this.plain(i, indent, anchored);
  }

  /** Only spaces and a comment may follow a value on its line. */
  private endOfValue(i: number): void {
    const rest = this.skipSpaces(i, this.end);
    if (rest < this.end && (this.text.charCodeAt(rest) !== HASH || rest === i)) outside();
  }

  /** `{}` or `[]`; a flow collection with content is left to js-yaml. */
  private emptyFlow(i: number): unknown {
    const open = this.text.charCodeAt(i);
    if (this.text.charCodeAt(i + 1) !== (open === 0x7b ? 0x7d : 0x5d)) outside();
    this.endOfValue(i + 2);
    this.nextLine();
    return open === 0x7b ? {} : [];
  }

  private plain(i: number, indent: number, anchored: boolean): unknown {
    const c = this.text.charCodeAt(i);
    if (isIndicator(c) || c === COLON || ((c === DASH || c === 0x3f) && this.separated(i + 1))) outside();
    let end = this.commentStart(i);
    for (let j = this.colons.at(i); j < end; j = this.colons.at(j + 1)) if (this.separated(j + 1)) outside();
    while (end > i && this.text.charCodeAt(end - 1) === SPACE) end--;
    let value = this.values.lookup(i, end);
    if (value === undefined) {
      const text = this.text.slice(i, end);
      value = resolvePlain(text);
      // An anchored scalar has no reading (YAML 1.1 reads `&a 0443` alike), but would have one unanchored.
      if (!this.noteReading(text, value, anchored)) this.values.remember(text, value);
    }
    this.nextLine();
    // A more indented line after a plain scalar continues it (or is an error): both are left to js-yaml.
    this.skipToContentOrComment();
    if (!this.atEof() && this.indent > indent) outside();
    return value;
  }

  /** Like skipToContent, but stops at a comment line too (js-yaml's plain scalars look at the next line, comment or not). */
  private skipToContentOrComment(): void {
    while (!this.atEof() && this.content >= this.end) this.nextLine();
  }

  /** A literal block scalar (`|`, `|-`, `|+`); an explicit indentation indicator is left to js-yaml. */
  private literal(i: number, indent: number): string {
    let j = i + 1;
    const chomp = this.text.charCodeAt(j);
    if (chomp === DASH || chomp === 0x2b) j++;
    this.endOfValue(j);
    const lines: string[] = [];
    let contentIndent = -1;
    let trailingEmpty = 0;
    for (;;) {
      this.nextLine();
      if (this.atEof()) break;
      const empty = this.content >= this.end;
      if (empty) {
        // An empty line with more spaces than the content's indentation keeps some of them: left to js-yaml.
        if (contentIndent < 0 || this.indent > contentIndent) outside();
        trailingEmpty++;
        continue;
      }
      if (contentIndent < 0) {
        if (this.indent <= indent) outside();
        contentIndent = this.indent;
      }
      if (this.indent < contentIndent) break;
      for (; trailingEmpty > 0; trailingEmpty--) lines.push('');
      lines.push(this.text.slice(this.pos + contentIndent, this.end));
    }
    if (contentIndent < 0) outside();
    // The text so far must be tab-free for skipToContent's check; a tab inside the scalar's content is content.
    this.nextTab = this.text.indexOf('\t', this.pos);
    const body = lines.join('\n');
    if (chomp === DASH) return body;
    if (chomp === 0x2b) return `${body}\n${'\n'.repeat(trailingEmpty)}`;
    return `${body}\n`;
  }

  /** Notes the YAML 1.1 reading of a plain scalar (unless anchored); whether it has one. */
  private noteReading(text: string, value: unknown, anchored = false): boolean {
    const reading = yaml11Reading(text, 0, text.length, value, this.line + 1);
    if (reading && !anchored) this.docReadings.push(reading);
    return reading !== undefined;
  }
}

/**
 * The documents of a block-style YAML text, as js-yaml reads them with load-manifests' schema; undefined when the text
 * uses anything outside the subset this reader knows, so the caller reads it with js-yaml.
 */
export function readBlockYaml(text: string): LoadedDocuments | undefined {
  if (text.includes('\r') || (MAYBE_NON_PRINTABLE.test(text) && NON_PRINTABLE.test(text))) return undefined;
  try {
    return new Reader(text).read();
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}
