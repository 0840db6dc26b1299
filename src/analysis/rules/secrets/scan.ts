/**
 * Walks one object for secrets. Only the PATH and the KIND of a secret are returned, never the value, so reports and
 * CI logs do not repeat the leak. Private keys in plain text (and base64 in Secret data / ConfigMap binaryData) are
 * LKD-CERT-005's and skipped here, so one mistake gives one finding.
 */
import * as yaml from 'js-yaml';
import { MAX_KEY_BASE64, MIN_KEY_BASE64, derPrivateKeyKind, looksBase64, mayHoldEncodedKey } from './encoded-keys';
import { BASE64_FIELD, InertStack, VALUES_KEY, cannotHoldSecret, inertKey, isInert, pairName } from './inert';
import { decodedPem, isCredentialKey, isReference, namesSecretField, namesSecretObject, tokenKind } from './patterns';
import { containsPrivateKey } from '../../../core/certificates';
import { perIndex } from '../../model/memo';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';

export interface SecretHit {
  /** Where, e.g. `spec.template.spec.containers[0].env[2].value (DB_PASSWORD)`. */
  readonly path: string;
  /** What, e.g. `a GitHub token`. */
  readonly what: string;
}

/**
 * What the YAML reader for documents inside strings refuses to nest deeper than (js-yaml's maxDepth): such a document
 * is not looked into, and that is reported (`YAML_TOO_DEEP`), not skipped in silence.
 */
const MAX_YAML_DEPTH = 100;
const YAML_TOO_DEEP = `a YAML document nested more than ${MAX_YAML_DEPTH} levels deep (not looked into; no configuration needs this, `
  + 'and it hides what it holds)';

/** A YAML document in a string: the document, TOO_DEEP when the reader refused its nesting, else undefined. */
const TOO_DEEP = Symbol('too deep');
function loadYaml(value: string): unknown {
  try {
    return yaml.load(value, { schema: yaml.CORE_SCHEMA, maxDepth: MAX_YAML_DEPTH } as yaml.LoadOptions);
  } catch (e) {
    return e instanceof yaml.YAMLException && /maxDepth/.test(e.message) ? TOO_DEEP : undefined;
  }
}

/**
 * A key, an array index, a decoding step (`\u0000JSON`, rendered ` (in the JSON) `) or a mapping key that is itself a
 * secret (`\u0001N`, rendered `<key N>`: the key is never spelled out).
 */
type Segment = string | number;

/** Where a value sits: a chain to the root, built only for containers and decodings (strings are judged in place). */
interface PathNode {
  readonly parent: PathNode | undefined;
  readonly segment: Segment;
}

/** A container or a decoded value still to walk. The walk is iterative: no nesting depth stops it or overflows the stack. */
interface Frame {
  readonly value: unknown;
  /** The key the value sits under, judged with it (a credential-named key makes a literal value a finding). */
  readonly key: string | undefined;
  /** Whether the value's strings are base64 (Secret data, ConfigMap binaryData, a base64 text decoded once more). */
  readonly base64: boolean;
  readonly path: PathNode | undefined;
  /** How many decodings (base64, a JSON or YAML document in a string) lead here; bounded by MAX_DECODINGS. */
  readonly decoded: number;
  /** True inside a document parsed from a string that was itself reported as a private key (one mistake, one finding). */
  readonly keyReported: boolean;
}

interface Walk {
  readonly hits: SecretHit[];
  /** Paths of PEM private keys (plain, or base64 in Secret data / ConfigMap binaryData): LKD-CERT-005's findings. */
  readonly privateKeys: string[];
  /** Shared (aliased) nodes are looked at once: a YAML alias bomb stays linear. */
  readonly visited: Set<object>;
  readonly stack: Frame[];
  /** The inert pass's stack (see isInert). */
  readonly inert: InertStack;
  /**
   * True for External Secrets objects (their `secretKey` / `property` fields name where a secret goes or comes from) and
   * Sealed Secrets, so the key-name heuristic does not apply (token formats still do).
   */
  keyNamesAreReferences: boolean;
  /** The object's API group: some groups name Secret objects in fields that end like a credential (`namesSecretField`). */
  group: string;
  /** The object's top-level field whose own strings are base64 (Secret `data`, ConfigMap `binaryData`). */
  section: string | undefined;
  /** The frame whose strings are being judged, and where the current string sits in it. */
  frame: Frame;
  segment: Segment;
}

