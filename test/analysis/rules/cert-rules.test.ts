import { Chart, Testing } from 'cdk8s';
import { AnalyzeOptions, analyze } from '../../../src/analysis/engine';
import { Severity } from '../../../src/analysis/finding';
import { ruleById } from '../../../src/analysis/rules';
import { SUPPRESS_ANNOTATION } from '../../../src/analysis/suppressions';
import { LinkerdIdentity } from '../../../src/control-plane/identity';
import { signatureAlgorithmOf } from '../../../src/core/certificates';
import { parseGoDuration } from '../../../src/core/linkerd-grammar';
import { TestCert, certs } from '../../support/certs';
import { synth } from '../../support/synth';

const CERT_RULES = ['LKD-CERT-001', 'LKD-CERT-002', 'LKD-CERT-003', 'LKD-CERT-004', 'LKD-CERT-005'];

function findings(objects: any[], ruleId: string, options: AnalyzeOptions = {}) {
  return analyze(objects.map((object) => ({ object })), { rules: CERT_RULES.map((id) => ruleById(id)!), ...options })
    .findings.filter((f) => f.ruleId === ruleId);
}

function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}

function trustRoots(pem: string, namespace = 'linkerd'): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-identity-trust-roots', namespace }, data: { 'ca-bundle.crt': pem } };
}

function k8sIssuerSecret(issuer: string, ca: string | undefined, extra: Record<string, string> = {}): any {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: { name: 'linkerd-identity-issuer', namespace: 'linkerd' },
    data: { 'tls.crt': b64(issuer), ...(ca ? { 'ca.crt': b64(ca) } : {}), ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, b64(v)])) },
  };
}

function identityValues(anchors: string, issuer: string, keyPem?: string): any {
  return { identityTrustAnchorsPEM: anchors, identity: { issuer: { scheme: 'linkerd.io/tls', tls: { crtPEM: issuer, ...(keyPem ? { keyPEM: keyPem } : {}) } } } };
}

function argoApp(helm: any): any {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'linkerd-control-plane', namespace: 'argocd' },
    spec: { source: { repoURL: 'https://helm.linkerd.io/edge', chart: 'linkerd-control-plane', targetRevision: '2026.6.3', helm } },
  };
}

function helmRelease(values: any): any {
  return { apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'linkerd-control-plane', namespace: 'flux-system' }, spec: { values } };
}

function good(): any[] {
  return [trustRoots(certs.root.certPem), k8sIssuerSecret(certs.issuer.certPem, certs.root.certPem)];
}

function pair(anchor: TestCert, issuer: TestCert): any[] {
  return [helmRelease(identityValues(anchor.certPem, issuer.certPem))];
}

