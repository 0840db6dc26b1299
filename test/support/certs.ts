/**
 * Throwaway certificates for the identity tests, generated at run time with the `openssl` binary (Node can parse
 * X.509 but not create it, and no generator library is a dependency). Nothing generated here is ever written into the
 * repository: keys live in a temp dir removed at exit, and each fixture is made once per test file (lazily).
 *
 * `openssl ca` is used for every certificate because it is the one OpenSSL 3.0 command that takes explicit
 * -startdate/-enddate, which the expired and not-yet-valid fixtures need.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface TestCert {
  readonly certPem: string;
  readonly keyPem: string;
  readonly certFile: string;
  readonly keyFile: string;
}

export enum KeyType {
  EC_P256 = 'ec-p256',
  EC_P384 = 'ec-p384',
  RSA_2048 = 'rsa-2048',
  RSA_1024 = 'rsa-1024',
}

export interface IssueOptions {
  readonly cn: string;
  readonly key?: KeyType;
  /** The signing certificate; omitted = self-signed. */
  readonly signer?: TestCert;
  /** basicConstraints CA:TRUE. Default true. */
  readonly ca?: boolean;
  readonly days?: number;
  /** Explicit validity window (YYYYMMDDHHMMSSZ), overriding `days`. */
  readonly startDate?: string;
  readonly endDate?: string;
  /** Reuse this certificate's key instead of generating one (a certificate renewed with its key). */
  readonly keyFrom?: TestCert;
  /** The signature's digest. Default sha256. */
  readonly digest?: 'sha256' | 'sha384';
}

let workDir: string | undefined;
let counter = 0;

function removeWorkDir(): void {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
}

// Jest may end a worker without its exit event, so each test file that loads this module removes the folder itself.
if (typeof afterAll === 'function') afterAll(removeWorkDir);

