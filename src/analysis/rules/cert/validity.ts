import { certificatesOf, ownFields, trustMaterials } from './material';
import { ValidityState, validityProblem } from '../../../core/certificates';
import { Severity } from '../../finding';
import { Rule, RuleArea } from '../../rule';

/** Expired and soon-expiring certificates; unlike `linkerd check` (which exits 0 on warnings, linkerd2#9612) this can fail CI. */
export const certificateValidity: Rule = {
  id: 'LKD-CERT-003',
  area: RuleArea.CERT,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Fails to start: an expired or not yet valid certificate fails pkg/issuercerts/issuercerts.go '
      + 'CheckCertValidityPeriod, and mTLS stops. One still valid but inside the warning window is a warning: whether'
      + ' it is renewed in time is outside the manifests.',
    title: 'Certificates are inside their validity window and not about to expire',
    why: 'An expired or not-yet-valid anchor or issuer stops mesh identity: new pods get no certificate and mTLS fails. '
      + '`linkerd check` only warns when fewer than 60 days are left, and exits 0.',
    fix: 'Rotate the certificate (see TrustAnchorRotation) before it expires; an expired anchor needs Linkerd\'s "replacing expired certificates" procedure.',
    linkerdSource: 'pkg/issuercerts/issuercerts.go CheckCertValidityPeriod, CheckExpiringSoon '
      + '(expirationWarningThresholdInDays = 60); pkg/healthcheck/healthcheck.go (hc *HealthChecker) '
      + 'CheckCertAndAnchorsExpiringSoon',
    badExample: 'identityTrustAnchorsPEM: <root whose notAfter has passed>',
    goodExample: 'identityTrustAnchorsPEM: <root valid for another year>',
  },
  check(ctx) {
    const { now, certificateExpiryWarningDays } = ctx.context;
    for (const material of trustMaterials(ctx.index)) {
      for (const { pem, role } of ownFields(material)) {
        for (const cert of certificatesOf(pem)) {
          const problem = validityProblem(cert, role, now, certificateExpiryWarningDays);
          if (!problem) continue;
          const severity = problem.state === ValidityState.EXPIRING ? Severity.WARNING : Severity.ERROR;
          ctx.report(material.subject, `${pem.label}: ${problem.message}.`, { severity });
        }
      }
    }
  },
};
