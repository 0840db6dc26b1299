/**
 * Name and string-format checks, written after the rules in Kubernetes'
 * apimachinery validation helpers (DNS-1123/1035 names, qualified names, label values,
 * IANA service names) and the OpenAPI `format`s the API server checks for CRDs.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const IANA_SVC_NAME_CHARS = /^[-a-z0-9]+$/;
const IANA_SVC_NAME_LETTER = /[a-z]/;

/** Each checker returns the list of problems (empty when the value is fine), like apimachinery does. */
export type NameCheck = (value: string) => string[];

export const isDns1123Label: NameCheck = value => {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(value)) {
    errs.push("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character");
  }
  return errs;
};

export const isDns1123Subdomain: NameCheck = value => {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errs.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character");
  }
  return errs;
};

export const isDns1035Label: NameCheck = value => {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(value)) {
    errs.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character");
  }
  return errs;
};

/** Label and annotation keys: an optional DNS-subdomain prefix, "/", and a ≤63-char name. */
export const isQualifiedName: NameCheck = value => {
  const parts = value.split('/');
  let name = value;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix, rest] = parts;
    name = rest;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDns1123Subdomain(prefix).map(e => `prefix part ${e}`));
  } else if (parts.length > 2) {
    return ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'"];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (name.length > 0 && !QUALIFIED_NAME_PART.test(name)) {
    errs.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
  }
  return errs;
};

export const isLabelValue: NameCheck = value => {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(value)) {
    errs.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
  }
  return errs;
};

/** Port names (RFC 6335 IANA_SVC_NAME): ≤15 chars, lower-case alnum and '-', a letter, no '--', no leading/trailing '-'. */
export const isIanaServiceName: NameCheck = value => {
  const errs: string[] = [];
  if (value.length > 15) errs.push('must be no more than 15 characters');
  if (!IANA_SVC_NAME_CHARS.test(value)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (value.includes('--')) errs.push('must not contain consecutive hyphens');
  if (!IANA_SVC_NAME_LETTER.test(value)) errs.push('must contain at least one letter (a-z)');
  if (value.startsWith('-') || value.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
};

// Go's time.ParseDuration syntax: signed sequence of decimal numbers with units.
const GO_DURATION = /^[-+]?(0|((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))+)$/;
// The OpenAPI "duration" format the API server uses also accepts spelled-out units ("3 days", "1w").
const LOOSE_DURATION = /^(\d+\s*(ns|nanos?|us|µs|micros?|ms|millis?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?)\s*)+$/;
const RFC3339_DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * String formats the API server validates, by name. Formats that are not listed (including the
 * numeric `int32`, `int64`, `float`, `double`) are ignored, as the API server ignores them:
 * they describe storage width, they are not range checks.
 */
const STRING_FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  'date-time': value => RFC3339_DATE_TIME.test(value),
  'datetime': value => RFC3339_DATE_TIME.test(value),
  'date': value => DATE.test(value),
  'duration': value => GO_DURATION.test(value) || LOOSE_DURATION.test(value),
  'uuid': value => UUID.test(value),
  'byte': value => BYTE.test(value),
  'ipv4': value => IPV4.test(value),
  'hostname': value => value.length <= 255 && isDns1123Subdomain(value.toLowerCase()).length === 0,
};

/**
 * Name formats used only by the hand-written core schemas (`core-schemas.ts`). They carry the
 * API server's own name rules; CRDs never use these format names.
 */
const K8S_NAME_FORMATS: Readonly<Record<string, NameCheck>> = {
  'k8s-dns1123-label': isDns1123Label,
  'k8s-dns1123-subdomain': isDns1123Subdomain,
  'k8s-dns1035-label': isDns1035Label,
  'k8s-iana-svc-name': isIanaServiceName,
  'k8s-qualified-name': isQualifiedName,
  'k8s-label-value': isLabelValue,
};

/** Problems with `value` under `format` (empty when it conforms); unknown formats always pass. */
export function formatProblems(format: string, value: string): string[] {
  const nameCheck = K8S_NAME_FORMATS[format];
  if (nameCheck) return nameCheck(value);
  const check = STRING_FORMATS[format];
  return check === undefined || check(value) ? [] : [`must be of format ${format}`];
}
