/**
 * `cdk8s-linkerd import`: the generated TypeScript, transpiled and run, rebuilds the input object for object (modulo
 * key order) — on mesh-lab as synthesized by the constructs, on mesh-lab written through the real CLI, and on every
 * real-world manifest in ../shared/realworld. Where an L2 construct rebuilds an object exactly, the code uses it.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vm from 'vm';
import * as cdk8s from 'cdk8s';
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as constructsModule from 'constructs';
import * as ts from 'typescript';
import { assertBuilt, removeDir, runCli, tempDir, writeYaml } from './cli-harness';
import { MeshLab, NegativeExperiment } from '../../examples/mesh-lab/mesh-lab';
import * as library from '../../src';
import { loadManifests, parseManifests } from '../../src/frontends/cli/load-manifests';
import { generateImport } from '../../src/frontends/import/generate';
import { deepEqual } from '../../src/frontends/import/json-diff';
import { describeWithShared, sharedPath } from '../support/shared';
import { synth } from '../support/synth';

/** The modules generated code imports, resolved to this checkout (the library from its sources). */
const MODULES: Record<string, unknown> = { 'cdk8s': cdk8s, 'cdk8s-plus-28': kplus, 'constructs': constructsModule, 'cdk8s-linkerd': library };

/** Transpiles and runs the generated module; returns what its addImportedObjects adds to a fresh chart, rendered. */
function runGenerated(code: string): any[] {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } }).outputText;
  const module = { exports: {} as any };
  const requireModule = (name: string) => {
    if (!(name in MODULES)) throw new Error(`generated code requires ${name}`);
    return MODULES[name];
  };
  vm.runInThisContext(`(function (exports, require, module) {${js}\n})`)(module.exports, requireModule, module);
  const chart = new Chart(Testing.app(), 'imported');
  module.exports.addImportedObjects(chart);
  // What `cdk8s synth` writes, rendered without the checks: real-world input may hold mistakes the checks refuse.
  return synth(chart);
}

