import * as yaml from 'js-yaml';
import { AnalyzeOptions, analyze } from '../../../src/analysis/engine';
import { Severity } from '../../../src/analysis/finding';
import { Injection, MeshIndex } from '../../../src/analysis/model/mesh-index';
import { ALL_RULES } from '../../../src/analysis/rules';
import { NS, asManifests, meshLab, pick } from '../../support/mesh-fixture';

function ruleFindings(objects: any[], ruleId: string, options: AnalyzeOptions = {}) {
  return analyze(asManifests(objects), options).findings.filter((f) => f.ruleId === ruleId);
}

function only(objects: any[], ruleId: string) {
  const found = ruleFindings(objects, ruleId);
  expect(found).toHaveLength(1);
  return found[0];
}

const MESH_IDS = ['LKD-MESH-001', 'LKD-MESH-002', 'LKD-MESH-003', 'LKD-MESH-004', 'LKD-MESH-005', 'LKD-MESH-006', 'LKD-MESH-007', 'LKD-MESH-008'];
const template = (objects: any[], name: string) => pick(objects, 'Deployment', name).spec.template;
const annotate = (objects: any[], name: string, annotations: Record<string, string>) => {
  const meta = template(objects, name).metadata;
  meta.annotations = { ...(meta.annotations ?? {}), ...annotations };
};

describe('mesh rule pack', () => {
  test('every mesh rule is registered with full documentation and the baseline is clean', () => {
    for (const id of MESH_IDS) {
      const rule = ALL_RULES.find((r) => r.id === id)!;
      expect(rule.doc.badExample).toEqual(expect.any(String));
      expect(rule.doc.goodExample).toEqual(expect.any(String));
    }
    const ids = analyze(asManifests(meshLab())).findings.map((f) => f.ruleId);
    expect(ids.filter((id) => MESH_IDS.includes(id))).toEqual([]);
  });
});

describe('LKD-MESH-001 targets not injected', () => {
  test('fires on a Server and its AuthorizationPolicy when the pods opt out', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v2', { 'linkerd.io/inject': 'disabled' });
    const found = ruleFindings(objects, 'LKD-MESH-001');
    expect(found.map((f) => f.resource.kind).sort()).toEqual(['AuthorizationPolicy', 'Server']);
    expect(found.find((f) => f.resource.kind === 'Server')!.message)
      .toMatch(/Server orders-http applies to Deployment mesh-lab\/orders-v2 \(pod template annotation linkerd.io\/inject: disabled\)/);
  });
  test('skips pods whose injection is unknown', () => {
    const objects = meshLab().filter((o) => o.kind !== 'Namespace');
    expect(ruleFindings(objects, 'LKD-MESH-001')).toEqual([]);
  });
});

describe('LKD-MESH-002 wrong metadata', () => {
  test('an EgressNetwork\'s opaque-ports is read (outbound/index.rs, as a Service\'s): no finding; another proxy key there is', () => {
    const egress = (annotations: Record<string, string>) => ({
      apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { name: 'all-egress', namespace: 'linkerd-egress', annotations }, spec: { trafficPolicy: 'Deny' },
    });
    expect(ruleFindings([...meshLab(), egress({ 'config.linkerd.io/opaque-ports': '9042' })], 'LKD-MESH-002')).toEqual([]);
    expect(ruleFindings([...meshLab(), egress({ 'config.linkerd.io/proxy-cpu-request': '100m' })], 'LKD-MESH-002')).toHaveLength(1);
  });
  test('a workload-level value its pods get anyway loses nothing: inject disabled where the Namespace asks for no injection, the cluster\'s default policy', () => {
    const objects = meshLab();
    const namespace = pick(objects, 'Namespace', NS).metadata;
    delete namespace.annotations['linkerd.io/inject'];
    delete namespace.annotations['config.linkerd.io/default-inbound-policy'];
    pick(objects, 'Deployment', 'client').metadata.annotations = { 'linkerd.io/inject': 'disabled' };
    pick(objects, 'Deployment', 'orders-v1').metadata.annotations = { 'config.linkerd.io/default-inbound-policy': 'all-unauthenticated' };
    expect(ruleFindings(objects, 'LKD-MESH-002')).toEqual([]);
    // A Namespace that asks for injection injects the pods: "disabled" on the Deployment is lost.
    namespace.annotations['linkerd.io/inject'] = 'enabled';
    expect(ruleFindings(objects, 'LKD-MESH-002').map((f) => f.resource.name)).toEqual(['client']);
    // Another cluster default makes the policy on the Deployment a lost intent.
    expect(ruleFindings(objects, 'LKD-MESH-002', { defaultInboundPolicy: 'deny' }).map((f) => f.resource.name).sort()).toEqual(['client', 'orders-v1']);
  });
  test('fires on inject as a label and config on the Deployment metadata', () => {
    const objects = meshLab();
    // The Namespace asks for injection: "disabled" as a label is lost.
    template(objects, 'client').metadata.labels['linkerd.io/inject'] = 'disabled';
    pick(objects, 'Deployment', 'orders-v1').metadata.annotations = { 'config.linkerd.io/proxy-cpu-request': '100m' };
    const found = ruleFindings(objects, 'LKD-MESH-002');
    expect(found.map((f) => `${f.resource.name}: ${f.message}`)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^client: spec.template.metadata.labels has linkerd.io\/inject as label/),
      expect.stringMatching(/^orders-v1: metadata.annotations of the Deployment carries config.linkerd.io\/proxy-cpu-request.*spec.template.metadata.annotations/),
    ]));
    expect(found[0].severity).toBe(Severity.ERROR);
  });
  // controller/proxy-injector/webhook.go Inject reads the namespace's annotations only; a label beside the same annotation is redundant.
  test('a key as a label is judged against the annotations beside it: repeated is harmless, different a warning, missing an error', () => {
    const objects = meshLab();
    const ns = pick(objects, 'Namespace', NS).metadata;
    ns.annotations = { ...ns.annotations, 'linkerd.io/inject': 'enabled' };
    ns.labels = { ...ns.labels, 'linkerd.io/inject': 'enabled' };
    expect(ruleFindings(objects, 'LKD-MESH-002')).toEqual([]);
    ns.labels['linkerd.io/inject'] = 'disabled';
    expect(ruleFindings(objects, 'LKD-MESH-002').map((f) => [f.severity, f.message])).toEqual([
      [Severity.WARNING, expect.stringMatching(/^metadata.labels has linkerd.io\/inject \("disabled"\) as label\(s\), and metadata.annotations sets them otherwise/)],
    ]);
    delete ns.annotations['linkerd.io/inject'];
    // "disabled" is what the pods get without the annotation anyway; "enabled" is lost.
    expect(ruleFindings(objects, 'LKD-MESH-002')).toEqual([]);
    ns.labels['linkerd.io/inject'] = 'enabled';
    expect(ruleFindings(objects, 'LKD-MESH-002').map((f) => f.severity)).toEqual([Severity.ERROR]);
  });
  test('fires on the webhook key as a namespace annotation, passes on it as a label', () => {
    const objects = meshLab();
    pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/admission-webhooks'] = 'disabled';
    expect(only(objects, 'LKD-MESH-002').message).toMatch(/namespaceSelector reads it as a LABEL/);
    const ok = meshLab();
    pick(ok, 'Namespace', NS).metadata.labels = { 'config.linkerd.io/admission-webhooks': 'disabled' };
    expect(ruleFindings(ok, 'LKD-MESH-002')).toEqual([]);
  });
});

