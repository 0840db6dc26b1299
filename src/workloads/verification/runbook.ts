/** The runbook of the verification Jobs: run them, read their verdicts, remove them. */

export interface VerificationRunbookOptions {
  /** The manifest file the Jobs are written to. */
  readonly manifestFile: string;
  /** Namespaces the Jobs run in (the callers'). */
  readonly namespaces: readonly string[];
  /** The label selector every verification Job carries. */
  readonly selector: string;
  readonly jobs: readonly string[];
}

export function verificationRunbook(o: VerificationRunbookOptions): string {
  const perNamespace = (command: (ns: string) => string) => o.namespaces.map(command).join('\n');
  return [
    '# Mesh verification', '',
    `${o.jobs.length} Jobs (${o.jobs.join(', ')}), one per declared call or refusal. Each runs as the caller (its`,
    'ServiceAccount; meshed with the proxy as a native sidecar, or with injection disabled for a plaintext caller),',
    'sends the declared request once, prints one line — `PASS expected allowed|refused: …` or `FAIL …` — and exits 0',
    'or 1. Allowed means the target\'s proxy did not refuse the request; refused means the proxy answered as',
    'linkerd2-proxy does for an unauthorized request (HTTP 403 with content-length 0 and no content-type, gRPC',
    'grpc-status 7 with content-length 0, or the connection closed without a response on an opaque port), so the',
    'request never reached the app. An application that itself answers an empty 403 without a content-type would',
    'look the same: check the target\'s proxy log ("Request denied") when in doubt.', '',
    '## 1. Run (after the workloads and the policy are applied and ready)', '',
    '```sh',
    `kubectl apply -f ${o.manifestFile}`,
    perNamespace((ns) => `kubectl -n ${ns} wait job -l ${o.selector} --for=jsonpath='{.status.conditions[0].status}'=True --timeout=180s`),
    '```', '',
    '## 2. Read', '',
    '```sh',
    perNamespace((ns) => `kubectl -n ${ns} logs -l ${o.selector} -c verify --prefix --tail=1`),
    perNamespace((ns) => `kubectl -n ${ns} get jobs -l ${o.selector}   # COMPLETIONS 1/1 = PASS; a Failed job = FAIL or no verdict`),
    '```', '',
    'Every line must start with PASS. `no answer (curl exit N …)` is no verdict either way: DNS, the Service, or the',
    'target not ready.', '',
    '## 3. Remove', '',
    '```sh',
    `kubectl delete -f ${o.manifestFile}`,
    perNamespace((ns) => `kubectl -n ${ns} delete job -l ${o.selector} --ignore-not-found   # the same, without the file`),
    '```', '',
  ].join('\n');
}
