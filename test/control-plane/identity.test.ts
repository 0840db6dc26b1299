import { Chart, Duration, Testing } from 'cdk8s';
import { IssuerScheme, LinkerdIdentity, StaticIdentityProps } from '../../src/control-plane/identity';
import { formatGoDuration } from '../../src/core/duration-format';
import { MeshConfigError } from '../../src/core/errors';
import { certs } from '../support/certs';
import { find, synth } from '../support/synth';

const BIND = { namespace: 'linkerd', trustDomain: 'cluster.local' };

function chart(): Chart {
  return new Chart(Testing.app(), 'cp', { namespace: 'linkerd' });
}

function bindStatic(props: Partial<StaticIdentityProps>, scope = chart()) {
  const identity = LinkerdIdentity.fromCertificates({
    trustAnchorsPem: certs.root.certPem,
    issuerCertificatePem: certs.issuer.certPem,
    ...props,
  });
  return identity._bind(scope, BIND);
}

function errorOf(fn: () => unknown): MeshConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MeshConfigError);
    return e as MeshConfigError;
  }
  throw new Error('expected a MeshConfigError');
}

function captureStderr(fn: () => void): string {
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    fn();
    return spy.mock.calls.map((c) => String(c[0])).join('');
  } finally {
    spy.mockRestore();
  }
}

describe('Go durations', () => {
  test.each([
    [86_400_000, '24h0m0s'], [20_000, '20s'], [90_000, '1m30s'], [500, '500ms'], [1500, '1.5s'], [0, '0s'], [3_600_000 * 8760, '8760h0m0s'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text);
  });
});

