/**
 * Pure certificate analysis shared by the identity constructs (at construction) and the LKD-CERT rules (on YAML).
 * It mirrors what `linkerd check` and `linkerd-identity` verify (pkg/issuercerts, pkg/identity), using only Node's
 * `crypto.X509Certificate`. Nothing here throws for bad input: problems come back as sentences.
 */
import { X509Certificate, createPrivateKey, createPublicKey } from 'crypto';

/** A certificate parsed from PEM, with what the checks need already read out. */
export interface ParsedCertificate {
  readonly x509: X509Certificate;
  /** Position in its bundle (0-based). */
  readonly position: number;
  /** A short human name: the subject CN, or the whole subject. */
  readonly name: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly isCA: boolean;
  readonly key: KeyDescription;
  /** Name of the signature algorithm (e.g. `ecdsa-with-SHA256`); undefined when the DER could not be read. */
  readonly signatureAlgorithm?: string;
}

export interface KeyDescription {
  /** `ec`, `rsa`, `ed25519`, ... as Node names it. */
  readonly type: string;
  readonly curve?: string;
  readonly bits?: number;
}

export interface CertificateBundle {
  readonly certificates: ParsedCertificate[];
  /** Why parts of the text could not be used. Empty when every block is a parseable certificate. */
  readonly problems: string[];
}

/** The ConfigMap (and trust-manager Bundle) every proxy reads the anchors from, and its key; fixed by the chart. */
export const TRUST_ROOTS_CONFIGMAP = 'linkerd-identity-trust-roots';
export const TRUST_ROOTS_KEY = 'ca-bundle.crt';
/** The Secret linkerd-identity reads the issuer from; fixed by the chart. */
export const ISSUER_SECRET = 'linkerd-identity-issuer';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
/** Any PEM private key: PKCS#8 (`PRIVATE KEY`), SEC1 (`EC PRIVATE KEY`), PKCS#1 (`RSA PRIVATE KEY`), encrypted. */
export const PRIVATE_KEY_PATTERN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
const DAY_MS = 86_400_000;