describe('LKD-CERT-001 parse and chain', () => {
  test('passes for a valid ConfigMap + issuer Secret, and for chart values in each delivery form', () => {
    expect(findings(good(), 'LKD-CERT-001')).toEqual([]);
    const values = identityValues(certs.root.certPem, certs.issuer.certPem);
    expect(findings([argoApp({ valuesObject: values })], 'LKD-CERT-001')).toEqual([]);
    expect(findings([helmRelease(values)], 'LKD-CERT-001')).toEqual([]);
  });

  test('an unparseable bundle', () => {
    const [f] = findings([trustRoots('not a certificate')], 'LKD-CERT-001');
    expect(f.resource).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'linkerd', name: 'linkerd-identity-trust-roots' });
    expect(f.message).toContain("data['ca-bundle.crt'] holds no PEM block");
  });

  // pkg/tls/codec.go DecodePEMCertificates reads blocks while text is left: what follows the last END line fails it.
  test('text after the last anchor of the trust-roots file stops linkerd-identity; before or between blocks it is skipped', () => {
    const root = certs.root.certPem;
    expect(findings([trustRoots(`# the mesh's root\n${root}`)], 'LKD-CERT-001')).toEqual([]);
    expect(findings([trustRoots(`${root}`)], 'LKD-CERT-001')).toEqual([]);
    const [f] = findings([trustRoots(`${root}# end of bundle\n`)], 'LKD-CERT-001');
    expect(f.message).toMatch(/data\['ca-bundle.crt'\] has text after its last certificate \("# end of bundle\\n"\).*Failed to read trust anchors/);
    expect(findings([trustRoots(`${root}\n`)], 'LKD-CERT-001')).toHaveLength(1);
    // The chart trims identityTrustAnchorsPEM before writing it: trailing blank lines there are harmless, a comment is not.
    expect(findings([argoApp({ valuesObject: identityValues(`${root}\n\n`, certs.issuer.certPem) })], 'LKD-CERT-001')).toEqual([]);
    expect(findings([argoApp({ valuesObject: identityValues(`${root}# end\n`, certs.issuer.certPem) })], 'LKD-CERT-001')).toHaveLength(1);
  });

  test('an issuer that is not a CA', () => {
    const [f] = findings([k8sIssuerSecret(certs.leaf.certPem, certs.root.certPem)], 'LKD-CERT-001');
    expect(f.message).toMatch(/Secret key 'tls.crt': issuer "not-a-ca" is not a CA/);
  });

  test('an issuer signed by an intermediate that follows it in its PEM verifies (DecodePEMCrt reads the rest as its trust chain)', () => {
    const chain = certs.issuerUnderIntermediate.certPem + certs.intermediate.certPem;
    expect(findings([k8sIssuerSecret(chain, certs.root.certPem), trustRoots(certs.root.certPem)], 'LKD-CERT-001')).toEqual([]);
    // Without the intermediate, nothing links the issuer to the root.
    expect(findings([k8sIssuerSecret(certs.issuerUnderIntermediate.certPem, certs.root.certPem)], 'LKD-CERT-001')[0].message)
      .toContain('is not signed by any of the 1 trust anchor(s)');
  });

  test('an issuer not signed by the bundle, in each place it can be read', () => {
    expect(findings([k8sIssuerSecret(certs.issuer.certPem, certs.newRoot.certPem)], 'LKD-CERT-001')[0].message).toContain('is not signed by any of the 1 trust anchor(s)');
    const values = identityValues(certs.newRoot.certPem, certs.issuer.certPem);
    expect(findings([argoApp({ valuesObject: values })], 'LKD-CERT-001')[0].message).toContain('spec.source.helm value identity.issuer.tls.crtPEM');
    const indent = (pem: string, by: string) => `${pem.trimEnd().replace(/^/gm, by)}\n`;
    const yamlString = `identityTrustAnchorsPEM: |\n${indent(certs.newRoot.certPem, '  ')}identity:\n  issuer:\n    tls:\n      crtPEM: |\n${indent(certs.issuer.certPem, '        ')}`;
    const [fromString] = findings([argoApp({ values: yamlString })], 'LKD-CERT-001');
    expect(fromString.message).toMatch(/identity\.issuer\.tls\.crtPEM: issuer "identity\.linkerd\.cluster\.local".*is not signed by any of the 1 trust anchor/);
    expect(findings([argoApp({ parameters: [{ name: 'identityTrustAnchorsPEM', value: certs.newRoot.certPem }, { name: 'identity.issuer.tls.crtPEM', value: certs.issuer.certPem }] })], 'LKD-CERT-001')).toHaveLength(1);
    expect(findings(pair(certs.newRoot, certs.issuer), 'LKD-CERT-001')[0].resource.kind).toBe('HelmRelease');
  });

  test('a linkerd.io/tls Secret is checked against the trust-roots ConfigMap beside it', () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'linkerd-identity-issuer', namespace: 'linkerd' }, stringData: { 'crt.pem': certs.issuer.certPem } };
    expect(findings([trustRoots(certs.root.certPem), secret], 'LKD-CERT-001')).toEqual([]);
    const [f, ...rest] = findings([trustRoots(certs.newRoot.certPem), secret], 'LKD-CERT-001');
    expect(rest).toEqual([]);
    expect(f.resource.kind).toBe('Secret');
    expect(f.message).toContain('anchors from ConfigMap linkerd-identity-trust-roots');
  });
});

