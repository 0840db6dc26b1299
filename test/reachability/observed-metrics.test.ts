/**
 * plan-deny --observed with the proxies' own authorization results (Prometheus text exposition), audit mode included.
 *
 * The samples below are written from linkerd2-proxy's label set at release/v2.359.0 (the proxy Linkerd 2.20 pins in
 * `.proxy-version`), not captured from a cluster:
 * - counter names: linkerd/app/inbound/src/metrics/authz.rs, the `metrics!` block and `HttpAuthzMetrics::fmt_metrics`
 *   (`inbound_http_authz_allow_total`, `inbound_http_authz_deny_total`, `inbound_tcp_authz_allow_total`);
 * - `target_addr`, `target_ip`, `target_port`: linkerd/app/core/src/transport/labels.rs `impl FmtLabels for TargetAddr`;
 * - `tls`, `client_id`, `no_tls_reason`: the same file, `impl FmtLabels for TlsAccept` (`no_tls_from_remote` is
 *   linkerd/tls/src/server.rs `NoServerTls::NoClientHello`);
 * - `srv_*`, `route_*`, `authz_*`: linkerd/app/core/src/metrics.rs `impl legacy::FmtLabels for ServerLabel`,
 *   `RouteLabels`, `ServerAuthzLabels`, `RouteAuthzLabels`; a default policy is kind `default` with its name
 *   (linkerd/proxy/server-policy/src/meta.rs `Meta::kind`), the default route `default`
 *   (linkerd/proxy/server-policy/src/http.rs `default`), and audit is `authz_kind="default",authz_name="audit"`
 *   (meta.rs `Meta::is_audit`, linkerd/app/inbound/src/policy/defaults.rs `audit`);
 * - the `# POD name (i of n)` block header: linkerd2 cli/cmd/metrics.go (`linkerd diagnostics proxy-metrics`);
 * - `namespace`, `pod`, `deployment` on /federate series: linkerd2 viz/charts/linkerd-viz/templates/prometheus.yaml,
 *   job `linkerd-proxy` relabelling.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findObject, manifests, meshLabObjects } from './mesh-lab-fixture';
import { MeshReachability } from '../../src';
import { DenyTarget, parseObserved, parseObservedMetrics, planDenyManifests, workloadOfPod } from '../../src/analysis/reachability';
import { InputError } from '../../src/core/input-error';
import { readObserved } from '../../src/frontends/cli/plan-deny-command';

const ID = (sa: string) => `${sa}.mesh-lab.serviceaccount.identity.linkerd.cluster.local`;
const TARGET = (ip: string, port: number) => `target_addr="${ip}:${port}",target_ip="${ip}",target_port="${port}"`;
const AUDIT_HTTP = 'srv_group="",srv_kind="default",srv_name="audit",srv_port="8080",route_group="",route_kind="default",route_name="default",'
  + 'authz_group="",authz_kind="default",authz_name="audit"';

/** `linkerd diagnostics proxy-metrics -n mesh-lab deploy/orders-v1` while mesh-lab is in audit: no namespace label. */
const PROXY_METRICS = `#
# POD orders-v1-7c9d8f6b5d-x2k9p (1 of 1)
#
# HELP inbound_http_authz_allow_total The total number of inbound HTTP requests that were authorized
# TYPE inbound_http_authz_allow_total counter
inbound_http_authz_allow_total{${TARGET('10.42.0.15', 8080)},${AUDIT_HTTP},tls="true",client_id="${ID('client')}"} 42
inbound_http_authz_allow_total{${TARGET('10.42.0.15', 8080)},${AUDIT_HTTP},tls="no_identity",no_tls_reason="no_tls_from_remote"} 7
inbound_http_authz_allow_total{${TARGET('10.42.0.15', 8080)},${AUDIT_HTTP},tls="true",client_id="${ID('idle')}"} 0
# HELP request_total Total count of HTTP requests.
# TYPE request_total counter
request_total{direction="inbound",target_addr="10.42.0.15:8080",tls="true",client_id="${ID('client')}"} 49
`;

