/**
 * Which pods get a proxy, audited against linkerd2 version-2.20 (pkg/inject/report.go Report.disabledByAnnotation and
 * Report.Injectable, the webhook selectors of charts/linkerd-control-plane/values.yaml proxyInjector), and what that
 * means for the Servers and policies that select those pods. Each effect below is certain from the manifests, so each
 * is an error: a pod that asks for a proxy gets none, and a Server on it never applies.
 */
import { analyze } from '../../src/analysis/engine';
import { Finding, Severity } from '../../src/analysis/finding';
import { Injection, MeshIndex } from '../../src/analysis/model/mesh-index';
import { NS, asManifests, meshLab, pick } from '../support/mesh-fixture';

const of = (objects: any[], rule: string): Finding[] => analyze(asManifests(objects)).findings.filter((f) => f.ruleId === rule);
const injectionOf = (objects: any[], name: string) =>
  new MeshIndex(asManifests(objects)).podTemplates.find((p) => p.owner.id.name === name)!.injection;
const podAnnotations = (objects: any[], name: string) => {
  const template = pick(objects, 'Deployment', name).spec.template;
  return (template.metadata.annotations ??= {});
};

describe('proxy injector: which pods get a proxy (pkg/inject/report.go)', () => {
  // disabledByAnnotation: isInjectAnnotationValid refuses any value but enabled, disabled, ingress (and empty).
  test('an invalid pod value ("true") disables injection even in an enabled namespace: the key is an error, and so is the Server on it', () => {
    const objects = meshLab();
    podAnnotations(objects, 'orders-v1')['linkerd.io/inject'] = 'true';
    podAnnotations(objects, 'orders-v2')['linkerd.io/inject'] = 'true';
    expect(injectionOf(objects, 'orders-v1')).toBe(Injection.DISABLED);
    const [key] = of(objects, 'LKD-MESH-003').filter((f) => f.resource.name === 'orders-v1');
    expect(key).toMatchObject({ severity: Severity.ERROR, message: expect.stringMatching(/linkerd\.io\/inject is "true": it is not enabled, disabled or ingress/) });
    expect(key.message).not.toMatch(/not injected, so nothing reads it now/);
    expect(of(objects, 'LKD-MESH-001').filter((f) => f.resource.kind === 'Server').map((f) => f.severity)).toEqual([Severity.ERROR]);
  });

  // disabledByAnnotation: an invalid namespace value wins over an enabling pod value.
  test('an invalid namespace value ("Enabled") disables injection of every pod, whatever the pods say', () => {
    const objects = meshLab();
    pick(objects, 'Namespace', NS).metadata.annotations['linkerd.io/inject'] = 'Enabled';
    podAnnotations(objects, 'orders-v1')['linkerd.io/inject'] = 'enabled';
    expect(injectionOf(objects, 'orders-v1')).toBe(Injection.DISABLED);
    expect(of(objects, 'LKD-MESH-003').filter((f) => f.resource.kind === 'Namespace').map((f) => f.severity)).toEqual([Severity.ERROR]);
  });

  // disabledByAnnotation: an enabling namespace yields to a pod's disabled.
  test('a pod\'s disabled beats its namespace\'s enabled: the Server selecting only those pods never applies (an error)', () => {
    const objects = meshLab();
    podAnnotations(objects, 'orders-v1')['linkerd.io/inject'] = 'disabled';
    podAnnotations(objects, 'orders-v2')['linkerd.io/inject'] = 'disabled';
    expect(of(objects, 'LKD-MESH-001').map((f) => [f.severity, f.resource.kind, f.resource.name]))
      .toEqual(expect.arrayContaining([[Severity.ERROR, 'Server', 'orders-http'], [Severity.ERROR, 'AuthorizationPolicy', 'client-to-orders']]));
    // One of the two selected workloads still has a proxy: the Server applies there; the other is only a warning.
    delete podAnnotations(objects, 'orders-v2')['linkerd.io/inject'];
    expect(of(objects, 'LKD-MESH-001').filter((f) => f.resource.kind === 'Server').map((f) => f.severity)).toEqual([Severity.WARNING]);
  });

  // Injectable: hostNetwork pods are never injected.
  test('a hostNetwork pod marked for injection gets no proxy: LKD-MESH-005 is an error', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'orders-v1').spec.template.spec.hostNetwork = true;
    expect(of(objects, 'LKD-MESH-005').map((f) => [f.severity, f.resource.name, f.message]))
      .toEqual([[Severity.ERROR, 'orders-v1', expect.stringMatching(/injector skips it: it uses hostNetwork: true; so it runs without a proxy/)]]);
  });

  // The webhook's namespaceSelector (values.yaml proxyInjector.namespaceSelector) leaves out namespaces labelled
  // config.linkerd.io/admission-webhooks: disabled: the injector never sees their pods.
  test('a namespace the injector webhook\'s selector leaves out: its pods get no proxy (an error)', () => {
    const objects = meshLab();
    pick(objects, 'Namespace', NS).metadata.labels = { 'config.linkerd.io/admission-webhooks': 'disabled' };
    const skipped = of(objects, 'LKD-MESH-005');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((f) => f.severity === Severity.ERROR && /injector skips it/.test(f.message))).toBe(true);
  });

  // Without token projection the skip depends on the install's identity.serviceAccountTokenProjection: a warning.
  test('a skip that rests on the install\'s token projection is a warning', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'client').spec.template.spec.automountServiceAccountToken = false;
    const [f] = analyze(asManifests(objects), { serviceAccountTokenProjection: false }).findings.filter((x) => x.ruleId === 'LKD-MESH-005');
    expect(f.severity).toBe(Severity.WARNING);
  });
});