describe('LKD-CERT-002 algorithms', () => {
  test('passes for ECDSA P-256, and for an RSA 2048 anchor', () => {
    expect(findings(good(), 'LKD-CERT-002')).toEqual([]);
    expect(findings(pair(certs.rsaRoot, certs.issuerUnderRsa), 'LKD-CERT-002')).toEqual([]);
  });

  test('an RSA 1024 anchor', () => {
    const [f] = findings([trustRoots(certs.weakRoot.certPem)], 'LKD-CERT-002');
    expect(f.message).toContain('RSA 1024');
  });

  // pkg/issuercerts/issuercerts.go checkECDSACertRequirements: an ECDSA anchor must be signed with ECDSA-SHA256 (or SHA256-RSA).
  test('a P-256 anchor signed with SHA-384', () => {
    const [f, ...rest] = findings([trustRoots(certs.sha384Root.certPem)], 'LKD-CERT-002');
    expect(rest).toEqual([]);
    expect(f.message).toMatch(/trust anchor "sha384-root.linkerd.cluster.local" \(ECDSA prime256v1\) is signed with ecdsa-with-SHA384/);
  });

  test('a P-384 issuer', () => {
    const [f] = findings(pair(certs.root, certs.p384Issuer), 'LKD-CERT-002');
    expect(f.message).toContain('ECDSA secp384r1');
  });
});

describe('LKD-CERT-003 validity', () => {
  test('passes for certificates with plenty of time left', () => {
    expect(findings(good(), 'LKD-CERT-003')).toEqual([]);
  });

  test('expired and not-yet-valid are errors', () => {
    const [expired] = findings(pair(certs.root, certs.expiredIssuer), 'LKD-CERT-003');
    expect(expired.severity).toBe(Severity.ERROR);
    expect(expired.message).toContain('expired at 2020-02-01T00:00:00Z');
    const [future] = findings(pair(certs.root, certs.futureIssuer), 'LKD-CERT-003');
    expect(future.severity).toBe(Severity.ERROR);
  });

  test('expiring within certificateExpiryWarningDays is a warning', () => {
    const [soon] = findings(pair(certs.root, certs.soonIssuer), 'LKD-CERT-003');
    expect(soon.severity).toBe(Severity.WARNING);
    expect(soon.message).toContain('fewer than 60');
    expect(findings(pair(certs.root, certs.soonIssuer), 'LKD-CERT-003', { certificateExpiryWarningDays: 5 })).toEqual([]);
  });

  test('judged at context.now', () => {
    const later = findings(good(), 'LKD-CERT-003', { now: new Date(Date.now() + 400 * 86_400_000) });
    expect(later.map((f) => f.severity)).toContain(Severity.ERROR);
    expect(later.some((f) => f.message.includes('trust anchor "root.linkerd.cluster.local" expired'))).toBe(true);
  });
});

