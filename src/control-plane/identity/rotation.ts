/**
 * A manual trust-anchor rotation as a typed plan over Linkerd's documented steps (bundle new+old, restart, switch the
 * issuer, restart, drop the old anchor, restart). Each step knows which anchors the bundle must hold and which anchor
 * the issuer must chain to, so an unsafe combination fails the synth instead of breaking mTLS in the cluster.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Construct } from 'constructs';
import { CertRule, checkAnchorAlgorithms, checkChain, checkIssuerAlgorithm, requireCertificates, requireIssuerChain } from './checks';
import { ISSUER_SECRET_NAME, IssuerScheme } from './static-identity';
import {
  ParsedCertificate, ValidityState, bundlePem, chainsToAnchor, sameCertificate, validityProblem,
} from '../../core/certificates';
import { check } from '../../core/errors';
import { validateLabelName } from '../../core/names';
import { optionalList, requireEnum, requireString, requireStruct } from '../../core/runtime-checks';

/** The steps of a trust-anchor rotation without downtime, in order. */
export enum RotationStep {
  /** Deploy a bundle of the new and the current anchor; the issuer is unchanged. */
  BUNDLE_NEW_AND_OLD = 'bundle-new-and-old',
  /** Restart the control plane and every meshed workload so all proxies trust both anchors. */
  RESTART_AFTER_BUNDLE = 'restart-after-bundle',
  /** Replace the issuer with one signed by the new anchor. */
  SWITCH_ISSUER = 'switch-issuer',
  /** Restart so every proxy holds a certificate from the new issuer. */
  RESTART_AFTER_ISSUER = 'restart-after-issuer',
  /** Deploy a bundle of only the new anchor. */
  REMOVE_OLD_ANCHOR = 'remove-old-anchor',
  /** Restart so no proxy trusts the old anchor any more. */
  RESTART_AFTER_REMOVAL = 'restart-after-removal',
  /** The rotation is complete. */
  DONE = 'done',
}

/** What the running proxies trust and hold, as declared by the operator (e.g. from `linkerd check --proxy`). */
export enum ProxyTrust {
  /** They trust only the current (old) anchor: not restarted since the bundle was deployed. */
  OLD_ANCHOR = 'old-anchor',
  /** They trust both anchors; their certificates still come from the old issuer. */
  BOTH_ANCHORS_OLD_ISSUER = 'both-anchors-old-issuer',
  /** They trust both anchors and hold certificates from the new issuer. */
  BOTH_ANCHORS_NEW_ISSUER = 'both-anchors-new-issuer',
  /** They trust only the new anchor. */
  NEW_ANCHOR = 'new-anchor',
}

/** Props for a TrustAnchorRotation. */
export interface TrustAnchorRotationProps {
  /** The anchor (PEM) in use before the rotation. */
  readonly currentAnchorPem: string;
  /** The new anchor (PEM). */
  readonly newAnchorPem: string;
  /**
   * The issuer certificate (PEM) deployed at this step: chaining to the current anchor before SWITCH_ISSUER, to the new
   * one from then on. Intermediates may follow it (leaf first), as linkerd-identity reads them.
   */
  readonly issuerCertificatePem: string;
  /** The step to carry out now. */
  readonly step: RotationStep;
  /**
   * What the running proxies trust, if known; checked against what the step needs.
   * @default - the state the earlier steps leave behind when they were completed
   */
  readonly runningProxiesTrust?: ProxyTrust;
  /**
   * How the issuer Secret is provided; decides the commands of the issuer switch.
   * @default IssuerScheme.KUBERNETES_TLS
   */
  readonly scheme?: IssuerScheme;
  /**
   * Namespace of the control plane.
   * @default "linkerd"
   */
  readonly controlPlaneNamespace?: string;
  /**
   * Namespaces with meshed workloads to restart.
   * @default - every namespace with pods labelled `linkerd.io/control-plane-ns=<controlPlaneNamespace>`, found at run time
   */
  readonly meshedNamespaces?: string[];
  /**
   * Helm release of the control plane.
   * @default "linkerd-control-plane"
   */
  readonly helmRelease?: string;
  /**
   * Helm chart reference of the control plane.
   * @default "linkerd/linkerd-control-plane"
   */
  readonly helmChart?: string;
}

