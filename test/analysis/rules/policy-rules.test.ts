import { AnalyzeOptions, analyze } from '../../../src/analysis/engine';
import { FindingEffect, Severity } from '../../../src/analysis/finding';
import { ALL_RULES } from '../../../src/analysis/rules';
import { NS, asManifests, meshLab, pick } from '../../support/mesh-fixture';

function ruleFindings(objects: any[], ruleId: string, options: AnalyzeOptions = {}) {
  return analyze(asManifests(objects), options).findings.filter((f) => f.ruleId === ruleId);
}

function only(objects: any[], ruleId: string, options: AnalyzeOptions = {}) {
  const found = ruleFindings(objects, ruleId, options);
  expect(found).toHaveLength(1);
  return found[0];
}

const POLICY = 'policy.linkerd.io';
const authz = () => ({
  apiVersion: `${POLICY}/v1alpha1`,
  kind: 'AuthorizationPolicy',
  metadata: { name: 'extra', namespace: NS },
  spec: {
    targetRef: { group: POLICY, kind: 'Server', name: 'orders-http' },
    requiredAuthenticationRefs: [{ group: POLICY, kind: 'MeshTLSAuthentication', name: 'client-sa' }],
  },
});
const server = (name: string, spec: any) => ({ apiVersion: `${POLICY}/v1beta3`, kind: 'Server', metadata: { name, namespace: NS }, spec });

const POLICY_IDS = [
  'LKD-POL-001', 'LKD-POL-002', 'LKD-POL-003', 'LKD-POL-004', 'LKD-POL-005', 'LKD-POL-006', 'LKD-POL-007', 'LKD-POL-008',
  'LKD-POL-009', 'LKD-POL-010', 'LKD-POL-011', 'LKD-POL-012', 'LKD-POL-014', 'LKD-POL-015', 'LKD-POL-016', 'LKD-POL-017',
  'LKD-POL-018', 'LKD-POL-019', 'LKD-POL-020', 'LKD-POL-021',
];

describe('policy rule pack', () => {
  test('every policy rule is registered once with full documentation', () => {
    for (const id of POLICY_IDS) {
      const matches = ALL_RULES.filter((r) => r.id === id);
      expect(matches).toHaveLength(1);
      const { doc } = matches[0];
      for (const field of [doc.title, doc.why, doc.fix, doc.badExample, doc.goodExample]) expect(field).toEqual(expect.any(String));
    }
  });
  test('the mesh-lab baseline triggers no policy rule', () => {
    const ids = analyze(asManifests(meshLab())).findings.map((f) => f.ruleId);
    expect(ids.filter((id) => POLICY_IDS.includes(id))).toEqual([]);
  });
  test('malformed objects never make a rule throw', () => {
    const junk = [
      { apiVersion: `${POLICY}/v1beta3`, kind: 'Server', metadata: { name: 'j1', namespace: NS }, spec: 'nope' },
      { apiVersion: `${POLICY}/v1alpha1`, kind: 'AuthorizationPolicy', metadata: { name: 'j2', namespace: NS }, spec: { targetRef: 7, requiredAuthenticationRefs: [null, 3] } },
      { apiVersion: `${POLICY}/v1alpha1`, kind: 'MeshTLSAuthentication', metadata: { name: 'j3', namespace: NS }, spec: { identities: [5, null] } },
      { apiVersion: `${POLICY}/v1alpha1`, kind: 'NetworkAuthentication', metadata: { name: 'j4', namespace: NS }, spec: { networks: [null, { cidr: 4 }] } },
      { apiVersion: `${POLICY}/v1alpha1`, kind: 'HTTPLocalRateLimitPolicy', metadata: { name: 'j5', namespace: NS }, spec: { overrides: [null] } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'j6', namespace: NS }, spec: { template: { spec: { containers: [null, { ports: 'x' }] } } } },
      { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'j7', namespace: NS }, spec: { ingress: [{ ports: [null] }] } },
      { apiVersion: `${POLICY}/v1beta1`, kind: 'ServerAuthorization', metadata: { name: 'j8', namespace: NS }, spec: { client: { networks: 'x' } } },
    ];
    expect(() => analyze(asManifests([...meshLab(), ...junk]))).not.toThrow();
  });
});

describe('LKD-POL-001 AuthorizationPolicy target', () => {
  test('fires on a Server target without the policy group', () => {
    const objects = meshLab();
    delete pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef.group;
    const f = only(objects, 'LKD-POL-001');
    expect(f.resource).toMatchObject({ kind: 'AuthorizationPolicy', name: 'client-to-orders' });
    expect(f.message).toMatch(/not a supported target.*group: policy.linkerd.io/);
  });
  test('fires on a missing target and on a foreign Namespace target', () => {
    const objects = [...meshLab(), authz()];
    pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef.name = 'orders-grpc';
    pick(objects, 'AuthorizationPolicy', 'extra').spec.targetRef = { kind: 'Namespace', name: 'other' };
    const messages = ruleFindings(objects, 'LKD-POL-001').map((f) => f.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/Server "orders-grpc".*exists neither/),
      expect.stringMatching(/Namespace "other" but the policy lives in "mesh-lab"/),
    ]));
  });
  test('accepts the own Namespace and an inventory Server', () => {
    const objects = [...meshLab(), authz()];
    pick(objects, 'AuthorizationPolicy', 'extra').spec.targetRef = { kind: 'Namespace', name: NS };
    pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef.name = 'legacy';
    const inventory = [server('legacy', { podSelector: {}, port: 9000 })];
    expect(ruleFindings(objects, 'LKD-POL-001', { inventory })).toEqual([]);
  });
});

describe('LKD-POL-002 requiredAuthenticationRefs', () => {
  test('fires on a MeshTLSAuthentication ref without group', () => {
    const objects = meshLab();
    delete pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.requiredAuthenticationRefs[0].group;
    expect(only(objects, 'LKD-POL-002').message).toMatch(/requiredAuthenticationRefs\[0\].*missing or other group means core/);
  });
  test('fires on mixing MeshTLS and ServiceAccount, and on a missing MeshTLSAuthentication', () => {
    const objects = meshLab();
    const refs = pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.requiredAuthenticationRefs;
    refs.push({ kind: 'ServiceAccount', name: 'client' });
    refs[0].name = 'nobody';
    const messages = ruleFindings(objects, 'LKD-POL-002').map((f) => f.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/mixes a MeshTLSAuthentication and a ServiceAccount/),
      expect.stringMatching(/MeshTLSAuthentication mesh-lab\/nobody, which does not exist/),
    ]));
  });
  test('where the policy validator does not run, the policy is applied and the policy controller ignores it whole', () => {
    const objects = meshLab();
    const refs = pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.requiredAuthenticationRefs;
    refs.push({ kind: 'ServiceAccount', name: 'client' });
    expect(ruleFindings(objects, 'LKD-POL-002').map((f) => f.effect)).toEqual([FindingEffect.REJECTED]);
    pick(objects, 'Namespace', NS).metadata.labels = { 'config.linkerd.io/admission-webhooks': 'disabled' };
    const [ignored] = ruleFindings(objects, 'LKD-POL-002');
    expect(ignored.effect).toBe(FindingEffect.IGNORED);
    expect(ignored.message).toMatch(/^spec\.requiredAuthenticationRefs mixes a MeshTLSAuthentication and a ServiceAccount; Namespace mesh-lab is labelled config\.linkerd\.io\/admission-webhooks: disabled, .*so the AuthorizationPolicy is applied unchecked, and the policy controller ignores it whole \("Illegal AuthorizationPolicy; ignoring"/);
  });
  test('accepts one ServiceAccount plus one NetworkAuthentication', () => {
    const objects = [...meshLab(), {
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'NetworkAuthentication',
      metadata: { name: 'pods', namespace: NS },
      spec: { networks: [{ cidr: '10.0.0.0/8' }] },
    }];
    pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.requiredAuthenticationRefs = [
      { kind: 'ServiceAccount', name: 'client' }, { group: POLICY, kind: 'NetworkAuthentication', name: 'pods' },
    ];
    expect(ruleFindings(objects, 'LKD-POL-002')).toEqual([]);
  });
});

