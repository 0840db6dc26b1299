/**
 * Walks one object for secrets. Only the PATH and the KIND of a secret are returned, never the value, so reports and
 * CI logs do not repeat the leak. Private keys in plain text (and base64 in Secret data / ConfigMap binaryData) are
 * LKD-CERT-005's and skipped here, so one mistake gives one finding.
 */
import * as yaml from 'js-yaml';
import { MAX_KEY_BASE64, derPrivateKeyKind, looksBase64, mayHoldEncodedKey } from './encoded-keys';
import { decodedPem, isCredentialKey, isReference, mayHoldSecret, namesSecretField, namesSecretObject, tokenKind } from './patterns';
import { containsPrivateKey } from '../../../core/certificates';
import { perIndex } from '../../model/memo';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';

export interface SecretHit {
  /** Where, e.g. `spec.template.spec.containers[0].env[2].value (DB_PASSWORD)`. */
  readonly path: string;
  /** What, e.g. `a GitHub token`. */
  readonly what: string;
}

const MAX_DEPTH = 64;
/** Embedded Helm values are parsed only up to this size (a values string is a few KB; anything bigger is data). */
const MAX_EMBEDDED_YAML = 256 * 1024;

type Segment = string | number;

interface Walk {
  readonly hits: SecretHit[];
  /** Paths of PEM private keys (plain, or base64 in Secret data / ConfigMap binaryData): LKD-CERT-005's findings. */
  readonly privateKeys: string[];
  /** Above 0 while inside Helm values parsed from a string: the string itself was already judged for keys. */
  embedded: number;
  /** How many decodings (base64, a JSON or YAML document in a string) lead to the current value; bounded. */
  decoded: number;
  /** Shared (aliased) nodes are looked at once: a YAML alias bomb stays linear. */
  readonly visited: Set<object>;
  readonly segments: Segment[];
  /**
   * True for External Secrets objects (their `secretKey` / `property` fields name where a secret goes or comes from) and
   * Sealed Secrets, so the key-name heuristic does not apply (token formats still do).
   */
  keyNamesAreReferences: boolean;
  /** The object's API group: some groups name Secret objects in fields that end like a credential (`namesSecretField`). */
  group: string;
}

/**
 * Objects whose credential-named fields hold no credential: External Secrets Operator's describe secrets by reference,
 * and a Sealed Secret's `encryptedData` is ciphertext only its controller can open (bitnami.com SealedSecret).
 */
const REFERENCE_GROUPS = new Set(['external-secrets.io', 'generators.external-secrets.io', 'bitnami.com']);
/** Segments that stand for a decoding step (`\u0000JSON`), rendered as ` (in the JSON)`; the next key starts afresh. */
const DECODED_MARK = '\u0000';

function pathOf(segments: Segment[]): string {
  return segments.map((s, i) => {
    if (typeof s === 'number') return `[${s}]`;
    if (s.startsWith(DECODED_MARK)) return ` (in the ${s.slice(1)}) `;
    const first = i === 0 || (typeof segments[i - 1] === 'string' && (segments[i - 1] as string).startsWith(DECODED_MARK));
    return /^[A-Za-z_][\w]*$/.test(s) ? `${first ? '' : '.'}${s}` : `['${s}']`;
  }).join('');
}

function decodeBase64(value: string): string {
  return Buffer.from(value, 'base64').toString('utf8');
}