function dir(): string {
  if (!workDir) {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-linkerd-certs-'));
    process.on('exit', removeWorkDir);
  }
  return workDir;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

const KEY_ARGS: Record<KeyType, string[]> = {
  [KeyType.EC_P256]: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  [KeyType.EC_P384]: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384'],
  [KeyType.RSA_2048]: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
  [KeyType.RSA_1024]: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'],
};

const CA_CONFIG = `[ca]
default_ca = d
[d]
database = ./index.txt
new_certs_dir = .
serial = ./serial
default_md = sha256
policy = p
unique_subject = no
email_in_dn = no
[p]
commonName = supplied
[ext_ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ext_leaf]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

/** Issues one certificate in its own scratch directory. */
export function issue(options: IssueOptions): TestCert {
  const cwd = path.join(dir(), `c${counter++}`);
  fs.mkdirSync(cwd);
  fs.writeFileSync(path.join(cwd, 'ca.cnf'), CA_CONFIG);
  fs.writeFileSync(path.join(cwd, 'index.txt'), '');
  fs.writeFileSync(path.join(cwd, 'serial'), `${(1000 + counter).toString(16).padStart(4, '0')}\n`);
  if (options.keyFrom) fs.copyFileSync(options.keyFrom.keyFile, path.join(cwd, 'key.pem'));
  else openssl(['genpkey', ...KEY_ARGS[options.key ?? KeyType.EC_P256], '-out', 'key.pem'], cwd);
  openssl(['req', '-new', '-key', 'key.pem', '-subj', `/CN=${options.cn}`, '-out', 'req.csr'], cwd);
  const signing = options.signer ? ['-cert', options.signer.certFile, '-keyfile', options.signer.keyFile] : ['-selfsign', '-keyfile', 'key.pem'];
  const validity = options.startDate && options.endDate
    ? ['-startdate', options.startDate, '-enddate', options.endDate]
    : ['-days', String(options.days ?? 365)];
  openssl(['ca', '-batch', '-config', 'ca.cnf', '-notext', '-md', options.digest ?? 'sha256', '-in', 'req.csr', '-out', 'cert.pem', ...signing, ...validity,
    '-extensions', options.ca === false ? 'ext_leaf' : 'ext_ca'], cwd);
  const certFile = path.join(cwd, 'cert.pem');
  const keyFile = path.join(cwd, 'key.pem');
  return { certPem: fs.readFileSync(certFile, 'utf8'), keyPem: fs.readFileSync(keyFile, 'utf8'), certFile, keyFile };
}

/** An openssl -startdate/-enddate for now plus `days` (negative: in the past). */
export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

const cache = new Map<string, TestCert>();

function cached(name: string, make: () => TestCert): TestCert {
  let cert = cache.get(name);
  if (!cert) {
    cert = make();
    cache.set(name, cert);
  }
  return cert;
}

/** Named fixtures, each generated on first use. */
export const certs = {
  /** ECDSA P-256 trust anchor, one year. */
  get root(): TestCert { return cached('root', () => issue({ cn: 'root.linkerd.cluster.local', startDate: daysFromNow(-1), endDate: daysFromNow(364) })); },
  /** A second anchor (the "new" one in rotations), issued a day after `root`. */
  get newRoot(): TestCert { return cached('newRoot', () => issue({ cn: 'root-2.linkerd.cluster.local', days: 730 })); },
  /** ECDSA P-256 issuer signed by `root`, 180 days. */
  get issuer(): TestCert { return cached('issuer', () => issue({ cn: 'identity.linkerd.cluster.local', signer: certs.root, days: 180 })); },
  /** `root` renewed: the same subject and key, another validity (so another fingerprint). */
  get renewedRoot(): TestCert { return cached('renewedRoot', () => issue({ cn: 'root.linkerd.cluster.local', keyFrom: certs.root, days: 730 })); },
  /** Issuer signed by `newRoot`. */
  get newIssuer(): TestCert { return cached('newIssuer', () => issue({ cn: 'identity.linkerd.cluster.local', signer: certs.newRoot, days: 180 })); },
  /** RSA 2048 anchor and an ECDSA issuer it signed (SHA256-RSA): accepted. */
  get rsaRoot(): TestCert { return cached('rsaRoot', () => issue({ cn: 'rsa-root.linkerd.cluster.local', key: KeyType.RSA_2048, days: 365 })); },
  get issuerUnderRsa(): TestCert { return cached('issuerUnderRsa', () => issue({ cn: 'identity.linkerd.cluster.local', signer: certs.rsaRoot, days: 180 })); },
  /** RSA 1024 anchor: refused. */
  /** ECDSA P-256 anchor self-signed with SHA-384, which `linkerd check` refuses (checkECDSACertRequirements). */
  get sha384Root(): TestCert { return cached('sha384Root', () => issue({ cn: 'sha384-root.linkerd.cluster.local', digest: 'sha384', days: 365 })); },
  get weakRoot(): TestCert { return cached('weakRoot', () => issue({ cn: 'weak-root', key: KeyType.RSA_1024, days: 365 })); },
  get issuerUnderWeakRoot(): TestCert { return cached('issuerUnderWeakRoot', () => issue({ cn: 'identity.linkerd.cluster.local', signer: certs.weakRoot, days: 180 })); },
  /** P-384 issuer: refused. */
  get p384Issuer(): TestCert { return cached('p384Issuer', () => issue({ cn: 'identity.linkerd.cluster.local', key: KeyType.EC_P384, signer: certs.root, days: 180 })); },
  /** A leaf (CA:FALSE) signed by `root`: not usable as issuer. */
  get leaf(): TestCert { return cached('leaf', () => issue({ cn: 'not-a-ca', ca: false, signer: certs.root, days: 180 })); },
  /** Issuer signed by `root` that expired in 2020. */
  get expiredIssuer(): TestCert { return cached('expiredIssuer', () => issue({ cn: 'expired-issuer', signer: certs.root, startDate: '20200101000000Z', endDate: '20200201000000Z' })); },
  /** Issuer signed by `root` valid only from 2099. */
  get futureIssuer(): TestCert { return cached('futureIssuer', () => issue({ cn: 'future-issuer', signer: certs.root, startDate: '20990101000000Z', endDate: '20990201000000Z' })); },
  /** Issuer signed by `root` with 10 days left. */
  get soonIssuer(): TestCert { return cached('soonIssuer', () => issue({ cn: 'soon-issuer', signer: certs.root, days: 10 })); },
  /** An intermediate CA signed by `root` (a cert-manager or Vault chain), and an issuer it signed. */
  get intermediate(): TestCert { return cached('intermediate', () => issue({ cn: 'intermediate.linkerd.cluster.local', signer: certs.root, days: 300 })); },
  get issuerUnderIntermediate(): TestCert { return cached('issuerUnderIntermediate', () => issue({ cn: 'identity.linkerd.cluster.local', signer: certs.intermediate, days: 180 })); },
  /** The same three tiers under `newRoot` (the issuer a rotation switches to). */
  get newIntermediate(): TestCert { return cached('newIntermediate', () => issue({ cn: 'intermediate-2.linkerd.cluster.local', signer: certs.newRoot, days: 300 })); },
  get issuerUnderNewIntermediate(): TestCert {
    return cached('issuerUnderNewIntermediate', () => issue({ cn: 'identity.linkerd.cluster.local', signer: certs.newIntermediate, days: 180 }));
  },
  /** Issuer signed by `root` that outlives it (400 days against 365). */
  get longIssuer(): TestCert { return cached('longIssuer', () => issue({ cn: 'long-issuer', signer: certs.root, days: 400 })); },
};
