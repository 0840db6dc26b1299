/**
 * The fleet's certificates for the example: read from files when given (MULTICLUSTER_ANCHOR_PEM, MULTICLUSTER_EAST_ISSUER_PEM,
 * MULTICLUSTER_WEST_ISSUER_PEM), otherwise generated as throwaways with the openssl binary in a temp directory that is
 * removed right away. Only public certificates leave this file: the keys are never written to the output or the repo.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface FleetCertificates {
  readonly anchorPem: string;
  readonly eastIssuerPem: string;
  readonly westIssuerPem: string;
}

const CA_EXTENSIONS = 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n';

function openssl(cwd: string, args: string[]): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function key(cwd: string, name: string): void {
  openssl(cwd, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`]);
}

/** A self-signed anchor and two issuers it signs (ECDSA P-256, as Linkerd requires). */
function generate(): FleetCertificates {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'multicluster-example-'));
  try {
    fs.writeFileSync(path.join(cwd, 'ca.ext'), CA_EXTENSIONS);
    key(cwd, 'anchor');
    openssl(cwd, ['req', '-x509', '-new', '-key', 'anchor.key', '-subj', '/CN=root.linkerd.fleet.example', '-days', '365',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-out', 'anchor.crt']);
    const issuer = (cluster: string): string => {
      key(cwd, cluster);
      openssl(cwd, ['req', '-new', '-key', `${cluster}.key`, '-subj', `/CN=identity.linkerd.${cluster}.example`, '-out', `${cluster}.csr`]);
      openssl(cwd, ['x509', '-req', '-in', `${cluster}.csr`, '-CA', 'anchor.crt', '-CAkey', 'anchor.key', '-CAcreateserial',
        '-days', '180', '-extfile', 'ca.ext', '-out', `${cluster}.crt`]);
      return fs.readFileSync(path.join(cwd, `${cluster}.crt`), 'utf8');
    };
    return { anchorPem: fs.readFileSync(path.join(cwd, 'anchor.crt'), 'utf8'), eastIssuerPem: issuer('east'), westIssuerPem: issuer('west') };
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

function fromEnv(name: string): string | undefined {
  const file = process.env[name];
  return file ? fs.readFileSync(file, 'utf8') : undefined;
}

export function fleetCertificates(): FleetCertificates {
  const anchorPem = fromEnv('MULTICLUSTER_ANCHOR_PEM');
  const eastIssuerPem = fromEnv('MULTICLUSTER_EAST_ISSUER_PEM');
  const westIssuerPem = fromEnv('MULTICLUSTER_WEST_ISSUER_PEM');
  if (anchorPem && eastIssuerPem && westIssuerPem) return { anchorPem, eastIssuerPem, westIssuerPem };
  return generate();
}