describe('LKD-POL-003 MeshTLSAuthentication', () => {
  test('fires on a bad identity and on a missing ServiceAccount', () => {
    const objects = [...meshLab(), {
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'MeshTLSAuthentication',
      metadata: { name: 'bad', namespace: NS },
      spec: { identities: ['Client.Mesh-Lab', 'spiffe://td/ns/../x', '*.mesh-lab.serviceaccount.identity.linkerd.cluster.local'] },
    }];
    pick(objects, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs.push({ kind: 'ServiceAccount', name: 'ghost' }, { kind: 'Namespace', name: 'x', namespace: 'y' });
    const found = ruleFindings(objects, 'LKD-POL-003');
    expect(found.map((f) => `${f.resource.name}: ${f.message}`)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^bad: spec.identities\[0\] "Client.Mesh-Lab" is neither a DNS-like name/),
      expect.stringMatching(/^bad: spec.identities\[1\].*SPIFFE path/),
      expect.stringMatching(/^client-sa: spec.identityRefs\[1\] names ServiceAccount mesh-lab\/ghost/),
      expect.stringMatching(/^client-sa: spec.identityRefs\[2\] is a Namespace reference with a namespace field/),
    ]));
    expect(found).toHaveLength(4);
  });
  test('fires when both lists are set', () => {
    const objects = meshLab();
    pick(objects, 'MeshTLSAuthentication', 'client-sa').spec.identities = ['*'];
    expect(only(objects, 'LKD-POL-003').message).toMatch(/both identities and identityRefs/);
  });
  test('accepts a ServiceAccount from the inventory', () => {
    const objects = meshLab();
    pick(objects, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs[0] = { kind: 'ServiceAccount', name: 'batch', namespace: 'jobs' };
    const inventory = [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'batch', namespace: 'jobs' } }];
    expect(ruleFindings(objects, 'LKD-POL-003', { inventory })).toEqual([]);
  });
  test('the default ServiceAccount exists in every namespace: naming it is no missing reference (LKD-POL-003, LKD-POL-002)', () => {
    const objects = meshLab();
    pick(objects, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs = [{ kind: 'ServiceAccount', name: 'default' }];
    const policy = authz();
    policy.spec.requiredAuthenticationRefs = [{ kind: 'ServiceAccount', name: 'default' }] as any;
    objects.push(policy);
    const ids = analyze(asManifests(objects)).findings.map((f) => f.ruleId);
    expect(ids.filter((id) => id === 'LKD-POL-003' || id === 'LKD-POL-002')).toEqual([]);
  });
  // Linkerd's docs (authorization-policy) show a MeshTLSAuthentication alone, its workloads deployed separately.
  test('a missing ServiceAccount is an error where the analysis sees the namespace, info naming the inventory where not', () => {
    const alone = {
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'MeshTLSAuthentication',
      metadata: { name: 'authors-get-authn', namespace: 'booksapp' },
      spec: { identityRefs: [{ kind: 'ServiceAccount', name: 'books' }] },
    };
    expect(only([alone], 'LKD-POL-003')).toMatchObject({ severity: Severity.INFO, message: expect.stringMatching(/namespace booksapp is not part of this analysis.*--inventory/) });
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'booksapp' } };
    expect(only([alone, namespace], 'LKD-POL-003').severity).toBe(Severity.ERROR);
  });
});

describe('LKD-POL-004 trust domain', () => {
  const withIdentities = (identities: string[]) => {
    const objects = meshLab();
    const spec = pick(objects, 'MeshTLSAuthentication', 'client-sa').spec;
    delete spec.identityRefs;
    spec.identities = identities;
    return objects;
  };
  test('fires when the identity carries another trust domain', () => {
    const f = only(withIdentities(['client.mesh-lab.serviceaccount.identity.linkerd.cluster.local']), 'LKD-POL-004', { trustDomain: 'prod.example' });
    expect(f.severity).toBe(Severity.WARNING);
    expect(f.resource.name).toBe('client-sa');
    expect(f.message).toMatch(/ends in "linkerd.cluster.local" but workload identities here end in "linkerd.prod.example"/);
  });
  test('does not judge SPIFFE IDs: they name workloads with identities from elsewhere (SPIRE, mesh expansion)', () => {
    expect(ruleFindings(withIdentities(['spiffe://other.org/ns/a/sa/b', 'spiffe://root.linkerd.cluster.local/external-workload-1']), 'LKD-POL-004')).toEqual([]);
  });
  test('passes for matching identities and "*"', () => {
    expect(ruleFindings(withIdentities(['*', '*.mesh-lab.serviceaccount.identity.linkerd.cluster.local', 'spiffe://cluster.local/x']), 'LKD-POL-004')).toEqual([]);
  });
});

describe('LKD-POL-001 targetRef namespace', () => {
  test('a targetRef with a namespace is refused: LocalTargetRef has none, a policy authorizes in its own namespace', () => {
    const policy = authz();
    (policy.spec.targetRef as any).namespace = 'shop';
    const [f] = ruleFindings([...meshLab(), policy], 'LKD-POL-001');
    expect(f).toMatchObject({ severity: Severity.ERROR, effect: FindingEffect.REJECTED });
    expect(f.message).toMatch(/spec.targetRef has a namespace \("shop"\).*targets Server "orders-http" in its own namespace mesh-lab/);
  });
});