describe('LinkerdIdentity.fromCertificates', () => {
  test('writes anchors, issuer certificate and Go durations, and never the key by default', () => {
    const scope = chart();
    const binding = bindStatic({}, scope);
    expect(binding.values.identityTrustAnchorsPEM).toContain('BEGIN CERTIFICATE');
    expect(binding.values.identityTrustDomain).toBe('cluster.local');
    expect(binding.values.identity).toEqual({
      externalCA: false,
      issuer: {
        scheme: 'kubernetes.io/tls',
        issuanceLifetime: '24h0m0s',
        clockSkewAllowance: '20s',
        tls: { crtPEM: expect.stringContaining('BEGIN CERTIFICATE') },
      },
    });
    expect(binding.apiObjects).toEqual([]);
    expect(binding.writesPrivateKey).toBe(false);
    expect(JSON.stringify(binding.values)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(synth(scope))).not.toContain('PRIVATE KEY');
  });

  // pkg/tls/cred.go DecodePEMCrt: the certificates after the issuer are its trust chain, verified and sent to proxies.
  test('an issuer signed by an intermediate CA, the intermediate after it in the PEM: accepted, and written as the chain', () => {
    const chain = certs.issuerUnderIntermediate.certPem + certs.intermediate.certPem;
    const binding = bindStatic({ issuerCertificatePem: chain });
    const crt: string = binding.values.identity.issuer.tls.crtPEM;
    expect(crt.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(crt.indexOf(certs.issuerUnderIntermediate.certPem.trim().split('\n')[1])).toBeLessThan(crt.indexOf(certs.intermediate.certPem.trim().split('\n')[1]));
    // Without the intermediate, nothing links the issuer to the anchor.
    expect(errorOf(() => bindStatic({ issuerCertificatePem: certs.issuerUnderIntermediate.certPem })).message).toMatch(/LKD-CERT-001.*not signed by any of the 1 trust anchor/);
  });

  test('custom lifetimes', () => {
    const binding = bindStatic({ issuanceLifetime: Duration.hours(12), clockSkewAllowance: Duration.minutes(1) });
    expect(binding.values.identity.issuer.issuanceLifetime).toBe('12h0m0s');
    expect(binding.values.identity.issuer.clockSkewAllowance).toBe('1m0s');
  });

  test('a bundle of several anchors is accepted when one signed the issuer; an RSA 2048 anchor is accepted', () => {
    const binding = bindStatic({ trustAnchorsPem: certs.newRoot.certPem + certs.root.certPem });
    expect(binding.values.identityTrustAnchorsPEM.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(() => bindStatic({ trustAnchorsPem: certs.rsaRoot.certPem, issuerCertificatePem: certs.issuerUnderRsa.certPem })).not.toThrow();
  });

  test('unparseable PEM is LKD-CERT-001', () => {
    const e = errorOf(() => bindStatic({ trustAnchorsPem: '-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n' }));
    expect(e.ruleId).toBe('LKD-CERT-001');
    expect(e.message).toContain('does not parse');
    expect(e.message).toContain('[cp]');
  });

  test('a private key in the anchor bundle is refused', () => {
    const e = errorOf(() => bindStatic({ trustAnchorsPem: certs.root.certPem + certs.root.keyPem }));
    expect(e.ruleId).toBe('LKD-CERT-001');
    expect(e.message).toContain('PRIVATE KEY');
  });

  test('an issuer that is not a CA is LKD-CERT-001', () => {
    const e = errorOf(() => bindStatic({ issuerCertificatePem: certs.leaf.certPem }));
    expect(e.ruleId).toBe('LKD-CERT-001');
    expect(e.message).toContain('not a CA');
  });

  test('an issuer not signed by the anchors is LKD-CERT-001', () => {
    const e = errorOf(() => bindStatic({ issuerCertificatePem: certs.newIssuer.certPem }));
    expect(e.ruleId).toBe('LKD-CERT-001');
    expect(e.message).toContain('not signed by any of the 1 trust anchor(s)');
  });

  test('wrong algorithms are LKD-CERT-002', () => {
    const weak = errorOf(() => bindStatic({ trustAnchorsPem: certs.weakRoot.certPem, issuerCertificatePem: certs.issuerUnderWeakRoot.certPem }));
    expect(weak.ruleId).toBe('LKD-CERT-002');
    expect(weak.message).toContain('RSA 1024');
    const p384 = errorOf(() => bindStatic({ issuerCertificatePem: certs.p384Issuer.certPem }));
    expect(p384.ruleId).toBe('LKD-CERT-002');
    expect(p384.message).toContain('secp384r1');
  });

  test('expired and not-yet-valid certificates are LKD-CERT-003 errors', () => {
    const expired = errorOf(() => bindStatic({ issuerCertificatePem: certs.expiredIssuer.certPem }));
    expect(expired.ruleId).toBe('LKD-CERT-003');
    expect(expired.message).toContain('expired at 2020-02-01T00:00:00Z');
    const future = errorOf(() => bindStatic({ issuerCertificatePem: certs.futureIssuer.certPem }));
    expect(future.ruleId).toBe('LKD-CERT-003');
    expect(future.message).toContain('not valid before 2099-01-01');
  });

  test('expiring soon is a warning printed at synth, or an error with failOnExpiryWarning', () => {
    const scope = chart();
    expect(() => bindStatic({ issuerCertificatePem: certs.soonIssuer.certPem }, scope)).not.toThrow();
    const printed = captureStderr(() => Testing.synth(scope));
    expect(printed).toMatch(/warning: LKD-CERT-003 at cp: issuer "soon-issuer" expires at .* in \d day\(s\) \(fewer than 60\)/);
    const e = errorOf(() => bindStatic({ issuerCertificatePem: certs.soonIssuer.certPem, failOnExpiryWarning: true }));
    expect(e.ruleId).toBe('LKD-CERT-003');
    expect(() => bindStatic({ issuerCertificatePem: certs.soonIssuer.certPem, failOnExpiryWarning: true, expiryWarningDays: 5 })).not.toThrow();
  });

  test('an issuer that outlives its anchor is a LKD-CERT-004 warning', () => {
    const scope = chart();
    bindStatic({ issuerCertificatePem: certs.longIssuer.certPem }, scope);
    expect(captureStderr(() => Testing.synth(scope))).toContain('LKD-CERT-004');
  });

  test('a private key without writePrivateKey is refused (LKD-CERT-005)', () => {
    const e = errorOf(() => bindStatic({ issuerPrivateKeyPem: certs.issuer.keyPem }));
    expect(e.ruleId).toBe('LKD-CERT-005');
    expect(errorOf(() => bindStatic({ issuerPrivateKeyPem: certs.issuer.keyPem, writePrivateKey: false })).ruleId).toBe('LKD-CERT-005');
    expect(errorOf(() => bindStatic({ writePrivateKey: true })).ruleId).toBe('LKD-INPUT-003');
  });

  // pkg/tls/ca.go Validity.Window: a zero lifetime is one year, a zero skew 10s.
  test('a zero issuanceLifetime or clockSkewAllowance is refused: linkerd-identity reads zero as its default', () => {
    expect(errorOf(() => bindStatic({ issuanceLifetime: Duration.seconds(0) })).message).toMatch(/LKD-INPUT-005: issuanceLifetime is zero, which linkerd-identity reads as its default \(one year/);
    expect(errorOf(() => bindStatic({ clockSkewAllowance: Duration.seconds(0) })).message).toMatch(/clockSkewAllowance is zero.*10s/);
    expect(() => LinkerdIdentity.fromCertManager({ issuanceLifetime: Duration.seconds(0) })._bind(chart(), BIND)).toThrow(/issuanceLifetime is zero/);
  });

  test('scheme LINKERD_TLS needs an opted-in key', () => {
    const e = errorOf(() => bindStatic({ scheme: IssuerScheme.LINKERD_TLS }));
    expect(e.ruleId).toBe('LKD-CERT-005');
    expect(e.message).toContain('LINKERD_TLS');
  });

  test('a key that does not belong to the issuer is refused', () => {
    const e = errorOf(() => bindStatic({ issuerPrivateKeyPem: certs.newIssuer.keyPem, writePrivateKey: true }));
    expect(e.ruleId).toBe('LKD-CERT-001');
    expect(e.message).toContain('does not belong');
  });

  test('LINKERD_TLS with an opted-in key puts keyPEM in the values', () => {
    const binding = bindStatic({ scheme: IssuerScheme.LINKERD_TLS, issuerPrivateKeyPem: certs.issuer.keyPem, writePrivateKey: true });
    expect(binding.values.identity.issuer.scheme).toBe('linkerd.io/tls');
    expect(binding.values.identity.issuer.tls.keyPEM).toContain('PRIVATE KEY');
    expect(binding.writesPrivateKey).toBe(true);
    expect(binding.apiObjects).toEqual([]);
  });

  test('KUBERNETES_TLS with an opted-in key creates the issuer Secret, suppressed for LKD-CERT-005', () => {
    const scope = chart();
    const binding = bindStatic({ issuerPrivateKeyPem: certs.issuer.keyPem, writePrivateKey: true }, scope);
    expect(binding.values.identity.issuer.tls.keyPEM).toBeUndefined();
    const secret = find(synth(scope), 'Secret', 'linkerd-identity-issuer');
    expect(secret.type).toBe('kubernetes.io/tls');
    expect(secret.metadata.namespace).toBe('linkerd');
    expect(Object.keys(secret.data).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
    expect(Buffer.from(secret.data['tls.key'], 'base64').toString()).toContain('PRIVATE KEY');
    expect(secret.metadata.annotations['analysis.cdk8s-linkerd.io/suppress']).toContain('LKD-CERT-005');
    expect(() => Testing.synth(scope)).not.toThrow();
  });
});

describe('LinkerdIdentity.fromCertManager', () => {
  function objects(props = {}) {
    const scope = chart();
    const binding = LinkerdIdentity.fromCertManager(props)._bind(scope, BIND);
    return { binding, objects: synth(scope), scope };
  }

  test('values: external CA, kubernetes.io/tls, no anchors or key', () => {
    const { binding } = objects();
    expect(binding.values).toEqual({
      identityTrustDomain: 'cluster.local',
      identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls', issuanceLifetime: '24h0m0s', clockSkewAllowance: '20s' } },
    });
    expect(binding.writesPrivateKey).toBe(false);
    expect(binding.apiObjects).toHaveLength(5);
  });

  test('the objects of Linkerd\'s automatic-rotation guide', () => {
    const { objects: out } = objects();
    const rootIssuer = find(out, 'Issuer', 'linkerd-trust-root-issuer');
    expect(rootIssuer).toMatchObject({ apiVersion: 'cert-manager.io/v1', metadata: { namespace: 'cert-manager' }, spec: { selfSigned: {} } });
    const anchor = find(out, 'Certificate', 'linkerd-trust-anchor');
    expect(anchor.metadata.namespace).toBe('cert-manager');
    expect(anchor.spec).toMatchObject({
      isCA: true,
      commonName: 'root.linkerd.cluster.local',
      secretName: 'linkerd-trust-anchor',
      duration: '87600h0m0s',
      renewBefore: '8760h0m0s',
      privateKey: { algorithm: 'ECDSA', rotationPolicy: 'Never' },
      issuerRef: { name: 'linkerd-trust-root-issuer', kind: 'Issuer' },
    });
    const clusterIssuer = find(out, 'ClusterIssuer', 'linkerd-identity-issuer');
    expect(clusterIssuer.metadata.namespace).toBeUndefined();
    expect(clusterIssuer.spec).toEqual({ ca: { secretName: 'linkerd-trust-anchor' } });
    const issuer = find(out, 'Certificate', 'linkerd-identity-issuer');
    expect(issuer.metadata.namespace).toBe('linkerd');
    expect(issuer.spec).toMatchObject({
      secretName: 'linkerd-identity-issuer',
      isCA: true,
      commonName: 'identity.linkerd.cluster.local',
      duration: '48h0m0s',
      renewBefore: '25h0m0s',
      privateKey: { algorithm: 'ECDSA', rotationPolicy: 'Always' },
      issuerRef: { name: 'linkerd-identity-issuer', kind: 'ClusterIssuer' },
    });
    const bundle = find(out, 'Bundle', 'linkerd-identity-trust-roots');
    expect(bundle.metadata.namespace).toBeUndefined();
    expect(bundle.apiVersion).toBe('trust.cert-manager.io/v1alpha1');
    expect(bundle.spec).toEqual({
      // A fresh install: only the anchor Secret cert-manager creates (no previous-anchor Secret that nothing creates).
      sources: [{ secret: { name: 'linkerd-trust-anchor', key: 'tls.crt' } }],
      target: { configMap: { key: 'ca-bundle.crt' }, namespaceSelector: { matchLabels: { 'linkerd.io/is-control-plane': 'true' } } },
    });
    expect(JSON.stringify(out)).not.toContain('PRIVATE KEY');
  });

  test('names, namespaces and durations are configurable', () => {
    const { objects: out } = objects({
      certManagerNamespace: 'certs',
      trustAnchorName: 'mesh-root',
      issuerDuration: Duration.hours(24),
      issuerRenewBefore: Duration.hours(8),
      issuerCommonName: 'identity.linkerd.example.org',
    });
    expect(find(out, 'Certificate', 'mesh-root').metadata.namespace).toBe('certs');
    expect(find(out, 'ClusterIssuer', 'linkerd-identity-issuer').spec.ca.secretName).toBe('mesh-root');
    expect(find(out, 'Certificate', 'linkerd-identity-issuer').spec).toMatchObject({ duration: '24h0m0s', renewBefore: '8h0m0s', commonName: 'identity.linkerd.example.org' });
  });

  test('renewBefore not shorter than duration is refused (LKD-CERT-004)', () => {
    const e = errorOf(() => objects({ issuerDuration: Duration.hours(24), issuerRenewBefore: Duration.hours(24) }));
    expect(e.ruleId).toBe('LKD-CERT-004');
    expect(errorOf(() => objects({ trustAnchorDuration: Duration.minutes(30) })).ruleId).toBe('LKD-CERT-004');
  });

  test('an issuer that can outlive the anchor is a synth warning', () => {
    const { scope } = objects({
      trustAnchorRenewBefore: Duration.hours(24),
      trustAnchorDuration: Duration.hours(48),
      issuerDuration: Duration.hours(30),
      issuerRenewBefore: Duration.hours(10),
    });
    expect(captureStderr(() => Testing.synth(scope))).toContain('LKD-CERT-004');
  });

  test('previousAnchorPem creates the previous-anchor Secret with the certificate only', () => {
    const { objects: out } = objects({ previousAnchorPem: certs.root.certPem });
    const secret = find(out, 'Secret', 'linkerd-previous-anchor');
    expect(secret.metadata.namespace).toBe('cert-manager');
    expect(Object.keys(secret.data)).toEqual(['tls.crt']);
    expect(Buffer.from(secret.data['tls.crt'], 'base64').toString()).toContain('BEGIN CERTIFICATE');
    expect(errorOf(() => objects({ previousAnchorPem: certs.root.keyPem })).ruleId).toBe('LKD-CERT-001');
  });

  test('the output passes the mesh checks', () => {
    const { scope } = objects();
    expect(() => Testing.synth(scope)).not.toThrow();
  });
});
