import { bundleOf, certificatesOf, ownFields, trustMaterials } from './material';
import { chainProblems, trailingTextProblem } from '../../../core/certificates';
import { Severity } from '../../finding';
import { Rule, RuleArea } from '../../rule';

/** The trust chain linkerd-identity checks when it loads the issuer, on YAML. */
export const certificateChain: Rule = {
  id: 'LKD-CERT-001',
  area: RuleArea.CERT,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Fails to start: linkerd-identity refuses credentials whose issuer does not verify against the anchors or is '
      + 'no CA (pkg/identity/service.go loadCredentials, pkg/issuercerts/issuercerts.go VerifyAndBuildCreds), so no '
      + 'proxy gets a certificate.',
    title: 'Trust anchors and issuer parse, the issuer is a CA, and it verifies against the anchor bundle',
    why: 'linkerd-identity refuses to start when the trust-roots file has text after its last certificate, or when the issuer does not verify against the trust anchors or is not an '
      + 'intermediate CA, and then no proxy gets a certificate; `linkerd check` reports "issuer cert is issued by the trust anchor".',
    fix: 'Put only PEM certificates in the bundle, and use an intermediate CA (basicConstraints CA:TRUE) signed by one of the anchors.',
    linkerdSource: 'pkg/identity/service.go (svc *Service) loadCredentials (issuer must verify against the trust anchors and '
      + 'be a CA); pkg/issuercerts/issuercerts.go (ic *IssuerCertData) VerifyAndBuildCreds; pkg/tls/cred.go DecodePEMCrt, '
      + '(crt *Crt) Verify (the certificates after the issuer are its intermediates); pkg/tls/codec.go DecodePEMCertificates, '
      + 'controller/cmd/identity/main.go (the trust-roots file must end with its last certificate)',
    badExample: 'kind: Secret\nmetadata: {name: linkerd-identity-issuer, namespace: linkerd}\ntype: kubernetes.io/tls\nstringData:\n  tls.crt: <leaf certificate, CA:FALSE>\n  ca.crt: <an unrelated root>',
    goodExample: 'kind: Secret\nmetadata: {name: linkerd-identity-issuer, namespace: linkerd}\ntype: kubernetes.io/tls\nstringData:\n  tls.crt: <intermediate CA signed by the root>\n  ca.crt: <the root>',
  },
  check(ctx) {
    for (const material of trustMaterials(ctx.index)) {
      for (const { pem } of ownFields(material)) {
        for (const problem of bundleOf(pem).problems) ctx.report(material.subject, `${pem.label} ${problem}.`);
        const trailing = pem.identityReads && trailingTextProblem(pem.identityReads === 'trimmed' ? pem.text.trim() : pem.text);
        if (trailing) ctx.report(material.subject, `${pem.label} ${trailing}.`, { fix: 'End the bundle with the last certificate\'s END line.' });
      }
      const [issuer, ...intermediates] = certificatesOf(material.issuer);
      if (!issuer) continue;
      const anchors = certificatesOf(material.anchors);
      for (const problem of chainProblems(issuer, anchors, intermediates)) {
        ctx.report(material.subject, `${material.issuer!.label}: ${problem}${anchors.length > 0 ? ` (anchors from ${material.anchors!.label})` : ''}.`);
      }
    }
  },
};