const STEPS = Object.values(RotationStep);
const TRUST_ORDER = Object.values(ProxyTrust);

const STEP_TITLES: Record<RotationStep, string> = {
  [RotationStep.BUNDLE_NEW_AND_OLD]: 'Deploy the bundle of the new and the current anchor',
  [RotationStep.RESTART_AFTER_BUNDLE]: 'Restart so every proxy trusts both anchors',
  [RotationStep.SWITCH_ISSUER]: 'Switch to an issuer signed by the new anchor',
  [RotationStep.RESTART_AFTER_ISSUER]: 'Restart so every proxy holds a certificate from the new issuer',
  [RotationStep.REMOVE_OLD_ANCHOR]: 'Deploy a bundle of only the new anchor',
  [RotationStep.RESTART_AFTER_REMOVAL]: 'Restart so no proxy trusts the old anchor',
  [RotationStep.DONE]: 'Rotation complete',
};

/** What the proxies trust once every step before `step` is done (the default for runningProxiesTrust). */
export const TRUST_ENTERING: Record<RotationStep, ProxyTrust> = {
  [RotationStep.BUNDLE_NEW_AND_OLD]: ProxyTrust.OLD_ANCHOR,
  [RotationStep.RESTART_AFTER_BUNDLE]: ProxyTrust.OLD_ANCHOR,
  [RotationStep.SWITCH_ISSUER]: ProxyTrust.BOTH_ANCHORS_OLD_ISSUER,
  [RotationStep.RESTART_AFTER_ISSUER]: ProxyTrust.BOTH_ANCHORS_OLD_ISSUER,
  [RotationStep.REMOVE_OLD_ANCHOR]: ProxyTrust.BOTH_ANCHORS_NEW_ISSUER,
  [RotationStep.RESTART_AFTER_REMOVAL]: ProxyTrust.BOTH_ANCHORS_NEW_ISSUER,
  [RotationStep.DONE]: ProxyTrust.NEW_ANCHOR,
};

function stepIndex(step: RotationStep): number {
  return STEPS.indexOf(step);
}

function atOrAfter(step: RotationStep, other: RotationStep): boolean {
  return stepIndex(step) >= stepIndex(other);
}

function describeAnchor(cert: ParsedCertificate): string {
  return `\`${cert.name}\` (valid until ${cert.notAfter.toISOString()}, SHA-256 ${cert.x509.fingerprint256})`;
}

/**
 * One step of a trust-anchor rotation: the bundle to deploy, refusal of unsafe states at construction, and a
 * markdown runbook with the exact commands. cdk8s has no hook for writing extra files, so call `writeRunbook(dir)`
 * yourself, e.g. right after `app.synth()` with `app.outdir`.
 */
export class TrustAnchorRotation extends Construct {
  /** The step this plan is for. */
  public readonly step: RotationStep;
  /** The step after this one; undefined when the rotation is done. */
  public readonly nextStep?: RotationStep;
  /** The trust-anchor bundle to deploy at this step (PEM): new and current anchor, or only the new one. */
  public readonly trustAnchorsPem: string;
  /** The issuer certificate to deploy at this step (PEM). */
  public readonly issuerCertificatePem: string;

  private readonly props: TrustAnchorRotationProps;
  private readonly current: ParsedCertificate[];
  private readonly next: ParsedCertificate[];
  private readonly issuer: ParsedCertificate;
  /** The certificates after the issuer in its PEM: its trust chain (pkg/tls/cred.go DecodePEMCrt). */
  private readonly intermediates: ParsedCertificate[];
  private readonly namespace: string;

