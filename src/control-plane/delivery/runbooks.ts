/**
 * Upgrade and exit runbooks as markdown, generated from the same resolved install as the delivery objects, so the
 * versions, names and namespaces in the commands are always the ones deployed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ChartRelease } from './releases';
import { DeliverySteps, RunbookStep } from './steps';
import { ResolvedInstall } from '../install/values';

/** What the runbooks should know about the workloads around the control plane. */
export interface RunbookOptions {
  /**
   * Meshed namespaces, in the order to restart them (one cohort each; put a canary first).
   * @default - a placeholder cohort
   */
  readonly meshedNamespaces?: string[];
  /**
   * Installed Linkerd extensions, by CLI name (`viz`, `multicluster`, `jaeger`).
   * @default ["viz"]
   */
  readonly extensions?: string[];
}

/** File names `writeRunbooks` uses. */
export const RUNBOOK_FILES = { upgrade: 'linkerd-upgrade.md', exit: 'linkerd-exit.md', troubleshoot: 'linkerd-identity-troubleshooting.md' };

function bash(lines: string[]): string {
  return ['```bash', ...lines, '```'].join('\n');
}

function section(title: string, step: RunbookStep): string {
  return `## ${title}\n\n${step.text}\n\n${bash(step.commands)}`;
}

function cohorts(options: RunbookOptions): string[] {
  const namespaces = options.meshedNamespaces && options.meshedNamespaces.length > 0 ? options.meshedNamespaces : ['<meshed-namespace>'];
  return namespaces;
}

/** Restarts one namespace's workloads and waits for every rollout, then checks its proxies. */
function restartCohort(namespace: string, checkProxies: boolean): string[] {
  const lines = [
    `COHORT=${namespace}`,
    'kubectl -n "$COHORT" rollout restart deploy,statefulset,daemonset',
    'for w in $(kubectl -n "$COHORT" get deploy,statefulset,daemonset -o name); do kubectl -n "$COHORT" rollout status "$w" --timeout=10m; done',
  ];
  if (checkProxies) lines.push('linkerd check --proxy --namespace "$COHORT"');
  return lines;
}

function restartSection(title: string, text: string, options: RunbookOptions, checkProxies: boolean): string {
  const blocks = cohorts(options).map((ns, i) => `Cohort ${i + 1}:\n\n${bash(restartCohort(ns, checkProxies))}`);
  return `## ${title}\n\n${text}\n\n${blocks.join('\n\n')}`;
}

function header(install: ResolvedInstall, steps: DeliverySteps): string[] {
  const v = install.version;
  return [
    `- Delivery: ${steps.title}`,
    `- Charts: ${v.crdsChart} and ${v.controlPlaneChart} ${v.chartVersion} from ${v.helmRepository}`,
    `- Control plane: ${v.appVersion}${v.proxyVersion ? ` (proxy ${v.proxyVersion})` : ''}, namespace \`${install.namespace}\``,
    `- Cluster: Kubernetes ${install.kubernetesVersion} (needs ≥ ${v.minKubernetesVersion}), Gateway API ${install.gatewayApiVersion} `
      + `(supported ${v.gatewayApiMinVersion}–${v.gatewayApiMaxVersion})`,
  ];
}

function preflight(install: ResolvedInstall, steps: DeliverySteps): RunbookStep {
  return {
    text: 'Set the variables, install the matching CLI, and start from a healthy mesh on a supported cluster.',
    commands: [
      ...steps.variables(install),
      `curl --proto '=https' --tlsv1.2 -sSfL https://run.linkerd.io/install-edge | LINKERD2_VERSION=${install.version.appVersion} sh`,
      `linkerd version --client --short  # expect ${install.version.appVersion}`,
      'kubectl version  # server must be ≥ ' + install.version.minKubernetesVersion,
      "kubectl get crd httproutes.gateway.networking.k8s.io -o jsonpath='{.metadata.annotations.gateway\\.networking\\.k8s\\.io/bundle-version}'",
      'linkerd check',
    ],
  };
}

