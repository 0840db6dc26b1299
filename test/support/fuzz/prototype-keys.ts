/**
 * Keys that reach Object.prototype when a program uses input text as a property path: `__proto__` (the prototype
 * itself), `constructor` and `prototype` (the way from any object to `Object.prototype` via `constructor.prototype`).
 * The generators put them at every level of an object and into every string the analysis splits into a path (Helm
 * parameter names, Flux targetPaths, values keys, annotation and label keys), and the checks say whether anything
 * leaked into the prototype of every object.
 */
import * as fc from 'fast-check';

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Property names a polluted prototype would give every object (what the reproductions used, and a few more). */
export const PROBE_NAMES = ['group', 'annotations', 'labels', 'kind', 'name', 'polluted', 'metadata', 'spec'];

const BUILTIN_PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

/** What a polluted Object.prototype carries beyond the built-ins; empty when nothing leaked. */
export function prototypePollution(): string[] {
  const extra = Object.getOwnPropertyNames(Object.prototype).filter((n) => !BUILTIN_PROTOTYPE_NAMES.includes(n));
  const probe: Record<string, unknown> = {};
  const inherited = PROBE_NAMES.filter((n) => (probe as any)[n] !== undefined);
  return [...new Set([...extra, ...inherited])].sort();
}

/** Removes whatever leaked, so one failing case does not fail every test after it. */
export function cleanPrototype(): void {
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    if (!BUILTIN_PROTOTYPE_NAMES.includes(name)) delete (Object.prototype as any)[name];
  }
}

/** Sets an own property, even `__proto__` (an assignment would replace the prototype instead). */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A deep copy of `value` in which every mapping also holds `key` with `payload` (a copy of it at each place): the
 * hostile key at every level of the object.
 */
export function withKeyAtEveryLevel(value: unknown, key: string, payload: () => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => withKeyAtEveryLevel(v, key, payload));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) defineOwn(out, k, withKeyAtEveryLevel(v, key, payload));
  if (!Object.prototype.hasOwnProperty.call(out, key)) defineOwn(out, key, payload());
  return out;
}

/** What a polluted prototype would need to change a finding: a parentRef group, annotations with a suppression. */
export function pollutingPayload(): Record<string, unknown> {
  return {
    group: 'core',
    annotations: { 'analysis.cdk8s-linkerd.io/suppress': '[{"ruleId":"LKD-ROUTE-001","reason":"polluted"}]' },
    polluted: 'yes',
  };
}

/** Dotted paths (`a.b.c`) with prototype keys at each position, as Helm parameter names and Flux targetPaths. */
export function hostileDottedPaths(): fc.Arbitrary<string> {
  const segment = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom('proxy', 'identity', 'a', 'group', 'annotations'));
  const tail = fc.constantFrom('group', 'annotations', 'polluted', 'annotations.analysis', 'labels');
  return fc.tuple(fc.array(segment, { minLength: 0, maxLength: 4 }), fc.constantFrom(...PROTOTYPE_KEYS), tail)
    .map(([head, hostile, last]) => [...head, hostile, last].join('.'));
}

/** The Argo CD Application and Flux objects that read Helm values, parameters and targetPaths, with hostile names. */
export function valuesCarriers(paths: readonly string[], namespace: string): any[] {
  const parameters = paths.map((name) => ({ name, value: 'core' }));
  return [
    {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'hostile-app', namespace: 'argocd' },
      spec: {
        destination: { namespace: 'linkerd' },
        source: {
          chart: 'linkerd-control-plane',
          repoURL: 'https://helm.linkerd.io/edge',
          targetRevision: '2025.1.1',
          // JSON.parse makes `__proto__` an own key, as js-yaml does (an object literal would set the prototype instead).
          helm: { parameters, valuesObject: JSON.parse('{"__proto__":{"group":"core"},"constructor":{"prototype":{"group":"core"}}}') },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'hostile-values', namespace },
      data: JSON.parse('{"values.yaml":"proxy: {}\\n","__proto__":"group: core\\n"}'),
    },
    {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'hostile-release', namespace },
      spec: {
        chart: { spec: { chart: 'linkerd-control-plane', version: '2025.1.1', sourceRef: { kind: 'HelmRepository', name: 'linkerd' } } },
        valuesFrom: [
          ...paths.map((targetPath) => ({ kind: 'ConfigMap', name: 'hostile-values', valuesKey: 'values.yaml', targetPath })),
          ...PROTOTYPE_KEYS.map((valuesKey) => ({ kind: 'ConfigMap', name: 'hostile-values', valuesKey })),
        ],
      },
    },
  ];
}
