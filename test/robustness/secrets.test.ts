/**
 * LKD-SEC-001: credentials in synthesized output and plain YAML. Every key, token and password here is generated at
 * run time (concatenated, or made with node:crypto) so that no secret-looking literal sits in the repository.
 */
import { X509Certificate, generateKeyPairSync, createHmac } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Testing } from 'cdk8s';
import * as yaml from 'js-yaml';
import { runCliBounded } from './cli-process';
import { synthesize as synthesizeControlPlane } from '../../examples/control-plane/control-plane';
import { MeshLab, NegativeExperiment } from '../../examples/mesh-lab/mesh-lab';
import { buildQuickStart } from '../../examples/quick-start/quick-start';
import { analyze } from '../../src/analysis/engine';
import { Finding } from '../../src/analysis/finding';
import { privateKeyInOutput } from '../../src/analysis/rules/cert/private-keys';
import { secretsInOutput } from '../../src/analysis/rules/secrets/secrets-in-output';
import { SUPPRESS_ANNOTATION } from '../../src/analysis/suppressions';
import { parseManifests } from '../../src/frontends/cli/load-manifests';
import { assertBuilt, removeDir, tempDir, writeYaml } from '../frontends/cli-harness';
import { certs } from '../support/certs';

const SEC = 'LKD-SEC-001';
const CERT = 'LKD-CERT-005';

// ---- test material, made at run time ----------------------------------------------------------

const alnum = (n: number, seed = 7) => Array.from({ length: n }, (_, i) => 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'[(i * seed + 11) % 57]).join('');
const b64url = (text: string | Buffer) => Buffer.from(text).toString('base64url');
const b64 = (text: string) => Buffer.from(text).toString('base64');

const material = {
  password: ['hun', 'ter', '2-', alnum(6)].join(''),
  github: ['gh', 'p_', alnum(36)].join(''),
  slack: ['xo', 'xb-', '1234567890', '-', alnum(24, 5)].join(''),
  aws: ['AK', 'IA', alnum(16, 3).toUpperCase().replace(/[^0-9A-Z]/g, 'Q')].join(''),
  jwt: (() => {
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const body = b64url(JSON.stringify({ sub: 'client', iat: 1_700_000_000 }));
    return `${head}.${body}.${b64url(createHmac('sha256', alnum(12)).update(`${head}.${body}`).digest())}`;
  })(),
  privateKeyPem: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

// ---- manifests --------------------------------------------------------------------------------

const NS = 'mesh-lab';
const meta = (name: string, annotations?: Record<string, string>) => ({ name, namespace: NS, ...(annotations ? { annotations } : {}) });
const configMap = (name: string, data: Record<string, string>, annotations?: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(name, annotations), data });
const secret = (name: string, body: Record<string, any>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: meta(name), type: 'Opaque', ...body });

function deployment(name: string, env: any[]): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(name),
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'example/app:1.0.0', env }] } },
    },
  };
}

function findingsOf(objects: any[], ruleId: string): Finding[] {
  return analyze(objects.map((object) => ({ object }))).findings.filter((f) => f.ruleId === ruleId);
}

