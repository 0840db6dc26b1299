/**
 * Regenerates the L1 types in src/imports from the reference CRDs in ../shared/reference.
 *
 * The CRDs' prose (every `description`) is stripped before `cdk8s import` so that none of it is committed,
 * and only the API versions this library emits are kept, so the generated classes cannot reach a field
 * beyond what Linkerd 2.20 and Gateway API v1.2.1 define.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';

const SHARED = process.env.CDK8S_LINKERD_SHARED ?? path.resolve(__dirname, '..', '..', 'shared');
const OUT = path.resolve(__dirname, '..', 'src', 'imports');

interface Source {
  readonly file: string;
  /** API version names to keep; the others are dropped before import. */
  readonly versions: string[];
}

const GROUPS: Record<string, Source[]> = {
  'policy.linkerd.io': [
    { file: 'linkerd/version-2.20/crds/servers.policy.linkerd.io.yaml', versions: ['v1beta3'] },
    { file: 'linkerd/version-2.20/crds/meshtlsauthentications.policy.linkerd.io.yaml', versions: ['v1alpha1'] },
    { file: 'linkerd/version-2.20/crds/networkauthentications.policy.linkerd.io.yaml', versions: ['v1alpha1'] },
    { file: 'linkerd/version-2.20/crds/authorizationpolicies.policy.linkerd.io.yaml', versions: ['v1alpha1'] },
    { file: 'linkerd/version-2.20/crds/httplocalratelimitpolicies.policy.linkerd.io.yaml', versions: ['v1alpha1'] },
    { file: 'linkerd/version-2.20/crds/egressnetworks.policy.linkerd.io.yaml', versions: ['v1alpha1'] },
  ],
  'gateway.networking.k8s.io': [
    { file: 'gateway-api/v1.2.1/gateway.networking.k8s.io_httproutes.yaml', versions: ['v1'] },
    { file: 'gateway-api/v1.2.1/gateway.networking.k8s.io_grpcroutes.yaml', versions: ['v1'] },
  ],
};

function stripDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripDescriptions);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description') continue;
      out[key] = stripDescriptions(value);
    }
    return out;
  }
  return node;
}

function loadCrd(source: Source): any {
  const crd: any = yaml.load(fs.readFileSync(path.join(SHARED, 'reference', source.file), 'utf8'));
  crd.spec.versions = crd.spec.versions.filter((v: any) => source.versions.includes(v.name));
  if (crd.spec.versions.length !== source.versions.length) {
    throw new Error(`${source.file}: expected versions ${source.versions.join(', ')}`);
  }
  return stripDescriptions(crd);
}

function main(): void {
  if (!fs.existsSync(SHARED)) throw new Error(`reference folder not found: ${SHARED}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-linkerd-import-'));
  for (const [group, sources] of Object.entries(GROUPS)) {
    const file = path.join(work, `${group}.yaml`);
    fs.writeFileSync(file, sources.map((s) => yaml.dump(loadCrd(s), { noRefs: true })).join('---\n'));
    execFileSync(path.resolve(__dirname, '..', 'node_modules', '.bin', 'cdk8s'), ['import', file, '--language', 'typescript', '--output', OUT, '--no-save', '--no-check-upgrade'], {
      stdio: 'inherit',
      cwd: work,
    });
  }
  fs.rmSync(work, { recursive: true, force: true });
}

main();