/** Pods whose injected proxy is not the target version. */
function stragglers(install: ResolvedInstall): string {
  return "kubectl get pods -A -o jsonpath='{range .items[?(@.metadata.annotations.linkerd\\.io/proxy-version)]}"
    + "{.metadata.namespace}/{.metadata.name} {.metadata.annotations.linkerd\\.io/proxy-version}{\"\\n\"}{end}'"
    + ` | grep -v " ${install.version.appVersion}$" || echo "every proxy runs ${install.version.appVersion}"`;
}

/** The upgrade runbook: CRDs, control plane, prune, restart in cohorts, `linkerd check --proxy`. */
export function upgradeRunbook(install: ResolvedInstall, steps: DeliverySteps, options: RunbookOptions = {}): string {
  const v = install.version;
  return [
    `# Upgrade Linkerd to ${v.appVersion} (charts ${v.chartVersion})`,
    header(install, steps).join('\n'),
    'CRDs always go first: the new control plane reads CRD versions the old CRDs do not serve.',
    section('0. Before you start', preflight(install, steps)),
    section('1. Publish the change', steps.publish(install)),
    section('2. CRDs', steps.upgradeCrds(install)),
    section('3. Control plane', steps.upgradeControlPlane(install)),
    section('4. Prune', steps.prune(install)),
    restartSection('5. Restart workloads in cohorts',
      'Injected proxies keep their old version until their pods restart. Restart one cohort at a time and check it before the next.',
      options, true),
    section('6. Verify', {
      text: 'Every proxy runs the new version and the whole mesh is healthy.',
      commands: [stragglers(install), 'linkerd check --proxy'],
    }),
  ].join('\n\n') + '\n';
}

function extensionRemoval(install: ResolvedInstall, steps: DeliverySteps, options: RunbookOptions, delivered: ChartRelease[]): string[] {
  // Extensions this code delivers are removed the way they were delivered; others (installed by hand) with their CLI.
  const deliveredNames = new Set(delivered.map((r) => r.releaseName.replace(/^linkerd-/, '')));
  const lines = [...delivered].reverse().flatMap((release) => steps.removeRelease(install, release));
  const extensions = (options.extensions ?? (delivered.length > 0 ? [] : ['viz'])).filter((ext) => !deliveredNames.has(ext));
  lines.push(...extensions.map((ext) => `linkerd ${ext} uninstall | kubectl delete -f -  # or: helm uninstall of its release`));
  lines.push("helm list -A | grep -E 'linkerd-(viz|multicluster|jaeger)' || echo 'no extension releases left'");
  return lines;
}

/** The exit runbook: remove injection, restart, verify no proxies, remove extensions, then the core. */
export function exitRunbook(install: ResolvedInstall, steps: DeliverySteps, options: RunbookOptions = {}, delivered: ChartRelease[] = []): string {
  const proxies = "kubectl get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.spec.containers[*].name} "
    + "{.spec.initContainers[*].name}{\"\\n\"}{end}' | grep -w linkerd-proxy";
  return [
    '# Remove Linkerd from the cluster',
    header(install, steps).join('\n'),
    '**Never delete the Gateway API CRDs** (`*.gateway.networking.k8s.io`): they are shared with ingress and gateway '
      + 'controllers, and this install does not own them (`installGatewayAPI: false`). Only CRDs ending in `linkerd.io` go.',
    'Removing the mesh removes mTLS and every Linkerd authorization: check first that nothing relies on them.',
    section('0. Variables', { text: 'The commands below use these.', commands: steps.variables(install) }),
    section('1. Remove injection', {
      text: 'In code: drop `linkerd.io/inject` from namespaces and pod templates, and remove Linkerd policy objects (Servers, '
        + 'AuthorizationPolicies, authentications, rate limits, EgressNetworks) and mesh routes; deploy that. The same by hand:',
      commands: [...cohorts(options).map((ns) => `kubectl annotate namespace ${ns} linkerd.io/inject-`),
        "kubectl get ns -o jsonpath='{range .items[?(@.metadata.annotations.linkerd\\.io/inject)]}{.metadata.name}{\"\\n\"}{end}'"],
    }),
    restartSection('2. Restart workloads', 'Pods lose their proxy only when they restart.', options, false),
    section('3. Verify no proxies are left', {
      text: `Only pods of the control plane (\`${install.namespace}\`) and of extensions may still list linkerd-proxy.`,
      commands: [`${proxies} | grep -v "^${install.namespace}/"`],
    }),
    section('4. Remove extensions', { text: 'Extensions depend on the core, so they go first.', commands: extensionRemoval(install, steps, options, delivered) }),
    section('5. Remove the core', steps.removeCore(install)),
    section('6. Verify', {
      text: 'No Linkerd CRDs, webhooks or cluster roles remain, and the Gateway API CRDs are still there.',
      commands: [
        "kubectl get crd -o name | grep -E 'linkerd\\.io$' || echo 'no Linkerd CRDs left'",
        "kubectl get mutatingwebhookconfigurations,validatingwebhookconfigurations -o name | grep linkerd || echo 'no Linkerd webhooks left'",
        "kubectl get clusterroles,clusterrolebindings -o name | grep linkerd || echo 'no Linkerd cluster roles left'",
        'kubectl get crd httproutes.gateway.networking.k8s.io grpcroutes.gateway.networking.k8s.io  # must still exist',
        `${proxies} || echo 'no proxies left'`,
      ],
    }),
  ].join('\n\n') + '\n';
}

