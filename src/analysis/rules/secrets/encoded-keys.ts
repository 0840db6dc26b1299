/**
 * Private keys without their PEM armour: DER (PKCS#8, PKCS#1 RSA, SEC1 EC) as base64, the way `openssl ... -outform
 * DER | base64` or a Secret's `data` holds them. Recognised by the ASN.1 shape first (cheap, no allocation for the
 * usual string) and then confirmed by Node's key parser, so a certificate or a random blob is never called a key.
 */
import { createPrivateKey } from 'crypto';
import { ENCODED_PEM_START } from './patterns';

/** base64 of the smallest DER key (Ed25519 PKCS#8, 48 bytes) is 64 characters; RSA 8192 PKCS#8 is under 7,000. */
export const MIN_KEY_BASE64 = 60;
export const MAX_KEY_BASE64 = 16 * 1024;
const BASE64_TEXT = /^[A-Za-z0-9+/\r\n]+={0,2}\s*$/;
/**
 * A run of base64 long enough to be a key, or the markers of PEM text and of encoded PEM. The run is tried only where
 * one starts (the lookbehind): otherwise every letter of long prose (a CRD's descriptions) starts a new try over the
 * rest of its word, which made this the costliest test of the scan on real charts. The same strings match.
 */
const MAY_HOLD_KEY = new RegExp(['PRIVATE KEY', ENCODED_PEM_START, '(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{60}'].join('|'));

/** Whether a string is (only) base64, at least as long as the smallest key's. */
export function looksBase64(value: string): boolean {
  return value.length >= MIN_KEY_BASE64 && BASE64_TEXT.test(value);
}

/** Whether a string could hold key material in any encoding (the test before any decoding). */
export function mayHoldEncodedKey(value: string): boolean {
  return MAY_HOLD_KEY.test(value);
}

/** DER length at `i`: [length, offset after it], or undefined when not a definite length of at most 3 bytes. */
function derLength(bytes: Buffer, i: number): [number, number] | undefined {
  const first = bytes[i];
  if (first === undefined) return undefined;
  if (first < 0x80) return [first, i + 1];
  const n = first - 0x80;
  if (n < 1 || n > 3 || i + n >= bytes.length) return undefined;
  let length = 0;
  for (let k = 1; k <= n; k++) length = length * 256 + bytes[i + k];
  return [length, i + 1 + n];
}

type DerKind = 'PKCS#8' | 'PKCS#1 RSA' | 'SEC1 EC';

/** The ASN.1 shape: SEQUENCE spanning the buffer, INTEGER version 0 or 1, then what each format has next. */
function derShape(bytes: Buffer): DerKind | undefined {
  if (bytes.length < 40 || bytes[0] !== 0x30) return undefined;
  const outer = derLength(bytes, 1);
  if (!outer || outer[1] + outer[0] !== bytes.length) return undefined;
  const i = outer[1];
  if (bytes[i] !== 0x02 || bytes[i + 1] !== 0x01) return undefined;
  const version = bytes[i + 2];
  const next = bytes[i + 3];
  if ((version === 0 || version === 1) && next === 0x30) return 'PKCS#8';
  if (version === 0 && next === 0x02) return 'PKCS#1 RSA';
  if (version === 1 && next === 0x04) return 'SEC1 EC';
  return undefined;
}

const NODE_TYPE: Record<DerKind, 'pkcs8' | 'pkcs1' | 'sec1'> = { 'PKCS#8': 'pkcs8', 'PKCS#1 RSA': 'pkcs1', 'SEC1 EC': 'sec1' };

/** Which DER private key format `bytes` is, or undefined; nothing of the key is kept or returned. */
export function derPrivateKeyKind(bytes: Buffer): DerKind | undefined {
  const kind = derShape(bytes);
  if (!kind) return undefined;
  try {
    createPrivateKey({ key: bytes, format: 'der', type: NODE_TYPE[kind] });
    return kind;
  } catch {
    return undefined;
  }
}
