/**
 * Determinism. What "identical" means here:
 *
 * - The same program synthesized twice gives byte-identical YAML (whole file, document order included).
 * - The same mesh built with its constructs created in another order — where order carries no meaning (Services
 *   before Deployments, a policy before the Server it names, the split first) — gives the same OBJECTS: the sorted
 *   set of objects, each compared as canonical JSON, is identical, and so are the findings. The document ORDER in the
 *   file is not compared: cdk8s writes objects in construct-creation order (its dependency topology), which is
 *   deterministic for one program but deliberately reflects how the program is written.
 * - The engine's findings do not depend on the order of its input documents.
 */
import { ApiObject, App, Chart, Testing, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { MeshLab } from '../../examples/mesh-lab/mesh-lab';
import {
  Authentication, AuthorizationPolicy, AuthorizationTarget, MeshChecks, MeshTlsAuthentication, MeshedDeployment, MeshedNamespace, PodSelection,
  ProxyProtocol, Server, ServerPort, ServiceReference, TrafficSplit,
} from '../../src';
import { analyze } from '../../src/analysis/engine';
import { Finding } from '../../src/analysis/finding';
import { meshAt } from '../support/fuzz/arbitraries';
import { buildMesh } from '../support/fuzz/build';

const NS = 'mesh-lab';
const SEED = 20_261_129;

function app(): App {
  const a = Testing.app();
  MeshChecks.of(a).configure({ printWarnings: false });
  return a;
}

/** Keys sorted at every level, so two equal objects serialize equally whatever order their keys were set in. */
function canonical(value: unknown): string {
  const sort = (v: any): any => (Array.isArray(v) ? v.map(sort)
    : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])])) : v);
  return JSON.stringify(sort(value));
}

function objectSet(objects: any[]): string[] {
  return objects.map(canonical).sort();
}