  constructor(scope: Construct, id: string, props: TrustAnchorRotationProps) {
    super(scope, id);
    requireStruct(this, props, 'props');
    this.props = props;
    check(STEPS.includes(props.step), this, 'LKD-INPUT-006', `step ${JSON.stringify(props.step)} is not a RotationStep.`, 'Use a RotationStep value.');
    this.step = props.step;
    this.nextStep = STEPS[stepIndex(props.step) + 1];
    this.namespace = validateLabelName(this, props.controlPlaneNamespace ?? 'linkerd', 'controlPlaneNamespace');
    this.checkRunbookInputs(props);
    this.current = requireCertificates(this, props.currentAnchorPem, 'currentAnchorPem');
    this.next = requireCertificates(this, props.newAnchorPem, 'newAnchorPem');
    ({ issuer: this.issuer, intermediates: this.intermediates } = requireIssuerChain(this, props.issuerCertificatePem, 'issuerCertificatePem'));
    this.checkAnchors();
    const bundle = this.bundle();
    checkIssuerAlgorithm(this, this.issuer);
    // An issuer chaining to neither anchor gets the general chain error; otherwise the step-specific one explains more.
    if (this.chainsTo([...this.next, ...this.current])) this.checkIssuerAnchor();
    checkChain(this, this.issuer, bundle, this.intermediates);
    this.checkRunningProxies();
    this.trustAnchorsPem = bundlePem(bundle);
    this.issuerCertificatePem = `${[this.issuer, ...this.intermediates].map((c) => c.x509.toString().trim()).join('\n')}\n`;
  }

  /** The anchors of this step's bundle: the new one first, the current one until it is removed. */
  private bundle(): ParsedCertificate[] {
    return atOrAfter(this.step, RotationStep.REMOVE_OLD_ANCHOR) ? this.next : [...this.next, ...this.current];
  }

  private checkAnchors(): void {
    checkAnchorAlgorithms(this, [...this.current, ...this.next]);
    const reused = this.next.some((n) => this.current.some((c) => sameCertificate(n, c)));
    check(!reused, this, CertRule.LIFETIME, 'newAnchorPem holds the current anchor, so there is no new anchor to rotate to.',
      'Generate a new trust anchor and pass it as newAnchorPem.');
    for (const anchor of this.next) this.checkUsable(anchor, 'new trust anchor');
    // The old anchor matters only while it is still in the bundle; Linkerd's procedure needs it valid until then.
    if (!atOrAfter(this.step, RotationStep.REMOVE_OLD_ANCHOR)) {
      for (const anchor of this.current) this.checkUsable(anchor, 'current trust anchor');
    }
  }

  private checkUsable(cert: ParsedCertificate, role: string): void {
    const problem = validityProblem(cert, role, new Date(), 0);
    check(problem === undefined || problem.state === ValidityState.EXPIRING, this, CertRule.VALIDITY, `${problem?.message}.`,
      problem?.state === ValidityState.EXPIRED && role.startsWith('current')
        ? 'A rotation without downtime needs a valid anchor; follow Linkerd\'s "replacing expired certificates" guide instead.'
        : 'Use a certificate that is valid now.');
  }

  /** These go into the runbook's shell commands: refuse anything that is not a plain name (no spaces, quotes or `;`). */
  private checkRunbookInputs(props: TrustAnchorRotationProps): void {
    if (props.scheme !== undefined) requireEnum(this, props.scheme, IssuerScheme, 'scheme', 'LKD-INPUT-006');
    const namespaces = optionalList<string>(this, props.meshedNamespaces, 'meshedNamespaces', (v) => typeof v === 'string', 'namespace names') ?? [];
    namespaces.forEach((ns) => validateLabelName(this, ns, 'meshedNamespaces entry'));
    if (props.helmRelease !== undefined) validateLabelName(this, props.helmRelease, 'helmRelease');
    if (props.helmChart !== undefined) {
      check(typeof props.helmChart === 'string' && /^[A-Za-z0-9][A-Za-z0-9._\/:@-]*$/.test(props.helmChart), this, 'LKD-INPUT-006',
        `helmChart ${JSON.stringify(props.helmChart)} is not a chart reference.`, 'Use e.g. "linkerd/linkerd-control-plane" or "oci://registry.example/linkerd-control-plane".');
    }
  }

  /** Whether the issuer, through the intermediates given with it, chains to one of these anchors. */
  private chainsTo(anchors: ParsedCertificate[]): boolean {
    return chainsToAnchor(this.issuer, anchors, this.intermediates);
  }

