/**
 * The model's ignored objects come from Finding.effect, which only the rules that report a rejected or dropped object
 * set (they declare `effects`); the wording of a message plays no part.
 */
import { findObject, manifests, meshLabObjects } from './mesh-lab-fixture';
import { AnalyzeOptions, analyze } from '../../src/analysis/engine';
import { FindingEffect, Severity } from '../../src/analysis/finding';
import { Manifest } from '../../src/analysis/model/manifest';
import { REACHABILITY_RULES, meshModel } from '../../src/analysis/reachability';
import { ALL_RULES } from '../../src/analysis/rules';
import { parseManifests } from '../../src/frontends/cli/load-manifests';
import { MUTATIONS, meshLabObjects as corpusObjects, mutate } from '../robustness/mutation-corpus';
import { RULE_TRIGGERS } from '../robustness/rule-triggers';

const NS = 'mesh-lab';
const route = (o: any[]) => findObject(o, 'HTTPRoute', 'orders-split');

/** Mistakes whose marked finding the shared corpus (mutation-corpus.ts, rule-triggers.ts) does not produce. */
const MORE_TRIGGERS: Array<(o: any[]) => void> = [
  (o) => { delete findObject(o, 'AuthorizationPolicy', 'client-to-orders').spec.requiredAuthenticationRefs[0].group; },
  (o) => { findObject(o, 'MeshTLSAuthentication', 'client-sa').spec.identityRefs = []; },
  (o) => { o.push({ apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { name: 'inside', namespace: NS }, spec: { trafficPolicy: 'Allow', networks: [{ cidr: '10.0.0.0/8' }] } }); },
  (o) => {
    o.push({
      apiVersion: 'policy.linkerd.io/v1alpha1',
      kind: 'HTTPLocalRateLimitPolicy',
      metadata: { name: 'limit', namespace: NS },
      spec: { targetRef: { kind: 'Server', name: 'orders-http' }, total: { requestsPerSecond: 100 } },
    });
  },
  (o) => { delete route(o).spec.parentRefs[0].name; },
  // Past the webhook (it compares kind exactly), then an invalid backend.
  (o) => { route(o).spec.rules[0].backendRefs[1] = { kind: 'service', name: 'orders-v2' }; },
  (o) => { route(o).spec.parentRefs[0].port = 0; },
  (o) => { route(o).spec.rules[0].backendRefs[0].weight = -1; },
  (o) => { route(o).spec.rules[0].timeouts = { request: 'soon' }; },
  (o) => { route(o).apiVersion = 'gateway.networking.k8s.io/v1alpha2'; },
  // Where the policy validator does not run, the route it would have rejected is applied and then dropped.
  (o) => {
    route(o).spec.rules[0].matches = [{ path: { type: 'RegularExpression', value: '/orders/(?!internal).*' } }];
    const ns = findObject(o, 'Namespace', NS);
    ns.metadata.labels = { ...ns.metadata.labels, 'config.linkerd.io/admission-webhooks': 'disabled' };
  },
  // A timeout only the CRD's format: duration admits: applied, and the controller cannot read the route.
  (o) => {
    route(o).apiVersion = 'policy.linkerd.io/v1beta3';
    route(o).spec.rules[0].timeouts = { request: '1d' };
    const ns = findObject(o, 'Namespace', NS);
    ns.metadata.labels = { ...ns.metadata.labels, 'config.linkerd.io/admission-webhooks': 'disabled' };
  },
  (o) => {
    route(o).metadata.annotations = { 'retry.linkerd.io/http': '5xx, 429' };
    const ns = findObject(o, 'Namespace', NS);
    ns.metadata.labels = { ...ns.metadata.labels, 'config.linkerd.io/admission-webhooks': 'disabled' };
  },
  (o) => {
    o.push({
      apiVersion: 'gateway.networking.k8s.io/v1alpha2',
      kind: 'TCPRoute',
      metadata: { name: 'orders-tcp', namespace: NS },
      spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }], rules: [] },
    });
    const ns = findObject(o, 'Namespace', NS);
    ns.metadata.labels = { ...ns.metadata.labels, 'config.linkerd.io/admission-webhooks': 'disabled' };
  },
];