/** Writes both runbooks into `dir` (created if missing) and returns their paths. */
export function writeRunbookFiles(dir: string, upgrade: string, exit: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const files = [path.join(dir, RUNBOOK_FILES.upgrade), path.join(dir, RUNBOOK_FILES.exit)];
  fs.writeFileSync(files[0], upgrade);
  fs.writeFileSync(files[1], exit);
  return files;
}

/** The issuer Secret's certificate key: the chart's `linkerd.io/tls` layout uses crt.pem, `kubernetes.io/tls` tls.crt. */
function issuerCertKey(install: ResolvedInstall): string {
  return install.controlPlaneValues.identity?.issuer?.scheme === 'linkerd.io/tls' ? 'crt\\.pem' : 'tls\\.crt';
}

/**
 * The identity troubleshooting runbook, in the order that finds a fault fastest: the workload's leaf certificate, then
 * the issuer that signed it, then the anchor that signed the issuer, then the clocks, then (for several clusters) the
 * federated path where each cluster's anchors must be identical.
 */
export function troubleshootingRunbook(install: ResolvedInstall, steps: DeliverySteps): string {
  const ns = install.namespace;
  const trustRoots = `kubectl -n ${ns} get configmap linkerd-identity-trust-roots -o jsonpath='{.data.ca-bundle\\.crt}' > anchors.pem`;
  const issuer = `kubectl -n ${ns} get secret linkerd-identity-issuer -o jsonpath='{.data.${issuerCertKey(install)}}' | base64 -d > issuer.crt`;
  const externalCA = install.controlPlaneValues.identity?.externalCA === true;
  return [
    '# Troubleshoot Linkerd identity (mTLS)',
    header(install, steps).join('\n'),
    `Work from the leaf up: a workload certificate, the issuer that signs it (Secret \`linkerd-identity-issuer\` in \`${ns}\`), the `
      + `trust anchors every proxy trusts (ConfigMap \`linkerd-identity-trust-roots\`), then clocks, then other clusters. Trust domain: \`${install.trustDomain}\`.`,
    section('0. Variables', { text: 'The commands below use these.', commands: [`NS=${ns}`, 'APP_NS=<namespace of the failing workload>', 'POD=<a failing pod>'] }),
    section('1. Leaf: the workload certificate', {
      text: 'Does the proxy have a certificate, for the expected identity, still valid, issued by the current issuer? A proxy without one '
        + 'logs identity errors and `linkerd check --proxy` fails its identity checks.',
      commands: [
        'linkerd check --proxy --namespace "$APP_NS"',
        'linkerd identity --namespace "$APP_NS" "$POD" > leaf.crt  # the certificate the proxy presents',
        'openssl x509 -in leaf.crt -noout -subject -issuer -dates -ext subjectAltName',
        `# expect SAN DNS:<serviceaccount>.$APP_NS.serviceaccount.identity.${ns}.${install.trustDomain}`,
        'kubectl -n "$APP_NS" logs "$POD" -c linkerd-proxy | grep -iE "identity|certificate|tls" | tail -20',
      ],
    }),
    section('2. Issuer: the intermediate that signs every leaf', {
      text: 'The issuer must be a CA, unexpired, signed by an anchor in the bundle, and the identity controller must have loaded it'
        + (externalCA ? ' (cert-manager issues it here: check the Certificate first).' : '.'),
      commands: [
        ...(externalCA ? [`kubectl -n ${ns} get certificate linkerd-identity-issuer -o wide`, `kubectl -n ${ns} describe certificate linkerd-identity-issuer | tail -20`] : []),
        issuer,
        'openssl x509 -in issuer.crt -noout -subject -issuer -dates -ext basicConstraints',
        'openssl verify -CAfile issuer.crt -partial_chain leaf.crt  # the leaf was signed by this issuer',
        `kubectl -n ${ns} logs deploy/linkerd-identity -c identity | grep -iE "issuer|certificate|error" | tail -20`,
      ],
    }),
    section('3. Anchor: the roots every proxy trusts', {
      text: 'The issuer must chain to an anchor in the bundle the proxies read. A new issuer signed by a new anchor that is not yet in the '
        + 'bundle breaks every new leaf; an anchor removed too early breaks every proxy still holding an old leaf.',
      commands: [
        ...(externalCA ? ['kubectl get bundle linkerd-identity-trust-roots -o jsonpath=\'{.status.conditions}\'', 'kubectl -n cert-manager get certificate -o wide'] : []),
        trustRoots,
        'openssl crl2pkcs7 -nocrl -certfile anchors.pem | openssl pkcs7 -print_certs -noout  # every anchor in the bundle',
        'openssl verify -CAfile anchors.pem issuer.crt',
        'openssl verify -CAfile anchors.pem -untrusted issuer.crt leaf.crt',
        'linkerd check --proxy  # "trust anchors are valid" and "issuer cert is valid" for the whole mesh',
      ],
    }),
    section('4. Clock skew', {
      text: 'A certificate "not yet valid" or "expired" while the dates above look fine means a clock is off: proxies accept '
        + 'up to the configured clockSkewAllowance. Compare the nodes\' clocks with the certificates\' notBefore/notAfter.',
      commands: [
        'date -u',
        `kubectl -n ${ns} get configmap linkerd-config -o jsonpath='{.data.values}' | grep -E "clockSkewAllowance|issuanceLifetime"`,
        'kubectl get nodes -o name | while read n; do echo "$n $(kubectl debug "$n" -q --image=busybox:1.37.0 -- date -u 2>/dev/null)"; done',
        'kubectl -n "$APP_NS" logs "$POD" -c linkerd-proxy | grep -iE "not yet valid|expired" | tail -5',
      ],
    }),
    section('5. Single cluster or federated', {
      text: 'In one cluster the path ends here. Across clusters (multicluster links), every linked cluster must hold the same anchor '
        + 'bundle and its own issuer signed by it: copying an issuer Secret does not create trust, and Linkerd\'s own multicluster check '
        + 'does not compare anchors. Compare the fingerprints in every cluster, then check the links.',
      commands: [
        'for ctx in <east> <west>; do echo "$ctx"; kubectl --context "$ctx" -n "$NS" get configmap linkerd-identity-trust-roots '
          + '-o jsonpath=\'{.data.ca-bundle\\.crt}\' | openssl crl2pkcs7 -nocrl -certfile /dev/stdin | openssl pkcs7 -print_certs | openssl x509 -noout -fingerprint -sha256; done',
        'linkerd --context <east> multicluster check',
        'linkerd --context <east> multicluster gateways',
      ],
    }),
  ].join('\n\n') + '\n';
}

/** Writes the troubleshooting runbook beside the others and returns its path. */
export function writeTroubleshootingRunbook(dir: string, text: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, RUNBOOK_FILES.troubleshoot);
  fs.writeFileSync(file, text);
  return file;
}