  /** Before the switch the issuer must chain to the current anchor (proxies may not trust the new one yet); after it, to the new one. */
  private checkIssuerAnchor(): void {
    const byNew = this.chainsTo(this.next);
    const byCurrent = this.chainsTo(this.current);
    if (atOrAfter(this.step, RotationStep.REMOVE_OLD_ANCHOR)) {
      check(byNew, this, CertRule.LIFETIME, `step ${this.step} removes the old anchor while issuer "${this.issuer.name}" still chains to it; every workload certificate it signs would be rejected.`,
        `Complete ${RotationStep.SWITCH_ISSUER} (an issuer signed by the new anchor) and ${RotationStep.RESTART_AFTER_ISSUER} first.`);
    } else if (atOrAfter(this.step, RotationStep.SWITCH_ISSUER)) {
      check(byNew, this, CertRule.LIFETIME, `step ${this.step} needs an issuer signed by the new anchor, but issuer "${this.issuer.name}" is not.`,
        'Issue a new intermediate CA from the new anchor and pass it as issuerCertificatePem.');
    } else {
      check(byCurrent, this, CertRule.LIFETIME, `at step ${this.step} issuer "${this.issuer.name}" must still be signed by the current anchor: `
        + 'proxies not yet restarted trust only the current anchor and would reject certificates from a new issuer.',
      `Keep the current issuer until ${RotationStep.SWITCH_ISSUER}.`);
    }
  }

  /** The declared proxy state must be at least what the step relies on. */
  private checkRunningProxies(): void {
    const declared = this.props.runningProxiesTrust ?? TRUST_ENTERING[this.step];
    check(TRUST_ORDER.includes(declared), this, 'LKD-INPUT-006', `runningProxiesTrust ${JSON.stringify(declared)} is not a ProxyTrust.`, 'Use a ProxyTrust value.');
    const needed = TRUST_ENTERING[this.step];
    check(TRUST_ORDER.indexOf(declared) >= TRUST_ORDER.indexOf(needed), this, CertRule.LIFETIME,
      `step ${this.step} needs running proxies in state ${needed}, but they are declared ${declared}: `
      + (atOrAfter(this.step, RotationStep.REMOVE_OLD_ANCHOR)
        ? 'proxies still hold certificates that chain to the old anchor, which peers would then reject.'
        : 'proxies that trust only the old anchor would reject certificates from the new issuer.'),
      'Finish the restart step before this one and confirm with `linkerd check --proxy`.');
  }

  /** The markdown runbook for this step: what to run, how to verify, what comes next. */
  public runbook(): string {
    const lines = [
      `# Trust-anchor rotation, step ${stepIndex(this.step) + 1}/${STEPS.length}: ${STEP_TITLES[this.step]}`,
      '',
      `Step \`${this.step}\`. Control plane: namespace \`${this.namespace}\`, Helm release \`${this.release}\`.`,
      '',
      '## Trust anchors in the bundle',
      '',
      ...this.bundle().map((a) => `- ${describeAnchor(a)}`),
      '',
      `Issuer: ${describeAnchor(this.issuer)}.`,
      '',
      '## Commands',
      '',
      ...this.commands(),
      '',
      '## Next',
      '',
      this.nextStep ? `When \`linkerd check --proxy\` is clean, synthesize again with \`step: RotationStep.${enumKey(this.nextStep)}\`.` : 'Nothing: the old anchor is gone.',
      '',
    ];
    return lines.join('\n').replace(/\n{3,}/g, '\n\n');
  }

