import { ParsedCertificate, sameSigner, signersOf } from '../../../core/certificates';
import { compareStrings } from '../../../util/compare';
import { Severity } from '../../finding';
import { FleetCluster, FleetRule, FleetRuleContext, links } from '../../fleet/fleet-rule';
import { RuleArea } from '../../rule';

function fingerprints(certificates: ParsedCertificate[]): string[] {
  return [...new Set(certificates.map((c) => c.x509.fingerprint256))].sort(compareStrings);
}

function describe(certificates: ParsedCertificate[]): string {
  return certificates.map((c) => `"${c.name}" (SHA-256 ${c.x509.fingerprint256.slice(0, 23)}…)`).join(', ');
}

/** Both clusters' issuers are known, and each one chains to an anchor of the other cluster's bundle. */
function mutuallyTrusted(a: FleetCluster, b: FleetCluster): boolean {
  const trusts = (by: FleetCluster, of: FleetCluster) => of.facts.issuers.length > 0
    && of.facts.issuers.every((i) => signersOf(i.certificate, by.facts.anchors!.certificates).length > 0);
  return trusts(a, b) && trusts(b, a);
}

function compare(ctx: FleetRuleContext, source: FleetCluster, target: FleetCluster): void {
  for (const link of source.facts.links.filter((l) => l.targetCluster === target.facts.name)) {
    const mine = source.facts.anchors;
    const theirs = target.facts.anchors;
    if (!mine || !theirs) {
      const missing = [!mine ? source.facts.name : undefined, !theirs ? target.facts.name : undefined].filter(Boolean).join(' and ');
      ctx.report(source, link.subject, `links ${source.facts.name} to ${target.facts.name}, but the trust anchors of ${missing} are not in the `
        + 'analysed manifests (e.g. cert-manager creates them in the cluster), so they cannot be compared.', {
        severity: Severity.INFO,
        fix: 'Compare the anchors in the clusters: `linkerd multicluster check` ("clusters share trust anchors"), or pass the PEM bundle to the analysis.',
      });
      continue;
    }
    const a = fingerprints(mine.certificates);
    const b = fingerprints(theirs.certificates);
    if (a.length === b.length && a.every((f, i) => f === b[i])) continue;
    const differ = `links ${source.facts.name} to ${target.facts.name}, but their trust-anchor bundles differ: `
      + `${source.facts.name} trusts ${describe(mine.certificates)}, ${target.facts.name} trusts ${describe(theirs.certificates)}.`;
    // Mid-rotation the bundles differ while every issuer is still trusted on both sides: traffic flows, Linkerd's check complains.
    if (mutuallyTrusted(source, target)) {
      ctx.report(source, link.subject, `${differ} Each cluster's issuer still chains to an anchor the other trusts, so calls work (as during a `
        + 'trust-anchor rotation), but `linkerd multicluster check` fails until the bundles are identical again.', { severity: Severity.WARNING });
      continue;
    }
    // An anchor renewed with its key (same subject and key) is the same signer as the old one.
    const shared = mine.certificates.filter((c) => theirs.certificates.some((t) => sameSigner(c, t)));
    const issuersUnknown = source.facts.issuers.length === 0 || target.facts.issuers.length === 0;
    if (shared.length > 0 && issuersUnknown) {
      // Both trust some signer: issuers signed by it (cert-manager's, not in the manifests) work on both sides.
      const renewed = shared.some((c) => !b.includes(c.x509.fingerprint256)) ? ' (or an anchor with the same subject and key)' : '';
      ctx.report(source, link.subject, `${differ} Both trust ${describe(shared)}${renewed}; the issuers are not in the analysed manifests, so whether each `
        + 'chains to it cannot be seen here: calls work if they do (as during a trust-anchor rotation), and `linkerd multicluster check` '
        + 'fails until the bundles are identical again.', { severity: Severity.WARNING });
      continue;
    }
    ctx.report(source, link.subject, `${differ} Proxies of one cluster reject the certificates of the other, so every cross-cluster call fails the TLS handshake.`);
  }
}

/** linkerd multicluster check "clusters share trust anchors" (multicluster/cmd/check.go, checkRemoteClusterAnchors). */
export const sharedAnchorsRule: FleetRule = {
  id: 'LKD-MC-001',
  area: RuleArea.MULTICLUSTER,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Refused: each side verifies the peer against its own anchors (multicluster/cmd/check.go '
      + 'checkRemoteClusterAnchors), so every cross-cluster connection fails. A cluster whose anchors the analysis '
      + 'does not have is a warning.',
    title: 'Linked clusters trust the identical trust-anchor bundle',
    why: 'A cross-cluster call is one mTLS connection (client proxy to the remote gateway or pod): each side verifies the '
      + "other's certificate against its own anchors. Linkerd's own `linkerd multicluster check` (checkRemoteClusterAnchors in "
      + 'multicluster/cmd/check.go) requires both bundles to hold the same certificates; a Link between clusters with '
      + 'different anchors is accepted and mirrors Services, and then every request fails the handshake. While a fleet rotates '
      + 'its anchor the bundles differ but each issuer stays trusted by the other side: that is a warning, not an error.',
    linkerdSource: "multicluster/cmd/check.go (hc *healthChecker) checkRemoteClusterAnchors; pkg/identity/service.go (what each cluster's identity service trusts)",
    fix: 'Give every cluster of the fleet the same trust-anchor bundle (LinkerdFleet does) and an issuer of its own signed by it.',
    badExample: '# east: identityTrustAnchorsPEM = anchor A\n# west: identityTrustAnchorsPEM = anchor B\nkind: Link\nmetadata: { name: west, namespace: linkerd-multicluster }   # in east',
    goodExample: '# east and west: identityTrustAnchorsPEM = anchor A; issuer east and issuer west both signed by A',
  },
  check(ctx) {
    for (const source of ctx.clusters.values()) {
      for (const target of ctx.clusters.values()) {
        if (source !== target && links(source, target)) compare(ctx, source, target);
      }
    }
  },
};
