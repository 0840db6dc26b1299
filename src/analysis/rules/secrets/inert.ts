/**
 * What the secret scan rules out without looking further: strings and mapping keys that can hold nothing it reports,
 * and a pass that proves a whole object holds only such (most objects: names, numbers, labels, prose), so that only
 * the others are walked with paths, frames and a set of shared nodes (scan.ts).
 */
import { MIN_KEY_BASE64, mayHoldEncodedKey } from './encoded-keys';
import { isCredentialKey, mayHoldSecret } from './patterns';

/** kubeconfig fields holding base64 (`client-key-data`, `certificate-authority-data`) end so. */
export const BASE64_FIELD = '-data';

/** Keys of Helm values written as a YAML string (Argo CD `helm.values`, HelmChart `valuesContent`). */
export const VALUES_KEY = /^values(content)?$/i;

/** `{name, value}` pairs (env vars, Helm `set` lists): the name is the key that says what the value is. */
export function pairName(obj: Record<string, unknown>): string | undefined {
  return typeof obj.name === 'string' && typeof obj.value === 'string' ? obj.name : undefined;
}

/**
 * Most strings are names, images, labels and prose: one native search rules them out before any pattern runs. A line
 * break matters only in Helm values written as a YAML string (the scan looks inside those): long prose, such as a
 * CRD's descriptions, is ruled out too.
 */
export function cannotHoldSecret(value: string, key: string | undefined, base64: boolean): boolean {
  return !base64 && !mayHoldSecret(value) && (key === undefined || (!isCredentialKey(key) && !(VALUES_KEY.test(key) && value.includes('\n'))));
}

/**
 * Whether the scan does nothing with `value` under `key` outside a base64 section: cannotHoldSecret rules it out
 * (first: it is the cheaper test, and long prose with line breaks fails it), it is not base64 to decode (no `*-data`
 * key with a long value) and holds no encoded key.
 */
function inertString(value: string, key: string | undefined): boolean {
  if (!cannotHoldSecret(value, key, false)) return false;
  return value.length < MIN_KEY_BASE64 || !((key !== undefined && key.endsWith(BASE64_FIELD)) || mayHoldEncodedKey(value));
}

/** Whether the scan rules a mapping key out without judging it (it then names the key as it is). */
export function inertKey(key: string): boolean {
  return key.length < MIN_KEY_BASE64 && !mayHoldSecret(key);
}

/**
 * How many containers the inert pass looks at before it leaves an object to the walk. It keeps no set of the nodes it
 * has seen (most objects share none), so a YAML alias bomb would make it visit shared nodes again and again: past this
 * many the walk, which looks at each shared node once, takes over, and the scan stays linear. Objects people write
 * stay well below it (a Deployment: about 20 containers; Gateway API's HTTPRoute CRD: about 800).
 */
const INERT_PASS_CONTAINERS = 10_000;

/** The containers the pass has still to look at, and the key each sits under; reused from object to object. */
export interface InertStack {
  readonly containers: object[];
  readonly keys: (string | undefined)[];
}

/**
 * Whether the scan would report and decode nothing in `root`: every mapping key and every string is inert. This pass
 * proves it without a path, a frame or a set entry per node. Strings are judged under the key the walk would give
 * them: their own, the pair's name for a `{name, value}` value, the key a list sits under for its items. `section` is
 * the top-level field whose strings are base64 (Secret `data`, ConfigMap `binaryData`): an object with one is walked.
 */
export function isInert(root: object, section: string | undefined, stack: InertStack): boolean {
  if (section !== undefined && isMapping((root as Record<string, unknown>)[section])) return false;
  const { containers, keys } = stack;
  containers.push(root);
  keys.push(undefined);
  for (let budget = INERT_PASS_CONTAINERS; containers.length > 0; budget--) {
    const value = containers.pop() as object;
    const key = keys.pop();
    if (budget === 0 || !(Array.isArray(value) ? inertItems(stack, value, key) : inertEntries(stack, value as Record<string, unknown>))) {
      // Left empty for the next object (setting an array's length is a runtime call: only when something is left).
      containers.length = 0;
      keys.length = 0;
      return false;
    }
  }
  return true;
}

function isMapping(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Mapping keys repeat across objects (name, image, port …): the inert ones under which a string is judged as if it had
 * no key (not credential-named, not `*-data`, not Helm values) are remembered, so most entries cost one set lookup.
 */
const plainKeys = new Set<string>();

function isPlainKey(key: string): boolean {
  if (plainKeys.has(key)) return true;
  const plain = inertKey(key) && !isCredentialKey(key) && !key.endsWith(BASE64_FIELD) && !VALUES_KEY.test(key);
  if (plain && plainKeys.size < 10_000) plainKeys.add(key);
  return plain;
}

/** A list's items, judged under the key the list sits under; its containers are left on the stack. */
function inertItems(stack: InertStack, list: unknown[], key: string | undefined): boolean {
  const under = key === undefined || isPlainKey(key) ? undefined : key;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item === 'string') {
      if (!inertString(item, under)) return false;
    } else if (typeof item === 'object' && item !== null) {
      stack.containers.push(item);
      stack.keys.push(key);
    }
  }
  return true;
}

/** A mapping's keys and values, each value under its key (or the pair's name); its containers are left on the stack. */
function inertEntries(stack: InertStack, obj: Record<string, unknown>): boolean {
  for (const k in obj) {
    const plain = isPlainKey(k);
    if (!plain && !inertKey(k)) return false;
    const item = obj[k];
    if (typeof item === 'string') {
      // `{name, value}`: the value is judged under the name (pairName, without looking the value up again).
      const name = k === 'value' && typeof obj.name === 'string' ? obj.name : k;
      if (!inertString(item, plain && name === k ? undefined : name)) return false;
    } else if (typeof item === 'object' && item !== null) {
      stack.containers.push(item);
      stack.keys.push(k);
    }
  }
  return true;
}
