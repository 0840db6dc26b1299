/**
 * Construction-time certificate checks for the identity constructs. The analysis lives in the engine's cert-helpers so
 * a construct and `cdk8s-linkerd check` on YAML say the same thing under the same rule ID.
 */
import { IConstruct } from 'constructs';
import {
  ParsedCertificate, ValidityState, anchorAlgorithmProblem, chainProblems, issuerAlgorithmProblems,
  outlivesAnchorProblem, parseCertificateBundle, validityProblem,
} from '../../core/certificates';
import { InputRule, check } from '../../core/errors';

export const CertRule = {
  CHAIN: 'LKD-CERT-001',
  ALGORITHM: 'LKD-CERT-002',
  VALIDITY: 'LKD-CERT-003',
  LIFETIME: 'LKD-CERT-004',
  PRIVATE_KEY: 'LKD-CERT-005',
} as const;

const DEFAULT_EXPIRY_WARNING_DAYS = 60;
/** Lines already printed, per App (the construct root): a second App in the same process prints its own warnings. */
const printedByApp = new WeakMap<object, Set<string>>();

/** Parses a PEM bundle that must hold at least one certificate and nothing else. */
export function requireCertificates(scope: IConstruct, pem: unknown, what: string): ParsedCertificate[] {
  check(typeof pem === 'string' && pem.trim() !== '', scope, InputRule.REQUIRED, `${what} is empty.`, `Pass the PEM text of ${what}.`);
  const bundle = parseCertificateBundle(pem);
  check(bundle.problems.length === 0, scope, CertRule.CHAIN, `${what} ${bundle.problems.join('; ')}.`,
    `Pass only PEM certificates (-----BEGIN CERTIFICATE-----) in ${what}.`);
  return bundle.certificates;
}

/**
 * An issuer certificate, with the intermediates that may follow it (leaf first, as linkerd-identity reads them:
 * pkg/tls/cred.go DecodePEMCrt keeps the rest as the issuer's trust chain and sends it to the proxies).
 */
export function requireIssuerChain(scope: IConstruct, pem: unknown, what: string): { issuer: ParsedCertificate; intermediates: ParsedCertificate[] } {
  const [issuer, ...intermediates] = requireCertificates(scope, pem, what);
  return { issuer, intermediates };
}

export function checkAnchorAlgorithms(scope: IConstruct, anchors: ParsedCertificate[]): void {
  const problems = anchors.map(anchorAlgorithmProblem).filter((p): p is string => p !== undefined);
  check(problems.length === 0, scope, CertRule.ALGORITHM, `${problems.join('; ')}.`,
    'Generate the anchor with an ECDSA P-256 key (e.g. `step certificate create root.linkerd.cluster.local ca.crt ca.key --profile root-ca --kty EC --crv P-256`).');
}

export function checkIssuerAlgorithm(scope: IConstruct, issuer: ParsedCertificate): void {
  const problems = issuerAlgorithmProblems(issuer);
  check(problems.length === 0, scope, CertRule.ALGORITHM, `${problems.join('; ')}.`,
    'Issue the issuer with an ECDSA P-256 key, signed with SHA-256 (e.g. `step certificate create ... --profile intermediate-ca --kty EC --crv P-256`).');
}

export function checkChain(
  scope: IConstruct, issuer: ParsedCertificate, anchors: ParsedCertificate[], intermediates: ParsedCertificate[] = [],
): void {
  const problems = chainProblems(issuer, anchors, intermediates);
  check(problems.length === 0, scope, CertRule.CHAIN, `${problems.join('; ')}.`,
    'Use an intermediate CA (basicConstraints CA:TRUE) signed by a certificate in the trust-anchor bundle.');
}

/** Settings of the expiry check, with their defaults resolved. */
export interface ExpiryPolicy {
  readonly warningDays: number;
  readonly failOnWarning: boolean;
  readonly now: Date;
}

export function expiryPolicy(scope: IConstruct, warningDays: number | undefined, failOnWarning: boolean | undefined): ExpiryPolicy {
  const days = warningDays ?? DEFAULT_EXPIRY_WARNING_DAYS;
  check(Number.isInteger(days) && days >= 0, scope, InputRule.RANGE, `expiryWarningDays ${days} is not a whole, non-negative number.`,
    'Pass a number of days such as 60.');
  return { warningDays: days, failOnWarning: failOnWarning ?? false, now: new Date() };
}

/** Errors for expired / not-yet-valid certificates; "expires soon" is a synth warning, or an error on request. */
export function checkValidity(scope: IConstruct, certificates: Array<[ParsedCertificate, string]>, policy: ExpiryPolicy): void {
  for (const [cert, role] of certificates) {
    const problem = validityProblem(cert, role, policy.now, policy.warningDays);
    if (!problem) continue;
    if (problem.state !== ValidityState.EXPIRING) {
      check(false, scope, CertRule.VALIDITY, `${problem.message}.`, problem.state === ValidityState.EXPIRED
        ? 'Issue a new certificate; for an expired trust anchor follow Linkerd\'s "replacing expired certificates" guide.'
        : 'Check the clocks of the machine that issued it, or wait until it is valid.');
    }
    check(!policy.failOnWarning, scope, CertRule.VALIDITY, `${problem.message}.`,
      'Rotate the certificate now, or lower expiryWarningDays / unset failOnExpiryWarning.');
    warnAtSynth(scope, CertRule.VALIDITY, `${problem.message}; rotate it before it expires.`);
  }
}

export function warnIfIssuerOutlivesAnchors(scope: IConstruct, issuer: ParsedCertificate, anchors: ParsedCertificate[]): void {
  const problem = outlivesAnchorProblem(issuer, anchors);
  if (problem) warnAtSynth(scope, CertRule.LIFETIME, `${problem}. Rotate the trust anchor before then, or issue a shorter-lived issuer.`);
}

/**
 * cdk8s has no warning channel, so warnings are printed when the App validates (i.e. at `cdk8s synth`), once per
 * message and App, the way MeshChecks prints the engine's warnings.
 */
export function warnAtSynth(scope: IConstruct, ruleId: string, message: string): void {
  const line = `warning: ${ruleId} at ${scope.node.path || '<root>'}: ${message}`;
  scope.node.addValidation({
    validate: () => {
      const root = scope.node.root;
      const printed = printedByApp.get(root) ?? new Set<string>();
      printedByApp.set(root, printed);
      if (!printed.has(line)) {
        printed.add(line);
        process.stderr.write(`${line}\n`);
      }
      return [];
    },
  });
}
