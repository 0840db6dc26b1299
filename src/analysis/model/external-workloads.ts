/**
 * ExternalWorkloads, the Servers that claim their ports and the Service ports they serve: linkerd2
 * policy-controller/k8s/index/src/inbound/index.rs (`ExternalWorkload::reindex_servers`, `selects_port`),
 * inbound/workload.rs (`external_tcp_ports_by_name`) and
 * controller/api/destination/external-workload/endpoints_reconciler.go.
 */
import { claimOrder, serverPort } from './inbound/servers';
import { labelsOf } from './manifest';
import { perIndex } from './memo';
import { IndexedObject, MeshIndex } from './mesh-index';
import { namespaceOf, specOf } from './objects';
import { LabelSelector, selectorMatches } from './selectors';
import { POLICY_GROUP, WORKLOAD_GROUP } from '../../core/vocabulary';

/** `spec.externalWorkloadSelector` of a Server, when it is an object. */
export function serverExternalSelector(server: IndexedObject): LabelSelector | undefined {
  const selector = specOf(server).externalWorkloadSelector;
  return selector !== null && typeof selector === 'object' && !Array.isArray(selector) ? selector : undefined;
}

/** An ExternalWorkload's TCP ports by name (inbound/workload.rs external_tcp_ports_by_name: TCP or no protocol, named). */
export function externalPortNames(workload: IndexedObject): Map<string, number> {
  const names = new Map<string, number>();
  const ports = workload.object.spec?.ports;
  for (const p of Array.isArray(ports) ? ports : []) {
    if (!p || typeof p.name !== 'string' || !Number.isInteger(p.port)) continue;
    if (typeof p.protocol === 'string' && p.protocol.toUpperCase() !== 'TCP') continue;
    names.set(p.name, p.port);
  }
  return names;
}

/** The port of an ExternalWorkload a Server's port selects (inbound/index.rs ExternalWorkload::selects_port). */
export function externalServerPort(server: IndexedObject, workload: IndexedObject): number | undefined {
  const port = serverPort(server);
  if (typeof port === 'number') return port;
  return port === undefined ? undefined : externalPortNames(workload).get(port);
}

/** Which ExternalWorkloads each Server selects, and which Servers claim each of their ports, in claim order. */
export interface ExternalCoverage {
  workloadsOf(server: IndexedObject): readonly IndexedObject[];
  /** Port → the Servers that select it on this workload, the first being the one Linkerd applies. */
  claimedPorts(workload: IndexedObject): ReadonlyMap<number, readonly IndexedObject[]>;
}

/**
 * ExternalWorkload::reindex_servers: Servers in creation-then-name order; one whose externalWorkloadSelector matches the
 * workload's labels claims the port it selects there, unless an earlier Server has it ("Port already matched by another
 * server; skipping"), and a named port the workload lacks is skipped. Workloads of the inventory count (others' Servers
 * may select them); only the Server's own namespace is searched.
 */
export const externalWorkloadCoverage = perIndex((index: MeshIndex): ExternalCoverage => {
  const workloads = new Map<IndexedObject, IndexedObject[]>();
  const claims = new Map<IndexedObject, Map<number, IndexedObject[]>>();
  const byNamespace = new Map<string, IndexedObject[]>();
  for (const w of index.list(WORKLOAD_GROUP, 'ExternalWorkload')) {
    const list = byNamespace.get(w.id.namespace ?? '');
    if (list) list.push(w); else byNamespace.set(w.id.namespace ?? '', [w]);
  }
  for (const server of [...index.list(POLICY_GROUP, 'Server')].sort(claimOrder)) {
    const selector = serverExternalSelector(server);
    if (!selector) continue;
    const selected = (byNamespace.get(namespaceOf(server)) ?? []).filter((w) => selectorMatches(selector, labelsOf(w.object)));
    workloads.set(server, selected);
    for (const w of selected) {
      const port = externalServerPort(server, w);
      if (port === undefined) continue;
      let byPort = claims.get(w);
      if (!byPort) claims.set(w, byPort = new Map());
      const list = byPort.get(port);
      if (list) list.push(server); else byPort.set(port, [server]);
    }
  }
  return {
    workloadsOf: (server) => workloads.get(server) ?? [],
    claimedPorts: (workload) => claims.get(workload) ?? new Map(),
  };
});

/**
 * Whether an ExternalWorkload has an address: the external workload controller skips one without workloadIPs, so it is
 * no endpoint of any Service (controller/api/destination/external-workload/endpoints_reconciler.go reconcileByAddressType).
 */
export function externalWorkloadHasAddress(workload: IndexedObject): boolean {
  const ips = workload.object.spec?.workloadIPs;
  return Array.isArray(ips) && ips.length > 0;
}

/**
 * Whether an ExternalWorkload lists the target of a Service port: unlike a pod, it must, by targetPort name or number,
 * with the same protocol (case-sensitive) as the Service port (endpoints_reconciler.go findWorkloadPort).
 */
export function externalWorkloadListsPort(workload: IndexedObject, servicePort: Record<string, any>): boolean {
  const target = servicePort.targetPort ?? servicePort.port;
  const protocol = typeof servicePort.protocol === 'string' ? servicePort.protocol : 'TCP';
  const ports = workload.object.spec?.ports;
  return (Array.isArray(ports) ? ports : []).some((p) => p && (typeof p.protocol === 'string' ? p.protocol : 'TCP') === protocol
    && (typeof target === 'string' ? p.name === target : p.port === target));
}

/** Whether an ExternalWorkload is an endpoint of a Service port: it has an address and lists the port's target. */
export function externalWorkloadServes(workload: IndexedObject, servicePort: Record<string, any>): boolean {
  return externalWorkloadHasAddress(workload) && externalWorkloadListsPort(workload, servicePort);
}
