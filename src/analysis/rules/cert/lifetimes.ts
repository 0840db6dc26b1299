import { certificatesOf, issuerOf, trustMaterials } from './material';
import { ISSUER_SECRET, outlivesAnchorProblem, unfinishedRotationProblem } from '../../../core/certificates';
import { parseGoDuration } from '../../../core/linkerd-grammar';
import { Severity } from '../../finding';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';

const CERT_MANAGER_GROUP = 'cert-manager.io';
/** cert-manager's defaults when a Certificate omits them: 90 days, renewed when a third is left. */
const DEFAULT_DURATION_MS = 2160 * 3_600_000;

function durationOf(certificate: IndexedObject): number {
  return parseGoDuration(certificate.object.spec?.duration) ?? DEFAULT_DURATION_MS;
}

function renewBeforeOf(certificate: IndexedObject): number {
  return parseGoDuration(certificate.object.spec?.renewBefore) ?? durationOf(certificate) / 3;
}

function hours(ms: number): string {
  return `${Math.round(ms / 3_600_000)}h`;
}

/** The CA secret behind a Certificate's issuerRef (a CA Issuer or ClusterIssuer), if it is in this output. */
function caSecretOf(index: MeshIndex, certificate: IndexedObject): { name: string; namespace?: string } | undefined {
  const ref = certificate.object.spec?.issuerRef;
  if (typeof ref?.name !== 'string') return undefined;
  const clusterScoped = ref.kind === 'ClusterIssuer';
  const issuer = clusterScoped
    ? index.get(CERT_MANAGER_GROUP, 'ClusterIssuer', undefined, ref.name)
    : index.get(CERT_MANAGER_GROUP, 'Issuer', certificate.id.namespace, ref.name);
  const secretName = issuer?.object.spec?.ca?.secretName;
  if (typeof secretName !== 'string') return undefined;
  return { name: secretName, namespace: clusterScoped ? undefined : certificate.id.namespace };
}

function certificateWritingSecret(index: MeshIndex, secret: { name: string; namespace?: string }): IndexedObject | undefined {
  return index.list(CERT_MANAGER_GROUP, 'Certificate').find((c) => c.object.spec?.secretName === secret.name
    && (secret.namespace === undefined || c.id.namespace === secret.namespace));
}

function checkPemLifetimes(ctx: RuleContext): void {
  for (const material of trustMaterials(ctx.index)) {
    const issuer = issuerOf(material.issuer);
    const anchors = certificatesOf(material.anchors);
    if (!issuer || anchors.length === 0) continue;
    for (const problem of [outlivesAnchorProblem(issuer, anchors), unfinishedRotationProblem(issuer, anchors)]) {
      if (problem) ctx.report(material.subject, `${material.issuer!.label}: ${problem}.`);
    }
  }
}

/**
 * A renewal with a new key is a new root: the bundle trust-manager builds from the anchor Secret then holds only it,
 * while the issuer (renewed on its own schedule) and every proxy's certificate still chain to the old one. cert-manager
 * 1.18 and later re-key on renewal unless `rotationPolicy: Never` is set.
 */
/**
 * Whether a trust-manager Bundle builds the trust roots from the anchor's Secret and another source beside it (the
 * previous anchor, as Linkerd's cert-manager guide keeps it): the re-keyed root then joins the old one, a planned rotation.
 */
function bundleKeepsAnotherAnchor(index: MeshIndex, anchor: IndexedObject): boolean {
  const secretName = anchor.object.spec?.secretName;
  return index.list('trust.cert-manager.io', 'Bundle').some((bundle) => {
    const sources: unknown[] = Array.isArray(bundle.object.spec?.sources) ? bundle.object.spec.sources : [];
    const fromAnchor = sources.some((s: any) => s?.secret?.name === secretName);
    return fromAnchor && sources.length > 1;
  });
}