/** [name, object, the path the finding must name, what it must call the secret] */
const TRIGGERING: [string, () => any, string, RegExp][] = [
  ['a password in ConfigMap data', () => configMap('db', { DB_PASSWORD: material.password }), 'data.DB_PASSWORD', /literal value for "DB_PASSWORD"/],
  ['a token in an env value', () => deployment('api', [{ name: 'API_TOKEN', value: material.password }]),
    'spec.template.spec.containers[0].env[0].value (API_TOKEN)', /literal value for "API_TOKEN"/],
  ['an apiKey annotation', () => configMap('cfg', { mode: 'fast' }, { 'example.com/apiKey': material.password }), "metadata.annotations['example.com/apiKey']", /literal value/],
  ['a password in Secret data (base64)', () => secret('db', { data: { password: b64(material.password) } }), 'data.password', /literal value for "password"/],
  ['a GitHub token in Secret stringData', () => secret('git', { stringData: { config: `[auth]\ntoken=${material.github}\n` } }), 'stringData.config', /GitHub token/],
  ['a GitHub token under a neutral key', () => configMap('ci', { settings: `url=https://example.invalid ${material.github}` }), 'data.settings', /GitHub token/],
  ['a client secret in a *-secret annotation (not a Secret object\'s name)', () => configMap('oidc', { mode: 'x' }, { 'example.com/client-secret': material.password }),
    "metadata.annotations['example.com/client-secret']", /literal value/],
  ['a lower-case literal under a bare secret annotation', () => configMap('plain', { mode: 'x' }, { 'example.com/secret': 'orders-db' }),
    "metadata.annotations['example.com/secret']", /literal value/],
  ['a Slack token in an annotation', () => configMap('hooks', { mode: 'x' }, { 'example.com/webhook': material.slack }), "metadata.annotations['example.com/webhook']", /Slack token/],
  ['an AWS access key ID in an env value', () => deployment('s3', [{ name: 'AWS_ACCESS_KEY_ID', value: material.aws }]),
    'spec.template.spec.containers[0].env[0].value (AWS_ACCESS_KEY_ID)', /AWS access key ID/],
  ['a JWT bearer token', () => configMap('client', { headers: `Authorization: Bearer ${material.jwt}` }), 'data.headers', /JSON Web Token/],
  ['a base64-encoded private key in ConfigMap data', () => configMap('tls', { key: b64(material.privateKeyPem) }), 'data.key', /base64-encoded private key/],
  ['a password in Flux HelmRelease values', () => ({
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: meta('db'), spec: { values: { auth: { rootPassword: material.password } } },
  }), 'spec.values.auth.rootPassword', /literal value for "rootPassword"/],
  ['a password in Argo CD helm.values (a YAML string)', () => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: meta('db'),
    spec: { source: { helm: { values: `auth:\n  password: ${material.password}\n` } } },
  }), 'auth.password', /literal value for "password"/],
];

const PASSING: [string, () => any][] = [
  // charts/linkerd-control-plane: injectCaFromSecret becomes cert-manager.io/inject-ca-from-secret; linkerd-viz's
  // prometheusCredsSecret a volume's secretName.
  ['Linkerd chart values that name Secret objects (injectCaFromSecret, prometheusCredsSecret)', () => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'linkerd-viz', namespace: 'argocd' },
    spec: {
      source: {
        chart: 'linkerd-viz',
        helm: { valuesObject: { prometheusCredsSecret: 'prometheus-basic-auth', tap: { injectCaFromSecret: 'linkerd-viz/tap-k8s-tls' } } },
      },
    },
  })],
  ['env from a secretKeyRef', () => deployment('a', [{ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }])],
  ['placeholders ${VAR}, $(VAR), {{ }} and ref+', () => deployment('b', [
    { name: 'DB_PASSWORD', value: '${DB_PASSWORD}' }, { name: 'API_TOKEN', value: '$(TOKEN_FROM_ENV)' },
    { name: 'SECRET', value: '{{ .Values.secret }}' }, { name: 'CLIENT_SECRET', value: 'ref+vault://secret/app#client' },
  ])],
  ['empty values and boolean settings', () => configMap('c', { password: '', token: 'true', enableSecret: 'false' })],
  ['references by name (existingSecret, secretName, imagePullSecrets)', () => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('d'),
    spec: {
      selector: { matchLabels: { app: 'd' } },
      template: {
        metadata: { labels: { app: 'd' } },
        spec: {
          imagePullSecrets: [{ name: 'regcred' }],
          automountServiceAccountToken: false,
          volumes: [{ name: 'tls', secret: { secretName: 'orders-tls' } }],
          containers: [{ name: 'main', image: 'example/app:1.0.0', env: [{ name: 'existingSecret', value: 'orders-db' }] }],
        },
      },
    },
  })],
  // From Linkerd's "Exposing the Dashboard" page: the ingress controllers read these annotations as Secret names.
  ['Ingress annotations naming a Secret (ingress-nginx auth-secret, auth-tls-secret; Traefik auth-secret)', () => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta('web-ingress', {
      'nginx.ingress.kubernetes.io/auth-type': 'basic',
      'nginx.ingress.kubernetes.io/auth-secret': 'web-ingress-auth',
      'nginx.ingress.kubernetes.io/auth-tls-secret': 'linkerd-viz/ca-secret',
      'traefik.ingress.kubernetes.io/auth-secret': 'web-ingress-auth',
    }),
    spec: { rules: [{ host: 'dashboard.example.com' }] },
  })],
  ['ordinary text that mentions tokens', () => configMap('e', { README: 'Set the token with kubectl create secret; tokens rotate daily.', tokenTtl: '3600' })],
  // Ciphertext meant to be committed: a Sealed Secret's encryptedData (bitnami-labs/sealed-secrets) and SOPS values.
  ['a SealedSecret\'s encryptedData', () => ({
    apiVersion: 'bitnami.com/v1alpha1', kind: 'SealedSecret', metadata: meta('db'), spec: { encryptedData: { password: b64(alnum(64, 13)) }, template: { metadata: meta('db') } },
  })],
  ['SOPS-encrypted values (ENC[AES256_GCM,...])', () => secret('db', { stringData: { password: `ENC[AES256_GCM,data:${b64(alnum(12))},iv:${b64(alnum(16, 5))},tag:${b64(alnum(16, 3))},type:str]` } })],
  // Traefik's Middleware names the Secret holding the users (doc.traefik.io, BasicAuth): `secret: authsecret`.
  ['a Traefik Middleware naming its basicAuth Secret', () => ({
    apiVersion: 'traefik.io/v1alpha1', kind: 'Middleware', metadata: meta('auth'), spec: { basicAuth: { secret: 'authsecret' } },
  })],
  // The Vault Agent Injector's annotations hold Vault paths and templates; the secret is fetched at run time.
  ['Vault Agent Injector annotations', () => {
    const vaulted = deployment('vaulted', []);
    vaulted.spec.template.metadata.annotations = {
      'vault.hashicorp.com/agent-inject': 'true',
      'vault.hashicorp.com/agent-inject-secret-db-password': 'database/creds/orders',
      'vault.hashicorp.com/agent-inject-secret-my-secret': 'secret/data/dev/my-secret',
    };
    return vaulted;
  }],
];