/**
 * Objects whose credential-named fields hold no credential: External Secrets Operator's describe secrets by reference,
 * and a Sealed Secret's `encryptedData` is ciphertext only its controller can open (bitnami.com SealedSecret).
 */
const REFERENCE_GROUPS = new Set(['external-secrets.io', 'generators.external-secrets.io', 'bitnami.com']);
const DECODED_MARK = '\u0000';
const SECRET_KEY_MARK = '\u0001';

function segmentsOf(node: PathNode | undefined): Segment[] {
  const segments: Segment[] = [];
  for (let n = node; n !== undefined; n = n.parent) segments.push(n.segment);
  return segments.reverse();
}

function pathOf(node: PathNode | undefined): string {
  const segments = segmentsOf(node);
  return segments.map((s, i) => {
    if (typeof s === 'number') return `[${s}]`;
    if (s.startsWith(DECODED_MARK)) return ` (in the ${s.slice(1)}) `;
    const previous = segments[i - 1];
    const first = i === 0 || (typeof previous === 'string' && previous.startsWith(DECODED_MARK));
    if (s.startsWith(SECRET_KEY_MARK)) return `${first ? '' : '.'}<key ${s.slice(1)}>`;
    return /^[A-Za-z_][\w]*$/.test(s) ? `${first ? '' : '.'}${s}` : `['${s}']`;
  }).join('').trimEnd();
}

/** Where the string being judged sits. */
function here(w: Walk): PathNode {
  return { parent: w.frame.path, segment: w.segment };
}

function decodeBase64(value: string): string {
  return Buffer.from(value, 'base64').toString('utf8');
}

/**
 * Decodings nest at most this deep (a kubeconfig in base64 in a last-applied annotation is three). A value that would
 * need a further decoding there is reported as such (`NESTED_TOO_DEEP`): the scan says where it stopped.
 */