/** The same counter from Prometheus /federate: linkerd-viz's scrape adds namespace, pod and the workload label. */
const FEDERATE = `# TYPE inbound_http_authz_allow_total untyped
inbound_http_authz_allow_total{${TARGET('10.42.0.16', 8080)},${AUDIT_HTTP},tls="true",client_id="${ID('default')}",`
  + 'namespace="mesh-lab",pod="orders-v2-6b7f9c8d4-q8zt2",deployment="orders-v2",job="linkerd-proxy",instance="10.42.0.16:4191"} 12 1764590400000\n'
  + `inbound_http_authz_deny_total{${TARGET('10.42.0.16', 8080)},srv_group="",srv_kind="default",srv_name="audit",srv_port="8080",`
  + `route_group="",route_kind="default",route_name="default",tls="true",client_id="${ID('nobody')}",namespace="mesh-lab",deployment="orders-v2"} 3\n`;

/** mesh-lab without its Server, in the audit phase of the rollout (observe, narrow, expand). */
function auditLab(): any[] {
  const objects = meshLabObjects({ withPolicy: false, negative: true });
  findObject(objects, 'Namespace', 'mesh-lab').metadata.annotations['config.linkerd.io/default-inbound-policy'] = 'audit';
  return objects;
}

describe('observed proxy metrics', () => {
  test('allowed results become observed calls; audit is marked; zero counters, deny counters and other metrics are left out', () => {
    const observed = parseObservedMetrics(PROXY_METRICS + FEDERATE);
    expect(typeof observed).not.toBe('string');
    const rows = (observed as any[]).map((a) => [a.source, a.namespace, a.workload, a.pod, a.port, a.protocol, a.audited, a.authorization, a.count]);
    expect(rows).toEqual([
      ['mesh-lab/client', undefined, undefined, 'orders-v1-7c9d8f6b5d-x2k9p', 8080, 'http', true, 'default/audit', 42],
      ['unauthenticated', undefined, undefined, 'orders-v1-7c9d8f6b5d-x2k9p', 8080, 'http', true, 'default/audit', 7],
      ['mesh-lab/default', 'mesh-lab', 'orders-v2', 'orders-v2-6b7f9c8d4-q8zt2', 8080, 'http', true, 'default/audit', 12],
    ]);
  });

  test('an allowed result by a policy is not audit; a TCP one has no route', () => {
    const line = `inbound_tcp_authz_allow_total{${TARGET('10.42.0.15', 8080)},srv_group="policy.linkerd.io",srv_kind="server",srv_name="orders-http",`
      + `srv_port="8080",authz_group="policy.linkerd.io",authz_kind="authorizationpolicy",authz_name="client-to-orders",tls="true",client_id="${ID('client')}"} 5`;
    const [one] = parseObservedMetrics(line) as any[];
    expect(one).toMatchObject({ source: 'mesh-lab/client', protocol: 'tcp', audited: false, authorization: 'authorizationpolicy/client-to-orders', server: 'server/orders-http' });
    expect(one.route).toBeUndefined();
  });

  test('a pod name resolves to its workload by the controllers\' naming', () => {
    const workloads = new Map([['orders', ['Deployment']], ['orders-v1', ['Deployment']], ['db', ['StatefulSet']], ['agent', ['DaemonSet']],
      ['report', ['CronJob']]]);
    expect(workloadOfPod('orders-v1-7c9d8f6b5d-x2k9p', workloads)).toBe('orders-v1');
    expect(workloadOfPod('orders-5d8f7c9b4-abcde', workloads)).toBe('orders');
    expect(workloadOfPod('db-0', workloads)).toBe('db');
    expect(workloadOfPod('agent-x2k9p', workloads)).toBe('agent');
    expect(workloadOfPod('report-29413520-q8zt2', workloads)).toBe('report');
    // A StatefulSet's pods have ordinals, not random suffixes; an unknown name is no workload.
    expect(workloadOfPod('db-x2k9p', workloads)).toBeUndefined();
    expect(workloadOfPod('cache-0', workloads)).toBeUndefined();
  });

  test('plan-deny keeps every call the proxies allowed, audit ones included; the plan applied leaves nothing', () => {
    const objects = auditLab();
    const metrics = parseObservedMetrics(PROXY_METRICS + FEDERATE) as any[];
    const plan = planDenyManifests(manifests(objects), 'mesh-lab', {}, [], DenyTarget.DENY, metrics);
    expect(plan.refused.filter((c) => c.origin === 'observed').map((c) => [c.source, c.target, c.from])).toEqual([
      ['unauthenticated', 'mesh-lab/orders-v1:8080', 'proxy metrics line 7: orders-v1-7c9d8f6b5d-x2k9p port 8080, http allowed only by audit (a would-be denial)'],
      ['mesh-lab/default', 'mesh-lab/orders-v2:8080', 'proxy metrics line 13: orders-v2-6b7f9c8d4-q8zt2 port 8080, http allowed only by audit (a would-be denial)'],
    ]);
    // client → orders-v1 is declared too: listed once, as the declaration.
    expect(plan.refused.map((c) => `${c.origin} ${c.source} ${c.target}`)).toEqual([
      'declared mesh-lab/client mesh-lab/orders-v1:8080',
      'observed unauthenticated mesh-lab/orders-v1:8080',
      'declared mesh-lab/client mesh-lab/orders-v2:8080',
      'observed mesh-lab/default mesh-lab/orders-v2:8080',
    ]);
    expect(plan.unresolved).toEqual([]);
    const callers = plan.objects.filter((o) => o.kind === 'MeshTLSAuthentication').map((o) => [o.metadata.name, o.spec.identityRefs.map((r: any) => r.name)]);
    expect(callers).toEqual([['orders-v1-8080-callers', ['client']], ['orders-v2-8080-callers', ['client', 'default']]]);
    expect(plan.objects.map((o) => `${o.kind}/${o.metadata.name}`)).toContain('AuthorizationPolicy/orders-v1-8080-unauthenticated');

    const again = planDenyManifests(manifests([...objects, ...plan.objects]), 'mesh-lab', {}, [], DenyTarget.DENY, metrics);
    expect(again.refused).toEqual([]);
    expect(again.objects).toEqual([]);
  });

  test('samples without a namespace label are unresolved when the whole cluster moves', () => {
    const metrics = parseObservedMetrics(PROXY_METRICS) as any[];
    const plan = planDenyManifests(manifests(auditLab()), undefined, {}, [], DenyTarget.DENY, metrics);
    expect(plan.unresolved).toHaveLength(2);
    expect(plan.unresolved[0]).toMatch(/^proxy metrics line 6: .* no namespace label/);
  });

  test('the construct-side call takes the same text', () => {
    const plan = MeshReachability.planDeny(auditLab(), 'mesh-lab', { observedProxyMetrics: FEDERATE });
    expect(plan.refused.filter((c) => c.origin === 'observed').map((c) => [c.source, c.target])).toEqual([['mesh-lab/default', 'mesh-lab/orders-v2:8080']]);
    expect(() => MeshReachability.planDeny(auditLab(), 'mesh-lab', { observedProxyMetrics: 'request_total 3' })).toThrow(/observedProxyMetrics: no inbound_http_authz_/);
  });

  test('the format is told apart by the text: JSON is viz edges, the rest Prometheus text', () => {
    const edges = parseObserved('[{"src":"client","src_namespace":"mesh-lab","dst":"orders-v1","dst_namespace":"mesh-lab"}]');
    expect(edges).toMatchObject({ edges: [{ dst: 'orders-v1' }], authorizations: [] });
    expect(parseObserved(FEDERATE)).toMatchObject({ edges: [], authorizations: [{ workload: 'orders-v2' }] });
  });

  test('bad input is refused with the line, as a coded input error on the CLI', () => {
    expect(parseObservedMetrics('inbound_http_authz_allow_total{tls="true" 3')).toMatch(/^line 1: "," or "}" was expected after label tls/);
    expect(parseObservedMetrics('# a comment\nnot a sample at all')).toMatch(/^line 2: not has no numeric value; expected Prometheus text exposition/);
    expect(parseObservedMetrics('inbound_http_authz_allow_total{tls="true"} 3')).toMatch(/^line 1: inbound_http_authz_allow_total has no target_port label/);
    expect(parseObservedMetrics('request_total{direction="inbound"} 3\n')).toMatch(/^no inbound_http_authz_\* or inbound_tcp_authz_\* counter/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'observed-'));
    try {
      fs.writeFileSync(path.join(dir, 'metrics.txt'), 'process_cpu_seconds_total 12\n');
      fs.writeFileSync(path.join(dir, 'good.txt'), FEDERATE);
      expect(readObserved(['good.txt'], dir).authorizations).toHaveLength(1);
      let error: unknown;
      try {
        readObserved(['good.txt', 'metrics.txt'], dir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).coded).toMatch(/^LKD-INPUT-007: metrics.txt: no inbound_http_authz_.* Fix: Give the JSON of linkerd viz edges/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