describe('LKD-SEC-001 finds credentials', () => {
  test.each(TRIGGERING)('%s', (_, make, where, what) => {
    const findings = findingsOf([make()], SEC);
    expect(findings).toHaveLength(1);
    expect(findings[0].severity).toBe('error');
    expect(findings[0].message).toContain(where);
    expect(findings[0].message).toMatch(what);
    expect(findings[0].fix).toMatch(/secretKeyRef/);
  });

  test('the report never repeats the secret', () => {
    const objects = TRIGGERING.map(([, make]) => make());
    const text = JSON.stringify(findingsOf(objects, SEC));
    for (const value of [material.password, material.github, material.slack, material.aws, material.jwt]) expect(text).not.toContain(value);
  });

  test('several secrets in one object: one finding listing the first three', () => {
    const [finding] = findingsOf([configMap('many', { password: 'a1', token: 'b2', apiKey: 'c3', secret: 'd4' })], SEC);
    expect(finding.message).toMatch(/data\.password.*data\.token.*data\.apiKey.* and 1 more/);
  });
});

describe('LKD-SEC-001 leaves references and settings alone', () => {
  test.each(PASSING)('%s', (_, make) => {
    expect(findingsOf([make()], SEC)).toEqual([]);
  });
});

describe('one mistake, one finding: plain private keys are LKD-CERT-005\'s', () => {
  test.each([
    ['a PEM key in ConfigMap data', () => configMap('k', { 'tls.key': material.privateKeyPem })],
    ['a PEM key in an env value', () => deployment('k', [{ name: 'TLS_KEY', value: material.privateKeyPem }])],
    ['a PEM key in Secret data (base64)', () => secret('k', { data: { 'tls.key': b64(material.privateKeyPem) } })],
    ['a PEM key under a password-like key', () => secret('k', { stringData: { privateKey: material.privateKeyPem } })],
  ] as [string, () => any][])('%s: CERT-005 only', (_, make) => {
    expect(findingsOf([make()], CERT)).toHaveLength(1);
    expect(findingsOf([make()], SEC)).toEqual([]);
  });

  test('a base64-encoded key outside Secret data: SEC-001 only (CERT-005 does not decode there)', () => {
    const objects = [configMap('k', { key: b64(material.privateKeyPem) })];
    expect(findingsOf(objects, SEC)).toHaveLength(1);
    expect(findingsOf(objects, CERT)).toEqual([]);
  });
});