/** Decodings nest at most this deep (a kubeconfig in base64 in a last-applied annotation is three). */
const MAX_DECODINGS = 4;
/** kubeconfig fields holding base64 (`client-key-data`, `certificate-authority-data`) end so. */
const BASE64_FIELD = '-data';
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function utf8OrUndefined(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Visits a value reached by one more decoding, under a path segment naming the decoding. */
function visitDecoded(w: Walk, what: string, value: unknown, key: string | undefined, base64: boolean): void {
  w.decoded++;
  w.segments.push(DECODED_MARK + what);
  if (typeof value === 'string') visitString(w, value, key, base64, '');
  else visit(w, value, key, false);
  w.segments.pop();
  w.decoded--;
}

/** A JSON or YAML document written into a string (last-applied-configuration, a kubeconfig in a ConfigMap). */
function nestedDocument(value: string): { what: string; doc: unknown } | undefined {
  if (value.length > MAX_EMBEDDED_YAML) return undefined;
  const start = value.trimStart().charCodeAt(0);
  try {
    if (start === 0x7b || start === 0x5b) return { what: 'JSON', doc: JSON.parse(value) };
    if (!value.includes('\n') || !value.includes(':')) return undefined;
    const doc = yaml.load(value, { schema: yaml.CORE_SCHEMA });
    return typeof doc === 'object' && doc !== null ? { what: 'YAML', doc } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Private keys in what Kubernetes and kubeconfig encode: base64 (Secret data, `*-data` fields) of a PEM, of a DER key
 * without any header, or of a document holding one; a JSON or YAML document in a string. Only strings that could hold
 * key material are decoded, each at most MAX_DECODINGS deep, so the scan stays linear in the text.
 */
function visitEncodings(w: Walk, value: string, base64: boolean): boolean {
  if (w.decoded >= MAX_DECODINGS) return false;
  if (base64) {
    if (!looksBase64(value)) return false;
    const bytes = Buffer.from(value, 'base64');
    const der = derPrivateKeyKind(bytes);
    if (der) {
      w.privateKeys.push(`${pathOf(w.segments)} (base64 of a DER ${der} private key)`);
      return true;
    }
    const text = utf8OrUndefined(bytes);
    // PEM text was judged by the caller; a document inside (a kubeconfig in a Secret) is looked into.
    if (text !== undefined && !containsPrivateKey(text) && mayHoldEncodedKey(text)) {
      const nested = nestedDocument(text);
      if (nested) visitDecoded(w, `base64-decoded ${nested.what}`, nested.doc, undefined, false);
    }
    return false;
  }
  if (looksBase64(value)) {
    const der = value.length <= MAX_KEY_BASE64 ? derPrivateKeyKind(Buffer.from(value, 'base64')) : undefined;
    if (der) w.hits.push({ path: pathOf(w.segments), what: `a base64-encoded private key (DER ${der}, without PEM header)` });
    return der !== undefined;
  }
  if (containsPrivateKey(value) || !mayHoldEncodedKey(value)) return false;
  const nested = nestedDocument(value);
  if (nested) visitDecoded(w, nested.what, nested.doc, undefined, false);
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
  return undefined;
}

/** Helm values written as a YAML string (Argo CD `helm.values`, HelmChart `valuesContent`): look inside too. */
function embeddedYaml(key: string | undefined, value: string): unknown {
  // Cheapest tests first: this runs for every string of every object.
  if (key === undefined || !value.includes('\n') || value.length > MAX_EMBEDDED_YAML || !/^values(content)?$/i.test(key)) return undefined;
  try {
    return yaml.load(value, { schema: yaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
}

/** Most strings are names, images and labels: one native search rules them out before any pattern runs. */
function cannotHoldSecret(value: string, key: string | undefined, base64: boolean): boolean {
  return !base64 && !mayHoldSecret(value) && (key === undefined || !isCredentialKey(key));
}

function visitString(w: Walk, value: string, key: string | undefined, inBase64Section: boolean, label: string): void {
  const base64 = inBase64Section || (key !== undefined && key.endsWith(BASE64_FIELD) && looksBase64(value));
  if (!base64 && value.length >= 60 && mayHoldEncodedKey(value) && visitEncodings(w, value, false)) return;
  if (cannotHoldSecret(value, key, base64)) return;
  if (base64 && visitEncodings(w, value, true)) return;
  if (w.embedded === 0 && (containsPrivateKey(value) || (base64 && containsPrivateKey(decodeBase64(value))))) w.privateKeys.push(pathOf(w.segments));
  const what = classify(value, key, base64, w);
  if (what) w.hits.push({ path: pathOf(w.segments) + label, what });
  const embedded = embeddedYaml(key, value);
  if (embedded !== undefined && typeof embedded === 'object') {
    w.embedded++;
    visit(w, embedded, undefined, false);
    w.embedded--;
  }
}

/** `{name, value}` pairs (env vars, Helm `set` lists): the name is the key that says what the value is. */
function pairName(obj: Record<string, unknown>): string | undefined {
  return typeof obj.name === 'string' && typeof obj.value === 'string' ? obj.name : undefined;
}

function visitObject(w: Walk, obj: Record<string, unknown>, base64Children: boolean): void {
  const pair = pairName(obj);
  for (const k in obj) {
    const child = obj[k];
    w.segments.push(k);
    if (pair !== undefined && k === 'value') visitString(w, child as string, pair, false, ` (${pair})`);
    else visit(w, child, k, base64Children);
    w.segments.pop();
  }
}

function visit(w: Walk, value: unknown, key: string | undefined, base64: boolean): void {
  if (w.segments.length > MAX_DEPTH) return;
  if (typeof value === 'string') {
    visitString(w, value, key, base64, '');
    return;
  }
  if (typeof value !== 'object' || value === null || w.visited.has(value)) return;
  w.visited.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      w.segments.push(i);
      visit(w, value[i], key, false);
      w.segments.pop();
    }
  } else {
    visitObject(w, value as Record<string, unknown>, false);
  }
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
  const w: Walk = { hits: [], privateKeys: [], embedded: 0, decoded: 0, visited: new Set(), segments: [], keyNamesAreReferences: false, group: '' };
  for (const entry of index.objects) {
    if (entry.inventory) continue;
    walkObject(w, entry);
    if (w.hits.length > 0 || w.privateKeys.length > 0) found.set(entry, { secrets: [...w.hits], privateKeys: [...w.privateKeys] });
  }
  return found;
}

/** Walks one object with a reused walk state (reset here), leaving its hits in `w`. */
function walkObject(w: Walk, entry: IndexedObject): void {
  w.hits.length = 0;
  w.privateKeys.length = 0;
  w.visited.clear();
  w.keyNamesAreReferences = REFERENCE_GROUPS.has(entry.group);
  w.group = entry.group;
  const root = entry.object;
  if (typeof root !== 'object' || root === null) return;
  const section = base64Section(entry);
  w.visited.add(root);
  for (const k in root) {
    const child = root[k];
    w.segments.push(k);
    if (k === section && typeof child === 'object' && child !== null && !Array.isArray(child)) {
      w.visited.add(child);
      visitObject(w, child as Record<string, unknown>, true);
    } else {
      visit(w, child, k, false);
    }
    w.segments.pop();
  }
}
