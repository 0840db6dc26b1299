/**
 * The HTTP syntax Linkerd's policy controller parses route fields with (the Rust `http` crate 1.x, locked by linkerd2
 * at version-2.20): `HeaderName::from_str` and `HeaderValue::from_str`. Pure; shared by the route constructs (at
 * construction) and the admission model (on YAML).
 */

/** An HTTP token (RFC 9110): what `HeaderName::from_str` accepts, in either case (it lower-cases). */
const TOKEN = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/;
/** The http crate's limit on a header name (`MAX_HEADER_NAME_LEN`). */
const MAX_HEADER_NAME_BYTES = 65535;
/** What `HeaderValue::from_str` refuses: control characters other than tab, and DEL (its `is_valid`). */
const INVALID_VALUE_CHARS = /[\x00-\x08\x0a-\x1f\x7f]/;

/** Why `name` is not an HTTP header name, or undefined. */
export function headerNameError(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return 'is empty';
  if (!TOKEN.test(name)) return 'is not an HTTP token (letters, digits and !#$%&\'*+-.^_`|~ only; no spaces or colons)';
  // A token is ASCII, so its length is its byte count.
  if (name.length > MAX_HEADER_NAME_BYTES) return 'is longer than 65535 bytes';
  return undefined;
}

/** Why `value` is not an HTTP header value, or undefined. Non-ASCII text is accepted (as opaque bytes). */
export function headerValueError(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'is not a string';
  if (INVALID_VALUE_CHARS.test(value)) return 'contains a control character (a newline, carriage return, NUL, ...)';
  return undefined;
}

/** True for the absolute paths Linkerd's route matches and redirect filters require (they start with `/`). */
export function isAbsolutePath(path: unknown): boolean {
  return typeof path === 'string' && path.startsWith('/');
}