describe('LKD-POL-005 networks', () => {
  const netAuthn = (networks: any) => ({ apiVersion: `${POLICY}/v1alpha1`, kind: 'NetworkAuthentication', metadata: { name: 'nets', namespace: NS }, spec: { networks } });
  test('fires on an except outside, an except negating, a bad CIDR and an empty list', () => {
    const objects = [...meshLab(), netAuthn([
      { cidr: '10.0.0.0/16', except: ['10.1.0.0/24', '10.0.0.0/8'] }, { cidr: '300.1.1.1' },
    ]), { ...netAuthn([]), metadata: { name: 'empty', namespace: NS } }];
    const messages = ruleFindings(objects, 'LKD-POL-005').map((f) => `${f.resource.name}: ${f.message}`);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/^nets: spec.networks\[0\].except\[0\] "10.1.0.0\/24" is not inside cidr 10.0.0.0\/16/),
      expect.stringMatching(/^nets: spec.networks\[0\].except\[1\] "10.0.0.0\/8" covers the whole cidr/),
      expect.stringMatching(/^nets: spec.networks\[1\].cidr "300.1.1.1" is not a CIDR/),
      expect.stringMatching(/^empty: spec.networks must be a non-empty list/),
    ]));
  });
  test('fires on an EgressNetwork overlapping the cluster networks', () => {
    const egress = { apiVersion: `${POLICY}/v1alpha1`, kind: 'EgressNetwork', metadata: { name: 'out', namespace: NS }, spec: { trafficPolicy: 'Allow', networks: [{ cidr: '10.20.0.0/16' }, { cidr: '2001:db8::/32' }] } };
    const inside = only([...meshLab(), egress], 'LKD-POL-005').message;
    expect(inside).toMatch(/10.20.0.0\/16 overlaps the cluster network 10.0.0.0\/8.*move the entry out of 10.0.0.0\/8\.$/);
    // An except cannot carve the whole entry out (the webhook refuses that), so none is suggested for an entry inside.
    expect(inside).not.toMatch(/under except/);
  });
  // The form Linkerd itself gives an EgressNetwork without networks (EgressNetwork::from_resource): 0.0.0.0/0 except the
  // cluster's; Network::intersect skips a cluster network an except covers.
  test('an EgressNetwork whose excepts cover the cluster networks does not overlap them; one left uncovered does', () => {
    const egress = (except: string[]) => ({
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'EgressNetwork',
      metadata: { name: 'internet', namespace: NS },
      spec: { trafficPolicy: 'Allow', networks: [{ cidr: '0.0.0.0/0', except }] },
    });
    const all = ['10.0.0.0/8', '100.64.0.0/10', '172.16.0.0/12', '192.168.0.0/16'];
    expect(ruleFindings([...meshLab(), egress(all)], 'LKD-POL-005')).toEqual([]);
    // An except inside the cluster network covers only part of it: still an overlap.
    const partly = only([...meshLab(), egress(['10.1.0.0/16', '100.64.0.0/10', '172.16.0.0/12', '192.168.0.0/16'])], 'LKD-POL-005');
    expect(partly.message).toMatch(/0.0.0.0\/0 overlaps the cluster network 10.0.0.0\/8.*or list 10.0.0.0\/8 under except/);
  });
  test('an IPv4 field with a leading zero is refused, as Rust\'s address parser refuses it', () => {
    const messages = ruleFindings([...meshLab(), netAuthn([{ cidr: '203.0.113.05' }])], 'LKD-POL-005').map((f) => f.message);
    expect(messages).toEqual([expect.stringMatching(/spec.networks\[0\].cidr "203.0.113.05" is not a CIDR or IP address/)]);
  });
  test('accepts a bare IP, IPv6 and an inner except', () => {
    const objects = [...meshLab(), netAuthn([{ cidr: '192.0.2.7' }, { cidr: 'fd00::/8', except: ['fd00:1::/32'] }, { cidr: '10.0.0.0/8', except: ['10.1.2.3'] }])];
    expect(ruleFindings(objects, 'LKD-POL-005')).toEqual([]);
  });
});

describe('LKD-POL-006 Server selects nothing', () => {
  test('fires on a podSelector typo', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.podSelector.matchLabels['app.kubernetes.io/name'] = 'order';
    const f = only(objects, 'LKD-POL-006');
    expect(f.resource.name).toBe('orders-http');
    expect(f.message).toMatch(/app.kubernetes.io\/name=order\) selects none of the 3 pod template/);
  });
  test('a namespace with no pod template here is info naming the inventory: its workloads may be deployed separately', () => {
    const serverOnly = meshLab().filter((o) => o.kind === 'Server' || o.kind === 'Namespace');
    const [f] = ruleFindings(serverOnly, 'LKD-POL-006');
    expect(f.severity).toBe(Severity.INFO);
    expect(f.message).toMatch(/selects no pod template here: this analysis has none in namespace mesh-lab\. If its workloads are deployed separately, declare them in the inventory/);
    // Declared in the inventory, the pods are judged again: a typo is an error.
    pick(serverOnly, 'Server', 'orders-http').spec.podSelector.matchLabels['app.kubernetes.io/name'] = 'order';
    const pods = meshLab().filter((o) => o.kind === 'Deployment');
    const [typo] = analyze(asManifests(serverOnly), { inventory: pods }).findings.filter((x) => x.ruleId === 'LKD-POL-006');
    expect(typo.severity).toBe(Severity.ERROR);
  });
  test.each([
    ['Exists with values', { key: 'app.kubernetes.io/name', operator: 'Exists', values: ['orders'] }, /app.kubernetes.io\/name: Exists takes no values list/],
    ['DoesNotExist with an empty list', { key: 'tier', operator: 'DoesNotExist', values: [] }, /tier: DoesNotExist takes no values list/],
    ['NotIn without values', { key: 'tier', operator: 'NotIn' }, /tier: NotIn needs a values list/],
  ])('a malformed expression (%s) matches no pod, as Linkerd reads it (labels.rs Expression::matches)', (_name, expression, why) => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.podSelector = { matchLabels: { 'app.kubernetes.io/name': 'orders' }, matchExpressions: [expression] };
    const f = only(objects, 'LKD-POL-006');
    expect(f.message).toMatch(why);
    expect(f.message).toMatch(/Linkerd's policy controller matches no pod with a malformed expression/);
  });
  test('well-formed expressions get no note: Exists without values, In with an empty list (selects nothing, plainly)', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.podSelector = { matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'Exists' }] };
    expect(ruleFindings(objects, 'LKD-POL-006')).toEqual([]);
    pick(objects, 'Server', 'orders-http').spec.podSelector = { matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: [] }] };
    expect(only(objects, 'LKD-POL-006').message).not.toMatch(/malformed/);
  });
  // As in Buoyant's service-mesh-academy (federated-services): a Server for the Faces chart's smiley pods, beside one
  // workload of the folder's own in the namespace, the chart's pods not in the output.
  test('pod templates of the output alone do not prove a selector wrong: a warning unless the Namespace or the inventory has the namespace', () => {
    const serverOnly = meshLab().filter((o) => o.kind !== 'Namespace');
    pick(serverOnly, 'Server', 'orders-http').spec.podSelector.matchLabels['app.kubernetes.io/name'] = 'smiley';
    const [f] = ruleFindings(serverOnly, 'LKD-POL-006').filter((x) => x.resource.name === 'orders-http');
    expect(f.severity).toBe(Severity.WARNING);
    expect(f.message).toMatch(/selects none of the 3 pod template\(s\) this output has in namespace mesh-lab, and the analysis has neither that Namespace nor its workloads in the inventory/);
    const inventory = [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'legacy', namespace: NS }, spec: { template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } }];
    const [sure] = analyze(asManifests(serverOnly), { inventory }).findings.filter((x) => x.ruleId === 'LKD-POL-006' && x.resource.name === 'orders-http');
    expect(sure.severity).toBe(Severity.ERROR);
  });
  test('pods of an Argo Rollout and of a ReplicationController are selected like a Deployment\'s (Pod::reindex_servers matches the running pods)', () => {
    const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: app, image: 'nginx:1.27.0', ports: [{ containerPort: 8080, name: 'http' }] }] } });
    const objects = [
      ...meshLab(),
      { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', metadata: { name: 'payments', namespace: NS }, spec: { selector: { matchLabels: { app: 'payments' } }, template: template('payments') } },
      { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'legacy', namespace: NS }, spec: { selector: { app: 'legacy' }, template: template('legacy') } },
      server('payments-http', { podSelector: { matchLabels: { app: 'payments' } }, port: 'http' }),
      server('legacy-http', { podSelector: { matchLabels: { app: 'legacy' } }, port: 8080 }),
    ];
    expect(ruleFindings(objects, 'LKD-POL-006')).toEqual([]);
    // Another group's Rollout is no workload this analysis knows.
    const other = objects.map((o) => (o.kind === 'Rollout' ? { ...o, apiVersion: 'example.com/v1' } : o));
    expect(ruleFindings(other, 'LKD-POL-006').map((f) => f.resource.name)).toEqual(['payments-http']);
  });
  test('a selector on a label the controller sets (a StatefulSet pod name) is information, not an error: no manifest holds its value', () => {
    const objects = meshLab();
    const s = pick(objects, 'Server', 'orders-http');
    s.spec.podSelector = { matchLabels: { 'app.kubernetes.io/name': 'orders', 'statefulset.kubernetes.io/pod-name': 'orders-0' } };
    const f = only(objects, 'LKD-POL-006');
    expect(f.severity).toBe(Severity.INFO);
    expect(f.message).toMatch(/selects pods by a label their controller sets/);
    // The rest of the selector still has to match something.
    s.spec.podSelector.matchLabels['app.kubernetes.io/name'] = 'order';
    expect(only(objects, 'LKD-POL-006').severity).toBe(Severity.ERROR);
  });
  test.each([
    ['an extension chart\'s label', { labels: { 'linkerd.io/extension': 'multicluster' } }, /comes from Linkerd's multicluster extension chart/],
    ['a core chart\'s created-by annotation', { annotations: { 'linkerd.io/created-by': 'linkerd/helm version-2.20.0' } }, /comes from a Linkerd chart/],
  ])('a Server Linkerd renders for a workload another command creates (%s) is a warning, not an error', (_name, metadata, chart) => {
    // As `linkerd multicluster install` writes it: a Server for the service mirror that `linkerd multicluster link` creates.
    const objects = meshLab();
    objects.push({
      ...server('service-mirror', {
        podSelector: { matchLabels: { 'linkerd.io/extension': 'multicluster', 'component': 'linkerd-service-mirror' } },
        port: 'svcmi-admin',
        proxyProtocol: 'HTTP/1',
      }),
      metadata: { name: 'service-mirror', namespace: NS, ...metadata },
    });
    const f = only(objects, 'LKD-POL-006');
    expect(f.severity).toBe(Severity.WARNING);
    expect(f.message).toMatch(chart);
    expect(f.message).toMatch(/renders it whether or not its workload runs/);
    // A user's own Server with the same selector is still an error, and so is a chart's Server with a malformed expression.
    delete pick(objects, 'Server', 'service-mirror').metadata.labels;
    delete pick(objects, 'Server', 'service-mirror').metadata.annotations;
    expect(only(objects, 'LKD-POL-006').severity).toBe(Severity.ERROR);
  });
  test('a Linkerd chart\'s Server with a malformed expression stays an error: no command makes it select a pod', () => {
    const objects = meshLab();
    const s = pick(objects, 'Server', 'orders-http');
    s.metadata.labels = { 'linkerd.io/extension': 'viz' };
    s.spec.podSelector = { matchExpressions: [{ key: 'tier', operator: 'NotIn' }] };
    expect(only(objects, 'LKD-POL-006').severity).toBe(Severity.ERROR);
  });
  test('passes with matchExpressions that select orders', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.podSelector = { matchExpressions: [{ key: 'app.kubernetes.io/version', operator: 'In', values: ['v1', 'v2'] }] };
    expect(ruleFindings(objects, 'LKD-POL-006')).toEqual([]);
  });
});

