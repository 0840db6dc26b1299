import { certificatesOf, issuerOf, ownFields, trustMaterials } from './material';
import { anchorAlgorithmProblem, issuerAlgorithmProblems } from '../../../core/certificates';
import { Severity } from '../../finding';
import { Rule, RuleArea } from '../../rule';

/** The key algorithms `linkerd check` accepts. */
export const certificateAlgorithms: Rule = {
  id: 'LKD-CERT-002',
  area: RuleArea.CERT,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Fails to start: pkg/issuercerts/issuercerts.go CheckIssuerCertAlgoRequirements refuses any other issuer key,'
      + ' so the identity service gets no usable issuer.',
    title: 'The issuer uses ECDSA P-256 (signed with SHA-256); trust anchors use ECDSA P-256 or RSA 2048/4096',
    why: 'linkerd-identity signs workload certificates with the issuer key and proxies only validate the algorithms '
      + 'Linkerd supports; `linkerd check` fails "certificate config is valid" for any other key.',
    fix: 'Re-issue with an ECDSA P-256 key, e.g. `step certificate create ... --kty EC --crv P-256`.',
    linkerdSource: 'pkg/issuercerts/issuercerts.go CheckIssuerCertAlgoRequirements, CheckTrustAnchorAlgoRequirements, '
      + 'checkECDSACertRequirements, checkRSACertRequirements',
    badExample: 'identityTrustAnchorsPEM: <root with an RSA 1024 or P-384 key>',
    goodExample: 'identityTrustAnchorsPEM: <root with an ECDSA P-256 key>',
  },
  check(ctx) {
    for (const material of trustMaterials(ctx.index)) {
      for (const { pem, role } of ownFields(material)) {
        const issuer = issuerOf(pem);
        const problems = role === 'issuer'
          ? (issuer ? issuerAlgorithmProblems(issuer) : [])
          : certificatesOf(pem).map(anchorAlgorithmProblem).filter((p): p is string => p !== undefined);
        for (const problem of problems) ctx.report(material.subject, `${pem.label}: ${problem}.`);
      }
    }
  },
};
