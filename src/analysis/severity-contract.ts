/**
 * The severity contract: which certainty earns which severity. docs/rules.md opens with it, and every rule's
 * `doc.certainty` opens with one of the grounds of its severity ("Ignored: …"), which a test holds.
 */
import { Severity } from './finding';

/** A ground a rule's severity rests on: the label its `certainty` opens with, and what the label means. */
export interface SeverityGround {
  readonly label: string;
  readonly meaning: string;
}

/** Error: the manifests alone make the effect certain. */
export const ERROR_GROUNDS: readonly SeverityGround[] = [
  { label: 'Rejected', meaning: 'the API server, a CRD schema, Linkerd\'s admission webhook or the chart refuses the object' },
  { label: 'Ignored', meaning: 'Linkerd drops or ignores the object or the setting' },
  { label: 'No proxy', meaning: 'a pod that asks for a proxy will not get one' },
  { label: 'Refused', meaning: 'a call the manifests declare or imply is refused' },
  { label: 'Never ready', meaning: 'a probe is refused, so the pod never becomes ready (or keeps restarting)' },
  { label: 'Never applies', meaning: 'a policy or route never applies to the traffic it names' },
  { label: 'Open wider', meaning: 'a port is open wider than the manifests say' },
  { label: 'Fails to start', meaning: 'a component or pod cannot start or run with these manifests' },
  { label: 'Leaked', meaning: 'the output itself exposes key material or credentials' },
];

/** Warning: the effect depends on facts outside the manifests. */
export const WARNING_GROUNDS: readonly SeverityGround[] = [
  { label: 'Depends on', meaning: 'what clients send, whether a method is idempotent, what is deployed elsewhere, how the cluster is set up' },
];

/** Info: style, deprecations and advice. */
export const INFO_GROUNDS: readonly SeverityGround[] = [
  { label: 'Advice', meaning: 'a safer or clearer way to write what works' },
  { label: 'Deprecated', meaning: 'still served and read, but on its way out' },
];

export const GROUNDS: Readonly<Record<Severity, readonly SeverityGround[]>> = {
  [Severity.ERROR]: ERROR_GROUNDS,
  [Severity.WARNING]: WARNING_GROUNDS,
  [Severity.INFO]: INFO_GROUNDS,
};

/** The ground a certainty text opens with ("Ignored: …"), if it is one of `severity`'s. */
export function groundOf(certainty: string | undefined, severity: Severity): SeverityGround | undefined {
  return GROUNDS[severity].find((g) => certainty?.startsWith(`${g.label}: `));
}

/** The contract as Markdown, for the top of docs/rules.md. */
export function contractText(): string[] {
  const list = (grounds: readonly SeverityGround[]) => grounds.map((g) => `  - *${g.label}*: ${g.meaning};`);
  return [
    '## Severity contract', '',
    'Severity follows certainty, and each rule below says why its severity holds ("Severity because"), naming the linkerd2',
    'code that makes an error\'s effect certain. A rule that covers both kinds of case grades each finding on its own.', '',
    '- **error** when the manifests alone make the effect certain:', ...list(ERROR_GROUNDS),
    '- **warning** when the effect depends on facts outside the manifests (what a client sends, whether a method is',
    '  idempotent, a workload deployed elsewhere, how the cluster was installed). Give the analysis those facts',
    '  (`--inventory`, the cluster flags, a control-plane install in the input) and the warning either goes away or becomes',
    '  an error;',
    '- **info** for style, deprecations and advice, and for references the analysis cannot check because it sees nothing',
    '  of their namespace.', '',
    '## What to run in CI', '',
    'Keep the defaults: `cdk8s synth` (through `MeshChecks` or the cdk8s-cli plugin) fails on every error, and an error is',
    'an outage or an opening that the manifests make certain. In the pipeline, also run `cdk8s-linkerd analyze dist/',
    '--inventory cluster-objects.yaml --format sarif` (the inventory lists what other tools deploy into the same',
    'namespaces: Services, ServiceAccounts, Servers), and add `--fail-on warning` once that inventory and the cluster flags',
    '(or the control-plane install) describe the cluster: warnings are what the analysis cannot decide without those facts,',
    'so with them a remaining warning deserves a look before the rollout. Silence a finding only with a reason',
    '(`MeshChecks.suppress`, or the suppress annotation); info findings never fail a build.', '',
  ];
}