describe('LKD-POL-007 Server port', () => {
  test('a quoted number is a port name: error that explains it', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.port = '8080';
    expect(only(objects, 'LKD-POL-007').message).toMatch(/string "8080"; Linkerd reads a quoted number as a port NAME.*port: 8080/);
  });
  test('a numeric port applies whether or not a container declares it (Pod::select_ports): no finding', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'orders-v2').spec.template.spec.containers[0].ports[0].containerPort = 9090;
    expect(ruleFindings(objects, 'LKD-POL-007')).toEqual([]);
  });
  test('a name some selected pods lack only leaves those pods ungoverned: no finding', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.port = 'http';
    pick(objects, 'Deployment', 'orders-v2').spec.template.spec.containers[0].ports[0].name = 'web';
    expect(ruleFindings(objects, 'LKD-POL-007')).toEqual([]);
  });
  test('a name no selected pod has leaves the Server governing nothing: a warning', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.port = 'grpc';
    const f = only(objects, 'LKD-POL-007');
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/none of the selected pods .* has a TCP container port named "grpc", so the Server governs no port/);
  });
  test('the injected proxy\'s named ports count on injected pods (linkerd-admin)', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.port = 'linkerd-admin';
    expect(ruleFindings(objects, 'LKD-POL-007')).toEqual([]);
  });
  test('passes with a port name every pod declares', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.port = 'http';
    expect(ruleFindings(objects, 'LKD-POL-007')).toEqual([]);
  });
});

describe('LKD-POL-008 overlapping Servers', () => {
  test('reports the Server that loses by name order', () => {
    const objects = [...meshLab(), server('all-http', { podSelector: {}, port: 'http' })];
    const f = only(objects, 'LKD-POL-008');
    expect(f.resource.name).toBe('orders-http');
    expect(f.message).toMatch(/selects port 8080 of Deployment mesh-lab\/orders-v1, Deployment mesh-lab\/orders-v2, which Server all-http also selects/);
  });
  test('passes for Servers on different ports', () => {
    expect(ruleFindings([...meshLab(), server('admin', { podSelector: {}, port: 9990 })], 'LKD-POL-008')).toEqual([]);
  });
});

