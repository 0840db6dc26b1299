import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { IssuerScheme, LinkerdIdentity, ProxyTrust, RotationStep, TrustAnchorRotation, TrustAnchorRotationProps } from '../../src/control-plane/identity';
import { MeshConfigError } from '../../src/core/errors';
import { certs } from '../support/certs';

const BEFORE_SWITCH = [RotationStep.BUNDLE_NEW_AND_OLD, RotationStep.RESTART_AFTER_BUNDLE];
const AFTER_SWITCH = [RotationStep.SWITCH_ISSUER, RotationStep.RESTART_AFTER_ISSUER];
const AFTER_REMOVAL = [RotationStep.REMOVE_OLD_ANCHOR, RotationStep.RESTART_AFTER_REMOVAL, RotationStep.DONE];

function rotation(step: RotationStep, props: Partial<TrustAnchorRotationProps> = {}): TrustAnchorRotation {
  const issuer = BEFORE_SWITCH.includes(step) ? certs.issuer : certs.newIssuer;
  return new TrustAnchorRotation(new Chart(Testing.app(), 'cp'), 'Rotation', {
    currentAnchorPem: certs.root.certPem,
    newAnchorPem: certs.newRoot.certPem,
    issuerCertificatePem: issuer.certPem,
    step,
    ...props,
  });
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

function anchorCount(pem: string): number {
  return pem.match(/BEGIN CERTIFICATE/g)?.length ?? 0;
}

describe('TrustAnchorRotation bundles', () => {
  test.each([...BEFORE_SWITCH, ...AFTER_SWITCH])('%s deploys new and current anchor, new first', (step) => {
    const plan = rotation(step);
    expect(anchorCount(plan.trustAnchorsPem)).toBe(2);
    expect(plan.trustAnchorsPem.startsWith(certs.newRoot.certPem.trim().split('\n')[0])).toBe(true);
    expect(plan.trustAnchorsPem.indexOf(certs.newRoot.certPem.trim().split('\n')[1])).toBeLessThan(plan.trustAnchorsPem.indexOf(certs.root.certPem.trim().split('\n')[1]));
  });

  test.each(AFTER_REMOVAL)('%s deploys only the new anchor', (step) => {
    const plan = rotation(step);
    expect(anchorCount(plan.trustAnchorsPem)).toBe(1);
    expect(plan.trustAnchorsPem).toContain(certs.newRoot.certPem.trim().split('\n')[1]);
  });

  test('steps chain to the next one', () => {
    expect(rotation(RotationStep.BUNDLE_NEW_AND_OLD).nextStep).toBe(RotationStep.RESTART_AFTER_BUNDLE);
    expect(rotation(RotationStep.REMOVE_OLD_ANCHOR).nextStep).toBe(RotationStep.RESTART_AFTER_REMOVAL);
    expect(rotation(RotationStep.DONE).nextStep).toBeUndefined();
  });

  test('the bundle feeds a static identity that passes its own checks', () => {
    for (const step of Object.values(RotationStep)) {
      const plan = rotation(step);
      const binding = LinkerdIdentity.fromCertificates({ trustAnchorsPem: plan.trustAnchorsPem, issuerCertificatePem: plan.issuerCertificatePem })
        ._bind(new Chart(Testing.app(), 'x'), { namespace: 'linkerd', trustDomain: 'cluster.local' });
      expect(binding.values.identityTrustAnchorsPEM).toBe(plan.trustAnchorsPem);
    }
  });
});

// pkg/tls/cred.go DecodePEMCrt keeps the certificates after the issuer as its trust chain; Crt.Verify uses them.
describe('TrustAnchorRotation with an intermediate CA between anchor and issuer', () => {
  const chain = (...parts: { certPem: string }[]) => parts.map((p) => p.certPem.trim()).join('\n');

  test('an issuer with its intermediate chains to the anchor; the plan deploys both', () => {
    const before = rotation(RotationStep.BUNDLE_NEW_AND_OLD, { issuerCertificatePem: chain(certs.issuerUnderIntermediate, certs.intermediate) });
    expect(anchorCount(before.issuerCertificatePem)).toBe(2);
    const after = rotation(RotationStep.REMOVE_OLD_ANCHOR, { issuerCertificatePem: chain(certs.issuerUnderNewIntermediate, certs.newIntermediate) });
    expect(anchorCount(after.issuerCertificatePem)).toBe(2);
    const binding = LinkerdIdentity.fromCertificates({ trustAnchorsPem: after.trustAnchorsPem, issuerCertificatePem: after.issuerCertificatePem })
      ._bind(new Chart(Testing.app(), 'x'), { namespace: 'linkerd', trustDomain: 'cluster.local' });
    expect(binding.values.identityTrustAnchorsPEM).toBe(after.trustAnchorsPem);
  });

  test('without its intermediate the issuer chains to no anchor; the step rules see through the chain', () => {
    expect(errorOf(() => rotation(RotationStep.BUNDLE_NEW_AND_OLD, { issuerCertificatePem: certs.issuerUnderIntermediate.certPem })).message)
      .toContain('not signed by any of the 2 trust anchor(s)');
    const newChain = chain(certs.issuerUnderNewIntermediate, certs.newIntermediate);
    const early = errorOf(() => rotation(RotationStep.BUNDLE_NEW_AND_OLD, { issuerCertificatePem: newChain }));
    expect(early.message).toContain('must still be signed by the current anchor');
  });
});

describe('TrustAnchorRotation refusals', () => {
  test('an issuer signed by no anchor in the bundle', () => {
    const e = errorOf(() => rotation(RotationStep.BUNDLE_NEW_AND_OLD, { issuerCertificatePem: certs.issuerUnderRsa.certPem }));
    expect(e.ruleId).toBe('LKD-CERT-001');
    expect(e.message).toContain('not signed by any of the 2 trust anchor(s)');
  });

  test.each(AFTER_REMOVAL)('%s: removing the old anchor while the issuer still chains to it', (step) => {
    const e = errorOf(() => rotation(step, { issuerCertificatePem: certs.issuer.certPem }));
    expect(e.ruleId).toBe('LKD-CERT-004');
    expect(e.message).toContain('removes the old anchor while issuer');
  });

  test('switching the issuer without an issuer from the new anchor', () => {
    const e = errorOf(() => rotation(RotationStep.SWITCH_ISSUER, { issuerCertificatePem: certs.issuer.certPem }));
    expect(e.ruleId).toBe('LKD-CERT-004');
    expect(e.message).toContain('needs an issuer signed by the new anchor');
  });

  test('the new anchor missing (same as the current one)', () => {
    const e = errorOf(() => rotation(RotationStep.SWITCH_ISSUER, { newAnchorPem: certs.root.certPem, issuerCertificatePem: certs.issuer.certPem }));
    expect(e.ruleId).toBe('LKD-CERT-004');
    expect(e.message).toContain('no new anchor');
  });

  test('switching the issuer before proxies were restarted with the bundle', () => {
    const early = errorOf(() => rotation(RotationStep.BUNDLE_NEW_AND_OLD, { issuerCertificatePem: certs.newIssuer.certPem }));
    expect(early.message).toContain('must still be signed by the current anchor');
    const declared = errorOf(() => rotation(RotationStep.SWITCH_ISSUER, { runningProxiesTrust: ProxyTrust.OLD_ANCHOR }));
    expect(declared.ruleId).toBe('LKD-CERT-004');
    expect(declared.message).toContain('declared old-anchor');
  });

  test('removing the old anchor while running proxies still hold certificates that chain to it', () => {
    const e = errorOf(() => rotation(RotationStep.REMOVE_OLD_ANCHOR, { runningProxiesTrust: ProxyTrust.BOTH_ANCHORS_OLD_ISSUER }));
    expect(e.ruleId).toBe('LKD-CERT-004');
    expect(e.message).toContain('chain to the old anchor');
    expect(() => rotation(RotationStep.REMOVE_OLD_ANCHOR, { runningProxiesTrust: ProxyTrust.BOTH_ANCHORS_NEW_ISSUER })).not.toThrow();
  });

  test('bad anchors', () => {
    expect(errorOf(() => rotation(RotationStep.BUNDLE_NEW_AND_OLD, { newAnchorPem: certs.weakRoot.certPem })).ruleId).toBe('LKD-CERT-002');
    expect(errorOf(() => rotation(RotationStep.BUNDLE_NEW_AND_OLD, { newAnchorPem: 'garbage' })).ruleId).toBe('LKD-CERT-001');
  });
});

describe('TrustAnchorRotation runbook', () => {
  test('bundle step: helm upgrade with --set-file identityTrustAnchorsPEM=bundle.crt', () => {
    const text = rotation(RotationStep.BUNDLE_NEW_AND_OLD).runbook();
    expect(text).toContain('# Trust-anchor rotation, step 1/7');
    expect(text).toContain('helm upgrade linkerd-control-plane linkerd/linkerd-control-plane -n linkerd --reuse-values');
    expect(text).toContain('--set-file identityTrustAnchorsPEM=bundle.crt');
    expect(text).toContain('linkerd check --proxy');
    expect(text).toContain('RotationStep.RESTART_AFTER_BUNDLE');
    expect(text).toContain('root-2.linkerd.cluster.local');
    expect(text).toContain('root.linkerd.cluster.local');
  });

  test('restart steps restart the control plane and each meshed namespace', () => {
    const text = rotation(RotationStep.RESTART_AFTER_BUNDLE, { meshedNamespaces: ['shop', 'payments'] }).runbook();
    expect(text).toContain('kubectl -n linkerd rollout restart deployment');
    expect(text).toContain('kubectl -n shop rollout restart deployment,statefulset,daemonset');
    expect(text).toContain('kubectl -n payments rollout restart deployment,statefulset,daemonset');
    expect(text).toContain('linkerd check --proxy');
    const discovered = rotation(RotationStep.RESTART_AFTER_ISSUER).runbook();
    expect(discovered).toContain('-l linkerd.io/control-plane-ns=linkerd');
  });

  test('issuer switch: Secret or Helm values, then wait for IssuerUpdated', () => {
    const k8s = rotation(RotationStep.SWITCH_ISSUER).runbook();
    expect(k8s).toContain('create secret generic linkerd-identity-issuer --type=kubernetes.io/tls');
    expect(k8s).toContain('--field-selector reason=IssuerUpdated');
    const helm = rotation(RotationStep.SWITCH_ISSUER, { scheme: IssuerScheme.LINKERD_TLS, helmRelease: 'l5d', controlPlaneNamespace: 'mesh' }).runbook();
    expect(helm).toContain('helm upgrade l5d linkerd/linkerd-control-plane -n mesh --reuse-values');
    expect(helm).toContain('--set-file identity.issuer.tls.crtPEM=issuer.crt');
    expect(helm).toContain('--set-file identity.issuer.tls.keyPEM=issuer.key');
    expect(helm).toContain('kubectl -n mesh get events --field-selector reason=IssuerUpdated');
  });

  test('removal and done', () => {
    expect(rotation(RotationStep.REMOVE_OLD_ANCHOR).runbook()).toContain('bundle of only the new anchor');
    expect(rotation(RotationStep.DONE).runbook()).toContain('Nothing: the old anchor is gone.');
  });

  test('writeRunbook writes the runbook and the public certificates only', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runbook-'));
    try {
      const file = rotation(RotationStep.SWITCH_ISSUER).writeRunbook(dir);
      expect(path.basename(file)).toBe('trust-anchor-rotation.md');
      expect(fs.readdirSync(dir).sort()).toEqual(['bundle.crt', 'issuer.crt', 'trust-anchor-rotation.md']);
      for (const name of fs.readdirSync(dir)) expect(fs.readFileSync(path.join(dir, name), 'utf8')).not.toContain('PRIVATE KEY');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