describe('LKD-MESH-002 workload metadata against the pod template', () => {
  const deployment = (objects: any[]) => pick(objects, 'Deployment', 'orders-v1');
  test('the same keys and values on the Deployment and its template (linkerd viz install) pass', () => {
    const objects = meshLab();
    const keys = { 'linkerd.io/inject': 'enabled', 'config.linkerd.io/proxy-await': 'enabled' };
    deployment(objects).metadata.annotations = { ...keys };
    annotate(objects, 'orders-v1', keys);
    expect(ruleFindings(objects, 'LKD-MESH-002')).toEqual([]);
  });
  test('a key only on the Deployment is an error naming the template path', () => {
    const objects = meshLab();
    deployment(objects).metadata.annotations = { 'config.linkerd.io/proxy-await': 'disabled' };
    const found = only(objects, 'LKD-MESH-002');
    expect(found.severity).toBe(Severity.ERROR);
    expect(found.message).toMatch(/carries config.linkerd.io\/proxy-await; .*Put them on spec.template.metadata.annotations/);
  });
  test('a key only on the Deployment whose value the pods get anyway (chart default, namespace) is not reported', () => {
    const objects = meshLab();
    // linkerd viz install: proxy-await: enabled on the Deployment only; the chart's proxy.await default is true.
    deployment(objects).metadata.annotations = { 'config.linkerd.io/proxy-await': 'enabled', 'config.linkerd.io/proxy-enable-native-sidecar': 'True' };
    expect(ruleFindings(objects, 'LKD-MESH-002')).toEqual([]);
    deployment(objects).metadata.annotations = { 'config.linkerd.io/proxy-log-level': 'debug' };
    expect(ruleFindings(objects, 'LKD-MESH-002')).toHaveLength(1);
    pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/proxy-log-level'] = 'debug';
    expect(ruleFindings(objects, 'LKD-MESH-002')).toEqual([]);
  });
  // The injector admits pods (webhook.go); a CronJob's jobTemplate.metadata lands on its Jobs, never on their pods.
  test('keys on a CronJob\'s jobTemplate metadata are not read either', () => {
    const cron = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'report', namespace: NS },
      spec: {
        schedule: '0 * * * *',
        jobTemplate: {
          metadata: { annotations: { 'config.linkerd.io/proxy-log-level': 'debug' } },
          spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'app', image: 'example/report:1.0.0' }] } } },
        },
      },
    };
    const found = only([...meshLab(), cron], 'LKD-MESH-002');
    expect(found).toMatchObject({ severity: Severity.ERROR, resource: { kind: 'CronJob', name: 'report' } });
    expect(found.message).toMatch(/^spec.jobTemplate.metadata.annotations of the CronJob carries config.linkerd.io\/proxy-log-level; .*Put them on spec.jobTemplate.spec.template.metadata.annotations/);
  });
  test('a different value on the template is a warning: the template value applies', () => {
    const objects = meshLab();
    deployment(objects).metadata.annotations = { 'config.linkerd.io/proxy-await': 'disabled' };
    annotate(objects, 'orders-v1', { 'config.linkerd.io/proxy-await': 'enabled' });
    const found = only(objects, 'LKD-MESH-002');
    expect(found.severity).toBe(Severity.WARNING);
    expect(found.message).toMatch(/"disabled" here, "enabled" on the template.*template's value applies/);
  });
  test('default-inbound-policy on a Server is an error saying where Linkerd reads it', () => {
    const objects = meshLab();
    const server = pick(objects, 'Server', 'orders-http');
    server.metadata.annotations = { 'config.linkerd.io/default-inbound-policy': 'deny' };
    const found = only(objects, 'LKD-MESH-002');
    expect(found.severity).toBe(Severity.ERROR);
    expect(found.resource.kind).toBe('Server');
    expect(found.message).toMatch(/Linkerd does not read these from a Server.*Pod \(pod template\) and ExternalWorkload annotations.*for a Server, what is allowed when no authorization matches is its spec.accessPolicy/);
  });
  test('a proxy key on a ConfigMap is an error; linkerd.io/inject on a Service is not (Linkerd charts write it)', () => {
    const objects = meshLab();
    objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: NS, annotations: { 'config.linkerd.io/proxy-log-level': 'debug' } } });
    pick(objects, 'Service', 'orders').metadata.annotations = { 'linkerd.io/inject': 'enabled' };
    const found = ruleFindings(objects, 'LKD-MESH-002');
    expect(found.map((f) => f.resource.kind)).toEqual(['ConfigMap']);
    expect(ruleFindings(objects, 'LKD-MESH-003')).toEqual([]);
  });
  test('an ExternalWorkload may carry the policy controller\'s keys; others are a warning', () => {
    const objects = meshLab();
    const ew = (annotations: Record<string, string>) => ({
      apiVersion: 'workload.linkerd.io/v1beta1',
      kind: 'ExternalWorkload',
      metadata: { name: 'vm', namespace: NS, annotations },
      spec: { meshTLS: { identity: 'spiffe://root.linkerd.cluster.local/vm', serverName: 'vm' }, workloadIPs: [{ ip: '10.0.0.9' }] },
    });
    objects.push(ew({ 'config.linkerd.io/default-inbound-policy': 'deny', 'config.linkerd.io/opaque-ports': '5432' }));
    expect(ruleFindings(objects, 'LKD-MESH-002')).toEqual([]);
    const bad = meshLab();
    bad.push(ew({ 'config.linkerd.io/proxy-cpu-request': '100m' }));
    const found = only(bad, 'LKD-MESH-002');
    expect(found.severity).toBe(Severity.WARNING);
    expect(found.message).toMatch(/reads only config.linkerd.io\/proxy-require-identity-inbound-ports, config.linkerd.io\/opaque-ports, config.linkerd.io\/default-inbound-policy/);
  });
});

describe('LKD-MESH-003 config annotations', () => {
  test('fires on an unknown key with a suggestion, a bad port list, a bad inject value and a deprecated key', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', {
      'config.linkerd.io/skip-inbound-port': '4222',
      'config.linkerd.io/opaque-ports': 'mysql:3306',
      'config.beta.linkerd.io/proxy-enable-native-sidecar': 'true',
    });
    pick(objects, 'Namespace', NS).metadata.annotations['linkerd.io/inject'] = 'on';
    const messages = ruleFindings(objects, 'LKD-MESH-003').map((f) => `${f.resource.kind}: ${f.message}`);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Deployment: pod template annotation config.linkerd.io\/skip-inbound-port is not a Linkerd 2.20 annotation.*Did you mean config.linkerd.io\/skip-inbound-ports\?/),
      expect.stringMatching(/^Deployment: pod template annotation config.linkerd.io\/opaque-ports is "mysql:3306": the policy controller .* reads port numbers and lo-hi ranges only, and "mysql:3306" is no port or range, so it discards the whole list/),
      expect.stringMatching(/^Deployment: .*config.beta.linkerd.io\/proxy-enable-native-sidecar is deprecated \(pkg\/k8s\/labels.go\): use config.linkerd.io\/proxy-enable-native-sidecar. Linkerd 2.20 still reads it/),
      expect.stringMatching(/^Namespace: annotation linkerd.io\/inject is "on": it is not enabled, disabled or ingress, so the injector .* injects no pod it applies to/),
    ]));
    expect(messages).toHaveLength(4);
  });
  test('follows labels.go: a real 2.20 key passes, a removed key and a pod-only key on a Namespace are named', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', {
      'config.linkerd.io/proxy-metrics-hostname-labels': 'true',
      'config.alpha.linkerd.io/proxy-wait-before-exit-seconds': '10',
      'config.linkerd.io/proxy-enable-native-sidecar': 'false',
      'config.linkerd.io/enable-gateway': 'false',
      'config.linkerd.io/proxy-additional-env': '[{"name":"X","value":"1"}]',
    });
    expect(ruleFindings(objects, 'LKD-MESH-003')).toEqual([]);
    annotate(objects, 'orders-v1', {
      'config.linkerd.io/init-image': 'x', 'config.linkerd.io/proxy-metrics-hostname-labels': 'yes', 'config.linkerd.io/proxy-enable-gateway': 'true',
    });
    pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/enable-gateway'] = 'true';
    const messages = ruleFindings(objects, 'LKD-MESH-003').map((f) => f.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/config.linkerd.io\/init-image is not a Linkerd 2.20 annotation any more.*proxy-init ships inside the proxy image/),
      expect.stringMatching(/proxy-metrics-hostname-labels is "yes", which must be true or false/),
      expect.stringMatching(/^annotation config.linkerd.io\/enable-gateway is read from pod annotations only/),
      expect.stringMatching(/proxy-enable-gateway is not a Linkerd 2.20 annotation.*Did you mean config.linkerd.io\/enable-gateway\?/),
    ]));
    expect(messages).toHaveLength(4);
  });
  test('a proxy wait does nothing with native sidecars (the 2.20 default), and is named when not shorter than the grace period', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds': '0' });
    expect(ruleFindings(objects, 'LKD-MESH-003')).toEqual([]);
    annotate(objects, 'orders-v1', { 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds': '10' });
    expect(only(objects, 'LKD-MESH-003').message).toBe('pod template annotation config.alpha.linkerd.io/proxy-wait-before-exit-seconds has no '
      + 'effect: the proxy runs as a native sidecar (proxy.nativeSidecar, true by default in Linkerd 2.20), which Kubernetes stops only '
      + 'after the app containers, and the injector adds the wait (a preStop sleep) only to a proxy that is an ordinary container. Remove it.');
    annotate(objects, 'orders-v1', { 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds': '30', 'config.linkerd.io/proxy-enable-native-sidecar': 'false' });
    expect(only(objects, 'LKD-MESH-003').message).toMatch(/is 30 s, not less than the pod's terminationGracePeriodSeconds \(30\)/);
    template(objects, 'orders-v1').spec.terminationGracePeriodSeconds = 60;
    expect(ruleFindings(objects, 'LKD-MESH-003')).toEqual([]);
  });
  test('names a labels.go key nothing reads (a multicluster probe setting the service mirror never reads)', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').metadata.annotations = { 'mirror.linkerd.io/probe-timeout': '5s', 'mirror.linkerd.io/probe-period': '3' };
    expect(only(objects, 'LKD-MESH-003').message)
      .toBe('annotation mirror.linkerd.io/probe-timeout is defined in linkerd2 pkg/k8s/labels.go but nothing in Linkerd 2.20 reads it, so it has no effect; remove it.');
  });
  test('fires on a proxy setting placed on a Service', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').metadata.annotations = { 'config.linkerd.io/skip-inbound-ports': '8080' };
    expect(only(objects, 'LKD-MESH-003').message).toMatch(/have no effect on a Service/);
  });
  test('passes on valid annotations', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', {
      'config.linkerd.io/opaque-ports': '8080,4000-4100',
      'config.linkerd.io/proxy-memory-limit': '256Mi',
      'config.linkerd.io/proxy-outbound-connect-timeout': '1s500ms',
      'config.linkerd.io/proxy-enable-native-sidecar': 'false',
      'config.linkerd.io/skip-subnets': '10.0.0.0/8,fd00::/8',
    });
    expect(ruleFindings(objects, 'LKD-MESH-003')).toEqual([]);
  });
});