/** Whether a text carries a PEM private key. */
export function containsPrivateKey(text: string): boolean {
  // Called on every string of every object: a substring search rules out almost all of them before the regex.
  return text.includes('PRIVATE KEY-----') && PRIVATE_KEY_PATTERN.test(text);
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

function commonName(x509: X509Certificate): string {
  const cn = x509.subject.split('\n').find((line) => line.startsWith('CN='));
  return cn ? cn.slice(3) : x509.subject.replace(/\n/g, ', ');
}

function describeKey(x509: X509Certificate): KeyDescription {
  const key = x509.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  return { type: key.asymmetricKeyType ?? 'unknown', curve: details.namedCurve, bits: details.modulusLength };
}

function parseOne(block: string, position: number): ParsedCertificate {
  const x509 = new X509Certificate(block);
  return {
    x509,
    position,
    name: commonName(x509),
    notBefore: new Date(x509.validFrom),
    notAfter: new Date(x509.validTo),
    isCA: x509.ca,
    key: describeKey(x509),
    signatureAlgorithm: signatureAlgorithmOf(x509.raw),
  };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Parses a PEM bundle; every block must be a certificate. */
export function parseCertificateBundle(text: unknown): CertificateBundle {
  if (typeof text !== 'string' || text.trim() === '') return { certificates: [], problems: ['is empty; it must hold at least one PEM certificate'] };
  const certificates: ParsedCertificate[] = [];
  const problems: string[] = [];
  let blocks = 0;
  for (const match of text.matchAll(PEM_BLOCK)) {
    blocks++;
    if (match[1] !== 'CERTIFICATE') {
      problems.push(`block #${blocks} is a "${match[1]}", not a CERTIFICATE`);
      continue;
    }
    try {
      certificates.push(parseOne(match[0], certificates.length));
    } catch (e) {
      problems.push(`certificate #${blocks} does not parse (${errorText(e)})`);
    }
  }
  if (blocks === 0) problems.push('holds no PEM block (-----BEGIN CERTIFICATE-----)');
  return { certificates, problems };
}

/** One PEM block as Go's pem.Decode finds it: BEGIN at the start or after a newline, through its END line's line ending. */
const GO_PEM_BLOCK = /(?:^|\n)-----BEGIN ([^\n]*?)-----[ \t\r]*\n[\s\S]*?\n-----END \1-----[ \t\r]*(?:\n|$)/;

/**
 * What linkerd-identity's reader of the trust anchors fails on, or undefined: pkg/tls/codec.go DecodePEMCertificates
 * decodes blocks while any text is left, and text after the last block's line ending (a comment, a blank line) is "not
 * a PEM certificate", so identity exits ("Failed to read trust anchors"). Text before or between blocks is skipped.
 */
export function trailingTextProblem(text: string): string | undefined {
  let rest = text;
  let blocks = 0;
  while (rest.length > 0) {
    const match = GO_PEM_BLOCK.exec(rest);
    if (!match) {
      if (blocks === 0) return undefined; // no block at all: parseCertificateBundle says so
      const shown = rest.length > 40 ? `${rest.slice(0, 40)}…` : rest;
      return `has text after its last certificate (${JSON.stringify(shown)}), which linkerd-identity's PEM reader (pkg/tls `
        + 'DecodePEMCertificates) fails on as "not a PEM certificate": identity exits with "Failed to read trust anchors"';
    }
    blocks++;
    rest = rest.slice(match.index + match[0].length);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Signature algorithm: Node 20's X509Certificate does not expose it, so read the one OID from the DER.

const SIGNATURE_OIDS: Record<string, string> = {
  '2a8648ce3d040302': 'ecdsa-with-SHA256',
  '2a8648ce3d040303': 'ecdsa-with-SHA384',
  '2a8648ce3d040304': 'ecdsa-with-SHA512',
  '2a864886f70d010105': 'sha1WithRSAEncryption',
  '2a864886f70d01010a': 'RSASSA-PSS',
  '2a864886f70d01010b': 'sha256WithRSAEncryption',
  '2a864886f70d01010c': 'sha384WithRSAEncryption',
  '2a864886f70d01010d': 'sha512WithRSAEncryption',
  '2b6570': 'Ed25519',
};

interface Tlv { readonly tag: number; readonly start: number; readonly end: number }

function readTlv(der: Buffer, offset: number): Tlv {
  const tag = der[offset];
  let length = der[offset + 1];
  let start = offset + 2;
  // DER long form: the high bit of the first length byte says how many length bytes follow.
  if (length >= 0x80) {
    const octets = length - 0x80;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + der[start + i];
    start += octets;
  }
  if (tag === undefined || start + length > der.length) throw new Error('truncated DER');
  return { tag, start, end: start + length };
}

/** Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm SEQUENCE { OID, ... }, signature }. */
export function signatureAlgorithmOf(der: Buffer): string | undefined {
  try {
    const certificate = readTlv(der, 0);
    const tbs = readTlv(der, certificate.start);
    const algorithm = readTlv(der, tbs.end);
    const oid = readTlv(der, algorithm.start);
    if (oid.tag !== 0x06) return undefined;
    const hex = der.subarray(oid.start, oid.end).toString('hex');
    return SIGNATURE_OIDS[hex] ?? `OID ${hex}`;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Algorithms (linkerd check "certificate config is valid" / pkg/issuercerts CheckCertAlgoRequirements)

function keyText(key: KeyDescription): string {
  if (key.type === 'ec') return `ECDSA ${key.curve ?? 'unknown curve'}`;
  if (key.type === 'rsa') return `RSA ${key.bits ?? '?'}`;
  return key.type;
}

function isP256(key: KeyDescription): boolean {
  return key.type === 'ec' && key.curve === 'prime256v1';
}

function isAcceptedRsa(key: KeyDescription): boolean {
  return key.type === 'rsa' && (key.bits === 2048 || key.bits === 4096);
}

/**
 * Why a trust anchor's key or signature is not one Linkerd accepts, if it is not: ECDSA P-256 signed with ECDSA-SHA256
 * (or SHA256-RSA), or RSA 2048/4096 signed with SHA256-RSA (checkECDSACertRequirements, checkRSACertRequirements).
 */
export function anchorAlgorithmProblem(anchor: ParsedCertificate): string | undefined {
  if (!isP256(anchor.key) && !isAcceptedRsa(anchor.key)) {
    return `trust anchor "${anchor.name}" has a ${keyText(anchor.key)} key; Linkerd accepts ECDSA P-256 or RSA 2048/4096 anchors`;
  }
  const sig = anchor.signatureAlgorithm;
  const accepted = isP256(anchor.key) ? ['ecdsa-with-SHA256', 'sha256WithRSAEncryption'] : ['sha256WithRSAEncryption'];
  if (sig === undefined || accepted.includes(sig)) return undefined;
  return `trust anchor "${anchor.name}" (${keyText(anchor.key)}) is signed with ${sig}; Linkerd accepts ${isP256(anchor.key) ? 'ECDSA-SHA256 (or SHA256-RSA)' : 'SHA256-RSA'} there`;
}

/** Why an issuer's key or signature is not one Linkerd accepts, if it is not. */
export function issuerAlgorithmProblems(issuer: ParsedCertificate): string[] {
  const problems: string[] = [];
  if (!isP256(issuer.key)) {
    problems.push(`issuer "${issuer.name}" has a ${keyText(issuer.key)} key; linkerd-identity signs workload certificates with ECDSA P-256 only`);
  }
  const sig = issuer.signatureAlgorithm;
  if (sig !== undefined && sig !== 'ecdsa-with-SHA256' && sig !== 'sha256WithRSAEncryption') {
    problems.push(`issuer "${issuer.name}" is signed with ${sig}; Linkerd accepts ECDSA-SHA256 (or SHA256-RSA from an RSA anchor)`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Chain (linkerd-identity at load: the issuer must be an intermediate CA that verifies against the anchors)

function signedBy(cert: ParsedCertificate, anchor: ParsedCertificate): boolean {
  try {
    return cert.x509.checkIssued(anchor.x509) && cert.x509.verify(anchor.x509.publicKey);
  } catch {
    return false;
  }
}

/**
 * Whether two CA certificates stand for the same signer: the same subject and the same public key (an anchor renewed
 * with its key). A certificate one signed verifies against the other, since the proxy (rustls/webpki) matches an issuer
 * by subject name and checks the signature with its key.
 */
export function sameSigner(a: ParsedCertificate, b: ParsedCertificate): boolean {
  if (a.x509.fingerprint256 === b.x509.fingerprint256) return true;
  if (a.x509.subject !== b.x509.subject) return false;
  const spki = (c: ParsedCertificate) => c.x509.publicKey.export({ type: 'spki', format: 'der' });
  return spki(a).equals(spki(b));
}

/** The anchors in the bundle that signed `cert` (name chaining and a valid signature). */
export function signersOf(cert: ParsedCertificate, anchors: ParsedCertificate[]): ParsedCertificate[] {
  return anchors.filter((anchor) => signedBy(cert, anchor));
}

/** Go's x509 path building allows no longer chains than this; a cycle among the intermediates ends here too. */
const MAX_CHAIN = 8;

/**
 * Whether `cert` verifies against an anchor, directly or through `intermediates` (the certificates after the issuer in
 * its PEM, which linkerd-identity reads as its trust chain: pkg/tls/cred.go DecodePEMCrt, Crt.Verify).
 */
export function chainsToAnchor(cert: ParsedCertificate, anchors: ParsedCertificate[], intermediates: ParsedCertificate[] = [], depth = 0): boolean {
  if (signersOf(cert, anchors).length > 0) return true;
  if (depth >= MAX_CHAIN) return false;
  return intermediates.some((next) => next !== cert && next.isCA && signedBy(cert, next) && chainsToAnchor(next, anchors, intermediates, depth + 1));
}

/**
 * Why the issuer cannot work with these anchors: not a CA, or verifying against none of them (directly or through the
 * intermediates that follow it in its PEM).
 */
export function chainProblems(issuer: ParsedCertificate, anchors: ParsedCertificate[], intermediates: ParsedCertificate[] = []): string[] {
  const problems: string[] = [];
  if (!issuer.isCA) {
    problems.push(`issuer "${issuer.name}" is not a CA (basicConstraints CA:TRUE is missing); linkerd-identity refuses it: it "must be an intermediate-CA"`);
  }
  if (anchors.length > 0 && !chainsToAnchor(issuer, anchors, intermediates)) {
    problems.push(`issuer "${issuer.name}" (issued by "${issuerName(issuer)}") is not signed by any of the ${anchors.length} trust anchor(s) `
      + `(${anchors.map((a) => `"${a.name}"`).join(', ')}); linkerd-identity will not start and proxies will reject its certificates`);
  }
  return problems;
}

function issuerName(cert: ParsedCertificate): string {
  const cn = cert.x509.issuer.split('\n').find((line) => line.startsWith('CN='));
  return cn ? cn.slice(3) : cert.x509.issuer.replace(/\n/g, ', ');
}

// ---------------------------------------------------------------------------------------------------------------
// Validity (linkerd check: expired or not yet valid is fatal, fewer than N days left is a warning)

export enum ValidityState {
  NOT_YET_VALID = 'not-yet-valid',
  EXPIRED = 'expired',
  EXPIRING = 'expiring',
}

export interface ValidityProblem {
  readonly state: ValidityState;
  readonly message: string;
}

function isoDay(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Days of validity left at `now`, rounded down. */
export function daysLeft(cert: ParsedCertificate, now: Date): number {
  return Math.floor((cert.notAfter.getTime() - now.getTime()) / DAY_MS);
}

/** Whether `cert` is usable at `now`, and whether it has fewer than `warningDays` left. `role` names it in the message. */
export function validityProblem(cert: ParsedCertificate, role: string, now: Date, warningDays: number): ValidityProblem | undefined {
  if (now < cert.notBefore) {
    return { state: ValidityState.NOT_YET_VALID, message: `${role} "${cert.name}" is not valid before ${isoDay(cert.notBefore)}` };
  }
  if (now > cert.notAfter) {
    return { state: ValidityState.EXPIRED, message: `${role} "${cert.name}" expired at ${isoDay(cert.notAfter)}` };
  }
  const left = daysLeft(cert, now);
  if (left < warningDays) {
    return { state: ValidityState.EXPIRING, message: `${role} "${cert.name}" expires at ${isoDay(cert.notAfter)}, in ${left} day(s) (fewer than ${warningDays})` };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Lifetimes and rotation

/**
 * Why the issuer's lifetime is a trap, if it is: it outlives the anchor(s) it chains to, so it keeps being used after
 * the anchor expires and every workload certificate it signs is then untrusted.
 */
export function outlivesAnchorProblem(issuer: ParsedCertificate, anchors: ParsedCertificate[]): string | undefined {
  const signers = signersOf(issuer, anchors);
  const relevant = signers.length > 0 ? signers : anchors;
  if (relevant.length === 0) return undefined;
  const latest = relevant.reduce((a, b) => (a.notAfter >= b.notAfter ? a : b));
  if (issuer.notAfter <= latest.notAfter) return undefined;
  return `issuer "${issuer.name}" is valid until ${isoDay(issuer.notAfter)}, after its trust anchor "${latest.name}" expires `
    + `(${isoDay(latest.notAfter)}); from then on proxies reject every certificate it issues`;
}

/**
 * Why a multi-anchor bundle looks like a rotation left half-way, if it does: the issuer is still signed by an older
 * anchor while a newer one is in the bundle (switch the issuer before removing the old anchor).
 */
export function unfinishedRotationProblem(issuer: ParsedCertificate, anchors: ParsedCertificate[]): string | undefined {
  const distinct = uniqueCertificates(anchors);
  if (distinct.length < 2) return undefined;
  const signers = signersOf(issuer, distinct);
  if (signers.length === 0) return undefined;
  const newest = distinct.reduce((a, b) => (a.notBefore >= b.notBefore ? a : b));
  if (signers.some((s) => sameCertificate(s, newest))) return undefined;
  return `the bundle holds ${distinct.length} anchors but issuer "${issuer.name}" is signed by an older one ("${signers[0].name}"), `
    + `not the newest ("${newest.name}"); a trust-anchor rotation is unfinished: switch the issuer before removing the old anchor`;
}

export function sameCertificate(a: ParsedCertificate, b: ParsedCertificate): boolean {
  return a.x509.fingerprint256 === b.x509.fingerprint256;
}

/** Whether `keyPem` is the private key of `cert`. Returns a problem sentence when it is not or cannot be read. */
export function keyMismatchProblem(keyPem: string, cert: ParsedCertificate): string | undefined {
  try {
    const derived = createPublicKey(createPrivateKey(keyPem)).export({ type: 'spki', format: 'der' });
    const actual = cert.x509.publicKey.export({ type: 'spki', format: 'der' });
    return derived.equals(actual) ? undefined : `the private key does not belong to issuer "${cert.name}"`;
  } catch (e) {
    return `the private key does not parse (${errorText(e)})`;
  }
}

/** The certificates without duplicates (same fingerprint), first occurrence kept. */
export function uniqueCertificates(certificates: ParsedCertificate[]): ParsedCertificate[] {
  const seen = new Set<string>();
  return certificates.filter((cert) => {
    if (seen.has(cert.x509.fingerprint256)) return false;
    seen.add(cert.x509.fingerprint256);
    return true;
  });
}

/** Concatenates certificates into a PEM bundle, without duplicates, in the given order. */
export function bundlePem(certificates: ParsedCertificate[]): string {
  return `${uniqueCertificates(certificates).map((cert) => cert.x509.toString().trim()).join('\n')}\n`;
}
