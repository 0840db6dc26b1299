/**
 * The ONE module of reachability/ that reads the policy evaluation (src/analysis/policy) and the mesh index. It turns
 * them into the plain views of views.ts; explain, diff, plan-deny and the picture read only those. Workload ports read
 * the inbound evaluation (adapter-inbound.ts: the same port evaluation, routes and probe routes the policy rules read),
 * Service ports the outbound model and its request-level evaluation (adapter-services.ts), so what explain and diff
 * say is what the rules judge.
 *
 * Linear in the objects: ports and Service ports are listed once; per port, only the callers its authorizations name
 * (plus the declared callers and a handful of caller classes) are decided, never every identity against every port.
 */
import { FindingEffect, Severity } from '../finding';
import { CLASS_CALLERS, KUBELET, KUBELET_CALLER, NOWHERE, VIZ_PROMETHEUS, callerKeyOf, identityCaller } from './adapter-callers';
import { PortEntry, decidePort, decideRequest, inboundMatches, portEntry, requestClassOf } from './adapter-inbound';
import { servicePorts } from './adapter-services';
import { CallVerdict, CallerView, DeclaredCallView, IgnoredView, MeshModel, PortPolicyView, ServicePortView } from './views';
import { CALLS_ANNOTATION } from '../../core/vocabulary';
import { compareStrings } from '../../util/compare';
import { idLabel } from '../../util/labels';
import { proxyAdminPort } from '../model/injector/proxy-ports';
import { annotationOf } from '../model/manifest';
import { Injection, MeshIndex, PodTemplate } from '../model/mesh-index';
import { absentService } from '../model/missing-references';
import { specOf } from '../model/objects';
import { refList } from '../model/refs';
import { declaredPorts, evaluateInboundPolicy } from '../policy';
import { AnalysisResult } from '../result';
import { parseCalls } from '../rules/policy/declared-calls';

export { OTHER_MESHED, UNAUTHENTICATED, EXTERNAL, KUBELET } from './adapter-callers';
export { NO_ROUTE, PROBE_PREFIX } from './adapter-inbound';

// ---------------------------------------------------------------------------------------------------------------
// Declared calls and ignored objects

type ServiceLookup = (target: string) => ServicePortView | undefined;

function declaredCalls(index: MeshIndex, callerOfPod: (pod: PodTemplate) => string, service: ServiceLookup): DeclaredCallView[] {
  const out: DeclaredCallView[] = [];
  for (const pod of index.podTemplates) {
    if (pod.owner.inventory) continue;
    const value = annotationOf(pod.owner.object, CALLS_ANNOTATION);
    if (typeof value !== 'string') continue;
    for (const call of parseCalls(value, pod.namespace).calls) {
      const svc = index.service(call.namespace, call.service);
      const number = typeof call.port === 'number' ? call.port
        : (refList(svc ? specOf(svc).ports : []) as any[]).find((p) => p.name === call.port)?.port;
      const text = `${call.namespace}/${call.service}:${call.port}`;
      const view = number === undefined ? undefined : service(`${call.namespace}/${call.service}:${number}`);
      out.push({
        source: callerOfPod(pod),
        workload: pod.owner.id,
        service: text,
        targets: view?.endpoints ?? [],
        problem: !svc ? absentService(index, call.namespace, call.service).reason : !view ? `Service ${call.namespace}/${call.service} has no port ${call.port}`
          : view.endpoints.length === 0 ? `Service ${call.namespace}/${call.service} selects no workload port` : undefined,
      });
    }
  }
  return out;
}

/**
 * Objects Linkerd rejects or drops: the error findings whose rule marks the whole object (Finding.effect). A warning
 * means the rule is not sure (e.g. the referenced object may exist outside the input), so it does not count.
 */
function ignoredObjects(result: AnalysisResult): IgnoredView[] {
  const byObject = new Map<string, IgnoredView>();
  for (const f of result.findings) {
    if (f.effect === undefined || f.severity !== Severity.ERROR) continue;
    const key = `${f.resource.apiVersion}|${idLabel(f.resource)}`;
    const known = byObject.get(key);
    const reason = `${f.ruleId}: ${f.message}`;
    byObject.set(key, known
      ? {
        ...known,
        reason: `${known.reason}; ${reason}`,
        ruleIds: known.ruleIds.includes(f.ruleId) ? known.ruleIds : [...known.ruleIds, f.ruleId],
        effect: known.effect === FindingEffect.REJECTED ? known.effect : f.effect,
      }
      : { object: f.resource, reason, ruleIds: [f.ruleId], effect: f.effect });
  }
  return [...byObject.values()];
}

// ---------------------------------------------------------------------------------------------------------------
// The model

/** Models already built: every reader of one analysis (explain, diff, plan-deny, the picture) shares one. */
const models = new WeakMap<AnalysisResult, MeshModel>();

/**
 * The model reachability reads, from one analysis (its index, context and findings): built once per analysis, on the
 * inbound evaluation memoized on its index (policy/evaluate.ts `evaluateInboundPolicy`, the one the policy rules read).
 */
export function buildMeshModel(result: AnalysisResult): MeshModel {
  let model = models.get(result);
  if (!model) models.set(result, model = build(result));
  return model;
}