describe('LKD-POL-009 Server denies all', () => {
  test('fires when no AuthorizationPolicy targets the Server', () => {
    const objects = meshLab().filter((o) => o.kind !== 'AuthorizationPolicy');
    const f = only(objects, 'LKD-POL-009');
    expect(f.resource.name).toBe('orders-http');
    expect(f.message).toMatch(/accessPolicy unset \(deny, the v1beta3 default\).*refuses every connection/);
  });
  // A route the Server does not serve (grpc/src/inbound.rs to_server) carries no authorization to it.
  test('fires when the only policy targets a route the Server does not serve', () => {
    const objects = meshLab();
    const routeAuthz = pick(objects, 'AuthorizationPolicy', 'client-to-orders');
    routeAuthz.spec.targetRef = { group: 'gateway.networking.k8s.io', kind: 'GRPCRoute', name: 'orders-grpc' };
    objects.push({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'GRPCRoute',
      metadata: { name: 'orders-grpc', namespace: NS },
      spec: { parentRefs: [{ group: POLICY, kind: 'Server', name: 'orders-http' }] },
    });
    expect(only(objects, 'LKD-POL-009').message).toMatch(/refuses every connection \(only GETs of the pods' HTTP probe paths/);
    pick(objects, 'Server', 'orders-http').spec.proxyProtocol = 'gRPC';
    expect(ruleFindings(objects, 'LKD-POL-009')).toEqual([]);
  });
  test('passes with a namespace-wide policy or a permissive accessPolicy', () => {
    const objects = meshLab();
    pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef = { kind: 'Namespace', name: NS };
    expect(ruleFindings(objects, 'LKD-POL-009')).toEqual([]);
    const open = meshLab().filter((o) => o.kind !== 'AuthorizationPolicy');
    pick(open, 'Server', 'orders-http').spec.accessPolicy = 'all-authenticated';
    expect(ruleFindings(open, 'LKD-POL-009')).toEqual([]);
  });
});

describe('LKD-POL-010 probes once routes attach', () => {
  const inboundRoute = (path: string) => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'orders-api', namespace: NS },
    spec: { parentRefs: [{ group: POLICY, kind: 'Server', name: 'orders-http' }], rules: [{ matches: [{ path: { type: 'PathPrefix', value: path } }] }] },
  });
  const withProbe = () => {
    const objects = meshLab();
    for (const name of ['orders-v1', 'orders-v2']) {
      pick(objects, 'Deployment', name).spec.template.spec.containers[0].readinessProbe = { httpGet: { path: '/ready', port: 'http' } };
    }
    return objects;
  };
  test('fires when no attached route matches the probe path', () => {
    const found = ruleFindings([...withProbe(), inboundRoute('/api')], 'LKD-POL-010');
    expect(found).toHaveLength(2);
    expect(found[0].resource.name).toBe('orders-http');
    expect(found[0].message).toMatch(/none matches the readinessProbe of container main in Deployment mesh-lab\/orders-v1 \(GET \/ready on port 8080\)/);
  });
  test('a failing liveness probe restarts the container; a failing readiness probe keeps the pod out of service', () => {
    const objects = withProbe();
    pick(objects, 'Deployment', 'orders-v1').spec.template.spec.containers[0].livenessProbe = { httpGet: { path: '/live', port: 'http' } };
    const messages = ruleFindings([...objects, inboundRoute('/api')], 'LKD-POL-010').map((f) => f.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/livenessProbe .*the kubelet restarts the container again and again\.$/),
      expect.stringMatching(/readinessProbe .*the pod never becomes ready\.$/),
    ]));
  });
  test('fires when the matching route admits only meshed clients', () => {
    const found = ruleFindings([...withProbe(), inboundRoute('/')], 'LKD-POL-010');
    expect(found[0].message).toMatch(/no authorization admits unauthenticated callers on orders-api/);
  });
  test('passes with a route policy that admits unauthenticated callers, and without routes', () => {
    const probeAuthz = {
      ...authz(),
      metadata: { name: 'probes', namespace: NS },
      spec: { targetRef: { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'orders-api' }, requiredAuthenticationRefs: [] },
    };
    expect(ruleFindings([...withProbe(), inboundRoute('/'), probeAuthz], 'LKD-POL-010')).toEqual([]);
    expect(ruleFindings(withProbe(), 'LKD-POL-010')).toEqual([]);
  });
  // linkerd2-proxy inbound/src/policy.rs is_authorized: a NetworkAuthentication admits by the client's address, which
  // for the kubelet is the node's: the manifests do not tell it, so only a certain refusal is reported.
  test.each([['10.0.0.0/8'], ['0.0.0.0/0']])('passes when a NetworkAuthentication over %s authorizes the probe route', (cidr) => {
    const kubelet = { apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'NetworkAuthentication', metadata: { name: 'kubelet', namespace: NS }, spec: { networks: [{ cidr }] } };
    const probeAuthz = {
      ...authz(),
      metadata: { name: 'probes', namespace: NS },
      spec: {
        targetRef: { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'orders-api' },
        requiredAuthenticationRefs: [{ group: POLICY, kind: 'NetworkAuthentication', name: 'kubelet' }],
      },
    };
    expect(ruleFindings([...withProbe(), inboundRoute('/'), kubelet, probeAuthz], 'LKD-POL-010')).toEqual([]);
  });
  // inbound/index.rs http_routes: with no HTTPRoute the HTTP Server serves (a GRPCRoute beside it conflicts it, or is
  // all that is attached), the controller generates the default and probe routes again.
  test('passes when the Server serves none of the attached routes: the probe route is back', () => {
    const grpc = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'GRPCRoute',
      metadata: { name: 'orders-grpc', namespace: NS },
      spec: { parentRefs: [{ group: POLICY, kind: 'Server', name: 'orders-http' }] },
    };
    expect(ruleFindings([...withProbe(), grpc], 'LKD-POL-010')).toEqual([]);
    expect(ruleFindings([...withProbe(), inboundRoute('/api'), grpc], 'LKD-POL-010')).toEqual([]);
  });
});

describe('LKD-POL-011 plaintext default', () => {
  test('fires on a meshed port without a Server under the cluster default', () => {
    const objects = meshLab();
    delete pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/default-inbound-policy'];
    pick(objects, 'Deployment', 'client').spec.template.spec.containers[0].ports = [{ name: 'metrics', containerPort: 9100 }];
    const f = only(objects, 'LKD-POL-011');
    expect(f.resource).toMatchObject({ kind: 'Deployment', name: 'client' });
    expect(f.message).toMatch(/port\(s\) 9100 \(metrics\) have no Server.*all-unauthenticated \(from the cluster default/);
  });
  test('a Server that selects the workload but none of its ports is named, and the finding is a warning', () => {
    const objects = meshLab();
    delete pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/default-inbound-policy'];
    pick(objects, 'Deployment', 'client').spec.template.spec.containers[0].ports = [{ name: 'metrics', containerPort: 9100 }];
    const clientServer = (name: string) => server(name, { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'client' } }, port: 9999, proxyProtocol: 'HTTP/1' });
    const elsewhere = { ...clientServer('client-elsewhere'), metadata: { name: 'client-elsewhere', namespace: 'other' } };
    const f = only([...objects, clientServer('client-b'), elsewhere, clientServer('client-a')], 'LKD-POL-011');
    expect(f).toMatchObject({ severity: Severity.WARNING, resource: { kind: 'Deployment', name: 'client' } });
    expect(f.message).toMatch(/ Server client-a, client-b selects it but none of its ports\.$/);
  });
  test('names a pod-level cluster-unauthenticated default', () => {
    const objects = meshLab();
    const tpl = pick(objects, 'Deployment', 'client').spec.template;
    tpl.spec.containers[0].ports = [{ containerPort: 9100 }];
    tpl.metadata.annotations = { 'config.linkerd.io/default-inbound-policy': 'cluster-unauthenticated' };
    expect(only(objects, 'LKD-POL-011').message).toMatch(/cluster-unauthenticated \(from pod annotation/);
  });
  test('passes when the namespace default is authenticated or the port skips the proxy', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'client').spec.template.spec.containers[0].ports = [{ containerPort: 9100 }];
    expect(ruleFindings(objects, 'LKD-POL-011')).toEqual([]);
    delete pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/default-inbound-policy'];
    pick(objects, 'Deployment', 'client').spec.template.metadata.annotations = { 'config.linkerd.io/skip-inbound-ports': '9000-9200' };
    expect(ruleFindings(objects, 'LKD-POL-011')).toEqual([]);
  });
});