function expectSameObjects(actual: any[], expected: any[]): void {
  const name = (o: any) => `${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  expect(actual.map(name)).toEqual(expected.map(name));
  const differing = expected.filter((o, i) => !deepEqual(actual[i], o)).map(name);
  expect(differing).toEqual([]);
}

function meshLabObjects(): any[] {
  const app = Testing.app();
  const lab = new MeshLab(app, 'mesh-lab');
  const negative = new NegativeExperiment(app, 'mesh-lab-negative');
  // Through YAML, as the CLI reads it.
  const text = [...synth(lab), ...synth(negative)].map((o) => JSON.stringify(o)).join('\n---\n');
  return parseManifests(text, 'mesh-lab.k8s.yaml').map((m) => m.object);
}

describe('import of mesh-lab', () => {
  const objects = meshLabObjects();
  const result = generateImport(objects, ['mesh-lab.k8s.yaml']);

  test('the generated code rebuilds every object exactly', () => {
    expectSameObjects(runGenerated(result.code), objects);
  });

  test('Linkerd objects become cdk8s-linkerd constructs; the rest ApiObjects', () => {
    expect(result.constructs).toEqual({ MeshedNamespace: 1, Server: 1, MeshTlsAuthentication: 1, AuthorizationPolicy: 1, HttpRoute: 1 });
    // The split keeps its weights: 90/10 between the versions, the parent a Service port.
    expect(result.code).toMatch(/new HttpRoute\(scope, 'HTTPRoute-mesh-lab-orders-split', \{[^]*service: ServiceReference\.fromName\('orders'\),[^]*port: 8080,[^]*RouteBackend\.service\(ServiceReference\.fromName\('orders-v1'\), \{ port: 8080, weight: 90 \}\)/);
    expect(result.code).toMatch(/new Server\(scope, 'Server-mesh-lab-orders-http', \{[^]*selector: PodSelection\.app\('orders'\),[^]*port: ServerPort\.number\(8080\),[^]*proxyProtocol: ProxyProtocol\.HTTP1/);
    expect(result.code).toMatch(/const meshTlsAuthenticationMeshLabClientSa = new MeshTlsAuthentication\(/);
    expect(result.code).toMatch(/requiredAuthentications: \[Authentication\.meshTls\(meshTlsAuthenticationMeshLabClientSa\)\]/);
    expect(result.code).toContain("import { ApiObject, App, Chart } from 'cdk8s';");
  });

  test('an object an L2 construct would change stays an ApiObject (here: a Server with an unknown field)', () => {
    const server = objects.find((o) => o.kind === 'Server');
    const odd = { ...server, metadata: { ...server.metadata, name: 'odd' }, spec: { ...server.spec, extra: 1 } };
    const r = generateImport([odd]);
    expect(r.constructs).toEqual({});
    expectSameObjects(runGenerated(r.code), [odd]);
  });

  test('a gRPC route on a Service becomes a GrpcRoute: matches, weights and retry annotations kept', () => {
    const route = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'GRPCRoute',
      metadata: { name: 'orders-grpc', namespace: 'mesh-lab', annotations: { 'retry.linkerd.io/grpc': 'unavailable', 'retry.linkerd.io/limit': '2' } },
      spec: {
        parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }],
        rules: [
          { matches: [{ method: { type: 'Exact', service: 'orders.v1.Orders', method: 'Get' } }], backendRefs: [{ name: 'orders-v1', port: 8080, weight: 90 }, { name: 'orders-v2', port: 8080, weight: 10 }] },
          { backendRefs: [{ name: 'orders-v1', port: 8080 }] },
        ],
      },
    };
    const r = generateImport([route]);
    expect(r.constructs).toEqual({ GrpcRoute: 1 });
    expect(r.code).toMatch(/matches: \[\{ service: 'orders\.v1\.Orders', method: 'Get' \}\]/);
    expectSameObjects(runGenerated(r.code), [route]);
  });

  test('what cdk8s would change on an ApiObject is patched back: no name, null values, empty labels', () => {
    const input = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cm-', labels: {} }, data: { a: null } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', annotations: { 'linkerd.io/inject': 'enabled' } } },
    ];
    const r = generateImport(input);
    expect(r.code).toContain("JsonPatch.remove('/metadata/name')");
    expectSameObjects(runGenerated(r.code), input);
  });
});

describe('cdk8s-linkerd import (the CLI)', () => {
  let dir: string;
  beforeAll(() => assertBuilt());
  beforeEach(() => {
    dir = tempDir('import');
  });
  afterEach(() => removeDir(dir));

  test('import FILE --out FILE writes the module and says what it holds', () => {
    const objects = meshLabObjects();
    writeYaml(dir, 'mesh-lab.k8s.yaml', objects);
    const run = runCli(['import', 'mesh-lab.k8s.yaml', '--out', 'imported.ts'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^imported\.ts: 16 objects \(1 AuthorizationPolicy, 1 HttpRoute, 1 MeshTlsAuthentication, 1 MeshedNamespace, 1 Server, 11 ApiObject\)\n$/);
    expectSameObjects(runGenerated(fs.readFileSync(path.join(dir, 'imported.ts'), 'utf8')), objects);
  });

  test('a missing file is a coded error and nothing is written', () => {
    const run = runCli(['import', 'missing.yaml', '--out', 'imported.ts'], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^cdk8s-linkerd: error: LKD-INPUT-007: missing\.yaml: cannot read/);
    expect(fs.existsSync(path.join(dir, 'imported.ts'))).toBe(false);
  });
});

describeWithShared('import of ../shared/realworld', () => {
  const dir = sharedPath('realworld');
  const files = [
    ...fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')),
    ...fs.readdirSync(path.join(dir, 'derived')).filter((f) => f.endsWith('.yaml')).map((f) => `derived/${f}`),
  ].sort();

  test('there are files to import', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  test.each(files)('%s: the generated code rebuilds every object exactly', (file) => {
    const objects = loadManifests([path.join(dir, file)], dir).map((m) => m.object);
    const result = generateImport(objects, [file]);
    expectSameObjects(runGenerated(result.code), objects);
  });

  test('Servers, authentications and policies of the real-world files become L2 constructs where exact', () => {
    const all = files.flatMap((file) => loadManifests([path.join(dir, file)], dir).map((m) => m.object));
    const { constructs } = generateImport(all);
    for (const kind of ['Server', 'MeshTlsAuthentication', 'NetworkAuthentication', 'AuthorizationPolicy']) expect(constructs[kind]).toBeGreaterThan(0);
    // Their HTTPRoutes are policy.linkerd.io or v1beta1 kinds, or have an EgressNetwork parent: HttpRoute would change
    // the apiVersion or the parent, so they stay ApiObjects (mesh-lab's Service route becomes an HttpRoute).
    expect(constructs.HttpRoute).toBeUndefined();
  });
});

test('the generated module type-checks against the library (its compiled declarations)', () => {
  assertBuilt();
  const dir = tempDir('import-tsc');
  try {
    const file = path.join(dir, 'imported.ts');
    fs.writeFileSync(file, generateImport(meshLabObjects()).code);
    const root = path.resolve(__dirname, '..', '..');
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2020,
      skipLibCheck: true,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      baseUrl: root,
      types: ['node'],
      typeRoots: [path.join(root, 'node_modules', '@types')],
      paths: { 'cdk8s-linkerd': ['lib/index.d.ts'], '*': ['node_modules/*'] },
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === file);
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  } finally {
    removeDir(dir);
  }
});

