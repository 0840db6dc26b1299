/**
 * LKD-SCHEMA-002 (metadata of a type Kubernetes refuses) and the engine's one reading of labels and annotations
 * (model/manifest.ts textOf): a value that is not text never reaches the cluster, so no other rule judges it, and
 * null reads as the empty string, as Go's JSON decoding of map[string]string does.
 */
import * as yaml from 'js-yaml';
import { analyze } from '../../../src/analysis/engine';
import { FindingEffect, Severity } from '../../../src/analysis/finding';
import { endpointProfileOpaqueOnPod } from '../../../src/analysis/model/injector/opaque-ports';
import { textOf } from '../../../src/analysis/model/manifest';
import { MeshIndex } from '../../../src/analysis/model/mesh-index';
import { describeSelector, selectorMatches } from '../../../src/analysis/model/selectors';
import { resolveContext } from '../../../src/analysis/options';
import { main } from '../../../src/frontends/cli/main';
import { removeDir, tempDir, writeText } from '../../frontends/cli-harness';
import { NS, asManifests, meshLab, pick } from '../../support/mesh-fixture';

const RULE = 'LKD-SCHEMA-002';

function findings(objects: any[], ruleId?: string) {
  return analyze(asManifests(objects)).findings.filter((f) => ruleId === undefined || f.ruleId === ruleId);
}

describe('LKD-SCHEMA-002 metadata types', () => {
  test('the baseline is clean', () => {
    expect(findings(meshLab(), RULE)).toEqual([]);
  });

  test('an unquoted number label and a boolean annotation on a pod template: one error on the workload, naming both', () => {
    const objects = meshLab();
    const template = pick(objects, 'Deployment', 'orders-v1').spec.template;
    template.metadata.labels.version = 2;
    template.metadata.annotations = { 'prometheus.io/scrape': true };
    const found = findings(objects, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: Severity.ERROR, effect: FindingEffect.REJECTED, resource: { kind: 'Deployment', name: 'orders-v1' } });
    expect(found[0].message).toContain('spec.template.metadata.labels version is 2 (a number)');
    expect(found[0].message).toContain('spec.template.metadata.annotations prometheus.io/scrape is true (a boolean)');
  });

  test('names, namespaces and maps of the wrong type on any kind, custom resources included', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').metadata.labels = ['a'];
    pick(objects, 'ServiceAccount', 'client').metadata.name = 7;
    const found = findings(objects, RULE).map((f) => `${f.resource.kind} ${f.message.split(':')[0]}`).sort();
    expect(found).toEqual(['Server metadata.labels is a list, not a map of strings', 'ServiceAccount metadata.name is 7 (a number)']);
  });

  test('a built-in kind\'s selector map: a Service\'s spec.selector and a Deployment\'s matchLabels', () => {
    const objects = meshLab();
    pick(objects, 'Service', 'orders-v1').spec.selector.version = 1;
    pick(objects, 'Deployment', 'orders-v2').spec.selector.matchLabels = 'orders';
    const found = findings(objects, RULE).map((f) => `${f.resource.kind}/${f.resource.name} ${f.message.split(':')[0]}`).sort();
    expect(found).toEqual([
      'Deployment/orders-v2 spec.selector.matchLabels is orders (a string), not a map of strings',
      'Service/orders-v1 spec.selector version is 1 (a number)',
    ]);
  });

  test('null is accepted (it decodes as empty), and so are a custom resource\'s template and a kustomization', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'orders-v1').spec.template.metadata.annotations = { 'prometheus.io/scrape': null };
    objects.push(
      { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', metadata: { name: 'r', namespace: NS }, spec: { template: { metadata: { labels: { v: 1 } } } } },
      { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', metadata: { name: 5 } },
    );
    expect(findings(objects, RULE)).toEqual([]);
  });

  test('the value is read as absent: only LKD-SCHEMA-002 speaks of it (LKD-MESH-003 judged String(true) before)', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'orders-v1').spec.template.metadata.annotations = { 'linkerd.io/inject': true };
    const about = findings(objects).filter((f) => f.resource.name === 'orders-v1' && f.message.includes('linkerd.io/inject'));
    expect(about.map((f) => f.ruleId)).toEqual([RULE]);
  });
});

