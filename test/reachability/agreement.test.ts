/**
 * explain agrees with every rule that states a reachability fact, on the same input: the analysis's findings and the
 * model explain and diff read (buildMeshModel over that same analysis) say the same thing about who may send which
 * request, and what a client's proxy does with it.
 */
import { EDITS, booksappObjects, findBooksObject } from './booksapp-fixture';
import { manifests, meshLabObjects } from './mesh-lab-fixture';
import { analyze, AnalysisResult } from '../../src/analysis/engine';
import { Finding } from '../../src/analysis/finding';
import { requestSamples } from '../../src/analysis/policy';
import { MeshModel, PortPolicyView } from '../../src/analysis/reachability';
import { buildMeshModel } from '../../src/analysis/reachability/model-adapter';
import { parseCalls } from '../../src/analysis/rules/policy/declared-calls';
import { CALLS_ANNOTATION } from '../../src/core/vocabulary';

function withCalls(objects: any[]): any[] {
  findBooksObject(objects, 'Deployment', 'webapp').metadata.annotations = { [CALLS_ANNOTATION]: 'authors:7001 GET /authors.json,books:7002 POST /books' };
  findBooksObject(objects, 'Deployment', 'traffic').metadata.annotations = { [CALLS_ANNOTATION]: 'webapp:7000 GET /,authors:7001 GET /authors.json' };
  return objects;
}

/** Inputs where the rules have something to say: the four edits, declared calls, a Server nobody may call, a 404. */
const INPUTS: Record<string, () => any[]> = {
  'booksapp': () => booksappObjects(),
  ...Object.fromEntries(Object.entries(EDITS).map(([name, edit]) => [`booksapp ${name}`, () => {
    const o = booksappObjects();
    edit(o);
    return o;
  }])),
  'booksapp with declared calls, canary on its own ServiceAccount': () => {
    const o = withCalls(booksappObjects());
    EDITS.canaryOwnServiceAccount(o);
    findBooksObject(o, 'Deployment', 'books-canary').metadata.annotations = { [CALLS_ANNOTATION]: 'authors:7001 GET /authors.json' };
    return o;
  },
  'booksapp, webapp-server without authorizations': () => booksappObjects().filter((o) => o.metadata.name !== 'webapp-policy'),
  'booksapp, reads-only route on books': () => booksappObjects().filter((o) => o.metadata.name !== 'books-rest'),
  'mesh-lab with the negative experiment': () => meshLabObjects({ negative: true }),
};

function findingsOf(result: AnalysisResult, ruleId: string): Finding[] {
  return result.findings.filter((f) => f.ruleId === ruleId);
}

function portOf(model: MeshModel, target: string): PortPolicyView {
  const port = model.port(target);
  if (!port) throw new Error(`no port ${target}`);
  return port;
}

/** The non-probe request classes of a port decided for a caller (explain's table row, the probe columns aside). */
function nonProbeVerdicts(model: MeshModel, port: PortPolicyView, caller: string) {
  return model.decideClasses(port, model.caller(caller)).filter((v) => !v.request.startsWith('probe '));
}