/** Findings without where they came from (construct paths differ when constructs are nested differently). */
function findingKeys(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.severity} ${f.ruleId} ${f.resource.kind}/${f.resource.namespace}/${f.resource.name}: ${f.message}`);
}

// ---- one mesh, built step by step in any order ------------------------------------------------

type Step = 'namespace' | 'identities' | 'workloads' | 'services' | 'server' | 'policy' | 'split';
const STEPS: Step[] = ['namespace', 'identities', 'workloads', 'services', 'server', 'policy', 'split'];

const container = (text: string): kplus.ContainerProps => ({
  name: 'echo',
  image: 'hashicorp/http-echo:1.0.0',
  args: ['-listen=:8080', `-text=${text}`],
  ports: [{ name: 'http', number: 8080 }],
  securityContext: { user: 65532, group: 65532 },
});

function service(chart: Chart, name: string, selector: Record<string, string>): void {
  const svc = new kplus.Service(chart, `Service-${name}`, { metadata: { name }, ports: [{ name: 'http', port: 8080, targetPort: 8080 }] });
  for (const [k, v] of Object.entries(selector)) svc.selectLabel(k, v);
}

/**
 * Each step refers to the others by NAME only (ServiceAccount and Server references, ServiceReference.fromName), so
 * any order is valid; construct IDs are fixed, so the only difference between two orders is the creation order.
 */
const BUILD: Record<Step, (chart: Chart) => void> = {
  namespace: (c) => { new MeshedNamespace(c, 'Namespace', { name: NS }); },
  identities: (c) => {
    new kplus.ServiceAccount(c, 'ClientIdentity', { metadata: { name: 'client' }, automountToken: false });
    new kplus.ServiceAccount(c, 'OrdersIdentity', { metadata: { name: 'orders' }, automountToken: false });
  },
  workloads: (c) => {
    const orders = kplus.ServiceAccount.fromServiceAccountName(c, 'OrdersRef', 'orders');
    for (const v of ['v1', 'v2']) new MeshedDeployment(c, `Orders-${v}`, { name: `orders-${v}`, app: 'orders', version: v, serviceAccount: orders, containers: [container(v)] });
    new MeshedDeployment(c, 'Client', {
      name: 'client',
      app: 'client',
      serviceAccount: kplus.ServiceAccount.fromServiceAccountName(c, 'ClientRef', 'client'),
      containers: [{ name: 'curl', image: 'curlimages/curl:8.14.1', command: ['sleep', 'infinity'], securityContext: { user: 100, group: 101 } }],
    });
  },
  services: (c) => {
    for (const v of ['v1', 'v2']) service(c, `orders-${v}`, { 'app.kubernetes.io/name': 'orders', 'app.kubernetes.io/version': v });
    service(c, 'orders', { 'app.kubernetes.io/name': 'orders' });
  },
  server: (c) => {
    new Server(c, 'OrdersHttp', { name: 'orders-http', selector: PodSelection.app('orders'), port: ServerPort.number(8080), proxyProtocol: ProxyProtocol.HTTP1 });
  },
  policy: (c) => {
    const clients = new MeshTlsAuthentication(c, 'ClientSa', { name: 'client-sa', serviceAccounts: [kplus.ServiceAccount.fromServiceAccountName(c, 'PolicyClientRef', 'client')] });
    new AuthorizationPolicy(c, 'ClientToOrders', {
      name: 'client-to-orders', target: AuthorizationTarget.server(Server.fromServerName('orders-http')), requiredAuthentications: [Authentication.meshTls(clients)],
    });
  },
  split: (c) => {
    new TrafficSplit(c, 'OrdersSplit', {
      name: 'orders-split',
      service: ServiceReference.fromName('orders'),
      port: 8080,
      backends: [{ service: ServiceReference.fromName('orders-v1'), percent: 90 }, { service: ServiceReference.fromName('orders-v2'), percent: 10 }],
    });
  },
};

function buildInOrder(order: readonly Step[]): { objects: any[]; yaml: string; findings: string[] } {
  const a = app();
  const chart = new Chart(a, 'mesh-lab', { namespace: NS });
  for (const step of order) BUILD[step](chart);
  const yaml = a.synthYaml();
  return { objects: chart.toJson(), yaml, findings: findingKeys(MeshChecks.of(a).findings) };
}

describe('synthesizing twice', () => {
  test('mesh-lab: byte-identical YAML from two apps', () => {
    const synth = () => {
      const a = app();
      new MeshLab(a, 'mesh-lab');
      return a.synthYaml();
    };
    const first = synth();
    expect(first.length).toBeGreaterThan(1000);
    expect(synth()).toBe(first);
  });

  test('random coherent meshes: byte-identical YAML from two builds of the same spec', () => {
    fc.assert(fc.property(meshAt({ values: 0, tangled: false }), (spec) => {
      const yamlOf = () => Yaml.stringify(...Testing.synth(buildMesh(spec, app())));
      expect(yamlOf()).toBe(yamlOf());
    }), { numRuns: 100, seed: SEED });
  });
});

describe('construction order that carries no meaning', () => {
  const reference = buildInOrder(STEPS);

  test('the step-by-step mesh is valid: no error findings, and it is mesh-lab\'s object set', () => {
    expect(reference.findings.filter((f) => f.startsWith('error'))).toEqual([]);
    expect(reference.objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(
      Testing.synth(new MeshLab(Testing.app(), 'mesh-lab')).map((o: any) => `${o.kind}/${o.metadata.name}`).sort());
  });

  test.each([
    ['reversed', [...STEPS].reverse()],
    ['split and policy first, Services before Deployments', ['split', 'policy', 'services', 'workloads', 'server', 'identities', 'namespace']],
    ['policy before the Server it names', ['namespace', 'identities', 'policy', 'server', 'services', 'workloads', 'split']],
  ] as [string, Step[]][])('%s: the same objects and findings', (_, order) => {
    const built = buildInOrder(order);
    expect(objectSet(built.objects)).toEqual(objectSet(reference.objects));
    expect(built.findings).toEqual(reference.findings);
  });

  test('any of 200 random orders: the same objects and findings (the file order follows creation order)', () => {
    fc.assert(fc.property(fc.shuffledSubarray(STEPS, { minLength: STEPS.length }), (order) => {
      const built = buildInOrder(order);
      expect(objectSet(built.objects)).toEqual(objectSet(reference.objects));
      expect(built.findings).toEqual(reference.findings);
    }), { numRuns: 200, seed: SEED });
  });

  test('documented: the whole file differs only by document order', () => {
    const reversed = buildInOrder([...STEPS].reverse());
    const docs = (y: string) => y.split(/^---$/m).map((d) => d.trim()).filter(Boolean);
    expect(docs(reversed.yaml).sort()).toEqual(docs(reference.yaml).sort());
    expect(reversed.yaml).not.toBe(reference.yaml);
  });
});

describe('the engine does not depend on input order', () => {
  test('random meshes (mistakes included): shuffled documents give the same findings', () => {
    const level = fc.constantFrom({ values: 0, tangled: false }, { values: 1, tangled: false });
    const meshAndOrder = level.chain((l) => meshAt(l)).chain((spec) => {
      const objects = synthesizeUnchecked(spec);
      return fc.shuffledSubarray(objects, { minLength: objects.length }).map((shuffled) => ({ objects, shuffled }));
    });
    fc.assert(fc.property(meshAndOrder, ({ objects, shuffled }) => {
      const findings = (list: any[]) => findingKeys(analyze(list.map((object) => ({ object }))).findings);
      expect(findings(shuffled)).toEqual(findings(objects));
    }), { numRuns: Number(process.env.ORDER_RUNS ?? 150), seed: Number(process.env.ORDER_SEED ?? SEED) });
  });
});

/** Objects of a spec without running validations (so meshes with mistakes still give objects to analyse). */
function synthesizeUnchecked(spec: Parameters<typeof buildMesh>[0]): any[] {
  try {
    const chart = buildMesh(spec, app());
    return chart.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c)).map((o) => o.toJson());
  } catch {
    return [];
  }
}