describe('LKD-CERT-004 lifetimes and rotation', () => {
  test('passes when the issuer ends before its anchor', () => {
    expect(findings(good(), 'LKD-CERT-004')).toEqual([]);
  });

  test('an issuer that outlives its anchor', () => {
    const [f] = findings(pair(certs.root, certs.longIssuer), 'LKD-CERT-004');
    expect(f.severity).toBe(Severity.WARNING);
    expect(f.message).toContain('after its trust anchor "root.linkerd.cluster.local" expires');
  });

  test('a rotation left half-way: the newest anchor did not sign the issuer', () => {
    const bundle = certs.newRoot.certPem + certs.root.certPem;
    const [f] = findings([k8sIssuerSecret(certs.issuer.certPem, bundle)], 'LKD-CERT-004');
    expect(f.message).toContain('rotation is unfinished');
    expect(findings([k8sIssuerSecret(certs.newIssuer.certPem, bundle)], 'LKD-CERT-004')).toEqual([]);
    // The cert-manager steady state bundles the same anchor twice: not a rotation.
    expect(findings([k8sIssuerSecret(certs.issuer.certPem, certs.root.certPem + certs.root.certPem)], 'LKD-CERT-004')).toEqual([]);
  });

  test('cert-manager renewal windows', () => {
    const cert = (name: string, spec: any) => ({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name, namespace: 'linkerd' }, spec });
    const [f] = findings([cert('x', { secretName: 'x', duration: '48h', renewBefore: '48h0m0s' })], 'LKD-CERT-004');
    expect(f.message).toContain('renewBefore 48h is not shorter than duration 48h');
    const anchor = {
      ...cert('anchor', { secretName: 'anchor', isCA: true, duration: '8760h', renewBefore: '100h', privateKey: { rotationPolicy: 'Never' } }),
      metadata: { name: 'anchor', namespace: 'cert-manager' },
    };
    const clusterIssuer = { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'ca' }, spec: { ca: { secretName: 'anchor' } } };
    const issuer = cert('linkerd-identity-issuer', { secretName: 'linkerd-identity-issuer', duration: '200h', renewBefore: '25h', issuerRef: { name: 'ca', kind: 'ClusterIssuer' } });
    const [outlives] = findings([anchor, clusterIssuer, issuer], 'LKD-CERT-004');
    expect(outlives.resource.name).toBe('linkerd-identity-issuer');
    expect(outlives.message).toContain('longer than the 100h');
  });

  test('a cert-manager anchor renewed with a new key (Linkerd\'s guide: 8760h/7320h, cert-manager\'s default policy) is an unplanned rotation', () => {
    const cert = (name: string, namespace: string, spec: any) => ({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name, namespace }, spec });
    const clusterIssuer = { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'ca' }, spec: { ca: { secretName: 'anchor' } } };
    const issuer = cert('linkerd-identity-issuer', 'linkerd', { secretName: 'linkerd-identity-issuer', duration: '48h', renewBefore: '25h', issuerRef: { name: 'ca', kind: 'ClusterIssuer' } });
    const anchor = (privateKey: any) => cert('anchor', 'cert-manager', { secretName: 'anchor', isCA: true, duration: '8760h', renewBefore: '7320h', privateKey });
    const [rekey] = findings([anchor({ algorithm: 'ECDSA' }), clusterIssuer, issuer], 'LKD-CERT-004');
    expect(rekey.resource.name).toBe('anchor');
    expect(rekey.message).toMatch(/renewed 1440h after issue with cert-manager's default .*an anchor rotation nobody planned/);
    expect(rekey.fix).toMatch(/rotationPolicy: Never/);
    expect(findings([anchor({ rotationPolicy: 'Always' }), clusterIssuer, issuer], 'LKD-CERT-004')[0].message).toMatch(/rotationPolicy: Always/);
    expect(findings([anchor({ rotationPolicy: 'Never' }), clusterIssuer, issuer], 'LKD-CERT-004')).toEqual([]);
    // Linkerd's guide (tasks/automatically-rotating-control-plane-tls-credentials) keeps the previous anchor in the
    // trust-manager Bundle beside the rotating one: a planned rotation, not a false warning.
    const bundle = (sources: any[]) => ({ apiVersion: 'trust.cert-manager.io/v1alpha1', kind: 'Bundle', metadata: { name: 'linkerd-identity-trust-roots' }, spec: { sources } });
    const planned = bundle([{ secret: { name: 'anchor', key: 'tls.crt' } }, { secret: { name: 'linkerd-previous-anchor', key: 'tls.crt' } }]);
    expect(findings([anchor({ rotationPolicy: 'Always' }), clusterIssuer, issuer, planned], 'LKD-CERT-004')).toEqual([]);
    const alone = bundle([{ secret: { name: 'anchor', key: 'tls.crt' } }]);
    expect(findings([anchor({ rotationPolicy: 'Always' }), clusterIssuer, issuer, alone], 'LKD-CERT-004')).toHaveLength(1);
  });

  test('the cert-manager identity passes every certificate rule', () => {
    const chart = new Chart(Testing.app(), 'cp', { namespace: 'linkerd' });
    LinkerdIdentity.fromCertManager({ previousAnchorPem: certs.root.certPem })._bind(chart, { namespace: 'linkerd', trustDomain: 'cluster.local' });
    for (const id of CERT_RULES) expect(findings(synth(chart), id)).toEqual([]);
  });
});