describe('labels and annotations as the engine reads them', () => {
  test('textOf: text as written, null as empty, any other type as absent, inherited keys never', () => {
    const map = { a: 'x', b: null, c: 2, d: true, e: {} };
    expect(['a', 'b', 'c', 'd', 'e', 'constructor', 'missing'].map((k) => textOf(map, k))).toEqual(['x', '', undefined, undefined, undefined, undefined, undefined]);
  });

  test('a null opaque-ports annotation is an empty list: the default opaque port 3306 is not opaque (absent: it is)', () => {
    const opaque3306 = (annotations: Record<string, unknown> | undefined): boolean => {
      const objects = meshLab();
      const template = pick(objects, 'Deployment', 'orders-v1').spec.template;
      template.spec.containers[0].ports = [{ name: 'mysql', containerPort: 3306 }];
      if (annotations) template.metadata.annotations = annotations;
      const index = new MeshIndex(asManifests(objects));
      const pod = index.podTemplates.find((p) => p.owner.id.name === 'orders-v1')!;
      return endpointProfileOpaqueOnPod(index, resolveContext(), pod, 3306);
    };
    expect(opaque3306(undefined)).toBe(true);
    expect(opaque3306({ 'config.linkerd.io/opaque-ports': null })).toBe(false);
  });

  test('a proxy-version annotation of the wrong type is a finding, not an internal error (it once crashed the CLI)', () => {
    const dir = tempDir('wrong-type-version');
    try {
      const objects = meshLab();
      pick(objects, 'Namespace', NS).metadata.annotations['config.linkerd.io/proxy-version'] = 2;
      writeText(dir, 'in.yaml', objects.map((o) => yaml.dump(o)).join('---\n'));
      const out: string[] = [];
      const err: string[] = [];
      const code = main(['analyze', '--format', 'json', 'in.yaml'], { cwd: dir, stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
      expect(err.join('')).toBe('');
      expect(code).toBe(1);
      const report = JSON.parse(out.join(''));
      expect(report.findings.filter((f: any) => f.resource.kind === 'Namespace').map((f: any) => f.ruleId)).toEqual([RULE]);
    } finally {
      removeDir(dir);
    }
  });
});

describe('maps of the wrong type where rules compare keys', () => {
  test('template annotations that are a string ("constructor"), with a Linkerd key on the workload: findings, no TypeError', () => {
    const objects = meshLab();
    const deployment = pick(objects, 'Deployment', 'orders-v1');
    deployment.metadata.annotations = { 'config.linkerd.io/proxy-cpu-request': '100m' };
    deployment.spec.template.metadata.annotations = 'constructor';
    const ids = findings(objects).filter((f) => f.resource.name === 'orders-v1').map((f) => f.ruleId);
    expect(ids).toEqual(expect.arrayContaining(['LKD-MESH-002', RULE]));
  });
});

describe('label selectors of the wrong shape select nothing (the API server refuses them)', () => {
  const labels = { app: 'order' };

  test('values as a string: not a substring match (In "orders" once matched the label "order")', () => {
    expect(selectorMatches({ matchExpressions: [{ key: 'app', operator: 'In', values: 'orders' as any }] }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: 'app', operator: 'In', values: ['order'] }] }, labels)).toBe(true);
  });

  test('matchExpressions or matchLabels that are not a list or a map, and null requirements', () => {
    expect(selectorMatches({ matchExpressions: {} as any }, labels)).toBe(false);
    expect(selectorMatches({ matchLabels: 'app' as any }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [null as any] }, labels)).toBe(false);
    expect(selectorMatches({}, labels)).toBe(true);
  });

  test('label values as Kubernetes reads them: null is "", a number is no value (not even the same number)', () => {
    const objects = meshLab();
    const selected = (selector: Record<string, unknown>, podLabels: Record<string, unknown>): string[] => {
      const copy = structuredClone(objects);
      pick(copy, 'Deployment', 'orders-v1').spec.template.metadata.labels = podLabels;
      pick(copy, 'Service', 'orders-v1').spec.selector = selector;
      const index = new MeshIndex(asManifests(copy));
      return index.podTemplatesForService(index.service(NS, 'orders-v1')!).map((p) => p.owner.id.name);
    };
    expect(selected({ tier: '' }, { tier: null })).toEqual(['orders-v1']);
    expect(selected({ version: 2 }, { version: 2 })).toEqual([]);
    expect(selected({ version: '2' }, { version: '2' })).toEqual(['orders-v1']);
  });

  test('described as such, never as "(everything)"', () => {
    expect(describeSelector({ matchExpressions: { a: 1 } as any })).toBe('(not a label selector)');
    expect(describeSelector({ matchExpressions: [{ key: 'app', operator: 'In', values: 'x' as any }] })).toBe('app In');
  });

  test('a Server whose podSelector.matchExpressions is a map: a report, no internal error, and it selects no pod', () => {
    const objects = meshLab();
    pick(objects, 'Server', 'orders-http').spec.podSelector = { matchExpressions: { key: 'app' } };
    const index = new MeshIndex(asManifests(objects));
    expect(index.podTemplatesMatching(NS, pick(objects, 'Server', 'orders-http').spec.podSelector)).toEqual([]);
    expect(findings(objects).filter((f) => f.resource.name === 'orders-http').map((f) => f.ruleId)).toContain('LKD-POL-016');
  });
});
