import { templateTruthy, valueAt } from '../../../core/helm-values';
import { Severity } from '../../finding';
import { ChartInstall, InstallSource, controlPlaneInstalls } from '../../model/installs';
import { Rule, RuleArea, RuleContext } from '../../rule';

const LINKERD_TLS = 'linkerd.io/tls';

/** A PEM value the chart can use: a non-blank string (the templates trim it). */
function hasPem(values: Record<string, any> | undefined, path: string): boolean {
  const value = valueAt(values, path);
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Only where the analysis sees every value: values files, Secrets and file parameters it cannot read may carry the PEMs,
 * and the linkerd-config ConfigMap never holds them.
 */
function judged(install: ChartInstall): boolean {
  return install.source !== InstallSource.CONFIG_MAP && install.unseenValues.length === 0;
}

function checkIssuer(ctx: RuleContext, install: ChartInstall): void {
  const scheme = valueAt(install.values, 'identity.issuer.scheme') ?? LINKERD_TLS;
  if (scheme !== LINKERD_TLS) return;
  const missing = ['identity.issuer.tls.crtPEM', 'identity.issuer.tls.keyPEM'].filter((path) => !hasPem(install.values, path));
  if (missing.length === 0) return;
  const external = templateTruthy(valueAt(install.values, 'identity.externalCA'));
  ctx.report(install.subject, `${install.source} leaves identity.issuer.scheme at ${LINKERD_TLS}${external ? ' (with identity.externalCA)' : ''} `
    + `without ${missing.join(' and ')}: the chart's identity template \`required\`s the issuer's certificate and key, so the release `
    + 'does not render and nothing is installed.', {
    fix: external || valueAt(install.values, 'identity.issuer.scheme') === undefined
      ? 'With cert-manager writing the issuer Secret, set identity.issuer.scheme: kubernetes.io/tls; otherwise give the issuer\'s '
        + 'certificate and key (crtPEM, keyPEM), from a values file or Secret the release reads.'
      : 'Give the issuer\'s certificate and key (identity.issuer.tls.crtPEM, keyPEM), from a values file or Secret the release reads.',
  });
}

function checkTrustAnchors(ctx: RuleContext, install: ChartInstall): void {
  // With externalCA the trust roots come from elsewhere (LKD-CP-003 checks that they do).
  if (templateTruthy(valueAt(install.values, 'identity.externalCA'))) return;
  if (hasPem(install.values, 'identityTrustAnchorsPEM')) return;
  ctx.report(install.subject, `${install.source} gives no identityTrustAnchorsPEM and leaves identity.externalCA off: the chart writes `
    + 'ConfigMap linkerd-identity-trust-roots with an empty bundle, and linkerd-identity exits at start ("Failed to read trust anchors"), '
    + 'so no proxy gets a certificate.', {
    fix: 'Give the trust anchors\' PEM in identityTrustAnchorsPEM (from a values file or Secret the release reads), or set '
      + 'identity.externalCA: true with a trust-manager Bundle that writes linkerd-identity-trust-roots.',
  });
}

/** The identity values the chart cannot do without: a release that lacks them does not render, or its identity cannot start. */
export const identityValues: Rule = {
  id: 'LKD-CP-008',
  area: RuleArea.CONTROL_PLANE,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Rejected: charts/linkerd-control-plane/templates/identity.yaml `required`s the issuer certificate and key, '
      + 'so the release does not render.',
    title: 'A control-plane release gives the identity issuer and trust anchors the chart requires',
    why: 'With identity.issuer.scheme linkerd.io/tls (the default) the chart writes the issuer Secret itself and `required`s '
      + 'identity.issuer.tls.crtPEM and keyPEM: without them the release does not render, and Argo CD or Flux never sync it. '
      + 'Unless identity.externalCA is on, the chart writes ConfigMap linkerd-identity-trust-roots from identityTrustAnchorsPEM, '
      + 'whose default is empty; nothing requires it, and linkerd-identity exits when it reads no certificate. Judged only where '
      + 'the analysis sees every value (no values files, Secrets or file parameters it cannot read).',
    fix: 'Give the PEMs (from a values file or Secret the release reads), or let cert-manager write the issuer '
      + '(identity.issuer.scheme: kubernetes.io/tls) and trust-manager the trust roots (identity.externalCA: true).',
    linkerdSource: 'charts/linkerd-control-plane/templates/identity.yaml (the issuer Secret `required`s crtPEM and keyPEM when the '
      + 'scheme is linkerd.io/tls; the trust-roots ConfigMap unless externalCA); controller/cmd/identity/main.go '
      + '(tls.DecodePEMCertPool of the trust anchors, log.Fatalf on failure); pkg/tls/codec.go DecodePEMCertPool ("no certificates found")',
    badExample: 'valuesObject:\n  identity:\n    externalCA: true   # issuer.scheme left at linkerd.io/tls, no crtPEM',
    goodExample: 'valuesObject:\n  identity:\n    externalCA: true\n    issuer:\n      scheme: kubernetes.io/tls',
  },
  check(ctx) {
    for (const install of controlPlaneInstalls(ctx.index)) {
      if (!judged(install)) continue;
      checkIssuer(ctx, install);
      checkTrustAnchors(ctx, install);
    }
  },
};