// inbound/index.rs: require_id_ports is read only by default_inbound_server; a port a Server selects gets inbound_server.
describe('LKD-POL-025 require-identity ports a Server selects', () => {
  const REQUIRE = 'config.linkerd.io/proxy-require-identity-inbound-ports';
  const listed = (where: 'pod' | 'namespace') => {
    const objects = meshLab();
    const meta = where === 'pod' ? pick(objects, 'Deployment', 'orders-v1').spec.template.metadata : pick(objects, 'Namespace', NS).metadata;
    meta.annotations = { ...(meta.annotations ?? {}), [REQUIRE]: '8080' };
    return objects;
  };
  test('fires when the Server admits unauthenticated clients on a listed port', () => {
    const objects = listed('pod');
    pick(objects, 'Server', 'orders-http').spec.accessPolicy = 'all-unauthenticated';
    expect(ruleFindings(objects, 'LKD-POL-025').map((f) => [f.severity, f.resource.name, f.message])).toEqual([[Severity.ERROR, 'orders-v1',
      expect.stringMatching(/^port\(s\) 8080 of Deployment mesh-lab\/orders-v1 are listed in config.linkerd.io\/proxy-require-identity-inbound-ports \(from the pod template\), but Server orders-http selects them.*: an unmeshed client in the cluster is admitted \(Server orders-http accessPolicy is all-unauthenticated/)]]);
  });
  test('names the namespace when the list is the namespace\'s, for every pod it reaches', () => {
    const objects = listed('namespace');
    pick(objects, 'Server', 'orders-http').spec.accessPolicy = 'all-unauthenticated';
    const found = ruleFindings(objects, 'LKD-POL-025');
    expect(found.map((f) => f.resource.name)).toEqual(['orders-v1', 'orders-v2']);
    expect(found[0].message).toMatch(/\(from Namespace mesh-lab\)/);
  });
  test('passes when the Server requires identity anyway (mesh-lab: MeshTLS only), or no Server selects the port', () => {
    expect(ruleFindings(listed('pod'), 'LKD-POL-025')).toEqual([]);
    const objects = listed('namespace');
    pick(objects, 'Server', 'orders-http').spec.port = 9999;
    pick(objects, 'Server', 'orders-http').spec.accessPolicy = 'all-unauthenticated';
    expect(ruleFindings(objects, 'LKD-POL-025')).toEqual([]);
  });
});

describe('LKD-POL-012 enumerated values', () => {
  test('fires on a bad namespace default and Server enums', () => {
    const objects = meshLab();
    pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/default-inbound-policy'] = 'authenticated';
    Object.assign(pick(objects, 'Server', 'orders-http').spec, { accessPolicy: 'Deny', proxyProtocol: 'http/1' });
    const messages = ruleFindings(objects, 'LKD-POL-012').map((f) => `${f.resource.kind}: ${f.message}`);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Namespace: annotation config.linkerd.io\/default-inbound-policy is "authenticated"/),
      expect.stringMatching(/^Server: spec.accessPolicy "Deny".*write "deny"/),
      expect.stringMatching(/^Server: spec.proxyProtocol "http\/1".*write "HTTP\/1"/),
    ]));
  });
  test('passes on valid values', () => {
    const objects = meshLab();
    Object.assign(pick(objects, 'Server', 'orders-http').spec, { accessPolicy: 'audit', proxyProtocol: 'gRPC' });
    expect(ruleFindings(objects, 'LKD-POL-012')).toEqual([]);
  });
});

describe('LKD-POL-014 rate limits', () => {
  const limit = (name: string, spec: any) => ({ apiVersion: `${POLICY}/v1alpha1`, kind: 'HTTPLocalRateLimitPolicy', metadata: { name, namespace: NS }, spec });
  const target = { group: POLICY, kind: 'Server', name: 'orders-http' };
  test('fires on rates above the total, a non-SA clientRef and a second policy on the Server', () => {
    const objects = [...meshLab(),
      limit('a-limit', { targetRef: target, total: { requestsPerSecond: 100 }, identity: { requestsPerSecond: 200 }, overrides: [{ requestsPerSecond: 5, clientRefs: [{ kind: 'Deployment', name: 'client' }] }] }),
      limit('b-limit', { targetRef: target, total: { requestsPerSecond: 10 } })];
    const messages = ruleFindings(objects, 'LKD-POL-014').map((f) => `${f.resource.name}: ${f.message}`);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/^a-limit: spec.identity.requestsPerSecond 200 exceeds total/),
      expect.stringMatching(/^a-limit: spec.overrides\[0\].clientRefs\[0\] is Deployment/),
      expect.stringMatching(/^b-limit: HTTPLocalRateLimitPolicy a-limit already targets Server orders-http/),
    ]));
    expect(messages).toHaveLength(3);
  });
  // k8s/api/src/policy/ratelimit_policy.rs: u32 rates; admission.rs parse_spec fails on more, and the kind is not lenient.
  test('a rate above u32 is refused (the CRD allows int64, the webhook cannot parse it)', () => {
    const big = limit('big', { targetRef: target, total: { requestsPerSecond: 4294967296 }, overrides: [{ requestsPerSecond: 4294967296, clientRefs: [{ kind: 'ServiceAccount', name: 'client' }] }] });
    expect(ruleFindings([...meshLab(), big], 'LKD-POL-014').map((f) => f.message)).toEqual([
      expect.stringMatching(/^spec.overrides\[0\].requestsPerSecond 4294967296 is above 4294967295/),
      expect.stringMatching(/^spec.total.requestsPerSecond 4294967296 is above 4294967295, the largest rate Linkerd reads \(u32\)/),
    ]);
    const max = limit('max', { targetRef: target, total: { requestsPerSecond: 4294967295 } });
    expect(ruleFindings([...meshLab(), max], 'LKD-POL-014')).toEqual([]);
  });
  // ratelimit_policy.rs Override.client_refs has no serde default: the webhook cannot parse an override without it.
  test('an override without clientRefs is refused', () => {
    const [finding] = ruleFindings([...meshLab(), limit('o', { targetRef: target, total: { requestsPerSecond: 100 }, overrides: [{ requestsPerSecond: 5 }] })], 'LKD-POL-014');
    expect(finding.message).toMatch(/^spec\.overrides\[0\] has no clientRefs list; the CRD requires it and the webhook cannot parse the spec/);
  });
  // status/src/index.rs target_ref_status: entries with a creationTimestamp come first; a policy still to be applied is the newest.
  test('a new policy loses to one the cluster already has, whatever their names', () => {
    const existing = { ...limit('zzz', { targetRef: target, total: { requestsPerSecond: 10 } }) };
    existing.metadata = { ...existing.metadata, creationTimestamp: '2026-01-01T00:00:00Z' } as any;
    const messages = ruleFindings([...meshLab(), limit('aaa', { targetRef: target, total: { requestsPerSecond: 5 } })], 'LKD-POL-014', { inventory: [existing] })
      .map((f) => `${f.resource.name}: ${f.message}`);
    expect(messages).toEqual([expect.stringMatching(/^aaa: HTTPLocalRateLimitPolicy zzz already targets Server orders-http/)]);
  });
  test('fires on a missing Server target', () => {
    expect(only([...meshLab(), limit('x', { targetRef: { ...target, name: 'nope' }, total: { requestsPerSecond: 1 } })], 'LKD-POL-014').message).toMatch(/NoMatchingTarget/);
  });
  test('a policy alone (its Server deployed separately): info naming the inventory', () => {
    const alone = { ...limit('web-rl', { targetRef: { ...target, name: 'web-http' }, total: { requestsPerSecond: 100 } }), metadata: { name: 'web-rl', namespace: 'emojivoto' } };
    expect(only([alone], 'LKD-POL-014')).toMatchObject({ severity: Severity.INFO, message: expect.stringMatching(/namespace emojivoto is not part of this analysis/) });
  });
  test('passes for one valid policy', () => {
    expect(ruleFindings([...meshLab(), limit('ok', { targetRef: target, total: { requestsPerSecond: 100 }, identity: { requestsPerSecond: 10 } })], 'LKD-POL-014')).toEqual([]);
  });
});