function checkAnchorRekey(ctx: RuleContext, anchor: IndexedObject): void {
  if (anchor.inventory) return;
  const policy = anchor.object.spec?.privateKey?.rotationPolicy;
  if (policy === 'Never') return;
  // Linkerd's own guide (tasks/automatically-rotating-control-plane-tls-credentials) rotates the anchor this way on
  // purpose, with the previous anchor kept in the Bundle: not an unplanned rotation.
  if (bundleKeepsAnotherAnchor(ctx.index, anchor)) return;
  const after = hours(durationOf(anchor) - renewBeforeOf(anchor));
  ctx.report(anchor, `the trust anchor is renewed ${after} after issue with ${policy === undefined ? 'cert-manager\'s default' : 'rotationPolicy: Always'} `
    + '(a new key since cert-manager 1.18), so a new root replaces the old one in the bundle while the issuer and every proxy certificate '
    + 'still chain to the old: an anchor rotation nobody planned.', {
    fix: 'Set the anchor Certificate\'s privateKey.rotationPolicy: Never (a renewal then keeps the key and every chain stays valid), and '
      + 'rotate the anchor as a planned event (TrustAnchorRotation), with both anchors in the bundle.',
  });
}

function checkCertManagerLifetimes(ctx: RuleContext): void {
  for (const certificate of ctx.index.own(CERT_MANAGER_GROUP, 'Certificate')) {
    const duration = durationOf(certificate);
    const renewBefore = renewBeforeOf(certificate);
    if (renewBefore >= duration) {
      ctx.report(certificate, `renewBefore ${hours(renewBefore)} is not shorter than duration ${hours(duration)}; cert-manager refuses it or renews continuously.`);
    }
    if (certificate.object.spec?.secretName !== ISSUER_SECRET) continue;
    const caSecret = caSecretOf(ctx.index, certificate);
    const anchor = caSecret && certificateWritingSecret(ctx.index, caSecret);
    if (anchor) checkAnchorRekey(ctx, anchor);
    if (anchor && duration > renewBeforeOf(anchor)) {
      ctx.report(certificate, `the identity issuer lives ${hours(duration)}, longer than the ${hours(renewBeforeOf(anchor))} trust anchor `
        + `${anchor.id.name} has left when cert-manager renews it; an issuer signed just before that renewal outlives its anchor.`,
      { fix: 'Keep the issuer duration (Linkerd\'s guide: 48h) well below the anchor\'s renewBefore (7320h).' });
    }
  }
}

/** Lifetimes that set up an outage later: an issuer outliving its anchor, an unfinished rotation, bad renewal windows. */
export const certificateLifetimes: Rule = {
  id: 'LKD-CERT-004',
  area: RuleArea.CERT,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: when the rotation tooling runs and what it writes next; the chain is valid today '
      + '(pkg/identity/service.go loadCredentials accepts it), the breakage comes later.',
    title: 'The issuer does not outlive its trust anchor, rotations are finished, and renewal windows make sense',
    why: 'When the anchor expires before the issuer, linkerd-identity keeps signing certificates no proxy trusts. A bundle '
      + 'whose newest anchor did not sign the issuer is a rotation left half-way. cert-manager cannot renew a Certificate '
      + 'whose renewBefore is not shorter than its duration. A cert-manager trust anchor renewed with a new key (rotationPolicy '
      + 'Always, the default since cert-manager 1.18) is an unplanned anchor rotation.',
    fix: 'Issue the issuer for less time than the anchor has left, finish the rotation (see TrustAnchorRotation), and keep renewBefore < duration.',
    linkerdSource: 'pkg/identity/service.go (svc *Service) loadCredentials (verifies the issuer against the anchors); the '
      + 'cert-manager renewBefore check is not Linkerd: cert-manager\'s Certificate validation',
    badExample: 'kind: Certificate\nspec: {secretName: linkerd-identity-issuer, duration: 48h, renewBefore: 48h}',
    goodExample: 'kind: Certificate\nspec: {secretName: linkerd-identity-issuer, duration: 48h, renewBefore: 25h}',
  },
  check(ctx) {
    checkPemLifetimes(ctx);
    checkCertManagerLifetimes(ctx);
  },
};
