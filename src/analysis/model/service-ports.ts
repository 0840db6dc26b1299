/**
 * A Service's ports and which of them a parentRef attaches to (linkerd2 policy-controller/k8s/index/src/outbound/index.rs
 * reads a parentRef's `port`; status/src/service.rs valid_parent_service says which Services can be parents).
 */
import { IndexedObject } from './mesh-index';
import { ParentRef } from './routes/parents';
import { isRecord, listOf } from '../../util/json';

export interface ServicePortSpec {
  readonly name?: string;
  readonly port: number;
}

export function servicePorts(service: IndexedObject | undefined): ServicePortSpec[] {
  const ports: ServicePortSpec[] = [];
  for (const p of listOf(service?.object.spec?.ports)) {
    if (isRecord(p) && Number.isInteger(p.port)) ports.push({ name: typeof p.name === 'string' ? p.name : undefined, port: p.port });
  }
  return ports;
}

/** Whether `servicePorts(service)` has this port number; answered without building that list, which only messages need. */
export function hasServicePort(service: IndexedObject, port: number): boolean {
  for (const p of listOf(service.object.spec?.ports)) {
    if (isRecord(p) && Number.isInteger(p.port) && p.port === port) return true;
  }
  return false;
}

export function describePorts(ports: ServicePortSpec[]): string {
  if (ports.length === 0) return 'none';
  return ports.map((p) => (p.name ? `${p.port} (${p.name})` : String(p.port))).join(', ');
}

export function isValidPort(port: unknown): port is number {
  return Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535;
}

/**
 * The Service ports a parentRef attaches to, as Linkerd's outbound index reads it: a non-zero `port` selects that
 * port; otherwise (including `sectionName` only) the route applies to every port. `undefined` = every port of a
 * Service whose ports are unknown.
 */
export function attachedPorts(ref: ParentRef, service: IndexedObject | undefined): number[] | undefined {
  if (isValidPort(ref.port)) return [ref.port];
  const ports = servicePorts(service);
  return ports.length > 0 ? ports.map((p) => p.port) : undefined;
}

/**
 * Why a Service cannot be a mesh parent, or undefined when it can: the status controller accepts only a Service with a
 * cluster IP that is no ExternalName (status/src/service.rs valid_parent_service).
 */
export function noClusterIpReason(service: IndexedObject): string | undefined {
  const spec = service.object.spec;
  if (spec?.type === 'ExternalName') return 'is an ExternalName Service';
  if (isHeadless(service)) return 'is headless (clusterIP: None)';
  return undefined;
}

/** A headless Service (clusterIP None): clients resolve it to its pods' own IPs. */
export function isHeadless(service: IndexedObject): boolean {
  return service.object.spec?.clusterIP === 'None';
}