describe('LKD-POL-015 legacy kinds', () => {
  // CHANGES.md stable-2.11: TrafficSplit moved to the linkerd-smi extension; nothing in linkerd2 version-2.20 reads it.
  // Linkerd's own guides (tasks/automatic-failover, tasks/multicluster) apply TrafficSplits with linkerd-smi installed: info.
  test('advises on an SMI TrafficSplit, which only the linkerd-smi extension reads', () => {
    const split = {
      apiVersion: 'split.smi-spec.io/v1alpha2',
      kind: 'TrafficSplit',
      metadata: { name: 'orders', namespace: NS },
      spec: { service: 'orders', backends: [{ service: 'orders-v1', weight: 900 }, { service: 'orders-v2', weight: 100 }] },
    };
    expect(ruleFindings([...meshLab(), split], 'LKD-POL-015').map((f) => [f.severity, f.message])).toEqual([
      [Severity.INFO, expect.stringMatching(/^TrafficSplit \(SMI\) is read by no part of Linkerd 2.20 itself: only the separate linkerd-smi extension/)],
    ]);
  });
  test('fires on an old Server version and a ServerAuthorization', () => {
    const objects = [...meshLab(), {
      apiVersion: `${POLICY}/v1beta1`,
      kind: 'ServerAuthorization',
      metadata: { name: 'old', namespace: NS },
      spec: { server: { name: 'orders-http' }, client: { meshTLS: { serviceAccounts: [{ name: 'client' }] } } },
    }];
    pick(objects, 'Server', 'orders-http').apiVersion = `${POLICY}/v1beta2`;
    const found = ruleFindings(objects, 'LKD-POL-015');
    expect(found.map((f) => f.resource.kind).sort()).toEqual(['Server', 'ServerAuthorization']);
    expect(found.find((f) => f.resource.kind === 'Server')!.message).toMatch(/v1beta2; use policy.linkerd.io\/v1beta3/);
  });
  test('passes on current versions', () => {
    expect(ruleFindings(meshLab(), 'LKD-POL-015')).toEqual([]);
  });
});

describe('LKD-POL-016 Server selector shape', () => {
  test('fires on a missing selector and a bad operator', () => {
    const objects = [...meshLab(), server('none', { port: 8080 })];
    pick(objects, 'Server', 'orders-http').spec.podSelector = { matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] };
    const messages = ruleFindings(objects, 'LKD-POL-016').map((f) => `${f.resource.name}: ${f.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^none: spec sets neither podSelector nor externalWorkloadSelector/),
      expect.stringMatching(/^orders-http: spec.podSelector.matchExpressions\[0\].operator "Equals"/),
    ]);
  });
  // labels.rs Expression::matches: NotIn with a list (even empty) is evaluated; In with an empty one never matches.
  test('NotIn with an empty list excludes nothing (a warning); In with an empty list selects no pod (an error)', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.podSelector = { matchLabels: { app: 'orders' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: [] }] };
    expect(ruleFindings(objects, 'LKD-POL-016').map((f) => [f.severity, f.message])).toEqual([[Severity.WARNING, expect.stringMatching(/NotIn with no values; it excludes nothing/)]]);
    pick(objects, 'Server', 'orders-http').spec.podSelector.matchExpressions[0].operator = 'In';
    expect(ruleFindings(objects, 'LKD-POL-016').map((f) => f.severity)).toEqual([Severity.ERROR]);
  });
  test('passes for the baseline Server', () => {
    expect(ruleFindings(meshLab(), 'LKD-POL-016')).toEqual([]);
  });
});

describe('LKD-POL-017 authorization on an outbound route', () => {
  test('fires when the policy targets a Service-parented route', () => {
    const objects = meshLab();
    pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.targetRef = { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'orders-split' };
    const f = only(objects, 'LKD-POL-017');
    expect(f.resource.name).toBe('client-to-orders');
    expect(f.message).toMatch(/HTTPRoute orders-split, which has no Server parentRef/);
  });
  test('passes for a Server target', () => {
    expect(ruleFindings(meshLab(), 'LKD-POL-017')).toEqual([]);
  });
});

describe('LKD-POL-018 ServerAuthorization conflicts', () => {
  const sa = (client: any) => ({ apiVersion: `${POLICY}/v1beta1`, kind: 'ServerAuthorization', metadata: { name: 'legacy', namespace: NS }, spec: { server: { name: 'orders-http' }, client } });
  test('fires on meshTLS plus unauthenticated', () => {
    expect(only([...meshLab(), sa({ unauthenticated: true, meshTLS: { serviceAccounts: [{ name: 'client' }] } })], 'LKD-POL-018').message).toMatch(/both meshTLS and unauthenticated/);
  });
  test('fires on unauthenticatedTLS with identities and bad networks', () => {
    const found = ruleFindings([...meshLab(), sa({ meshTLS: { unauthenticatedTLS: true, identities: ['*'] }, networks: [{ cidr: '10.0.0.0/8', except: ['11.0.0.0/8'] }] })], 'LKD-POL-018');
    expect(found.map((f) => f.message)).toEqual(expect.arrayContaining([expect.stringMatching(/unauthenticatedTLS/), expect.stringMatching(/not inside cidr/)]));
  });
  test('passes for a plain meshTLS client', () => {
    expect(ruleFindings([...meshLab(), sa({ meshTLS: { serviceAccounts: [{ name: 'client' }] } })], 'LKD-POL-018')).toEqual([]);
  });
  // server_authorization.rs client_authz ("no client authentication configured") and client_mtls_authn ("authorization
  // authorizes no clients"): the webhook admits these, the index drops them.
  test('a client that authenticates nobody is accepted, then dropped by the index', () => {
    const dropped = (client: any) => ruleFindings([...meshLab(), sa(client)], 'LKD-POL-018').map((f) => [f.effect, f.message]);
    expect(dropped({ networks: [{ cidr: '10.0.0.0/8' }] })).toEqual([['ignored', expect.stringMatching(/authenticates no client .*refuses to index it/)]]);
    expect(dropped({ meshTLS: {} })).toEqual([['ignored', expect.stringMatching(/meshTLS that names no identity/)]]);
    expect(dropped({ meshTLS: { identities: [] } })).toHaveLength(1);
    expect(dropped({ meshTLS: { unauthenticatedTLS: true } })).toEqual([]);
    expect(dropped({ unauthenticated: true })).toEqual([]);
  });
  // admission.rs Validate<ServerAuthorizationSpec> checks only each entry's exceptions; to_authz sends [] as the cluster networks.
  test('an empty client.networks is legal (the cluster networks), unlike an empty NetworkAuthentication', () => {
    expect(ruleFindings([...meshLab(), sa({ meshTLS: { serviceAccounts: [{ name: 'client' }] }, networks: [] })], 'LKD-POL-018')).toEqual([]);
    expect(ruleFindings([...meshLab(), sa({ meshTLS: { serviceAccounts: [{ name: 'client' }] }, networks: 'x' })], 'LKD-POL-018')).toHaveLength(1);
  });
  // A Killercoda lab writes `server: backend-server`; ServerAuthorizationSpec's server is a struct, required.
  test('a Server named by a bare string, or no server at all, is refused: spec.server is an object', () => {
    const plain = { meshTLS: { serviceAccounts: [{ name: 'client' }] } };
    const asString = { ...sa(plain), spec: { server: 'orders-http', client: plain } };
    const [f] = ruleFindings([...meshLab(), asString], 'LKD-POL-018');
    expect(f).toMatchObject({ severity: Severity.ERROR, effect: FindingEffect.REJECTED });
    expect(f.message).toMatch(/spec.server must be an object naming the Server \({name: ...}\).*got "orders-http"/);
    const without = { ...sa(plain), spec: { client: plain } };
    expect(ruleFindings([...meshLab(), without], 'LKD-POL-018')[0].message).toMatch(/it is missing/);
    expect(ruleFindings([...meshLab(), { ...sa(plain), spec: { server: { selector: { matchLabels: { app: 'orders' } } }, client: plain } }], 'LKD-POL-018')).toEqual([]);
  });
});

describe('LKD-POL-019 open authorization', () => {
  test('fires on an empty requiredAuthenticationRefs', () => {
    const objects = meshLab();
    pick(objects, 'AuthorizationPolicy', 'client-to-orders').spec.requiredAuthenticationRefs = [];
    expect(only(objects, 'LKD-POL-019').message).toMatch(/is empty, which admits every client/);
  });
  test('passes with an authentication', () => {
    expect(ruleFindings(meshLab(), 'LKD-POL-019')).toEqual([]);
  });
});

describe('LKD-POL-020 Server parent group', () => {
  const route = (parent: any) => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'inbound', namespace: NS },
    spec: { parentRefs: [parent], rules: [{}] },
  });
  test('fires on kind Server without group', () => {
    const f = only([...meshLab(), route({ kind: 'Server', name: 'orders-http' })], 'LKD-POL-020');
    expect(f.resource.name).toBe('inbound');
    expect(f.message).toMatch(/parentRefs\[0\] names Server "orders-http" with no group \(defaulted to gateway.networking.k8s.io\)/);
  });
  test('passes with the policy group', () => {
    expect(ruleFindings([...meshLab(), route({ group: POLICY, kind: 'Server', name: 'orders-http' })], 'LKD-POL-020')).toEqual([]);
  });
});

describe('Servers over ExternalWorkloads (inbound/index.rs ExternalWorkload::reindex_servers)', () => {
  const workload = (name: string, labels: Record<string, string>, ports: any[]) => ({
    apiVersion: 'workload.linkerd.io/v1beta1',
    kind: 'ExternalWorkload',
    metadata: { name, namespace: NS, labels },
    spec: { meshTLS: { identity: `spiffe://root.linkerd.cluster.local/${name}`, serverName: `${name}.cluster.local` }, workloadIPs: [{ ip: '192.0.2.10' }], ports },
  });
  const workloadServer = (name: string, selector: Record<string, string>, port: number | string) => ({
    apiVersion: `${POLICY}/v1beta3`,
    kind: 'Server',
    metadata: { name, namespace: NS },
    spec: { externalWorkloadSelector: { matchLabels: selector }, port, proxyProtocol: 'HTTP/1' },
  });
  const vm = workload('vm-1', { app: 'legacy' }, [{ port: 8080, name: 'http' }, { port: 5353, name: 'dns', protocol: 'UDP' }]);
  test('a selector no ExternalWorkload matches: an error where the namespace has some, a warning where it has none here', () => {
    const typo = workloadServer('legacy-http', { app: 'legcy' }, 8080);
    expect(ruleFindings([...meshLab(), vm, typo], 'LKD-POL-006').map((f) => [f.severity, f.message])).toEqual([
      [Severity.ERROR, expect.stringMatching(/^spec.externalWorkloadSelector \(app=legcy\) selects none of the 1 ExternalWorkload\(s\) here in namespace mesh-lab; the Server governs nothing/)],
    ]);
    expect(ruleFindings([...meshLab(), typo], 'LKD-POL-006').map((f) => f.severity)).toEqual([Severity.WARNING]);
    expect(ruleFindings([...meshLab(), vm, workloadServer('legacy-http', { app: 'legacy' }, 8080)], 'LKD-POL-006')).toEqual([]);
  });
  test('each such Server counts the ExternalWorkloads of its own namespace only', () => {
    const elsewhere = { ...workload('vm-2', { app: 'legacy' }, []), metadata: { name: 'vm-2', namespace: 'other', labels: { app: 'legacy' } } };
    const typos = [workloadServer('a-http', { app: 'legcy' }, 8080), workloadServer('b-http', { app: 'lgacy' }, 8080)];
    expect(ruleFindings([...meshLab(), vm, workload('vm-3', { app: 'legacy' }, []), elsewhere, ...typos], 'LKD-POL-006').map((f) => f.message))
      .toEqual([expect.stringMatching(/ selects none of the 2 ExternalWorkload\(s\) here in namespace mesh-lab;/),
        expect.stringMatching(/ selects none of the 2 ExternalWorkload\(s\) here in namespace mesh-lab;/)]);
  });
  test('a port name the workloads lack as a TCP port selects nothing (workload.rs external_tcp_ports_by_name)', () => {
    expect(ruleFindings([...meshLab(), vm, workloadServer('legacy-http', { app: 'legacy' }, 'http')], 'LKD-POL-007')).toEqual([]);
    const [finding] = ruleFindings([...meshLab(), vm, workloadServer('legacy-dns', { app: 'legacy' }, 'dns')], 'LKD-POL-007');
    expect(finding.message).toMatch(/^spec.port "dns": none of the selected ExternalWorkloads \(vm-1\) has a TCP port named "dns"/);
  });
  test('two Servers on one workload port: the later by creation time, then name, is skipped', () => {
    const found = ruleFindings([...meshLab(), vm, workloadServer('b-http', { app: 'legacy' }, 8080), workloadServer('a-http', { app: 'legacy' }, 'http')], 'LKD-POL-008');
    expect(found.map((f) => `${f.resource.name}: ${f.message}`)).toEqual([
      expect.stringMatching(/^b-http: Server b-http selects port 8080 of ExternalWorkload vm-1, which Server a-http also selects/),
    ]);
  });
});

