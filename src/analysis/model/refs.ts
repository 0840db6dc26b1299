/**
 * How Linkerd's policy controller reads a reference to another object: a parentRef, a targetRef, a backendRef or a
 * required authentication. One place, so that every rule and the resolved model agree on what a ref names.
 *
 * Mirrors linkerd2 `policy-controller/k8s/api/src/policy.rs` `targets_kind` at version-2.20: group and kind compare
 * ASCII-case-insensitively, and a missing or empty group means the core group. What the controller sees, though, is
 * the object after the API server applied the CRD defaults: an omitted parentRef `group` becomes
 * `gateway.networking.k8s.io` on Gateway API routes and `policy.linkerd.io` on Linkerd's own HTTPRoute, and an omitted
 * `kind` becomes `Gateway` on both (the CRDs in ../shared/reference say so).
 */
import { GATEWAY_GROUP, POLICY_GROUP } from '../../core/vocabulary';

/** A typed reference as Linkerd and Gateway API objects spell it. */
export interface ObjectRef {
  readonly group?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

function lowerAscii(value: string): string {
  // Kinds and groups are ASCII; toLowerCase on them never depends on the locale.
  return value.toLowerCase();
}

/** `targets_kind`: the ref names objects of `group`/`kind` ('' or 'core' for the core group). */
export function refTargets(group: unknown, kind: unknown, wantGroup: string, wantKind: string): boolean {
  if (typeof kind !== 'string' || kind.length !== wantKind.length) return false;
  // The kind as written (the usual case) needs no lower-case copies of both names; every ref of every route asks.
  if (kind !== wantKind && lowerAscii(kind) !== lowerAscii(wantKind)) return false;
  const actual = typeof group === 'string' && group !== '' ? lowerAscii(group) : 'core';
  return actual === (wantGroup === '' ? 'core' : wantGroup);
}

/** The group of a route's parentRef once the API server has defaulted it. */
export function defaultedParentGroup(routeGroup: string, ref: ObjectRef): string | undefined {
  if (typeof ref.group === 'string') return ref.group;
  if (routeGroup === POLICY_GROUP) return POLICY_GROUP;
  if (routeGroup === GATEWAY_GROUP) return GATEWAY_GROUP;
  return undefined;
}

/** The kind of a route's parentRef once the API server has defaulted it. */
export function defaultedParentKind(ref: ObjectRef): string {
  return typeof ref.kind === 'string' ? ref.kind : 'Gateway';
}

/** Whether a route's parentRef, as stored, names an object of `group`/`kind`. */
export function parentTargets(routeGroup: string, ref: ObjectRef, wantGroup: string, wantKind: string): boolean {
  return refTargets(defaultedParentGroup(routeGroup, ref), defaultedParentKind(ref), wantGroup, wantKind);
}

export function isServiceParentOf(routeGroup: string, ref: ObjectRef): boolean {
  return parentTargets(routeGroup, ref, '', 'Service');
}

export function isServerParentOf(routeGroup: string, ref: ObjectRef): boolean {
  return parentTargets(routeGroup, ref, POLICY_GROUP, 'Server');
}

export function isEgressNetworkParentOf(routeGroup: string, ref: ObjectRef): boolean {
  return parentTargets(routeGroup, ref, POLICY_GROUP, 'EgressNetwork');
}

/** A backendRef: kind defaults to Service (Gateway API's CRD default and Linkerd's `backend_ref_targets_kind`). */
export function backendTargets(ref: ObjectRef, wantGroup: string, wantKind: string): boolean {
  return refTargets(ref.group, typeof ref.kind === 'string' ? ref.kind : 'Service', wantGroup, wantKind);
}

/** The object-shaped entries of a list field; anything else (malformed input) is dropped. */
export function refList(value: unknown): ObjectRef[] {
  return Array.isArray(value) ? value.filter((r) => r !== null && typeof r === 'object' && !Array.isArray(r)) : [];
}

export function asRef(value: unknown): ObjectRef | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as ObjectRef : undefined;
}

/** Linkerd compares kinds ASCII-case-insensitively (`targets_kind`). `kind` is one of the kind names, e.g. 'Server'. */
export function kindIs(ref: ObjectRef | undefined, kind: string): boolean {
  const actual = ref?.kind;
  return typeof actual === 'string' && actual.length === kind.length && actual.toLowerCase() === kind.toLowerCase();
}

export function groupIs(ref: ObjectRef | undefined, group: string): boolean {
  return typeof ref?.group === 'string' && ref.group.toLowerCase() === group;
}

/** A reference to a Linkerd kind: the group must be spelled out, since a missing group means core. */
export function isPolicyRef(ref: ObjectRef | undefined, kind: string): boolean {
  return refTargets(ref?.group, ref?.kind, POLICY_GROUP, kind);
}

export function isCoreRef(ref: ObjectRef | undefined, kind: string): boolean {
  return refTargets(ref?.group, ref?.kind, '', kind);
}

export function refText(ref: ObjectRef | undefined): string {
  if (!ref) return '(missing)';
  const group = ref.group === undefined ? 'no group' : `group ${JSON.stringify(ref.group)}`;
  return `${String(ref.kind ?? '(no kind)')} "${String(ref.name ?? '')}" (${group})`;
}