describe('LKD-MESH-003 opaque-ports, read by Go and by Rust', () => {
  const messageFor = (value: string, on: 'pod' | 'Service' = 'pod') => {
    const objects = meshLab();
    if (on === 'pod') annotate(objects, 'orders-v1', { 'config.linkerd.io/opaque-ports': value });
    else pick(objects, 'Service', 'orders').metadata.annotations = { 'config.linkerd.io/opaque-ports': value };
    return ruleFindings(objects, 'LKD-MESH-003').map((f) => f.message);
  };

  test('a port name: the injector resolves it, the policy controller discards the whole list', () => {
    const [message, ...rest] = messageFor('http,4000-4100');
    expect(rest).toEqual([]);
    expect(message).toMatch(/it names "http" \(container port names\), so it discards the whole list: no port in it is opaque there, and the pods' inbound policy detects the protocol on these ports; list the port numbers instead\./);
    expect(messageFor('http', 'Service')[0]).toMatch(/it names "http" \(Service port names\).*client proxies detect the protocol on these ports/);
  });

  test('a range with spaces: the policy controller reads it, the injector and the destination controller skip it', () => {
    expect(messageFor('25, 4000 - 4100')).toEqual([expect.stringMatching(/the policy controller reads "4000 - 4100", but the injector and the destination controller skip it .*write "4000-4100"\./)]);
  });

  test('what both read passes: signs and leading zeros, spaces around entries, a trailing comma', () => {
    expect(messageFor('+25, 08080 ,4000-4100,')).toEqual([]);
  });
});

describe('LKD-MESH-004 opaque ports', () => {
  // inbound/index.rs: opaque ports count only for ports without a Server (default_inbound_server); a Server's own
  // proxyProtocol decides otherwise (inbound_server), and an unset one is detection (server.rs proxy_protocol).
  test('a Server on a port the pods mark opaque must say proxyProtocol: opaque, or detection comes back', () => {
    const objects = meshLab();
    for (const name of ['orders-v1', 'orders-v2']) template(objects, name).spec.containers[0].ports.push({ name: 'mysql', containerPort: 3306 });
    const server = {
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'Server',
      metadata: { name: 'orders-db', namespace: 'mesh-lab' },
      spec: { podSelector: { matchLabels: pick(objects, 'Server', 'orders-http').spec.podSelector.matchLabels }, port: 'mysql' },
    };
    const onServer = (o: any[]) => ruleFindings(o, 'LKD-MESH-004').filter((f) => f.resource.kind === 'Server');
    expect(onServer([...objects, server]).map((f) => f.message)).toEqual([
      expect.stringMatching(/^port 3306 of Deployment mesh-lab\/orders-v1, Deployment mesh-lab\/orders-v2 is opaque there .*leaves proxyProtocol unset: the proxy detects/),
    ]);
    expect(onServer([...objects, { ...server, spec: { ...server.spec, proxyProtocol: 'opaque' } }])).toEqual([]);
    expect(onServer([...objects, { ...server, spec: { ...server.spec, proxyProtocol: 'HTTP/1' } }])).toEqual([]);
  });
  // The answer is worked out once per selection and port: Servers sharing a selector must still each be judged on their own port.
  test('Servers sharing one selector are each judged on their own port and protocol', () => {
    const objects = meshLab();
    for (const name of ['orders-v1', 'orders-v2']) template(objects, name).spec.containers[0].ports.push({ name: 'mysql', containerPort: 3306 });
    const matchLabels = pick(objects, 'Server', 'orders-http').spec.podSelector.matchLabels;
    const server = (name: string, spec: Record<string, unknown>) => ({
      apiVersion: 'policy.linkerd.io/v1beta3', kind: 'Server', metadata: { name, namespace: 'mesh-lab' }, spec: { podSelector: { matchLabels }, ...spec },
    });
    const servers = [server('db-a', { port: 'mysql' }), server('db-b', { port: 3306 }), server('db-c', { port: 3306, proxyProtocol: 'opaque' }),
      server('db-d', { port: 8080 }), server('db-e', { port: 'mysql' })];
    const found = ruleFindings([...objects, ...servers], 'LKD-MESH-004').filter((f) => f.resource.kind === 'Server');
    expect(found.map((f) => f.resource.name)).toEqual(['db-a', 'db-b', 'db-e']);
    for (const f of found) expect(f.message).toMatch(/^port 3306 of Deployment mesh-lab\/orders-v1, Deployment mesh-lab\/orders-v2 is opaque there/);
  });
  test('fires when pods mark the targetPort opaque and the Service does not', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/opaque-ports': '8080' });
    const found = ruleFindings(objects, 'LKD-MESH-004');
    expect(found.map((f) => f.resource.name).sort()).toEqual(['orders', 'orders-v1']);
    expect(found[0].message).toMatch(/targetPort 8080 of Service port 8080 is opaque on Deployment mesh-lab\/orders-v1/);
  });
  test('the Service falls back to the cluster\'s default list, as the install or the options give it (not the chart\'s)', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/opaque-ports': '8080' });
    expect(ruleFindings(objects, 'LKD-MESH-004', { defaultOpaquePorts: '8080' })).toEqual([]);
  });
  // inject.go CreateOpaquePortsPatch: a Service without the annotation gets the ports whose targetPort is a default
  // opaque port, so Service port 80 in front of postgres' 5432 is opaque for its clients.
  test('a Service port whose targetPort is a default opaque port is opaque as the injector patches it: no finding unless the Service\'s own list leaves it out', () => {
    const objects = meshLab();
    const orders = pick(objects, 'Service', 'orders');
    orders.spec.ports = [{ name: 'db', port: 80, targetPort: 5432 }];
    for (const name of ['orders-v1', 'orders-v2']) template(objects, name).spec.containers[0].ports.push({ name: 'postgres', containerPort: 5432 });
    expect(ruleFindings(objects, 'LKD-MESH-004').filter((f) => f.resource.name === 'orders')).toEqual([]);
    orders.metadata.annotations = { 'config.linkerd.io/opaque-ports': '9999' };
    const [f] = ruleFindings(objects, 'LKD-MESH-004').filter((x) => x.resource.name === 'orders');
    expect(f.message).toMatch(/targetPort 5432 of Service port 80 is opaque on .*but the Service's opaque ports do not include port 80/);
  });
  test('passes when the Service agrees', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/opaque-ports': 'http' });
    for (const svc of ['orders', 'orders-v1']) pick(objects, 'Service', svc).metadata.annotations = { 'config.linkerd.io/opaque-ports': '8080' };
    expect(ruleFindings(objects, 'LKD-MESH-004')).toEqual([]);
  });
});