// grpc/src/inbound.rs to_server: opaque and TLS ports carry no routes, so no probe route; linkerd2-proxy
// inbound/src/policy/tcp.rs check_authorized judges the kubelet's connection by the port's authorizations alone.
describe('LKD-POL-010 probes on a port the proxy treats as opaque', () => {
  const withProbe = (edit: (objects: any[]) => void) => {
    const objects = meshLab();
    for (const name of ['orders-v1', 'orders-v2']) {
      pick(objects, 'Deployment', name).spec.template.spec.containers[0].readinessProbe = { httpGet: { path: '/ready', port: 8080 } };
    }
    edit(objects);
    return ruleFindings(objects, 'LKD-POL-010');
  };
  test('an opaque Server that authorizes only meshed clients refuses the kubelet: the pods never become ready', () => {
    const found = withProbe((o) => { pick(o, 'Server', 'orders-http').spec.proxyProtocol = 'opaque'; });
    expect(found.map((f) => [f.severity, f.resource.name])).toEqual([['error', 'orders-v1'], ['error', 'orders-v2']]);
    expect(found[0].message).toMatch(/^the readinessProbe of container main in Deployment mesh-lab\/orders-v1 \(GET \/ready on port 8080\) reaches a port the proxy treats as opaque \(Server orders-http has proxyProtocol opaque\): there is no probe route there.*the pod never becomes ready\.$/);
  });
  test('an opaque port no Server selects, under an all-authenticated default, refuses the kubelet too', () => {
    const found = withProbe((o) => {
      o.splice(0, o.length, ...o.filter((x) => x.kind !== 'Server' && x.kind !== 'AuthorizationPolicy'));
      pick(o, 'Namespace', NS).metadata.annotations['config.linkerd.io/default-inbound-policy'] = 'all-authenticated';
      for (const name of ['orders-v1', 'orders-v2']) { const meta = pick(o, 'Deployment', name).spec.template.metadata; meta.annotations = { ...meta.annotations, 'config.linkerd.io/opaque-ports': '8080' }; }
    });
    expect(found.map((f) => f.message)).toEqual([
      expect.stringMatching(/reaches a port the proxy treats as opaque \(no Server selects it, and it is an opaque port/),
      expect.stringMatching(/orders-v2/),
    ]);
  });
  test('passes where the port admits unauthenticated connections, or is HTTP (the probe route is generated)', () => {
    expect(withProbe((o) => { const s = pick(o, 'Server', 'orders-http'); s.spec.proxyProtocol = 'opaque'; s.spec.accessPolicy = 'all-unauthenticated'; })).toEqual([]);
    expect(withProbe(() => undefined)).toEqual([]);
  });
});