function build(result: AnalysisResult): MeshModel {
  const index = result.index;
  const inbound = evaluateInboundPolicy(index, result.context);
  const byPod = new Map<PodTemplate, Map<number, PortEntry>>();
  const entries: PortEntry[] = [];
  const byTarget = new Map<string, PortEntry>();
  const entryOf = (pod: PodTemplate, port: number): PortEntry | undefined => {
    let ports = byPod.get(pod);
    if (!ports) byPod.set(pod, ports = new Map());
    let entry = ports.get(port);
    if (!entry) {
      entry = portEntry(index, inbound, pod, port);
      ports.set(port, entry);
      if (!byTarget.has(entry.view.target)) byTarget.set(entry.view.target, entry);
    }
    return entry;
  };
  for (const pod of index.podTemplates) {
    if (pod.owner.inventory) continue;
    for (const port of declaredPorts(pod)) entries.push(entryOf(pod, port)!);
  }
  const { views: services, requests: outbound, egress: egressPorts } = servicePorts(index, result.context, entryOf);
  const adminPorts = index.podTemplates
    .filter((pod) => !pod.owner.inventory && pod.injection === Injection.ENABLED)
    .map((pod) => {
      const entry = portEntry(index, inbound, pod, proxyAdminPort(pod), true);
      if (!byTarget.has(entry.view.target)) byTarget.set(entry.view.target, entry);
      return entry.view;
    });
  const serviceByTarget = new Map(services.map((s) => [s.target, s]));

  const callers = new Map<string, CallerView>();
  const workloadCallers = new Map<string, string>();
  for (const pod of index.podTemplates) {
    if (!pod.owner.inventory) workloadCallers.set(idLabel(pod.owner.id), callerKeyOf(pod));
    if (pod.injection !== Injection.ENABLED) continue;
    const key = callerKeyOf(pod);
    const known = callers.get(key);
    const workload = idLabel(pod.owner.id);
    if (known) known.workloads.push(workload);
    else callers.set(key, identityCaller(pod.namespace, pod.serviceAccountName, [workload]));
  }
  for (const c of CLASS_CALLERS) callers.set(c.key, c);
  callers.set(KUBELET, KUBELET_CALLER);
  const callerOf = (key: string): CallerView => {
    const known = callers.get(key);
    if (known) return known;
    const slash = key.indexOf('/');
    if (slash < 0) throw new Error(`unknown caller ${key}`);
    return identityCaller(key.slice(0, slash), key.slice(slash + 1) === '*' ? NOWHERE : key.slice(slash + 1));
  };

  const calls = declaredCalls(index, callerKeyOf, (t) => serviceByTarget.get(t));
  const declaredBy = new Map<string, Set<string>>();
  for (const call of calls) {
    for (const target of call.targets) {
      let set = declaredBy.get(target);
      if (!set) declaredBy.set(target, set = new Set());
      set.add(call.source);
    }
  }

  const byServer = new Map<string, CallVerdict[]>();
  const decided = (port: PortPolicyView, caller: CallerView, connections: boolean): CallVerdict[] => {
    const entry = byTarget.get(port.target);
    if (!entry) return [];
    // A Server decides alike for every pod it selects with the same probe paths (its reasons name the Server, not
    // the pod): decide once.
    const server = entry.policy && !entry.view.skipsProxy && entry.view.server ? idLabel(entry.view.server.id) : undefined;
    if (server === undefined) return decidePort(entry, caller, connections);
    const key = `${connections}\u0000${server}\u0000${entry.view.probes.join('\u0000')}\u0000${caller.key}`;
    let verdicts = byServer.get(key);
    if (!verdicts) byServer.set(key, verdicts = decidePort(entry, caller, connections));
    return verdicts.map((v) => ({ ...v, target: entry.view.target }));
  };
  return {
    ports: entries.map((e) => e.view),
    services,
    callers: [...callers.values()].sort((a, b) => compareStrings(a.key, b.key)),
    declaredCalls: calls,
    ignored: ignoredObjects(result),
    adminPorts,
    prometheus: result.context.prometheusServiceAccount
      ?? (index.serviceAccount(VIZ_PROMETHEUS[0], VIZ_PROMETHEUS[1]) ? VIZ_PROMETHEUS.join('/') : undefined),
    clusterNetworks: result.context.clusterNetworks,
    port: (target) => byTarget.get(target)?.view,
    service: (target) => serviceByTarget.get(target),
    caller: callerOf,
    relevantCallers(port) {
      const keys = new Set<string>([...port.namedCallers, ...(declaredBy.get(port.target) ?? [])]);
      for (const ns of port.namedNamespaces) keys.add(`${ns}/*`);
      const named = [...keys].sort(compareStrings).map(callerOf);
      return [...named, ...CLASS_CALLERS.filter((c) => !keys.has(c.key))];
    },
    workloadCallers,
    egressPorts,
    inboundRequests(port) {
      const entry = byTarget.get(port.target);
      return entry ? inboundMatches(entry) : { grpc: false, matches: [] };
    },
    decideRequest(port, caller, sample) {
      return decideRequest(byTarget.get(port.target)!, caller, sample);
    },
    outboundRequests: (service) => outbound.get(service.target),
    requestClass(port, method, path) {
      const entry = byTarget.get(port.target);
      return entry ? requestClassOf(entry, method, path) : '*';
    },
    decide: (port, caller) => decided(port, caller, true),
    decideClasses: (port, caller) => decided(port, caller, false),
  };
}
