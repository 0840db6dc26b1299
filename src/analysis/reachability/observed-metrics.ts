/**
 * The proxies' own inbound authorization results, read from a Prometheus text-exposition scrape: the output of
 * `linkerd diagnostics proxy-metrics -n NS deploy/NAME` (one `# POD name (i of n)` block per pod, linkerd2
 * cli/cmd/metrics.go) or a scrape of Prometheus' `/federate` endpoint, whose series carry the `namespace`, `pod` and
 * workload labels linkerd-viz's scrape config adds (viz/charts/linkerd-viz/templates/prometheus.yaml, job
 * `linkerd-proxy`: `namespace`, `pod`, and `linkerd.io/proxy-<kind>` pod labels mapped to `deployment`, `statefulset`…,
 * the Job's to `k8s_job`).
 *
 * The counters and labels are linkerd2-proxy's at the release Linkerd 2.20 pins (`.proxy-version` v2.359.0):
 * - linkerd/app/inbound/src/metrics/authz.rs `HttpAuthzMetrics::allow` / `TcpAuthzMetrics::allow`:
 *   `inbound_http_authz_allow_total` (per request) and `inbound_tcp_authz_allow_total` (per connection);
 * - labels `target_addr`, `target_ip`, `target_port` (linkerd/app/core/src/transport/labels.rs `TargetAddr`), `tls` and
 *   `client_id` or `no_tls_reason` (same file, `TlsAccept`), `srv_group`/`srv_kind`/`srv_name`/`srv_port`,
 *   `route_group`/`route_kind`/`route_name` and `authz_group`/`authz_kind`/`authz_name` (linkerd/app/core/src/metrics.rs
 *   `ServerLabel`, `RouteLabels`, `ServerAuthzLabels`, `RouteAuthzLabels`);
 * - audit mode: the `audit` default policy is one authorization that admits everyone (linkerd/app/inbound/src/policy/
 *   defaults.rs `audit`), counted as allowed with `authz_kind="default"`, `authz_name="audit"`
 *   (linkerd/proxy/server-policy/src/meta.rs `Meta::is_audit`). Those are the would-be denials.
 *
 * Denials (`*_authz_deny_total`) are not read: a call refused today is not one a move to deny must keep.
 */

/** One exported authorization result: who was let in on which port of which pod, by what. */
export interface ObservedAuthorization {
  /** `namespace/serviceaccount` of the client's mTLS identity, or `unauthenticated`. */
  readonly source: string;
  /** The pod's namespace (label `namespace`); undefined in `linkerd diagnostics proxy-metrics` output. */
  readonly namespace?: string;
  /** The workload (label `deployment`, `statefulset`, … as linkerd-viz's Prometheus adds them). */
  readonly workload?: string;
  /** The pod (label `pod`, or the `# POD` header of `linkerd diagnostics proxy-metrics`). */
  readonly pod?: string;
  /** `target_port`: the pod port called. */
  readonly port: number;
  /** `http` (per request) or `tcp` (per connection). */
  readonly protocol: string;
  /** `kind/name` of the authorization that admitted (`default/audit` for audit mode). */
  readonly authorization: string;
  /** `kind/name` of the Server (or default policy) the proxy applied. */
  readonly server: string;
  /** `kind/name` of the route, for HTTP. */
  readonly route?: string;
  /** True for audit mode: allowed only because the policy is `audit` (a would-be denial). */
  readonly audited: boolean;
  /** The counter's value. */
  readonly count: number;
  /** 1-based line of the sample. */
  readonly line: number;
  /**
   * The file the sample was read from.
   * @default - not read from a file
   */
  readonly file?: string;
}

const ALLOW_COUNTERS: Record<string, string> = {
  inbound_http_authz_allow_total: 'http',
  inbound_tcp_authz_allow_total: 'tcp',
};

/** The workload labels linkerd-viz's Prometheus derives from the injector's `linkerd.io/proxy-<kind>` pod labels. */
const WORKLOAD_LABELS = ['deployment', 'statefulset', 'daemonset', 'cronjob', 'k8s_job', 'replicationcontroller', 'replicaset'];

const POD_HEADER = /^#\s*POD\s+(\S+)\s+\(\d+ of \d+\)\s*$/;
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

/** True when the text looks like Prometheus text exposition rather than JSON. */
export function looksLikeMetrics(text: string): boolean {
  const first = text.trimStart()[0];
  return first !== undefined && first !== '[' && first !== '{';
}

/** `{a="b",c="d"}` from position `at` (just after the metric name); the labels and where the block ends, or a problem. */
function readLabels(line: string, at: number): { labels: Record<string, string>; end: number } | string {
  const labels: Record<string, string> = {};
  let i = at + 1;
  for (;;) {
    while (line[i] === ' ') i++;
    if (line[i] === '}') return { labels, end: i + 1 };
    const name = LABEL_NAME.exec(line.slice(i))?.[0];
    if (!name) return `a label name was expected at column ${i + 1}`;
    i += name.length;
    if (line[i] !== '=' || line[i + 1] !== '"') return `label ${name} has no ="value"`;
    i += 2;
    let value = '';
    for (; i < line.length && line[i] !== '"'; i++) {
      if (line[i] !== '\\') {
        value += line[i];
        continue;
      }
      const next = line[++i];
      value += next === 'n' ? '\n' : next ?? '';
    }
    if (line[i] !== '"') return `the value of label ${name} is not closed`;
    labels[name] = value;
    i++;
    while (line[i] === ' ') i++;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') return `"," or "}" was expected after label ${name}`;
  }
}

interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

function readSample(line: string): Sample | string {
  const name = METRIC_NAME.exec(line)?.[0];
  if (!name) return 'not a metric sample (name{labels} value)';
  let labels: Record<string, string> = {};
  let rest = line.slice(name.length);
  if (rest.startsWith('{')) {
    const read = readLabels(line, name.length);
    if (typeof read === 'string') return read;
    labels = read.labels;
    rest = line.slice(read.end);
  }
  const fields = rest.trim().split(/\s+/);
  const value = Number(fields[0]);
  if (fields[0] === '' || fields.length > 2 || (Number.isNaN(value) && fields[0] !== 'NaN')) return `${name} has no numeric value`;
  return { name, labels, value };
}

/** `sa.ns.serviceaccount.identity.<control-plane-ns>.<trust-domain>` → `ns/sa`; no identity → unauthenticated. */
function sourceOf(labels: Record<string, string>): string {
  if (labels.tls !== 'true') return 'unauthenticated';
  const parts = (labels.client_id ?? '').split('.');
  return parts.length >= 2 && parts[0] && parts[1] ? `${parts[1]}/${parts[0]}` : 'unauthenticated';
}

function kindName(labels: Record<string, string>, prefix: string): string {
  return `${labels[`${prefix}_kind`] ?? ''}/${labels[`${prefix}_name`] ?? ''}`;
}

/**
 * Reads the allowed authorization results of a scrape; an error message (naming the line) for anything that is not
 * Prometheus text exposition or that has no inbound authorization counter of the proxies.
 */
export function parseObservedMetrics(text: string, file?: string): ObservedAuthorization[] | string {
  const out: ObservedAuthorization[] = [];
  let pod: string | undefined;
  let counters = 0;
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const header = POD_HEADER.exec(line);
      if (header) pod = header[1];
      continue;
    }
    const sample = readSample(line);
    if (typeof sample === 'string') return `line ${n + 1}: ${sample}; expected Prometheus text exposition (linkerd diagnostics proxy-metrics)`;
    const protocol = ALLOW_COUNTERS[sample.name];
    if (protocol === undefined && !/^inbound_(http|tcp)_authz_/.test(sample.name)) continue;
    counters++;
    if (protocol === undefined || !(sample.value > 0)) continue;
    const port = Number(sample.labels.target_port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      return `line ${n + 1}: ${sample.name} has no target_port label between 1 and 65535 (linkerd2-proxy labels every authorization result with it)`;
    }
    const labels = sample.labels;
    const authorization = kindName(labels, 'authz');
    out.push({
      source: sourceOf(labels),
      namespace: labels.namespace || undefined,
      workload: WORKLOAD_LABELS.map((l) => labels[l]).find((v) => v !== undefined && v !== ''),
      pod: labels.pod || pod,
      port,
      protocol,
      authorization,
      server: kindName(labels, 'srv'),
      route: protocol === 'http' ? kindName(labels, 'route') : undefined,
      audited: authorization === 'default/audit',
      count: sample.value,
      line: n + 1,
      ...(file !== undefined ? { file } : {}),
    });
  }
  if (counters === 0) {
    // The proxy prints these counters once it has authorized something (authz.rs skips empty families).
    return 'no inbound_http_authz_* or inbound_tcp_authz_* counter: not a scrape of Linkerd proxies (expected the output of '
      + 'linkerd diagnostics proxy-metrics, or a Prometheus /federate scrape of the linkerd-proxy job), or proxies that have authorized nothing yet';
  }
  return out;
}

/**
 * The workload a pod name belongs to, by the controllers' naming: `name-<5>` (DaemonSet, Job, ReplicaSet,
 * ReplicationController), `name-<pod-template-hash>-<5>` (Deployment), `name-<schedule time>-<5>` (CronJob),
 * `name-<ordinal>` (StatefulSet). `workloads` maps the names of one namespace to their kinds; undefined unless exactly
 * one workload fits. A handful of map look-ups per pod, whatever the number of workloads.
 */
export function workloadOfPod(pod: string, workloads: ReadonlyMap<string, readonly string[]>): string | undefined {
  const fits = new Set<string>();
  const consider = (name: string | undefined, kinds: readonly string[]) => {
    if (name !== undefined && (workloads.get(name) ?? []).some((k) => kinds.includes(k))) fits.add(name);
  };
  const random = /^(.+)-[a-z0-9]{5}$/.exec(pod)?.[1];
  consider(random, ['DaemonSet', 'Job', 'ReplicaSet', 'ReplicationController']);
  if (random !== undefined) {
    consider(/^(.+)-[a-z0-9]{1,10}$/.exec(random)?.[1], ['Deployment']);
    consider(/^(.+)-\d+$/.exec(random)?.[1], ['CronJob']);
  }
  consider(/^(.+)-\d+$/.exec(pod)?.[1], ['StatefulSet']);
  return fits.size === 1 ? [...fits][0] : undefined;
}