describe('suppression is the opt-in', () => {
  test('a suppression with a reason silences the finding and keeps it in the audit trail', () => {
    const obj = configMap('db', { DB_PASSWORD: material.password }, {
      [SUPPRESS_ANNOTATION]: JSON.stringify([{ ruleId: SEC, reason: 'this output is SOPS-encrypted before it is committed' }]),
    });
    const result = analyze([{ object: obj }]);
    expect(result.findings.filter((f) => f.ruleId === SEC)).toEqual([]);
    expect(result.suppressed.map((s) => [s.finding.ruleId, s.reason])).toEqual([[SEC, 'this output is SOPS-encrypted before it is committed']]);
  });
});

describe('robust scanning', () => {
  test('a YAML alias bomb of credentials is scanned once per shared node (linear)', () => {
    const names = 'abcdefghi';
    const levels = [`a: &a ["${material.github}","x","x","x","x","x","x","x","x"]`];
    for (let i = 1; i < names.length; i++) levels.push(`${names[i]}: &${names[i]} [${new Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol, namespace: ${NS}}\ndata:\n${levels.map((l) => `  ${l}`).join('\n')}\n`;
    // parseManifests would refuse the bomb (the CLI's guard); the rule must cope on its own, e.g. in the plugin.
    const object = yaml.load(text) as Record<string, any>;
    // 9^9 paths lead to the credential: a scan per path would never return, one per shared node reports it once.
    // How long it takes is measured by `npm run bench:worst-cases`, not here.
    const findings = analyze([{ object }], { rules: [secretsInOutput] }).findings;
    expect(findings).toHaveLength(1);
    expect(() => parseManifests(text, 'bomb.yaml')).toThrow(/alias/);
  });

  test('a YAML alias bomb of names only is scanned once per shared node too (no finding, no endless walk)', () => {
    // The pass that proves most objects clean keeps no set of seen nodes; past a fixed number it leaves them to the walk.
    // 9^12 paths: a walk per path would not return within the test run.
    const names = 'abcdefghijkl';
    const levels = [`a: &a [${new Array(9).fill('"x"').join(',')}]`];
    for (let i = 1; i < names.length; i++) levels.push(`${names[i]}: &${names[i]} [${new Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol, namespace: ${NS}}\ndata:\n${levels.map((l) => `  ${l}`).join('\n')}\n`;
    const object = yaml.load(text) as Record<string, any>;
    expect(analyze([{ object }], { rules: [secretsInOutput, privateKeyInOutput] }).findings).toEqual([]);
  });

  test('a 20 MB base64-looking string is scanned without a false finding (its time: npm run bench:worst-cases)', () => {
    expect(findingsOf([configMap('big', { blob: 'ab0/'.repeat(5 * 1024 * 1024) })], SEC)).toEqual([]);
  });
});

describe('plain YAML through the CLI', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = tempDir('secrets');
  });
  afterAll(() => removeDir(dir));

  test('exit 1 with LKD-SEC-001 at the document\'s file and line, without echoing the secret', () => {
    writeYaml(dir, 'app.yaml', [configMap('fine', { mode: 'fast' }), deployment('api', [{ name: 'GITHUB_TOKEN', value: material.github }])]);
    const run = runCliBounded(['analyze', '--format', 'text', 'app.yaml'], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^app\.yaml:\d+: error LKD-SEC-001 Deployment mesh-lab\/api: a GitHub token at spec\.template\.spec\.containers\[0\]\.env\[0\]\.value \(GITHUB_TOKEN\)/m);
    expect(run.stdout).not.toContain(material.github);
  });
});