  /**
   * Writes `trust-anchor-rotation.md`, the step's `bundle.crt` and `issuer.crt` (public certificates only) into `dir`.
   * @returns the path of the runbook
   */
  public writeRunbook(dir: string): string {
    requireString(this, dir, 'writeRunbook() dir');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'bundle.crt'), this.trustAnchorsPem);
    fs.writeFileSync(path.join(dir, 'issuer.crt'), this.issuerCertificatePem);
    const file = path.join(dir, 'trust-anchor-rotation.md');
    fs.writeFileSync(file, this.runbook());
    return file;
  }

  private get release(): string {
    return this.props.helmRelease ?? 'linkerd-control-plane';
  }

  private get chart(): string {
    return this.props.helmChart ?? 'linkerd/linkerd-control-plane';
  }

  private commands(): string[] {
    switch (this.step) {
      case RotationStep.BUNDLE_NEW_AND_OLD:
        return [
          'Check that the mesh is healthy first, then upgrade with the bundle (`bundle.crt` holds the new anchor, then the current one):',
          '',
          fence('linkerd check --proxy', this.helmUpgrade(['--set-file identityTrustAnchorsPEM=bundle.crt'])),
          'Or deploy this synth, where the chart values carry the same bundle.',
        ];
      case RotationStep.SWITCH_ISSUER:
        return this.switchIssuerCommands();
      case RotationStep.REMOVE_OLD_ANCHOR:
        return [
          'Upgrade with a bundle of only the new anchor (`bundle.crt` of this step):',
          '',
          fence(this.helmUpgrade(['--set-file identityTrustAnchorsPEM=bundle.crt'])),
          ...(this.scheme === IssuerScheme.KUBERNETES_TLS ? [`Also replace \`ca.crt\` of Secret \`${ISSUER_SECRET_NAME}\` with \`bundle.crt\`: \`linkerd check\` reads the anchors from it.`] : []),
        ];
      case RotationStep.DONE:
        return ['Verify:', '', fence('linkerd check', 'linkerd check --proxy')];
      default:
        return this.restartCommands();
    }
  }

  private get scheme(): IssuerScheme {
    return this.props.scheme ?? IssuerScheme.KUBERNETES_TLS;
  }

  private helmUpgrade(flags: string[]): string {
    return [`helm upgrade ${this.release} ${this.chart} -n ${this.namespace} --reuse-values`, ...flags].join(' \\\n  ');
  }

  private switchIssuerCommands(): string[] {
    const install = this.scheme === IssuerScheme.LINKERD_TLS
      ? this.helmUpgrade([
        '--set-file identityTrustAnchorsPEM=bundle.crt',
        '--set-file identity.issuer.tls.crtPEM=issuer.crt',
        '--set-file identity.issuer.tls.keyPEM=issuer.key',
      ])
      : [
        `kubectl -n ${this.namespace} create secret generic ${ISSUER_SECRET_NAME} --type=kubernetes.io/tls \\`,
        '  --from-file=tls.crt=issuer.crt --from-file=tls.key=issuer.key --from-file=ca.crt=bundle.crt \\',
        '  --dry-run=client -o yaml | kubectl apply -f -',
      ].join('\n');
    return [
      '`issuer.crt` is the new issuer (signed by the new anchor); `issuer.key` is its private key, which this library never writes.',
      '',
      fence(install),
      'Wait until linkerd-identity has loaded it (a new `IssuerUpdated` event):',
      '',
      fence(`kubectl -n ${this.namespace} get events --field-selector reason=IssuerUpdated --watch`),
    ];
  }

  private restartCommands(): string[] {
    return [
      'Restart the control plane, then every meshed workload, then verify:',
      '',
      fence(
        `kubectl -n ${this.namespace} rollout restart deployment`,
        `kubectl -n ${this.namespace} wait --for=condition=available deployment --all --timeout=5m`,
        ...this.workloadRestarts(),
        'linkerd check --proxy',
      ),
    ];
  }

  private workloadRestarts(): string[] {
    const namespaces = this.props.meshedNamespaces;
    if (namespaces === undefined) {
      return [
        `for ns in $(kubectl get pods -A -l linkerd.io/control-plane-ns=${this.namespace} -o jsonpath='{.items[*].metadata.namespace}' | tr ' ' '\\n' | sort -u | grep -vx ${this.namespace}); do`,
        '  kubectl -n "$ns" rollout restart deployment,statefulset,daemonset',
        'done',
      ];
    }
    return namespaces.map((ns) => `kubectl -n ${validateLabelName(this, ns, 'meshedNamespaces entry')} rollout restart deployment,statefulset,daemonset`);
  }
}

function fence(...lines: string[]): string {
  return ['```sh', ...lines, '```', ''].join('\n');
}

function enumKey(step: RotationStep): string {
  return Object.entries(RotationStep).find(([, v]) => v === step)![0];
}