function ignoredOf(objects: any[]) {
  return meshModel(manifests(objects)).ignored.map((i) => [i.object.kind, i.object.name, i.ruleIds.join(','), i.effect]);
}

describe('ignored objects', () => {
  test('a message that says "ignores" about a Service\'s settings does not make the Service an ignored object', () => {
    const objects = meshLabObjects();
    findObject(objects, 'Service', 'orders').metadata.annotations = { 'timeout.linkerd.io/request': '1m30s' };
    const findings = analyze(manifests(objects)).findings.filter((f) => f.ruleId === 'LKD-RETRY-002');
    // The finding is an error and its message says Linkerd ignores something, as the old word match looked for.
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.ERROR, resource: { kind: 'Service', name: 'orders' } });
    expect(findings[0].message).toMatch(/ignores this Service's timeout settings/);
    expect(findings[0].effect).toBeUndefined();
    expect(ignoredOf(objects)).toEqual([]);
  });

  test('the same unreadable annotation on a route: the webhook rejects the route, which is listed', () => {
    const objects = meshLabObjects();
    findObject(objects, 'HTTPRoute', 'orders-split').metadata.annotations = { 'timeout.linkerd.io/request': '1m30s' };
    expect(ignoredOf(objects)).toEqual([['HTTPRoute', 'orders-split', 'LKD-RETRY-002', FindingEffect.REJECTED]]);
  });

  test('a route whose parent lost its group is ignored (applied, then dropped), not rejected', () => {
    const objects = meshLabObjects();
    delete findObject(objects, 'HTTPRoute', 'orders-split').spec.parentRefs[0].group;
    expect(ignoredOf(objects)).toEqual([['HTTPRoute', 'orders-split', 'LKD-ROUTE-001', FindingEffect.IGNORED]]);
  });

  test('an effect a rule does not declare is dropped by the engine', () => {
    const rule = {
      ...ALL_RULES.find((r) => r.id === 'LKD-POL-009')!,
      effects: undefined,
      check: (ctx: any) => ctx.report(ctx.index.objects[0], 'says ignored', { effect: FindingEffect.IGNORED }),
    };
    const findings = analyze(manifests(meshLabObjects()), { rules: [rule] }).findings;
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.effect === undefined)).toBe(true);
  });

  test('every rule that marks objects, with every effect it declares, gets an object listed by some trigger of the corpus', () => {
    const runs: Array<{ input: Manifest[]; options?: AnalyzeOptions }> = [
      ...MUTATIONS.map((m) => ({ input: manifests(mutate(corpusObjects(), m)) })),
      ...RULE_TRIGGERS.map((t) => ({ input: t.text ? parseManifests(t.text(), 'trigger.yaml') : manifests(t.objects()), options: t.options })),
      ...MORE_TRIGGERS.map((change) => {
        const objects = meshLabObjects();
        change(objects);
        return { input: manifests(objects) };
      }),
    ];
    const seen = new Set<string>();
    const unlisted: string[] = [];
    for (const { input, options } of runs) {
      const listed = new Set(meshModel(input, options).ignored.map((o) => `${o.object.kind} ${o.object.namespace}/${o.object.name}`));
      for (const f of analyze(input, { ...options, rules: REACHABILITY_RULES }).findings) {
        if (f.effect === undefined || f.severity !== Severity.ERROR) continue;
        seen.add(`${f.ruleId} ${f.effect}`);
        const key = `${f.resource.kind} ${f.resource.namespace}/${f.resource.name}`;
        if (!listed.has(key)) unlisted.push(`${f.ruleId} ${key}`);
      }
    }
    const declared = REACHABILITY_RULES.flatMap((r) => (r.effects ?? []).map((e) => `${r.id} ${e}`));
    expect(declared.filter((d) => !seen.has(d))).toEqual([]);
    expect(unlisted).toEqual([]);
    expect(REACHABILITY_RULES.length).toBeGreaterThan(20);
  });
});