// outbound/index.rs Index::apply for Service: a listed opaque port that has an appProtocol keeps the appProtocol
// ("`appProtocol` set on service port, ignoring opaque port setting", at debug level).
describe('LKD-MESH-004 appProtocol over opaque ports', () => {
  const withBoth = (appProtocol: string | undefined, where: 'service' | 'namespace' = 'service') => {
    const objects = meshLab();
    const orders = pick(objects, 'Service', 'orders');
    if (appProtocol !== undefined) orders.spec.ports[0].appProtocol = appProtocol;
    const target = where === 'service' ? orders.metadata : pick(objects, 'Namespace', NS).metadata;
    target.annotations = { ...(target.annotations ?? {}), 'config.linkerd.io/opaque-ports': '8080' };
    return objects;
  };
  const onOrders = (objects: any[]) => ruleFindings(objects, 'LKD-MESH-004').filter((f) => f.resource.kind === 'Service' && f.resource.name === 'orders');
  test.each(['http', 'kubernetes.io/h2c'])('an appProtocol %s wins over the Service\'s own list', (value) => {
    expect(onOrders(withBoth(value)).map((f) => [f.severity, f.message])).toEqual([[Severity.WARNING,
      expect.stringMatching(new RegExp(`^port 8080 is listed in the Service's config.linkerd.io/opaque-ports, but its appProtocol "${value.replace('.', '\\.')}" takes precedence: meshed clients treat the port as HTTP/[12], not opaque`))]]);
  });
  test('and over the namespace\'s list the injector copies', () => {
    expect(onOrders(withBoth('http', 'namespace')).map((f) => f.message)).toEqual([expect.stringMatching(/listed in Namespace mesh-lab's config.linkerd.io\/opaque-ports \(copied by the injector\)/)]);
  });
  test.each([undefined, 'linkerd.io/opaque', 'linkerd.io/tcp', 'grpc'])('agrees with an appProtocol %s (opaque, or served like it)', (value) => {
    expect(onOrders(withBoth(value))).toEqual([]);
  });
  test('says nothing where only the cluster defaults list the port', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').spec.ports[0].appProtocol = 'http';
    expect(onOrders(objects)).toEqual([]);
    expect(ruleFindings(objects, 'LKD-MESH-004', { defaultOpaquePorts: '8080' })).toEqual([]);
  });
});

// controller/api/destination/external-workload/endpoints_reconciler.go: workloads without IPs are skipped, and
// findWorkloadPort wants the Service's targetPort (name or number, same protocol) declared in spec.ports.
describe('LKD-MESH-015 ExternalWorkload endpoints', () => {
  const vm = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'workload.linkerd.io/v1beta1',
    kind: 'ExternalWorkload',
    metadata: { name, namespace: NS, labels: { app: 'legacy-orders' } },
    spec: { meshTLS: { identity: `spiffe://root.linkerd.cluster.local/${name}`, serverName: `${name}.cluster.local` }, ...spec },
  });
  const legacy = (...workloads: any[]) => {
    const objects = meshLab();
    const service = pick(objects, 'Service', 'orders-v2');
    service.spec.selector = { app: 'legacy-orders' };
    service.spec.ports = [{ name: 'http', port: 8080, targetPort: 9000 }];
    return [...objects, ...workloads];
  };
  const messages = (objects: any[]) => ruleFindings(objects, 'LKD-MESH-015').map((f) => [f.severity, f.resource.name, f.message]);
  test('a workload that declares the target port, by number or by name, is an endpoint', () => {
    expect(messages(legacy(vm('vm-1', { workloadIPs: [{ ip: '192.0.2.10' }], ports: [{ port: 9000 }] })))).toEqual([]);
    const objects = legacy(vm('vm-1', { workloadIPs: [{ ip: '192.0.2.10' }], ports: [{ port: 9000, name: 'http' }] }));
    pick(objects, 'Service', 'orders-v2').spec.ports[0].targetPort = 'http';
    expect(messages(objects)).toEqual([]);
  });
  test('a workload without the target port is left out, and the port fails when nobody else serves it', () => {
    expect(messages(legacy(vm('vm-1', { workloadIPs: [{ ip: '192.0.2.10' }], ports: [{ port: 8080, name: 'http' }] })))).toEqual([[Severity.WARNING, 'vm-1',
      expect.stringMatching(/^spec.ports lists no port for Service mesh-lab\/orders-v2 port 8080 \(targetPort 9000\): unlike a pod, .*leaves it out there; no other endpoint serves port 8080, so requests to it fail\.$/)]]);
    const served = messages(legacy(vm('vm-1', { workloadIPs: [{ ip: '192.0.2.10' }] }), vm('vm-2', { workloadIPs: [{ ip: '192.0.2.11' }], ports: [{ port: 9000 }] })));
    expect(served).toEqual([[Severity.WARNING, 'vm-1', expect.stringMatching(/leaves it out there\.$/)]]);
  });
  test('the protocol must match too', () => {
    expect(messages(legacy(vm('vm-1', { workloadIPs: [{ ip: '192.0.2.10' }], ports: [{ port: 9000, protocol: 'UDP' }] })))).toHaveLength(1);
  });
  test('a workload without workloadIPs is no endpoint of any Service', () => {
    expect(messages(legacy(vm('vm-1', { ports: [{ port: 9000 }] })))).toEqual([[Severity.WARNING, 'vm-1',
      expect.stringMatching(/^spec.workloadIPs is not set, so Linkerd's external workload controller skips this workload: it is no endpoint of Service mesh-lab\/orders-v2, which selects it\.$/)]]);
    expect(messages(legacy(vm('vm-1', { workloadIPs: [], ports: [{ port: 9000 }] })))[0][2]).toMatch(/^spec.workloadIPs is empty/);
  });
  test('a workload no Service selects is not judged', () => {
    const objects = meshLab();
    expect(messages([...objects, vm('vm-1', {})])).toEqual([]);
  });
});

describe('LKD-MESH-005 pod hazards', () => {
  test('fires on UDP and the proxy UID of an injected pod', () => {
    const objects = meshLab();
    const spec = template(objects, 'client').spec;
    spec.securityContext = { runAsUser: 2102 };
    spec.containers[0].ports = [{ containerPort: 53, protocol: 'UDP' }];
    const messages = ruleFindings(objects, 'LKD-MESH-005').map((f) => f.message);
    expect(messages).toEqual([
      expect.stringMatching(/declares 53\/UDP \(main\)/),
      expect.stringMatching(/container\(s\) main of Deployment mesh-lab\/client run as UID 2102/),
    ]);
  });
  test('a pod marked for injection that the injector skips is reported once, and is not meshed', () => {
    const skippedBy = (edit: (objects: any[]) => void) => {
      const objects = meshLab();
      edit(objects);
      const client = new MeshIndex(asManifests(objects)).podTemplates.find((p) => p.owner.id.name === 'client')!;
      expect(client.injection).toBe(Injection.DISABLED);
      return { messages: ruleFindings(objects, 'LKD-MESH-005').map((f) => f.message) };
    };
    const hostNetwork = skippedBy((o) => { const spec = template(o, 'client').spec; spec.hostNetwork = true; spec.securityContext = { runAsUser: 2102 }; });
    expect(hostNetwork.messages).toEqual([
      'Deployment mesh-lab/client is marked for injection, but the injector skips it: it uses hostNetwork: true; so it runs without a proxy.',
    ]);
    const webhook = skippedBy((o) => { pick(o, 'Namespace', NS).metadata.labels = { 'config.linkerd.io/admission-webhooks': 'disabled' }; });
    expect(webhook.messages).toContain('Deployment mesh-lab/client is marked for injection, but the injector skips it: Namespace mesh-lab is '
      + 'labelled config.linkerd.io/admission-webhooks: disabled, which the injector webhook\'s namespaceSelector leaves out; so it runs without a proxy.');
    const istio = skippedBy((o) => { template(o, 'client').spec.containers.push({ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.24.0' }); });
    expect(istio.messages).toEqual([expect.stringMatching(/client is marked for injection, but the injector skips it: it already carries another mesh's sidecar/)]);
  });
  describe('the injector webhook\'s selectors, as the cluster sets them', () => {
    const WEBHOOK = 'linkerd-proxy-injector-webhook-config';
    const webhookConfig = (webhook: Record<string, unknown>) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: WEBHOOK },
      webhooks: [{ name: 'linkerd-proxy-injector.linkerd.io', ...webhook }],
    });
    const installValues = (proxyInjector: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'linkerd-config', namespace: 'linkerd' },
      data: { values: yaml.dump({ proxyInjector }) },
    });
    const clientOf = (objects: any[]) => new MeshIndex(asManifests(objects)).podTemplates.find((p) => p.owner.id.name === 'client')!;
    const optIn = { matchLabels: { 'linkerd.example/injection': 'on' } };

    test('a rendered webhook configuration that selects labelled namespaces skips the pods of the others', () => {
      const objects = [...meshLab(), webhookConfig({ namespaceSelector: optIn })];
      expect(clientOf(objects).injection).toBe(Injection.DISABLED);
      expect(ruleFindings(objects, 'LKD-MESH-005').map((f) => f.message)).toContain('Deployment mesh-lab/client is marked for injection, but '
        + 'the injector skips it: Namespace mesh-lab has no label linkerd.example/injection (on), which the injector webhook\'s '
        + `namespaceSelector requires (MutatingWebhookConfiguration ${WEBHOOK}); so it runs without a proxy.`);
      pick(objects, 'Namespace', NS).metadata.labels = { 'linkerd.example/injection': 'off' };
      expect(clientOf(objects).injectionSkipped).toBe('Namespace mesh-lab is labelled linkerd.example/injection: off, but the injector webhook\'s '
        + `namespaceSelector requires linkerd.example/injection (on) (MutatingWebhookConfiguration ${WEBHOOK})`);
      pick(objects, 'Namespace', NS).metadata.labels = { 'linkerd.example/injection': 'on' };
      expect(clientOf(objects).injection).toBe(Injection.ENABLED);
      expect(ruleFindings(objects, 'LKD-MESH-005')).toEqual([]);
    });

    test('a webhook configuration without selectors is called for every namespace, kube-system included', () => {
      const inKubeSystem = (extra: any[]) => {
        const objects = [...meshLab(), ...extra];
        const client = pick(objects, 'Deployment', 'client');
        client.metadata.namespace = 'kube-system';
        client.spec.template.metadata.annotations = { 'linkerd.io/inject': 'enabled' };
        return new MeshIndex(asManifests(objects)).podTemplates.find((p) => p.owner.id.name === 'client')!;
      };
      expect(inKubeSystem([]).injectionSkipped).toBe('the injector webhook\'s namespaceSelector leaves out namespace kube-system');
      expect(inKubeSystem([webhookConfig({})]).injection).toBe(Injection.ENABLED);
    });

    test('install values merge over the chart\'s selectors as Helm merges maps, and a custom objectSelector applies', () => {
      const objects = [...meshLab(), installValues({ namespaceSelector: optIn })];
      pick(objects, 'Namespace', NS).metadata.labels = { 'linkerd.example/injection': 'on', 'config.linkerd.io/admission-webhooks': 'disabled' };
      // The chart's matchExpressions stay beside the given matchLabels: the admission-webhooks label still opts out.
      expect(clientOf(objects).injectionSkipped).toBe('Namespace mesh-lab is labelled config.linkerd.io/admission-webhooks: disabled, which the '
        + 'injector webhook\'s namespaceSelector leaves out (proxyInjector values of the linkerd-control-plane install in linkerd-config '
        + 'ConfigMap linkerd-config)');
      const byObject = [...meshLab(), installValues({ objectSelector: { matchExpressions: [{ key: 'sidecar', operator: 'NotIn', values: ['none'] }] } })];
      template(byObject, 'client').metadata.labels.sidecar = 'none';
      expect(clientOf(byObject).injectionSkipped).toMatch(/^it is labelled sidecar: none, which the injector webhook's objectSelector leaves out/);
      // A list is replaced whole: the chart's DoesNotExist requirements are gone with it.
      template(byObject, 'client').metadata.labels = { ...template(byObject, 'client').metadata.labels, 'sidecar': 'yes', 'linkerd.io/cni-resource': 'x' };
      expect(clientOf(byObject).injection).toBe(Injection.ENABLED);
    });

    test('a namespace the analysis does not have is judged by its name only, never by labels it cannot see', () => {
      const objects = [...meshLab().filter((o) => o.kind !== 'Namespace'), webhookConfig({ namespaceSelector: optIn })];
      template(objects, 'client').metadata.annotations = { ...template(objects, 'client').metadata.annotations, 'linkerd.io/inject': 'enabled' };
      expect(clientOf(objects).injectionSkipped).toBeUndefined();
      const byName = [...objects.filter((o) => o.kind !== 'MutatingWebhookConfiguration'),
        webhookConfig({ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['shop'] }] } })];
      expect(clientOf(byName).injectionSkipped).toBe(`the injector webhook's namespaceSelector leaves out namespace ${NS} (MutatingWebhookConfiguration ${WEBHOOK})`);
    });
  });

  test('without token projection the injector skips a pod that mounts no token (its own setting, else its ServiceAccount\'s)', () => {
    const objects = meshLab();
    template(objects, 'client').spec.automountServiceAccountToken = false;
    expect(ruleFindings(objects, 'LKD-MESH-005')).toEqual([]);
    const [f] = analyze(asManifests(objects), { serviceAccountTokenProjection: false }).findings.filter((x) => x.ruleId === 'LKD-MESH-005');
    expect(f.severity).toBe(Severity.WARNING);
    expect(f.message).toBe('Deployment mesh-lab/client is marked for injection, but the injector skips it: it sets automountServiceAccountToken: '
      + 'false and the control plane does not project tokens (identity.serviceAccountTokenProjection: false); so it runs without a proxy.');
    // The index is built under the install's setting: its pods are not meshed.
    const values = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'linkerd-config', namespace: 'linkerd' },
      data: { values: yaml.dump({ identity: { serviceAccountTokenProjection: false } }) },
    };
    const fromInstall = analyze(asManifests([...objects, values]));
    expect(fromInstall.index.podTemplates.find((p) => p.owner.id.name === 'client')!.injection).toBe(Injection.DISABLED);
    // The ServiceAccount's setting counts when the pod has none; the pod's true wins over it.
    const byAccount = meshLab();
    const sa = pick(byAccount, 'ServiceAccount', template(byAccount, 'client').spec.serviceAccountName);
    sa.automountServiceAccountToken = false;
    delete template(byAccount, 'client').spec.automountServiceAccountToken;
    const skipped = (o: any[]) => new MeshIndex(asManifests(o), [], 'linkerd', 'default', false).podTemplates.find((p) => p.owner.id.name === 'client')!;
    expect(skipped(byAccount).injectionSkipped).toMatch(/^its ServiceAccount \S+ sets automountServiceAccountToken: false/);
    template(byAccount, 'client').spec.automountServiceAccountToken = true;
    expect(skipped(byAccount).injection).toBe(Injection.ENABLED);
  });
  test('passes for unmeshed pods and other UIDs', () => {
    const objects = meshLab();
    template(objects, 'client').spec.securityContext = { runAsUser: 10001 };
    annotate(objects, 'orders-v1', { 'linkerd.io/inject': 'disabled' });
    template(objects, 'orders-v1').spec.hostNetwork = true;
    expect(ruleFindings(objects, 'LKD-MESH-005')).toEqual([]);
  });
});

describe('LKD-MESH-006 NetworkPolicy and the proxy port', () => {
  const netpol = (ports: any[]) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'orders-in', namespace: NS },
    spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } }, policyTypes: ['Ingress'], ingress: [{ ports }] },
  });
  test('fires when only the app port is allowed', () => {
    const f = only([...meshLab(), netpol([{ port: 8080 }])], 'LKD-MESH-006');
    expect(f.resource.name).toBe('orders-in');
    expect(f.message).toMatch(/limited to port\(s\) 8080 on meshed .* but not the proxy's inbound port 4143/);
  });
  test('fires when 4143 sits beside per-port rules', () => {
    expect(only([...meshLab(), netpol([{ port: 8080 }, { port: 4143 }])], 'LKD-MESH-006').message).toMatch(/per-port limits do not apply/);
  });
  test('passes when ingress is not port-restricted or allows only the proxy port', () => {
    expect(ruleFindings([...meshLab(), netpol([{ port: 'linkerd-proxy' }])], 'LKD-MESH-006')).toEqual([]);
    const open = netpol([]);
    delete (open.spec.ingress[0] as any).ports;
    expect(ruleFindings([...meshLab(), open], 'LKD-MESH-006')).toEqual([]);
  });
});