export const MAX_DECODINGS = 4;
const NESTED_TOO_DEEP = `base64 nested more than ${MAX_DECODINGS} levels deep (not decoded further; no configuration needs this, `
  + 'and it hides what it holds)';
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function utf8OrUndefined(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Schedules a value reached by one more decoding, under a path segment naming the decoding. */
function visitDecoded(w: Walk, what: string, value: unknown, base64: boolean): void {
  const { decoded, keyReported } = w.frame;
  w.stack.push({ value, key: undefined, base64, path: { parent: here(w), segment: DECODED_MARK + what }, decoded: decoded + 1, keyReported });
}

/** A JSON or YAML document written into a string (last-applied-configuration, a kubeconfig in a ConfigMap). */
function nestedDocument(w: Walk, value: string): { what: string; doc: unknown } | undefined {
  const start = value.trimStart().charCodeAt(0);
  try {
    if (start === 0x7b || start === 0x5b) return { what: 'JSON', doc: JSON.parse(value) };
  } catch {
    return undefined;
  }
  if (!value.includes('\n') || !value.includes(':')) return undefined;
  const doc = loadYaml(value);
  if (doc === TOO_DEEP) w.hits.push({ path: pathOf(here(w)), what: YAML_TOO_DEEP });
  return typeof doc === 'object' && doc !== null ? { what: 'YAML', doc } : undefined;
}

/**
 * base64 whose text is base64 again (of a key, or of more base64): decoded once more, up to MAX_DECODINGS; past that,
 * reported as hiding what it holds. True when handled (nothing else to judge in `text`).
 */
function visitBase64Again(w: Walk, text: string): boolean {
  const inner = text.trim();
  if (!looksBase64(inner)) return false;
  if (w.frame.decoded + 1 >= MAX_DECODINGS) w.hits.push({ path: pathOf(here(w)), what: NESTED_TOO_DEEP });
  else visitDecoded(w, 'base64-decoded text', inner, true);
  return true;
}

/**
 * Private keys in what Kubernetes and kubeconfig encode: base64 (Secret data, `*-data` fields) of a PEM, of a DER key
 * without any header, of base64 again, or of a document holding one; a JSON or YAML document in a string. Only strings
 * that could hold key material are decoded, each at most MAX_DECODINGS deep, so the scan stays linear in the text.
 */
function visitEncodings(w: Walk, value: string, base64: boolean): boolean {
  if (w.frame.decoded >= MAX_DECODINGS) return false;
  if (base64) {
    if (!looksBase64(value)) return false;
    const bytes = Buffer.from(value, 'base64');
    const der = derPrivateKeyKind(bytes);
    if (der) {
      w.privateKeys.push(`${pathOf(here(w))} (base64 of a DER ${der} private key)`);
      return true;
    }
    const text = utf8OrUndefined(bytes);
    if (text === undefined || containsPrivateKey(text)) return false; // PEM text: judged by the caller
    if (visitBase64Again(w, text)) return true;
    // A document inside (a kubeconfig in a Secret) is looked into.
    if (mayHoldEncodedKey(text)) {
      const nested = nestedDocument(w, text);
      if (nested) visitDecoded(w, `base64-decoded ${nested.what}`, nested.doc, false);
    }
    return false;
  }
  if (looksBase64(value)) {
    const bytes = Buffer.from(value, 'base64');
    const der = value.length <= MAX_KEY_BASE64 ? derPrivateKeyKind(bytes) : undefined;
    if (der) w.hits.push({ path: pathOf(here(w)), what: `a base64-encoded private key (DER ${der}, without PEM header)` });
    if (der) return true;
    const text = utf8OrUndefined(bytes);
    return text !== undefined && visitBase64Again(w, text);
  }
  if (containsPrivateKey(value) || !mayHoldEncodedKey(value)) return false;
  const nested = nestedDocument(w, value);
  if (nested) visitDecoded(w, nested.what, nested.doc, false);
  return false;
}

/** What secret a string is, judged with the key it sits under; undefined when none (or when it is CERT-005's). */
function classify(value: string, key: string | undefined, base64: boolean, w: Walk): string | undefined {
  if (containsPrivateKey(value)) return undefined;
  const text = base64 ? decodeBase64(value) : value;
  if (base64 && containsPrivateKey(text)) return undefined;
  const pem = base64 ? undefined : decodedPem(value);
  if (pem !== undefined && containsPrivateKey(pem)) return 'a base64-encoded private key';
  const token = tokenKind(text);
  if (token) return token;
  if (key === undefined || w.keyNamesAreReferences || !isCredentialKey(key) || isReference(text)) return undefined;
  return namesSecretObject(key, text) || namesSecretField(w.group, key) ? undefined : `a literal value for ${JSON.stringify(key)}`;
}

/** Helm values written as a YAML string: look inside too. */
function embeddedYaml(w: Walk, key: string | undefined, value: string): unknown {
  // Cheapest tests first.
  if (key === undefined || !value.includes('\n') || !VALUES_KEY.test(key)) return undefined;
  const doc = loadYaml(value);
  if (doc === TOO_DEEP) w.hits.push({ path: pathOf(here(w)), what: YAML_TOO_DEEP });
  return doc === TOO_DEEP ? undefined : doc;
}

/** Judges one string at `w.segment` of the current frame; what it holds in encoded form is scheduled on the stack. */
function visitString(w: Walk, value: string, key: string | undefined, inBase64Section: boolean, label: string): void {
  const base64 = inBase64Section || (key !== undefined && key.endsWith(BASE64_FIELD) && looksBase64(value));
  if (!base64 && value.length >= MIN_KEY_BASE64 && mayHoldEncodedKey(value) && visitEncodings(w, value, false)) return;
  if (cannotHoldSecret(value, key, base64)) return;
  if (base64 && visitEncodings(w, value, true)) return;
  const isKey = containsPrivateKey(value) || (base64 && containsPrivateKey(decodeBase64(value)));
  if (isKey && !w.frame.keyReported) w.privateKeys.push(pathOf(here(w)) + label);
  const what = classify(value, key, base64, w);
  if (what) w.hits.push({ path: pathOf(here(w)) + label, what });
  const embedded = embeddedYaml(w, key, value);
  if (embedded !== undefined && typeof embedded === 'object' && embedded !== null) {
    // The values' keys continue the string's path (`spec.source.helm.values.auth.password`).
    const { decoded, keyReported } = w.frame;
    w.stack.push({ value: embedded, key: undefined, base64: false, path: here(w), decoded, keyReported: keyReported || isKey });
  }
}

/**
 * A mapping key is judged like a value without a key name (a PEM key or a token used as a key in Helm values). When it
 * holds a secret, it is named `<key N>` in every path below it, so no report repeats it. Returns the segment to use.
 */
function visitKey(w: Walk, key: string, position: number): Segment {
  if (inertKey(key)) return key; // what visitString would rule out first, without the call
  const found = w.hits.length + w.privateKeys.length;
  w.segment = SECRET_KEY_MARK + String(position + 1);
  visitString(w, key, undefined, false, ' (the key itself)');
  return w.hits.length + w.privateKeys.length > found ? w.segment : key;
}

/** Judges the strings of one container now and schedules its containers (in order) on the stack. */
function visitContainer(w: Walk, frame: Frame): void {
  const value = frame.value;
  if (typeof value === 'string') {
    const at = frame.path!;
    w.frame = { ...frame, path: at.parent };
    w.segment = at.segment;
    visitString(w, value, frame.key, frame.base64, '');
    return;
  }
  if (typeof value !== 'object' || value === null || w.visited.has(value)) return;
  w.visited.add(value);
  w.frame = frame;
  const children: Frame[] = [];
  // At the top of an object, the base64 section's own strings are base64 (Kubernetes allows only strings there).
  const section = frame.path === undefined && frame.decoded === 0 ? w.section : undefined;
  const child = (item: unknown, segment: Segment, key: string | undefined, base64: boolean, label = ''): void => {
    w.segment = segment;
    if (typeof item === 'string') {
      visitString(w, item, key, base64, label);
    } else if (typeof item === 'object' && item !== null) {
      const strings = section !== undefined && segment === section && !Array.isArray(item);
      const { decoded, keyReported } = frame;
      children.push({ value: item, key, base64: strings, path: { parent: frame.path, segment }, decoded, keyReported });
    }
  };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) child(value[i], i, frame.key, false);
  } else {
    const obj = value as Record<string, unknown>;
    const pair = pairName(obj);
    let position = 0;
    for (const k in obj) {
      const segment = visitKey(w, k, position++);
      // A key that is a secret says nothing about its value (a PEM key ends in "PRIVATE KEY-----", like a key name).
      const name = segment === k ? k : undefined;
      if (pair !== undefined && k === 'value') child(obj[k], segment, pair, false, ` (${pair})`);
      else child(obj[k], segment, name, frame.base64);
    }
  }
  for (let i = children.length - 1; i >= 0; i--) w.stack.push(children[i]);
}

