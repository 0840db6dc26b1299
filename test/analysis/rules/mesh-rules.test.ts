import { AnalyzeOptions, analyze } from '../../../src/analysis/engine';
import { Severity } from '../../../src/analysis/finding';
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
  test('fires on inject as a label and config on the Deployment metadata', () => {
    const objects = meshLab();
    template(objects, 'client').metadata.labels['linkerd.io/inject'] = 'enabled';
    pick(objects, 'Deployment', 'orders-v1').metadata.annotations = { 'config.linkerd.io/proxy-cpu-request': '100m' };
    const found = ruleFindings(objects, 'LKD-MESH-002');
    expect(found.map((f) => `${f.resource.name}: ${f.message}`)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^client: spec.template.metadata.labels has linkerd.io\/inject as label/),
      expect.stringMatching(/^orders-v1: metadata.annotations of the Deployment carries config.linkerd.io\/proxy-cpu-request.*spec.template.metadata.annotations/),
    ]));
    expect(found[0].severity).toBe(Severity.ERROR);
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
      expect.stringMatching(/^Deployment: pod template annotation config.linkerd.io\/skip-inbound-port is not a Linkerd 2.20 proxy annotation.*Did you mean config.linkerd.io\/skip-inbound-ports\?/),
      expect.stringMatching(/^Deployment: pod template annotation config.linkerd.io\/opaque-ports is "mysql:3306", which is not a port list/),
      expect.stringMatching(/^Deployment: .*config.beta.linkerd.io\/proxy-enable-native-sidecar is deprecated: use config.linkerd.io\/proxy-enable-native-sidecar/),
      expect.stringMatching(/^Namespace: annotation linkerd.io\/inject is "on", which must be one of enabled, disabled, ingress/),
    ]));
    expect(messages).toHaveLength(4);
  });
  test('fires on a proxy setting placed on a Service', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders').metadata.annotations = { 'config.linkerd.io/skip-inbound-ports': '8080' };
    expect(only(objects, 'LKD-MESH-003').message).toMatch(/have no effect on a Service/);
  });
  test('passes on valid annotations', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', {
      'config.linkerd.io/opaque-ports': 'http,4000-4100',
      'config.linkerd.io/proxy-memory-limit': '256Mi',
      'config.linkerd.io/proxy-outbound-connect-timeout': '1s500ms',
      'config.linkerd.io/proxy-enable-native-sidecar': 'false',
      'config.linkerd.io/skip-subnets': '10.0.0.0/8,fd00::/8',
    });
    expect(ruleFindings(objects, 'LKD-MESH-003')).toEqual([]);
  });
});

describe('LKD-MESH-004 opaque ports', () => {
  test('fires when pods mark the targetPort opaque and the Service does not', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/opaque-ports': '8080' });
    const found = ruleFindings(objects, 'LKD-MESH-004');
    expect(found.map((f) => f.resource.name).sort()).toEqual(['orders', 'orders-v1']);
    expect(found[0].message).toMatch(/targetPort 8080 of Service port 8080 is opaque on Deployment mesh-lab\/orders-v1/);
  });
  test('passes when the Service agrees', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v1', { 'config.linkerd.io/opaque-ports': 'http' });
    for (const svc of ['orders', 'orders-v1']) pick(objects, 'Service', svc).metadata.annotations = { 'config.linkerd.io/opaque-ports': '8080' };
    expect(ruleFindings(objects, 'LKD-MESH-004')).toEqual([]);
  });
});

describe('LKD-MESH-005 pod hazards', () => {
  test('fires on hostNetwork, UDP and the proxy UID', () => {
    const objects = meshLab();
    const spec = template(objects, 'client').spec;
    spec.hostNetwork = true;
    spec.securityContext = { runAsUser: 2102 };
    spec.containers[0].ports = [{ containerPort: 53, protocol: 'UDP' }];
    const messages = ruleFindings(objects, 'LKD-MESH-005').map((f) => f.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/hostNetwork: true; the injector skips such pods/),
      expect.stringMatching(/declares 53\/UDP \(main\)/),
      expect.stringMatching(/container\(s\) main of Deployment mesh-lab\/client run as UID 2102/),
    ]));
  });
  test('reports a disabled token mount only when the control plane does not project tokens', () => {
    const objects = meshLab();
    template(objects, 'client').spec.automountServiceAccountToken = false;
    expect(ruleFindings(objects, 'LKD-MESH-005')).toEqual([]);
    const [f] = analyze(asManifests(objects), { serviceAccountTokenProjection: false }).findings.filter((x) => x.ruleId === 'LKD-MESH-005');
    expect(f.severity).toBe(Severity.WARNING);
    expect(f.message).toMatch(/serviceAccountTokenProjection off/);
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
});

describe('LKD-MESH-008 Server on a skipped port', () => {
  test('fires when the Server port skips the proxy', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v2', { 'config.linkerd.io/skip-inbound-ports': '8000-8090' });
    const f = only(objects, 'LKD-MESH-008');
    expect(f.resource.name).toBe('orders-http');
    expect(f.message).toMatch(/skip-inbound-ports of Deployment mesh-lab\/orders-v2/);
  });
  test('passes when other ports are skipped', () => {
    const objects = meshLab();
    annotate(objects, 'orders-v2', { 'config.linkerd.io/skip-inbound-ports': '9000' });
    expect(ruleFindings(objects, 'LKD-MESH-008')).toEqual([]);
  });
});