describe('LKD-MESH-007 proxy port collisions', () => {
  // _proxy.tpl: inbound, admin and control listen on every address, outbound on the loopback one; two on one port cannot bind.
  test('two proxy listeners moved onto one port stop the proxy', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/inbound-port': '4191' });
    expect(ruleFindings(objects, 'LKD-MESH-007').map((f) => [f.severity, f.message])).toEqual([
      [Severity.ERROR, expect.stringMatching(/put its inbound and admin on 4191: the proxy binds each of these listeners and cannot bind two on one port/)],
    ]);
    const moved = meshLab();
    annotate(moved, 'orders-v1', { 'config.linkerd.io/inbound-port': '4200' });
    expect(ruleFindings(moved, 'LKD-MESH-007')).toEqual([]);
  });

  test('fires on an app port equal to the admin port', () => {
    const objects = meshLab();
    template(objects, 'client').spec.containers[0].ports = [{ containerPort: 4191 }];
    const f = only(objects, 'LKD-MESH-007');
    expect(f.resource.name).toBe('client');
    expect(f.message).toMatch(/4191 \(container main, the proxy's admin port\)/);
  });
  test('passes when the proxy admin port is moved', () => {
    const objects = meshLab();
    template(objects, 'client').spec.containers[0].ports = [{ containerPort: 4191 }];
    annotate(objects, 'client', { 'config.linkerd.io/admin-port': '4999' });
    expect(ruleFindings(objects, 'LKD-MESH-007')).toEqual([]);
  });
  test('the Namespace\'s port annotations reach its pods (inject.go ProxyAnnotations): moved there, no clash; onto an app port, a clash', () => {
    const objects = meshLab();
    template(objects, 'client').spec.containers[0].ports = [{ containerPort: 4191 }, { containerPort: 8081 }];
    const namespace = pick(objects, 'Namespace', NS).metadata;
    namespace.annotations = { ...namespace.annotations, 'config.linkerd.io/admin-port': '9991' };
    expect(ruleFindings(objects, 'LKD-MESH-007')).toEqual([]);
    namespace.annotations['config.linkerd.io/admin-port'] = '8081';
    expect(only(objects, 'LKD-MESH-007').message).toMatch(/8081 \(container main, the proxy's admin port\)/);
  });
  test('a UDP port with a proxy port\'s number is no clash: the proxy and its redirects are TCP only', () => {
    const objects = meshLab();
    template(objects, 'client').spec.containers[0].ports = [{ containerPort: 4143, protocol: 'UDP' }];
    expect(ruleFindings(objects, 'LKD-MESH-007')).toEqual([]);
  });
});

describe('LKD-MESH-014 Jobs and native sidecars', () => {
  const job = (annotations: Record<string, string>, kind = 'Job') => {
    const podTemplate = { metadata: { annotations }, spec: { restartPolicy: 'Never', serviceAccountName: 'orders', containers: [{ name: 'migrate', image: 'ghcr.io/example/migrate:1.0.0' }] } };
    return {
      apiVersion: 'batch/v1',
      kind,
      metadata: { name: 'migrate', namespace: NS },
      spec: kind === 'CronJob' ? { schedule: '0 * * * *', jobTemplate: { spec: { template: podTemplate } } } : { template: podTemplate },
    };
  };
  test('passes with native sidecars, the 2.20 default', () => {
    expect(ruleFindings([...meshLab(), job({})], 'LKD-MESH-014')).toEqual([]);
    expect(ruleFindings([...meshLab(), job({ 'config.linkerd.io/proxy-enable-native-sidecar': 'true', 'config.beta.linkerd.io/proxy-enable-native-sidecar': 'false' })], 'LKD-MESH-014')).toEqual([]);
  });
  test('warns when the pod, its namespace or an older key turns them off', () => {
    const [f] = ruleFindings([...meshLab(), job({ 'config.linkerd.io/proxy-enable-native-sidecar': 'false' }, 'CronJob')], 'LKD-MESH-014');
    expect(f).toMatchObject({ severity: Severity.WARNING, resource: { kind: 'CronJob', name: 'migrate' } });
    expect(f.message).toBe('CronJob mesh-lab/migrate runs to completion, but its proxy is an ordinary container (config.linkerd.io/proxy-enable-native-sidecar '
      + 'on the pod template: false): it keeps running after the job\'s containers exit, so the pod never completes and the Job never finishes.');
    const nsOff = meshLab();
    pick(nsOff, 'Namespace', NS).metadata.annotations['config.linkerd.io/proxy-enable-native-sidecar'] = 'false';
    expect(ruleFindings([...nsOff, job({})], 'LKD-MESH-014')[0].message).toMatch(/on Namespace mesh-lab: false/);
    expect(ruleFindings([...meshLab(), job({ 'config.alpha.linkerd.io/proxy-enable-native-sidecar': 'false' })], 'LKD-MESH-014')).toHaveLength(1);
  });
  test('the cluster\'s value, declared or from the install, applies to pods without their own', () => {
    const [declared] = analyze(asManifests([...meshLab(), job({})]), { nativeSidecar: false }).findings.filter((f) => f.ruleId === 'LKD-MESH-014');
    expect(declared.message).toMatch(/its proxy is an ordinary container \(the declared nativeSidecar: false\)/);
    expect(analyze(asManifests([...meshLab(), job({ 'config.linkerd.io/proxy-enable-native-sidecar': 'true' })]), { nativeSidecar: false })
      .findings.filter((f) => f.ruleId === 'LKD-MESH-014')).toEqual([]);
  });
  test('an invalid stable value leaves the default and hides the older keys; the admin shutdown endpoint makes it information', () => {
    expect(ruleFindings([...meshLab(), job({ 'config.linkerd.io/proxy-enable-native-sidecar': 'no', 'config.alpha.linkerd.io/proxy-enable-native-sidecar': 'false' })], 'LKD-MESH-014')).toEqual([]);
    const [f] = ruleFindings([...meshLab(), job({ 'config.linkerd.io/proxy-enable-native-sidecar': 'false', 'config.linkerd.io/proxy-admin-shutdown': 'enabled' })], 'LKD-MESH-014');
    expect(f.severity).toBe(Severity.INFO);
    expect(f.message).toMatch(/proxy-admin-shutdown is enabled, so the job can end it with a POST to localhost:4191\/shutdown/);
  });
});

describe('LKD-MESH-008 Server on a skipped port', () => {
  test('fires when the Server port skips the proxy', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v2', { 'config.linkerd.io/skip-inbound-ports': '8000-8090' });
    const f = only(objects, 'LKD-MESH-008');
    expect(f.resource.name).toBe('orders-http');
    expect(f.message).toMatch(/skipped by proxy-init for Deployment mesh-lab\/orders-v2 \(its own config.linkerd.io\/skip-inbound-ports\)/);
  });
  // The answer is worked out once per selection and port: Servers sharing a selector must still each be judged on their own port.
  test('Servers sharing one selector are each judged on their own port', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v2', { 'config.linkerd.io/skip-inbound-ports': '8000-8090' });
    const orders = pick(objects, 'Server', 'orders-http');
    const copy = (name: string, port: number | string) => ({ ...orders, metadata: { ...orders.metadata, name }, spec: { ...orders.spec, port } });
    const found = ruleFindings([...objects, copy('orders-named', 'http'), copy('orders-other', 9000), copy('orders-again', 8080)], 'LKD-MESH-008');
    expect(found.map((f) => [f.resource.name, f.severity])).toEqual([
      ['orders-again', Severity.ERROR], ['orders-http', Severity.ERROR], ['orders-named', Severity.ERROR],
    ]);
    expect(found.map((f) => f.message.split(' is skipped')[0])).toEqual(['port 8080', 'port 8080', 'port "http"']);
    for (const f of found) expect(f.message).toMatch(/for Deployment mesh-lab\/orders-v2 \(its own config.linkerd.io\/skip-inbound-ports\)/);
  });
  test('passes when other ports are skipped', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v2', { 'config.linkerd.io/skip-inbound-ports': '9000' });
    expect(ruleFindings(objects, 'LKD-MESH-008')).toEqual([]);
  });
  test('reads the list as proxy-init does: an entry with a space skips nothing, "+8080" skips 8080', () => {
    const skipping = (value: string) => {
      const objects = meshLab();
      annotate(objects, 'orders-v2', { 'config.linkerd.io/skip-inbound-ports': value });
      return ruleFindings(objects, 'LKD-MESH-008').length;
    };
    expect([skipping('9000, 8080'), skipping(' 8080'), skipping('8000 - 8090')]).toEqual([0, 0, 0]);
    expect([skipping('9000,8080'), skipping('+8080'), skipping('08080'), skipping('8080,')]).toEqual([1, 1, 1, 1]);
  });
  test('without a list of their own, pods skip the chart\'s proxyInit.ignoreInboundPorts (4567,4568) unless the CNI plugin sets up iptables', () => {
    const galera = () => {
      const objects = meshLab();
      pick(objects, 'Server', 'orders-http').spec.port = 4567;
      for (const v of ['orders-v1', 'orders-v2']) template(objects, v).spec.containers[0].ports.push({ name: 'galera', containerPort: 4567 });
      return objects;
    };
    expect(only(galera(), 'LKD-MESH-008').message).toMatch(/^port 4567 is skipped by proxy-init for Deployment mesh-lab\/orders-v1, Deployment mesh-lab\/orders-v2 \(the cluster's proxyInit.ignoreInboundPorts "4567,4568", with no config.linkerd.io\/skip-inbound-ports of its own\);/);
    expect(ruleFindings(galera(), 'LKD-MESH-008', { cniEnabled: true })).toEqual([]);
    const own = galera();
    annotate(own, 'orders-v1', { 'config.linkerd.io/skip-inbound-ports': '9000' });
    annotate(own, 'orders-v2', { 'config.linkerd.io/skip-inbound-ports': '9000' });
    expect(ruleFindings(own, 'LKD-MESH-008')).toEqual([]);
  });
  test('with the CNI plugin, the linkerd2-cni install\'s ignoreInboundPorts stay beside a pod\'s own list (the plugin appends it)', () => {
    const cniInstall = (ignoreInboundPorts: string) => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'linkerd2-cni', namespace: 'argocd' },
      spec: {
        project: 'default',
        source: { repoURL: 'https://helm.linkerd.io/edge', chart: 'linkerd2-cni', targetRevision: '2026.6.3', helm: { valuesObject: { ignoreInboundPorts } } },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'linkerd-cni' },
      },
    });
    const objects = [...meshLab(), cniInstall('8080')];
    annotate(objects, 'orders-v1', { 'config.linkerd.io/skip-inbound-ports': '9000' });
    const cni = { cniEnabled: true };
    const [finding] = ruleFindings(objects, 'LKD-MESH-008', cni);
    expect(finding.message).toMatch(/^port 8080 is skipped by the CNI plugin for Deployment mesh-lab\/orders-v1 \(its own config.linkerd.io\/skip-inbound-ports, added to the CNI plugin's ignoreInboundPorts "8080"\), and Deployment mesh-lab\/orders-v2 \(the CNI plugin's ignoreInboundPorts "8080"\);/);
    // proxy-init reads no CNI list: without CNI the same objects skip nothing on 8080.
    expect(ruleFindings(objects, 'LKD-MESH-008')).toEqual([]);
    expect(ruleFindings([...meshLab(), cniInstall('')], 'LKD-MESH-008', cni)).toEqual([]);
  });
  test('a Namespace\'s list applies to pods without their own (the injector copies it), a pod\'s own replaces it', () => {
    const objects = meshLab();
    pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/skip-inbound-ports'] = '8080';
    expect(only(objects, 'LKD-MESH-008').message).toMatch(/for Deployment mesh-lab\/orders-v1, Deployment mesh-lab\/orders-v2 \(config.linkerd.io\/skip-inbound-ports of Namespace mesh-lab\);/);
    annotate(objects, 'orders-v1', { 'config.linkerd.io/skip-inbound-ports': '9000' });
    annotate(objects, 'orders-v2', { 'config.linkerd.io/skip-inbound-ports': '9000' });
    expect(ruleFindings(objects, 'LKD-MESH-008')).toEqual([]);
  });
});

