/** Shared reading of HTTPRoute / GRPCRoute objects for the route and retry rules. */
import { isCoreGroup } from '../model/manifest';
import { GATEWAY_GROUP, IndexedObject, MeshIndex, POLICY_GROUP } from '../model/mesh-index';

export interface ParentRef {
  readonly group?: string;
  readonly kind?: string;
  readonly name: string;
  readonly namespace?: string;
  readonly port?: number;
  readonly sectionName?: string;
}

/** Every route kind the mesh reads from (both HTTPRoute groups and GRPCRoute). */
export function allRoutes(index: MeshIndex): IndexedObject[] {
  return [
    ...index.own(GATEWAY_GROUP, 'HTTPRoute'),
    ...index.own(GATEWAY_GROUP, 'GRPCRoute'),
    ...index.own(POLICY_GROUP, 'HTTPRoute'),
  ];
}

export function parentRefs(route: IndexedObject): ParentRef[] {
  const refs = route.object.spec?.parentRefs;
  return Array.isArray(refs) ? refs.filter((r) => r && typeof r === 'object') : [];
}

/** A parentRef Linkerd attaches to a Service: kind Service with an explicit core group ("" or "core"). */
export function isServiceParent(ref: ParentRef): boolean {
  return ref.kind === 'Service' && ref.group !== undefined && isCoreGroup(ref.group);
}

export function rules(route: IndexedObject): any[] {
  const r = route.object.spec?.rules;
  return Array.isArray(r) ? r : [];
}

export function backendRefs(rule: any): any[] {
  return Array.isArray(rule?.backendRefs) ? rule.backendRefs : [];
}

export function routeLabel(route: IndexedObject): string {
  return `${route.id.kind} ${route.id.namespace ?? ''}/${route.id.name}`;
}
