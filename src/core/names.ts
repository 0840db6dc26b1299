/** Name formats the API server enforces, checked at construction so the error names the construct. */
import { IConstruct } from 'constructs';
import { InputRule, fail } from './errors';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const PORT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export function isDnsLabel(value: string): boolean {
  return value.length <= 63 && DNS_LABEL.test(value);
}

export function isDnsSubdomain(value: string): boolean {
  return value.length <= 253 && DNS_SUBDOMAIN.test(value);
}

/** Object names (metadata.name) of the kinds this library writes: DNS subdomains. */
export function validateObjectName(scope: IConstruct, name: string, what = 'name'): string {
  if (!(typeof name === 'string' && isDnsSubdomain(name))) {
    fail(scope, InputRule.NAME,
      `${what} ${JSON.stringify(name)} is not a valid Kubernetes name.`,
      'Use lower-case letters, digits, "-" and ".", starting and ending with a letter or digit (at most 253 characters).');
  }
  return name;
}

/** Names that must be DNS labels (namespaces, Services). */
export function validateLabelName(scope: IConstruct, name: string, what = 'name'): string {
  if (!(typeof name === 'string' && isDnsLabel(name))) {
    fail(scope, InputRule.NAME,
      `${what} ${JSON.stringify(name)} is not a valid DNS label.`,
      'Use at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit.');
  }
  return name;
}

/**
 * A Service port's name: a DNS label (≤ 63 characters), which is all Kubernetes asks of it (validateServicePort);
 * unlike a container port's, it may be longer than 15 characters, all digits, or hold "--".
 */
export function validateServicePortName(scope: IConstruct, name: string): string {
  if (!(typeof name === 'string' && isDnsLabel(name))) {
    fail(scope, InputRule.PORT,
      `Service port name ${JSON.stringify(name)} is not a valid DNS label.`,
      'Use at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit (e.g. "http").');
  }
  return name;
}

/** Container port names: IANA service names (≤ 15 characters, at least one letter, no "--"). */
export function validatePortName(scope: IConstruct, name: string): string {
  const ok = typeof name === 'string' && name.length <= 15 && PORT_NAME.test(name) && /[a-z]/.test(name) && !name.includes('--');
  if (!ok) {
    fail(scope, InputRule.PORT,
      `port name ${JSON.stringify(name)} is not a valid port name.`,
      'Use at most 15 lower-case letters, digits and single "-", with at least one letter (e.g. "http").');
  }
  return name;
}

export function validatePortNumber(scope: IConstruct, port: number, what = 'port'): number {
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    // A quoted number ("8080") is the usual cause when the value is in range; say so rather than "outside".
    fail(scope, InputRule.PORT,
      `${what} ${JSON.stringify(port)} ${typeof port === 'number' ? 'is outside 1..65535' : 'is not a number'}.`,
      'Use an integer port between 1 and 65535.');
  }
  return port;
}

export function validateLabelValue(scope: IConstruct, value: string, what: string): string {
  if (!(typeof value === 'string' && value.length <= 63 && LABEL_VALUE.test(value))) {
    fail(scope, InputRule.NAME,
      `${what} ${JSON.stringify(value)} is not a valid label value.`,
      'Use at most 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit.');
  }
  return value;
}