describe('no example output contains a secret', () => {
  function examples(): [string, any[]][] {
    const lab = Testing.app();
    const meshLab = new MeshLab(lab, 'mesh-lab');
    const negative = new NegativeExperiment(lab, 'mesh-lab-negative');
    const quick = Testing.app();
    return [
      ['mesh-lab', Testing.synth(meshLab)],
      ['mesh-lab negative experiment', Testing.synth(negative)],
      ['quick-start', Testing.synth(buildQuickStart(quick))],
    ];
  }

  test.each(examples())('%s', (_, objects) => {
    const findings = analyze(objects.map((object) => ({ object }))).findings.filter((f) => f.ruleId === SEC || f.ruleId === CERT);
    expect(findings).toEqual([]);
  });

  /** Synthesizes into a temp folder as users do and reads the YAML back like the CLI. */
  function writtenManifests(write: (outdir: string) => string): number {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-linkerd-secrets-'));
    try {
      const file = write(outdir);
      const manifests = parseManifests(fs.readFileSync(file, 'utf8'), file);
      expect(analyze(manifests).findings.filter((f) => f.ruleId === SEC || f.ruleId === CERT)).toEqual([]);
      return manifests.length;
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  }

  test('mesh-lab written by cdk8s synth (the YAML users commit)', () => {
    expect(writtenManifests((outdir) => {
      const app = new App({ outdir });
      new MeshLab(app, 'mesh-lab');
      app.synth();
      return path.join(outdir, 'mesh-lab.k8s.yaml');
    })).toBeGreaterThan(10);
  });

  test('the control-plane example (identity from cert-manager: no key material in the output)', () => {
    expect(writtenManifests((outdir) => synthesizeControlPlane(outdir)[0])).toBeGreaterThan(3);
  });
});

// ---- encoded private keys ---------------------------------------------------------------------

describe('private keys in what Kubernetes and kubeconfig encode are found', () => {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const der = {
    pkcs8: ec.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    sec1: ec.export({ type: 'sec1', format: 'der' }).toString('base64'),
    pkcs1: rsa.export({ type: 'pkcs1', format: 'der' }).toString('base64'),
  };
  const kubeconfig = (keyData: string) => yaml.dump({
    'apiVersion': 'v1',
    'kind': 'Config',
    'clusters': [{ name: 'c', cluster: { server: 'https://10.0.0.1' } }],
    'users': [{ name: 'admin', user: { 'client-certificate-data': b64('not a certificate'), 'client-key-data': keyData } }],
    'contexts': [{ name: 'c', context: { cluster: 'c', user: 'admin' } }],
    'current-context': 'c',
  });
  const keyFindings = (objects: any[]) => analyze(objects.map((object) => ({ object })))
    .findings.filter((f) => f.ruleId === SEC || f.ruleId === CERT);
  const lastApplied = (obj: any) => ({ 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(obj) });

  const CASES: [string, () => any, string, RegExp][] = [
    ['a kubeconfig client-key-data (base64 PEM) in ConfigMap data', () => configMap('kube', { config: kubeconfig(b64(material.privateKeyPem)) }),
      "data.config (in the YAML) users[0].user['client-key-data']", /private key/],
    ['a kubeconfig in a Secret\'s stringData', () => secret('kube', { stringData: { kubeconfig: kubeconfig(b64(material.privateKeyPem)) } }),
      "stringData.kubeconfig (in the YAML) users[0].user['client-key-data']", /private key/],
    ['a kubeconfig, base64, in Secret data', () => secret('kube', { data: { kubeconfig: b64(kubeconfig(b64(material.privateKeyPem))) } }),
      "data.kubeconfig (in the base64-decoded YAML) users[0].user['client-key-data']", /private key/],
    ['a base64 PEM key inside last-applied-configuration', () => configMap('applied', { a: 'b' }, lastApplied(secret('tls', { data: { 'tls.key': b64(material.privateKeyPem) } }))),
      "metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] (in the JSON) data['tls.key']", /base64-encoded private key/],
    ['a DER key inside last-applied-configuration', () => configMap('applied', { a: 'b' }, lastApplied(secret('tls', { data: { 'tls.key': der.pkcs8 } }))),
      "(in the JSON) data['tls.key']", /private key \(DER PKCS#8/],
    ['a headerless DER PKCS#8 key under tls.key in Secret data', () => secret('tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': b64('x'), 'tls.key': der.pkcs8 } }),
      "data['tls.key'] (base64 of a DER PKCS#8 private key)", /private key/],
    ['a headerless DER SEC1 key in Secret data', () => secret('tls', { data: { key: der.sec1 } }), 'data.key (base64 of a DER SEC1 EC private key)', /private key/],
    ['a headerless DER PKCS#1 RSA key in Secret data', () => secret('tls', { data: { key: der.pkcs1 } }), 'data.key (base64 of a DER PKCS#1 RSA private key)', /private key/],
    ['a DER key in an env value', () => deployment('api', [{ name: 'SIGNING', value: der.pkcs8 }]), 'env[0].value', /base64-encoded private key \(DER PKCS#8/],
    ['a DER key in Helm values of an Argo CD Application', () => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: meta('cp'),
      spec: { source: { helm: { valuesObject: { identity: { issuer: { tls: { keyPEM: der.sec1 } } } } } } },
    }), 'keyPEM', /DER SEC1/],
  ];

  test.each(CASES)('%s', (_, make, where, what) => {
    const findings = keyFindings([make()]);
    expect(findings).toHaveLength(1);
    expect(findings[0].severity).toBe('error');
    expect(findings[0].message).toContain(where);
    expect(findings[0].message).toMatch(what);
  });

  test('no key material is echoed in any message', () => {
    const findings = keyFindings(CASES.map(([, make]) => make()));
    expect(findings.length).toBe(CASES.length);
    const text = JSON.stringify(findings);
    for (const secretText of [...Object.values(der), b64(material.privateKeyPem), material.privateKeyPem.split('\n')[1]]) {
      expect(text).not.toContain(secretText.slice(0, 24));
      expect(text).not.toContain(secretText.slice(-24));
    }
  });

  test('certificates, public keys and random base64 are not keys', () => {
    const pub = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const cert = b64(certs.root.certPem);
    const certDer = new X509Certificate(certs.root.certPem).raw.toString('base64');
    const random = Buffer.from(Array.from({ length: 200 }, (_, i) => (i * 37 + 11) % 256)).toString('base64');
    const objects = [
      secret('tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': cert, 'ca.der': certDer, 'pub.der': pub, 'blob': random } }),
      configMap('bundle', { 'ca.crt': certs.root.certPem, 'ca.der': certDer, 'note': random }, lastApplied(configMap('x', { pub, certDer }))),
    ];
    expect(keyFindings(objects)).toEqual([]);
  });
});

