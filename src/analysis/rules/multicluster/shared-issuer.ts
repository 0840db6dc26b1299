import { ParsedCertificate } from '../../../core/certificates';
import { Severity } from '../../finding';
import { FleetCluster, FleetRule } from '../../fleet/fleet-rule';
import { RuleArea } from '../../rule';

function publicKeyOf(cert: ParsedCertificate): string {
  return cert.x509.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
}

interface Seen {
  readonly cluster: FleetCluster;
  readonly certificate: ParsedCertificate;
}

/** One issuer per cluster: the seeds' mistake of copying the issuer Secret into a second cluster. */
export const sharedIssuerRule: FleetRule = {
  id: 'LKD-MC-002',
  area: RuleArea.MULTICLUSTER,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: how the issuer key is protected and rotated in each cluster; Linkerd works with a shared issuer.',
    title: 'Each cluster of a fleet has an issuer of its own',
    why: 'Copying the issuer Secret (certificate and key) into another cluster does not create trust: trust comes from a shared '
      + 'anchor. A shared issuer key means one leaked cluster can mint identities for every cluster, its rotation must happen '
      + 'everywhere at once, and `linkerd check` cannot tell the clusters apart by issuer.',
    linkerdSource: 'not Linkerd: Linkerd accepts an issuer copied into another cluster; one issuer per cluster under the shared anchor is the fleet practice this library checks (multicluster/cmd/check.go checks only the anchors)',
    fix: 'Issue one intermediate CA per cluster from the shared anchor (step certificate create identity.linkerd.cluster.local '
      + '... --ca anchor.crt) and give each cluster its own; keep the anchor key offline.',
    badExample: '# east and west: identity.issuer.tls.crtPEM = the same certificate',
    goodExample: '# east: issuer-east (signed by the anchor); west: issuer-west (signed by the anchor)',
  },
  check(ctx) {
    const byFingerprint = new Map<string, Seen>();
    const byKey = new Map<string, Seen>();
    for (const cluster of ctx.clusters.values()) {
      for (const { subject, certificate } of cluster.facts.issuers) {
        const sameCert = byFingerprint.get(certificate.x509.fingerprint256);
        const sameKey = byKey.get(publicKeyOf(certificate));
        const other = sameCert ?? sameKey;
        if (other && other.cluster !== cluster) {
          const what = sameCert ? `the same issuer certificate "${certificate.name}"` : `an issuer with the same key as ${other.cluster.facts.name}'s "${other.certificate.name}"`;
          ctx.report(cluster, subject, `${cluster.facts.name} uses ${what} as ${other.cluster.facts.name}: copying the issuer Secret does not `
            + 'create trust (the shared anchor does), and one leaked cluster can then mint identities for both.');
        }
        byFingerprint.set(certificate.x509.fingerprint256, byFingerprint.get(certificate.x509.fingerprint256) ?? { cluster, certificate });
        byKey.set(publicKeyOf(certificate), byKey.get(publicKeyOf(certificate)) ?? { cluster, certificate });
      }
    }
  },
};