/** Walks everything reachable from `root`, however deep, until the stack is empty. */
function walk(w: Walk, root: Frame): void {
  w.stack.push(root);
  for (let frame = w.stack.pop(); frame !== undefined; frame = w.stack.pop()) visitContainer(w, frame);
}

/** The sections whose values are base64 (Secret `data`, ConfigMap `binaryData`). */
function base64Section(entry: IndexedObject): string | undefined {
  if (entry.group !== '') return undefined;
  if (entry.id.kind === 'Secret') return 'data';
  if (entry.id.kind === 'ConfigMap') return 'binaryData';
  return undefined;
}

/** What one walk over an object's strings found. */
export interface ScanResult {
  readonly secrets: SecretHit[];
  readonly privateKeys: string[];
}

/**
 * LKD-SEC-001 and LKD-CERT-005 look at the same strings: every own object is walked once per index, for both, and
 * only the objects with something to report are kept (almost none: no result object per clean object).
 */
export const scanIndex: (index: MeshIndex) => Map<IndexedObject, ScanResult> = perIndex(scanOwnObjects);

/** Objects of this output holding secrets or private keys, in index order, with what each holds. */
function scanOwnObjects(index: MeshIndex): Map<IndexedObject, ScanResult> {
  const found = new Map<IndexedObject, ScanResult>();
  const root: Frame = { value: undefined, key: undefined, base64: false, path: undefined, decoded: 0, keyReported: false };
  const w: Walk = { hits: [], privateKeys: [], visited: new Set(), stack: [], inert: { containers: [], keys: [] }, keyNamesAreReferences: false, group: '', section: undefined, frame: root, segment: '' };
  for (const entry of index.objects) {
    if (entry.inventory) continue;
    walkObject(w, entry);
    if (w.hits.length > 0 || w.privateKeys.length > 0) found.set(entry, { secrets: [...w.hits], privateKeys: [...w.privateKeys] });
  }
  return found;
}

/** Walks one object with a reused walk state (reset here), leaving its hits in `w`. */
function walkObject(w: Walk, entry: IndexedObject): void {
  if (w.hits.length > 0) w.hits.length = 0;
  if (w.privateKeys.length > 0) w.privateKeys.length = 0;
  const root = entry.object;
  if (typeof root !== 'object' || root === null) return;
  w.section = base64Section(entry);
  if (isInert(root, w.section, w.inert)) return;
  // Emptying a set allocates a new table: only when the last walk filled it.
  if (w.visited.size > 0) w.visited.clear();
  w.keyNamesAreReferences = REFERENCE_GROUPS.has(entry.group);
  w.group = entry.group;
  walk(w, { value: root, key: undefined, base64: false, path: undefined, decoded: 0, keyReported: false });
}