// ---- the scan is exhaustive, or says where it stopped ------------------------------------------

describe('the secret scan reaches everything, or says where it stopped', () => {
  const pem = material.privateKeyPem;
  const der = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
  const both = (objects: any[]) => analyze(objects.map((object) => ({ object }))).findings.filter((f) => f.ruleId === SEC || f.ruleId === CERT);
  const helmRelease = (values: unknown) => ({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: meta('app'), spec: { values } });
  const custom = (spec: unknown) => ({ apiVersion: 'example.com/v1', kind: 'AppConfig', metadata: meta('app'), spec });
  const nested = (depth: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < depth; i++) value = { level: value };
    return value;
  };
  const times = (n: number, text: string) => Array.from({ length: n }).reduce<string>((t) => b64(t), text);

  test.each([70, 500, 20_000])('a password nested %i levels deep is found (no depth limit, no stack overflow)', (depth) => {
    const findings = both([custom(nested(depth, { rootPassword: material.password }))]);
    expect(findings.map((f) => f.ruleId)).toEqual([SEC]);
    expect(findings[0].message).toMatch(/literal value for "rootPassword" at spec(\.level)+\.rootPassword/);
  });

  test('multi-line prose (a CRD\'s descriptions) is no finding; a token, a key or Helm values beside it still are', () => {
    const prose = 'Describes the field at length.\nIt spans lines, as CRD descriptions do, and is longer than sixty characters.';
    const schema = (extra: Record<string, unknown>) => custom({
      versions: [{ schema: { description: prose, properties: { a: { description: prose }, ...extra } } }],
    });
    expect(both([schema({})])).toEqual([]);
    expect(both([schema({ b: { description: `${prose}\n${material.github}` } })]).map((f) => f.ruleId)).toEqual([SEC]);
    expect(both([schema({ b: { description: `${prose}\n${pem}` } })]).map((f) => f.ruleId)).toEqual([CERT]);
    const values = both([schema({ b: { values: `auth:\n  password: ${material.password}\n` } })]);
    expect(values.map((f) => f.message)).toEqual([expect.stringContaining('properties.b.values.auth.password')]);
  });

  test('a PEM key used as a mapping key in Flux HelmRelease values: found, and the path does not spell the key', () => {
    const findings = both([helmRelease({ tls: { [pem]: 'issuer' } })]);
    expect(findings.map((f) => f.ruleId)).toEqual([CERT]);
    expect(findings[0].message).toContain('spec.values.tls.<key 1> (the key itself)');
    expect(findings[0].message).not.toContain(pem.split('\n')[1].slice(0, 24));
  });

  test('a PEM key as a key in Argo CD valuesObject; in helm.values (a YAML string) the string holds the key', () => {
    const app = (helm: unknown) => ({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: meta('cp'), spec: { source: { helm } } });
    const object = both([app({ valuesObject: { identity: { [pem]: { usage: 'issuer' } } } })]);
    expect(object.map((f) => f.ruleId)).toEqual([CERT]);
    expect(object[0].message).toContain('spec.source.helm.valuesObject.identity.<key 1> (the key itself)');
    const text = both([app({ values: `identity:\n  ${JSON.stringify(pem)}: {usage: issuer}\n` })]);
    expect(text.map((f) => [f.ruleId, f.message])).toEqual([[CERT, expect.stringContaining('at spec.source.helm.values ')]]);
  });

  test('a token used as a key is found, and what sits under it is named without the token', () => {
    const findings = both([helmRelease({ auth: { [material.github]: { password: material.password } } })]);
    expect(findings.map((f) => f.ruleId)).toEqual([SEC]);
    expect(findings[0].message).toContain('GitHub token at spec.values.auth.<key 1> (the key itself)');
    expect(findings[0].message).toContain('spec.values.auth.<key 1>.password');
    expect(findings[0].message).not.toContain(material.github);
  });

  test.each([
    ['Secret data: base64 of base64 of a PEM key', () => secret('k', { data: { 'tls.key': times(2, pem) } }), /data\['tls\.key'\]/],
    ['Secret data: base64 of base64 of base64 of a DER key', () => secret('k', { data: { key: times(2, der) } }), /data\.key/],
    ['Secret stringData: base64 of base64 of a PEM key', () => secret('k', { stringData: { key: times(2, pem) } }), /stringData\.key/],
    ['ConfigMap data: base64 of base64 of a PEM key', () => configMap('k', { key: times(2, pem) }), /data\.key/],
    ['ConfigMap data: base64 of base64 of a DER key', () => configMap('k', { key: b64(der) }), /data\.key/],
  ] as [string, () => any, RegExp][])('%s is found', (_, make, where) => {
    const findings = both([make()]);
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toMatch(where);
    expect(findings[0].message).toMatch(/private key/);
  });

  test('base64 nested beyond the bound is reported as such, in Secret data and stringData', () => {
    for (const object of [secret('deep', { data: { key: times(6, pem) } }), secret('deep', { stringData: { key: times(5, pem) } })]) {
      const findings = both([object]);
      expect(findings.map((f) => f.ruleId)).toEqual([SEC]);
      expect(findings[0].message).toMatch(/base64 nested more than 4 levels deep/);
    }
  });

  test('Helm values of any size are looked into; values nested beyond the YAML reader\'s limit are reported as such', () => {
    const app = (values: string) => ({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: meta('big'), spec: { source: { helm: { values } } } });
    const filler = Array.from({ length: 12_000 }, (_, i) => `  key${i}: value-${i}`).join('\n');
    const big = both([app(`config:\n${filler}\nauth:\n  password: ${material.password}\n`)]);
    expect(big.map((f) => f.message)).toEqual([expect.stringContaining('literal value for "password" at spec.source.helm.values.auth.password')]);
    const deep = Array.from({ length: 150 }, (_, i) => `${'  '.repeat(i)}k:`).join('\n');
    const tooDeep = both([app(`${deep} x\n`)]);
    expect(tooDeep.map((f) => f.message)).toEqual([expect.stringMatching(/YAML document nested more than 100 levels deep .* at spec\.source\.helm\.values/)]);
  });

  test('base64 of base64 of a certificate, and base64 text of ordinary words, are not secrets', () => {
    const objects = [
      secret('ca', { data: { 'ca.crt': times(2, certs.root.certPem) } }),
      configMap('ca', { bundle: times(3, certs.root.certPem), words: times(2, 'plain words, repeated. '.repeat(8)) }),
    ];
    expect(both(objects)).toEqual([]);
  });
});