describe('LKD-MESH-003 values, read as the component that reads them reads them', () => {
  const messagesFor = (annotations: Record<string, string>) => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', annotations);
    return ruleFindings(objects, 'LKD-MESH-003').map((f) => f.message);
  };

  test('skip-inbound-ports and skip-outbound-ports: entries proxy-init cannot read, spaces included', () => {
    const [inbound, ...rest] = messagesFor({ 'config.linkerd.io/skip-inbound-ports': '4222, 6222' });
    expect(rest).toEqual([]);
    expect(inbound).toMatch(/skip-inbound-ports is "4222, 6222": proxy-init and the CNI plugin .*ParsePortRange, nothing trimmed\) cannot read " 6222": it is logged and left out of the iptables rules, so that entry skips no port; write the list without spaces \("4222,6222"\)\./);
    const [outbound] = messagesFor({ 'config.linkerd.io/skip-outbound-ports': '25,smtp,99999' });
    expect(outbound).toMatch(/skip-outbound-ports is "25,smtp,99999": .*cannot read "smtp", "99999": they are logged and left out .*, so those entries skip no port\.$/);
  });
  // pkg/inject/inject.go ApplyAnnotationOverrides copies both as written; _proxy.tpl writes image: name:version and imagePullPolicy.
  test('image-pull-policy and proxy-image are written into the pod as they are: values the pod cannot use are errors', () => {
    const findingsFor = (annotations: Record<string, string>) => {
      const objects = meshLab();
      annotate(objects, 'orders-v1', annotations);
      return ruleFindings(objects, 'LKD-MESH-003').map((f) => [f.severity, f.message]);
    };
    expect(findingsFor({ 'config.linkerd.io/image-pull-policy': 'always' })).toEqual([
      [Severity.ERROR, expect.stringMatching(/image-pull-policy is "always": the injector writes it as the imagePullPolicy .*the API server refuses a pod/)],
    ]);
    expect(findingsFor({ 'config.linkerd.io/proxy-image': 'cr.l5d.io/linkerd/proxy:edge-25.1.1' })).toEqual([
      [Severity.ERROR, expect.stringMatching(/it carries its own tag, but the injector appends ":<version>" .*InvalidImageName/)],
    ]);
    expect(findingsFor({ 'config.linkerd.io/proxy-image': `registry.local:5000/linkerd/proxy@sha256:${'a'.repeat(64)}` })[0][1]).toMatch(/carries its own digest/);
    expect(findingsFor({ 'config.linkerd.io/proxy-image': 'registry.local:5000/linkerd/proxy', 'config.linkerd.io/image-pull-policy': 'IfNotPresent' })).toEqual([]);
  });
  // linkerd2-proxy-init cni-plugin/main.go: Atoi of proxy-uid/gid (pod, else namespace), its own redirect ports, no close-wait.
  test('with the CNI plugin: an unreadable proxy-uid stops the pod, a moved proxy port breaks traffic, close-wait does nothing', () => {
    const findingsFor = (annotations: Record<string, string>, cni: boolean) => {
      const objects = meshLab();
      annotate(objects, 'orders-v1', annotations);
      return ruleFindings(objects, 'LKD-MESH-003', { cniEnabled: cni }).map((f) => [f.severity, f.message]);
    };
    expect(findingsFor({ 'config.linkerd.io/proxy-uid': '2103 ' }, true)).toEqual([
      [Severity.ERROR, expect.stringMatching(/proxy-uid is "2103 ": the CNI plugin reads it with strconv\.Atoi .*the pod never starts/)],
    ]);
    expect(findingsFor({ 'config.linkerd.io/proxy-uid': '2103 ' }, false).map(([sev]) => sev)).toEqual([Severity.WARNING]);
    expect(findingsFor({ 'config.linkerd.io/inbound-port': '4200' }, true)).toEqual([
      [Severity.ERROR, expect.stringMatching(/the proxy listens on 4200, but the CNI plugin redirects inbound traffic to the port of its own configuration \(4143/)],
    ]);
    expect(findingsFor({ 'config.linkerd.io/inbound-port': '4200' }, false)).toEqual([]);
    expect(findingsFor({ 'config.linkerd.io/close-wait-timeout': '30s' }, true).map(([sev, m]) => [sev, /no effect/.test(m as string)])).toEqual([[Severity.WARNING, true]]);
  });
  // inject.go GetPodPatch sets PodInboundPorts from the container ports after the annotation overrides.
  test('pod-inbound-ports is always replaced by the injector: a warning that it has no effect', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/pod-inbound-ports': '9999' });
    expect(ruleFindings(objects, 'LKD-MESH-003').map((f) => [f.severity, f.message])).toEqual([
      [Severity.WARNING, expect.stringMatching(/pod-inbound-ports is "9999": the injector computes this list itself .*no effect/)],
    ]);
  });
  // pkg/inject reads exact keys: a read key's name under another prefix or separator is ignored.
  test('a read key\'s name under another prefix or separator is reported with the key meant', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', {
      'linkerd.io/proxy-await': 'enabled',
      'config.linkerd.io.opaque-ports': '3306',
      'inject.linkerd.io': 'enabled',
      'linkerd.io/injection': 'enabled',
      'linkerd.io/created-by': 'me',
      'viz.linkerd.io/external-prometheus': 'x',
    });
    const messages = ruleFindings(objects, 'LKD-MESH-003').map((f) => f.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/linkerd\.io\/proxy-await is not a key Linkerd reads, so the injector ignores it; the key is config\.linkerd\.io\/proxy-await\./),
      expect.stringMatching(/config\.linkerd\.io\.opaque-ports is not a key .*config\.linkerd\.io\/opaque-ports/),
      expect.stringMatching(/inject\.linkerd\.io is not a key .*linkerd\.io\/inject\./),
      expect.stringMatching(/linkerd\.io\/injection is not a key .*linkerd\.io\/inject\./),
    ]));
    expect(messages.filter((m) => /created-by|external-prometheus/.test(m))).toEqual([]);
  });
  test('skip lists proxy-init reads whole pass, a trailing comma and "+25" included', () => {
    expect(messagesFor({ 'config.linkerd.io/skip-inbound-ports': '4222,6222,8000-8090,', 'config.linkerd.io/skip-outbound-ports': '+25' })).toEqual([]);
  });
  test('skip-subnets: an entry net.ParseCIDR cannot read stops proxy-init, so the pod never starts (an error)', () => {
    const findingsFor = (value: string) => {
      const objects = meshLab();
      annotate(objects, 'orders-v1', { 'config.linkerd.io/skip-subnets': value });
      return ruleFindings(objects, 'LKD-MESH-003');
    };
    const [bare] = findingsFor('10.0.0.0/8,192.168.1.1');
    expect(bare.severity).toBe(Severity.ERROR);
    expect(bare.message).toMatch(/skip-subnets is "10\.0\.0\.0\/8,192\.168\.1\.1": proxy-init .*cannot read "192\.168\.1\.1" and exits with an error, and so does the CNI plugin: the pod never starts/);
    expect(findingsFor('10.0.0.0/8,')[0].message).toMatch(/cannot read "" \(an empty entry: a trailing or doubled comma\)/);
    expect(findingsFor('010.0.0.0/8')[0].message).toMatch(/cannot read "010\.0\.0\.0\/8"/);
    // Go reads these: spaces around entries are trimmed, host bits may be set, the prefix may have leading zeros.
    expect(findingsFor('10.0.0.0/8, fd00::/8, 10.1.2.3/16, 172.16.0.0/012, ::ffff:10.0.0.0/104')).toEqual([]);
  });
  test('what stops an injected pod is only a warning on a pod the injector leaves alone', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/skip-subnets': '192.168.1.1', 'linkerd.io/inject': 'disabled' });
    const [f] = ruleFindings(objects, 'LKD-MESH-003');
    expect(f.severity).toBe(Severity.WARNING);
    expect(f.message).toMatch(/the pod never starts.*\(This pod is not injected, so nothing reads it now\.\)$/);
  });
  test('proxy-log-http-headers: anything but off or insecure fails the injector\'s template, and the webhook denies the pods (an error)', () => {
    const findingsFor = (value: string) => {
      const objects = meshLab();
      annotate(objects, 'orders-v1', { 'config.linkerd.io/proxy-log-http-headers': value });
      return ruleFindings(objects, 'LKD-MESH-003').map((f) => [f.severity, f.message]);
    };
    expect([...findingsFor('off'), ...findingsFor('insecure'), ...findingsFor('')]).toEqual([]);
    expect(findingsFor('Off')).toEqual([[Severity.ERROR, expect.stringMatching(/proxy-log-http-headers is "Off": the injector's proxy template fails on it \("logHTTPHeaders must be one of: insecure \| off"\), and the webhook denies the pods it injects/)]]);
  });
  test('close-wait-timeout of a second or more needs proxyInit.runAsRoot, or the injector\'s proxy-init template fails (an error)', () => {
    const findingsFor = (value: string, extra: any[] = [], options: AnalyzeOptions = {}) => {
      const objects = [...meshLab(), ...extra];
      annotate(objects, 'orders-v1', { 'config.linkerd.io/close-wait-timeout': value });
      return analyze(asManifests(objects), options).findings.filter((f) => f.ruleId === 'LKD-MESH-003').map((f) => [f.severity, f.message]);
    };
    expect(findingsFor('2m')).toEqual([[Severity.ERROR, expect.stringMatching(/close-wait-timeout is "2m", but proxyInit.runAsRoot is not set: the injector's proxy-init template fails/)]]);
    // int64(d.Seconds()) is 0 below a second: the template passes no flag and does not fail.
    expect(findingsFor('900ms')).toEqual([]);
    const asRoot = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'linkerd-config', namespace: 'linkerd' },
      data: { values: yaml.dump({ proxyInit: { runAsRoot: true } }) },
    };
    expect(findingsFor('2m', [asRoot])).toEqual([]);
    // With the CNI plugin the injector renders no proxy-init container: nothing fails, and nothing applies the timeout.
    expect(findingsFor('2m', [], { cniEnabled: true })).toEqual([[Severity.WARNING, expect.stringMatching(/with the CNI plugin no linkerd-init runs .*no effect/)]]);
  });
  test('proxy ports: what strconv.ParseInt reads is written into the pod, and one outside 1-65535 stops it (an error)', () => {
    const findingsFor = (annotations: Record<string, string>) => {
      const objects = meshLab();
      annotate(objects, 'orders-v1', annotations);
      return ruleFindings(objects, 'LKD-MESH-003').map((f) => [f.severity, f.message]);
    };
    expect(findingsFor({ 'config.linkerd.io/inbound-port': '+4143', 'config.linkerd.io/control-port': '0' })).toEqual([]);
    expect(findingsFor({ 'config.linkerd.io/inbound-port': '70000' })).toEqual([[Severity.ERROR,
      expect.stringMatching(/inbound-port is "70000": the injector takes it \(strconv.ParseInt\) and writes port 70000 into the pod, which cannot run: the API server refuses a containerPort/)]]);
    expect(findingsFor({ 'config.linkerd.io/outbound-port': '-1' })).toEqual([[Severity.ERROR, expect.stringMatching(/the proxy cannot read its listen address and exits/)]]);
    expect(findingsFor({ 'config.linkerd.io/admin-port': 'admin' })).toEqual([[Severity.WARNING, expect.stringMatching(/strconv.ParseInt cannot read it, so the injector keeps the default port/)]]);
  });
  test('proxy durations: Go durations pass, a negative one makes the proxy exit (an error)', () => {
    const findingsFor = (value: string) => {
      const objects = meshLab();
      annotate(objects, 'orders-v1', { 'config.linkerd.io/proxy-outbound-connect-timeout': value });
      return ruleFindings(objects, 'LKD-MESH-003').map((f) => [f.severity, f.message]);
    };
    expect([...findingsFor('1m30s'), ...findingsFor('.5s'), ...findingsFor('+2s'), ...findingsFor('1.5h'), ...findingsFor('100\u03bcs')]).toEqual([]);
    expect(findingsFor('-5s')).toEqual([[Severity.ERROR,
      expect.stringMatching(/writes -5000ms as LINKERD2_PROXY_OUTBOUND_CONNECT_TIMEOUT into the proxy's environment, which the proxy cannot read .*so it exits/)]]);
    // Written in whole milliseconds, truncated as Go's int() truncates: -500us becomes 0ms, which the proxy reads.
    expect(findingsFor('-500us')).toEqual([]);
    expect(findingsFor('-1ms')).toHaveLength(1);
    const discovery = (value: string) => {
      const objects = meshLab();
      annotate(objects, 'orders-v1', { 'config.linkerd.io/proxy-outbound-discovery-cache-unused-timeout': value });
      return ruleFindings(objects, 'LKD-MESH-003');
    };
    // That one is written in whole seconds: -900ms is 0s.
    expect(discovery('-900ms')).toEqual([]);
    expect(discovery('-1s')).toHaveLength(1);
    expect(findingsFor('5 s')).toEqual([[Severity.WARNING, expect.stringMatching(/time.ParseDuration cannot read it/)]]);
    expect(findingsFor('5sec')).toHaveLength(1);
  });
  test('proxy-uid and proxy-gid: what ParseInt reads goes into the securityContext, and the API server checks its range', () => {
    expect(messagesFor({ 'config.linkerd.io/proxy-uid': '+2102', 'config.linkerd.io/proxy-gid': '-1' })).toEqual([]);
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/proxy-uid': '-1' });
    expect(ruleFindings(objects, 'LKD-MESH-003').map((f) => [f.severity, f.message])).toEqual([[Severity.ERROR,
      expect.stringMatching(/writes runAsUser: -1 into the proxy container; the API server refuses a pod whose runAsUser is outside 0-2147483647/)]]);
    expect(messagesFor({ 'config.linkerd.io/proxy-gid': 'wheel' })).toEqual([expect.stringMatching(/strconv.ParseInt cannot read it/)]);
    // uid 0 beside the template's runAsNonRoot: true: the kubelet will not start the proxy.
    const root = meshLab();
    annotate(root, 'orders-v1', { 'config.linkerd.io/proxy-uid': '0' });
    expect(ruleFindings(root, 'LKD-MESH-003').map((f) => [f.severity, f.message])).toEqual([[Severity.ERROR,
      expect.stringMatching(/writes runAsUser: 0 beside runAsNonRoot: true .*the kubelet refuses/)]]);
    expect(messagesFor({ 'config.linkerd.io/proxy-gid': '0' })).toEqual([]);
  });
  test('proxy resources: a negative quantity, or a request above its limit, and the API server refuses the pod (errors)', () => {
    const findingsFor = (annotations: Record<string, string>, namespace: Record<string, string> = {}) => {
      const objects = meshLab();
      annotate(objects, 'orders-v1', annotations);
      Object.assign(pick(objects, 'Namespace', NS).metadata.annotations, namespace);
      return ruleFindings(objects, 'LKD-MESH-003').map((f) => [f.severity, f.message]);
    };
    expect(findingsFor({ 'config.linkerd.io/proxy-cpu-request': '100m', 'config.linkerd.io/proxy-cpu-limit': '1', 'config.linkerd.io/proxy-memory-limit': '+64Mi' })).toEqual([]);
    expect(findingsFor({ 'config.linkerd.io/proxy-memory-request': '128Mi', 'config.linkerd.io/proxy-memory-limit': '100M' })).toEqual([[Severity.ERROR,
      'pod template annotation config.linkerd.io/proxy-memory-request "128Mi" is above config.linkerd.io/proxy-memory-limit "100M": the injector '
      + 'writes both into the proxy container, and the API server refuses a pod whose memory request exceeds its limit.']]);
    // The namespace's value reaches the pods that have none of their own.
    expect(findingsFor({ 'config.linkerd.io/proxy-cpu-request': '2' }, { 'config.linkerd.io/proxy-cpu-limit': '500m' })).toEqual([[Severity.ERROR, expect.stringMatching(/CPU request exceeds its limit/)]]);
    expect(findingsFor({ 'config.linkerd.io/proxy-cpu-limit': '-1' })).toEqual([[Severity.ERROR, expect.stringMatching(/refuses a pod with a negative resource quantity/)]]);
    expect(findingsFor({ 'config.linkerd.io/proxy-cpu-limit': '1 core' })).toEqual([[Severity.WARNING, expect.stringMatching(/resource.ParseQuantity cannot read it/)]]);
    // Compared exactly, as resource.Quantity.Cmp does: 700m is 0.7 (as floats, 700 x 0.001 is 0.7000000000000001).
    for (const [request, limit] of [['700m', '0.7'], ['1.5Gi', '1536Mi'], ['1Gi', '1073741824'], ['1e3', '1k'], ['300m', '0.3']]) {
      const resource = request.endsWith('i') || limit.endsWith('i') ? 'memory' : 'cpu';
      expect(findingsFor({ [`config.linkerd.io/proxy-${resource}-request`]: request, [`config.linkerd.io/proxy-${resource}-limit`]: limit })).toEqual([]);
    }
    expect(findingsFor({ 'config.linkerd.io/proxy-cpu-request': '701m', 'config.linkerd.io/proxy-cpu-limit': '0.7' })).toHaveLength(1);
    expect(findingsFor({ 'config.linkerd.io/proxy-memory-request': '1537Mi', 'config.linkerd.io/proxy-memory-limit': '1.5Gi' })).toHaveLength(1);
  });
  test('an annotated request above the install\'s proxy.resources limit (or the reverse) is refused: the injector replaces only what is annotated', () => {
    const withInstall = (annotations: Record<string, string>, resources: any) => {
      const objects = meshLab();
      annotate(objects, 'orders-v1', annotations);
      const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-config', namespace: 'linkerd' }, data: { values: JSON.stringify({ proxy: { resources } }) } };
      return ruleFindings([...objects, config], 'LKD-MESH-003').map((f) => f.message);
    };
    expect(withInstall({ 'config.linkerd.io/proxy-cpu-request': '1' }, { cpu: { limit: '500m', request: '' } }))
      .toEqual([expect.stringMatching(/proxy-cpu-request "1" is above the install's proxy.resources.cpu.limit "500m"/)]);
    expect(withInstall({ 'config.linkerd.io/proxy-memory-limit': '64Mi' }, { memory: { request: '128Mi' } }))
      .toEqual([expect.stringMatching(/proxy-memory-limit "64Mi" is below the install's proxy.resources.memory.request "128Mi"/)]);
    expect(withInstall({ 'config.linkerd.io/proxy-cpu-request': '100m' }, { cpu: { limit: '500m' } })).toEqual([]);
  });
  test('log format and CPU ratio as the proxy and the injector read them', () => {
    expect(messagesFor({ 'config.linkerd.io/proxy-log-format': 'JSON', 'config.linkerd.io/proxy-cpu-ratio-limit': '5e-1' })).toEqual([]);
    expect(messagesFor({ 'config.linkerd.io/proxy-log-format': 'xml' })).toEqual([expect.stringMatching(/the proxy logs plain text for anything but json/)]);
    expect(messagesFor({ 'config.linkerd.io/proxy-cpu-ratio-limit': '1' })).toEqual([expect.stringMatching(/not a number strictly between 0 and 1/)]);
  });
  test('require-identity ports: one entry parse_portset cannot read discards the list, spaces around "-" do not', () => {
    const [message, ...rest] = messagesFor({ 'config.linkerd.io/proxy-require-identity-inbound-ports': '8080,admin' });
    expect(rest).toEqual([]);
    expect(message).toMatch(/proxy-require-identity-inbound-ports is "8080,admin": the policy controller .*parse_portset\) reads port numbers and lo-hi ranges only, and cannot read "admin", so it discards the whole list: no port of the pod requires identity/);
    expect(messagesFor({ 'config.linkerd.io/proxy-require-identity-inbound-ports': '8080, 9000 - 9010' })).toEqual([]);
  });
});

describe('LKD-MESH-009 duplicates among files that are never applied', () => {
  // kustomization files and k3d/kind cluster configs share manifest folders without being cluster objects.
  test('two kustomizations, two k3d configs and two nameless objects are no duplicates', () => {
    const kustomization = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: ['a.yaml'] };
    const k3d = (servers: number) => ({ apiVersion: 'k3d.io/v1alpha5', kind: 'Simple', metadata: { name: 'demo' }, servers });
    const nameless = (port: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS }, data: { port: String(port) } });
    const objects = [...meshLab(), kustomization, { ...kustomization, resources: ['b.yaml'] }, k3d(1), k3d(3), nameless(1), nameless(2)];
    expect(ruleFindings(objects, 'LKD-MESH-009')).toEqual([]);
    const server = pick(meshLab(), 'Server', 'orders-http');
    expect(ruleFindings([...meshLab(), { ...server, spec: { ...server.spec, port: 9090 } }], 'LKD-MESH-009')).toHaveLength(1);
  });
});

// The injector copies a Namespace's ProxyAnnotations and ProxyAlphaConfigAnnotations onto pods that lack them
// (controller/proxy-injector/webhook.go Inject, pkg/inject/inject.go AppendNamespaceAnnotations), and reads "" as unset.
describe('injector settings inherited from the Namespace, and values the injector or proxy accept', () => {
  const withNamespace = (annotations: Record<string, string>) => {
    const objects = meshLab();
    const ns = pick(objects, 'Namespace', NS).metadata;
    ns.annotations = { ...ns.annotations, ...annotations };
    return objects;
  };
  test('LKD-MESH-005: the namespace\'s proxy-uid is the proxy\'s UID', () => {
    const objects = withNamespace({ 'config.linkerd.io/proxy-uid': '3000' });
    template(objects, 'client').spec.securityContext = { runAsUser: 3000 };
    template(objects, 'orders-v1').spec.securityContext = { runAsUser: 2102 };
    expect(ruleFindings(objects, 'LKD-MESH-005').map((f) => [f.resource.name, f.message])).toEqual([
      ['client', expect.stringMatching(/^container\(s\) main of Deployment mesh-lab\/client run as UID 3000, the proxy's UID/)],
    ]);
  });
  test('LKD-MESH-006: the namespace\'s inbound-port is where meshed clients connect', () => {
    const netpol = (ports: any[]) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'orders-in', namespace: NS },
      spec: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } }, policyTypes: ['Ingress'], ingress: [{ ports }] },
    });
    const moved = withNamespace({ 'config.linkerd.io/inbound-port': '5143' });
    expect(ruleFindings([...moved, netpol([{ port: 5143 }])], 'LKD-MESH-006')).toEqual([]);
    expect(ruleFindings([...withNamespace({ 'config.linkerd.io/inbound-port': '5143' }), netpol([{ port: 8080 }, { port: 4143 }])], 'LKD-MESH-006')
      .map((f) => f.message)).toEqual([expect.stringMatching(/but not the proxy's inbound port 5143/)]);
  });
  test('LKD-MESH-003: the namespace\'s wait-before-exit against each meshed pod\'s grace period', () => {
    const objects = withNamespace({
      'config.linkerd.io/proxy-enable-native-sidecar': 'false',
      'config.alpha.linkerd.io/proxy-wait-before-exit-seconds': '60',
    });
    template(objects, 'orders-v2').spec.terminationGracePeriodSeconds = 90;
    const found = ruleFindings(objects, 'LKD-MESH-003').filter((f) => f.message.includes('wait-before-exit'));
    expect(found.map((f) => f.resource.name).sort()).toEqual(['client', 'orders-v1']);
    expect(found[0].message).toMatch(/^Namespace mesh-lab's annotation config.alpha.linkerd.io\/proxy-wait-before-exit-seconds is 60 s, not less than the pod's terminationGracePeriodSeconds \(30\)/);
  });
  // report.go isInjectAnnotationValid: "" is valid, and means unset.
  test('LKD-MESH-003: an empty linkerd.io/inject is unset, not invalid', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'linkerd.io/inject': '' });
    expect(ruleFindings(objects, 'LKD-MESH-003').filter((f) => f.message.includes('linkerd.io/inject'))).toEqual([]);
  });
  // linkerd2-proxy linkerd/tracing/src/access_log.rs Format::from_str (eq_ignore_ascii_case); _proxy.tpl leaves an empty value out.
  test.each(['JSON', 'Apache', ''])('LKD-MESH-003: access-log %j is read by the proxy (or turns access logs off)', (value) => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/access-log': value });
    expect(ruleFindings(objects, 'LKD-MESH-003')).toEqual([]);
  });
  test('LKD-MESH-003: an access-log the proxy cannot read is still reported', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/access-log': 'combined' });
    expect(only(objects, 'LKD-MESH-003').message).toMatch(/the proxy knows only apache and json \(in any case\)/);
  });
  // A label is never read; it loses nothing when the pods get its value anyway (report.go disabledByAnnotation).
  test('LKD-MESH-002: linkerd.io/inject: disabled as a label where nothing injects the pods is harmless', () => {
    const objects = meshLab();
    const ns = pick(objects, 'Namespace', NS).metadata;
    delete ns.annotations['linkerd.io/inject'];
    template(objects, 'client').metadata.labels['linkerd.io/inject'] = 'disabled';
    ns.labels = { ...ns.labels, 'linkerd.io/inject': 'disabled' };
    expect(ruleFindings(objects, 'LKD-MESH-002')).toEqual([]);
    ns.annotations['linkerd.io/inject'] = 'enabled';
    expect(ruleFindings(objects, 'LKD-MESH-002').map((f) => [f.severity, f.resource.name])).toEqual(expect.arrayContaining([[Severity.ERROR, 'client']]));
  });
});