describe('LKD-CERT-005 private key in output', () => {
  test('passes without keys', () => {
    expect(findings(good(), 'LKD-CERT-005')).toEqual([]);
  });

  test('a key in Secret data (base64), stringData, a ConfigMap, and chart values', () => {
    const [secret] = findings([k8sIssuerSecret(certs.issuer.certPem, certs.root.certPem, { 'tls.key': certs.issuer.keyPem })], 'LKD-CERT-005');
    expect(secret.severity).toBe(Severity.ERROR);
    expect(secret.message).toContain("data['tls.key']");
    const stringData = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'a' }, stringData: { 'key.pem': certs.issuer.keyPem } };
    expect(findings([stringData], 'LKD-CERT-005')[0].message).toContain("stringData['key.pem']");
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'a' }, data: { key: certs.rsaRoot.keyPem } };
    expect(findings([configMap], 'LKD-CERT-005')).toHaveLength(1);
    const [values] = findings([argoApp({ valuesObject: identityValues(certs.root.certPem, certs.issuer.certPem, certs.issuer.keyPem) })], 'LKD-CERT-005');
    expect(values.message).toContain('spec.source.helm.valuesObject.identity.issuer.tls.keyPEM');
  });

  test('a suppression with a reason moves the finding to the audit trail', () => {
    const secret = k8sIssuerSecret(certs.issuer.certPem, certs.root.certPem, { 'tls.key': certs.issuer.keyPem });
    secret.metadata.annotations = { [SUPPRESS_ANNOTATION]: JSON.stringify([{ ruleId: 'LKD-CERT-005', reason: 'sealed before commit' }]) };
    const result = analyze([{ object: secret }], { rules: [ruleById('LKD-CERT-005')!] });
    expect(result.findings).toEqual([]);
    expect(result.suppressed.map((s) => s.reason)).toEqual(['sealed before commit']);
  });

  test('the opted-in issuer Secret of a static identity is suppressed; nothing else writes keys', () => {
    const chart = new Chart(Testing.app(), 'cp', { namespace: 'linkerd' });
    LinkerdIdentity.fromCertificates({
      trustAnchorsPem: certs.root.certPem,
      issuerCertificatePem: certs.issuer.certPem,
      issuerPrivateKeyPem: certs.issuer.keyPem,
      writePrivateKey: true,
    })._bind(chart, { namespace: 'linkerd', trustDomain: 'cluster.local' });
    const result = analyze(synth(chart).map((object) => ({ object })), { rules: [ruleById('LKD-CERT-005')!] });
    expect(result.findings).toEqual([]);
    expect(result.suppressed).toHaveLength(1);
  });
});

describe('certificate helpers', () => {
  test.each([['8760h', 8760 * 3_600_000], ['48h0m0s', 48 * 3_600_000], ['1h30m', 5_400_000], ['1.5s', 1500], ['250ms', 250]])('Go duration %s', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  test.each([['90d'], [''], [42], ['h']])('not a Go duration: %p', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });

  test('signature algorithm from DER, and nothing from garbage', () => {
    const der = Buffer.from(certs.issuerUnderRsa.certPem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    expect(signatureAlgorithmOf(der)).toBe('sha256WithRSAEncryption');
    expect(signatureAlgorithmOf(Buffer.from([0x30, 0x82, 0xff]))).toBeUndefined();
  });
});