describe.each(Object.entries(INPUTS))('explain agrees with the rules on %s', (_name, objects) => {
  const result = analyze(manifests(objects()));
  const model = buildMeshModel(result);

  // LKD-POL-013: a declared call is reported refused exactly when explain refuses that request on some endpoint.
  test('declared calls (LKD-POL-013)', () => {
    const refused = new Set(findingsOf(result, 'LKD-POL-013').filter((f) => /but the mesh would refuse it/.test(f.message))
      .map((f) => `${f.resource.name}|${/calls (\S+?)(?: \(|, but)/.exec(f.message)![1]}`));
    const explained = new Set<string>();
    for (const pod of result.index.podTemplates) {
      const value = pod.owner.object.metadata?.annotations?.[CALLS_ANNOTATION];
      if (typeof value !== 'string' || pod.owner.inventory) continue;
      for (const call of parseCalls(value, pod.namespace).calls) {
        const service = model.service(`${call.namespace}/${call.service}:${call.port}`);
        const caller = model.caller(model.workloadCallers.get(`${pod.owner.id.kind} ${pod.namespace}/${pod.owner.id.name}`)!);
        const method = call.request!.method!;
        const sample = { method, path: call.request!.path!, label: `${method} ${call.request!.path}` };
        const denied = (service?.endpoints ?? []).some((t) => !model.decideRequest(portOf(model, t), caller, sample).allowed);
        if (denied) explained.add(`${pod.owner.id.name}|${call.service}.${call.namespace}:${call.port}`);
      }
    }
    expect([...explained].sort()).toEqual([...refused].sort());
  });

  // LKD-POL-022: a probe path the application serves is open to unauthenticated callers only through the probe route.
  test('probe routes (LKD-POL-022)', () => {
    for (const f of findingsOf(result, 'LKD-POL-022')) {
      const [, path, port, workload] = /^GET (\S+) on port (\d+) of \S+ (\S+) /.exec(f.message)!;
      const view = portOf(model, `${workload}:${port}`);
      for (const caller of ['unauthenticated', 'external']) {
        const get = model.decideRequest(view, model.caller(caller), { method: 'GET', path, label: `GET ${path}` });
        expect([get.allowed, get.route]).toEqual([true, `probe GET ${path}`]);
        expect(model.decideRequest(view, model.caller(caller), { method: 'POST', path, label: `POST ${path}` }).allowed).toBe(false);
      }
    }
    // And the other way: wherever explain opens GET / only through the probe route, the rule says so.
    const reported = new Set(findingsOf(result, 'LKD-POL-022').map((f) => /^GET (\S+) on port (\d+) of \S+ (\S+) /.exec(f.message)!.slice(1).join('|')));
    for (const port of model.ports) {
      if (!port.generatedRoutes.some((r) => r.name === 'probe GET /')) continue;
      const outsider = model.caller('external');
      if (model.decide(port, outsider).some((v) => v.allowed)) continue;
      expect(reported).toContain(`/|${port.port}|${port.namespace}/${port.workload.name}`);
    }
  });

  // LKD-POL-009: a Server nobody is authorized on refuses every caller every request but the probe paths.
  test('Servers without authorizations (LKD-POL-009)', () => {
    const servers = new Set(findingsOf(result, 'LKD-POL-009').map((f) => `${f.resource.namespace}/${f.resource.name}`));
    for (const port of model.ports) {
      const server = port.server ? `${port.server.id.namespace}/${port.server.id.name}` : undefined;
      const noneAllowed = [...model.relevantCallers(port).map((c) => c.key), 'kubelet']
        .every((caller) => nonProbeVerdicts(model, port, caller).every((v) => !v.allowed));
      if (server && servers.has(server)) expect(noneAllowed).toBe(true);
      if (server && port.authorizations.length === 0 && port.server!.accessPolicy === 'deny' && !port.skipsProxy) expect(servers).toContain(server);
    }
  });

  // LKD-POL-011: a meshed port without a Server under all-unauthenticated admits unauthenticated callers.
  test('uncovered ports (LKD-POL-011)', () => {
    const workloads = new Set(findingsOf(result, 'LKD-POL-011').map((f) => `${f.resource.namespace}/${f.resource.name}`));
    for (const port of model.ports) {
      if (!port.meshed || port.server || port.skipsProxy || port.defaultPolicy !== 'all-unauthenticated') continue;
      expect(nonProbeVerdicts(model, port, 'unauthenticated').every((v) => v.allowed)).toBe(true);
      expect(workloads).toContain(`${port.namespace}/${port.workload.name}`);
    }
  });

  // LKD-ROUTE-025: a Service port whose served routes all have matches answers the rest with 404 / UNIMPLEMENTED.
  test('unmatched requests (LKD-ROUTE-025)', () => {
    const reported = new Set(findingsOf(result, 'LKD-ROUTE-025').map((f) => {
      const [, service, port] = /on Service (\S+) port (\d+) /.exec(f.message)!;
      return `${service}:${port}`;
    }));
    for (const service of model.services) {
      const requests = model.outboundRequests(service)!;
      const unmatched = requestSamples(requests.matches, requests.grpc).some((s) => requests.outcome(s).status !== undefined);
      expect([service.target, unmatched]).toEqual([service.target, reported.has(service.target)]);
    }
  });

  // LKD-RETRY-001: a route that retries and takes POST or PATCH; explain --to-service shows those requests retried.
  test('retried methods (LKD-RETRY-001)', () => {
    const routes = new Set(findingsOf(result, 'LKD-RETRY-001').map((f) => `${f.resource.kind} ${f.resource.name}`));
    const retried = new Set<string>();
    for (const service of model.services) {
      const requests = model.outboundRequests(service)!;
      for (const s of requestSamples(requests.matches, requests.grpc)) {
        const o = requests.outcome(s);
        if ((s.method === 'POST' || s.method === 'PATCH') && o.retry !== '') retried.add(o.route.replace(/ rule \d+$/, ''));
      }
    }
    expect([...retried].sort()).toEqual([...routes].sort());
  });
});

test('every rule above fires on some input, so no agreement holds only vacuously', () => {
  const fired = new Set(Object.values(INPUTS).flatMap((objects) => analyze(manifests(objects())).findings.map((f) => f.ruleId)));
  for (const id of ['LKD-POL-013', 'LKD-POL-022', 'LKD-POL-009', 'LKD-POL-011', 'LKD-ROUTE-025', 'LKD-RETRY-001']) expect([id, fired.has(id)]).toEqual([id, true]);
  // LKD-POL-013 both ways: webapp's calls allowed; the canary's and traffic's reads of authors refused.
  const declared = analyze(manifests(INPUTS['booksapp with declared calls, canary on its own ServiceAccount']()));
  expect(findingsOf(declared, 'LKD-POL-013').map((f) => f.resource.name).sort()).toEqual(['books-canary', 'traffic']);
});
